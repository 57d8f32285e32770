"""Whether core/records.py (a hand-made copy of frozen dataclasses) still pays: the start-up of
a process that imports the rules core, against the same process importing dataclasses too and
making the core's record classes as dataclasses would (one frozen dataclass per record class).

    python bench/records_bench.py [--runs N]

Prints the median wall time of each (N runs, default 30) and the difference, which is what
every ``domino validate`` process would pay without the copy (tests/core/test_core_records.py
holds the copy to the library's behaviour).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORE = "import referee.core"
# The record classes of the core, made as frozen dataclasses with as many fields each.
AS_DATACLASSES = CORE + """
import dataclasses, referee.core.records as r
for cls in [c for c in r.Record.__subclasses__()] * 1:
    dataclasses.make_dataclass(cls.__name__, [(f, object) for f in cls._fields] or [('x', object)], frozen=True)
"""


def timed(code: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=30)
    runs = parser.parse_args().runs
    rows = {"import referee.core": [], "... and the same records as dataclasses": []}
    for _ in range(runs):  # interleaved, so that the machine's drift falls on both
        rows["import referee.core"].append(timed(CORE))
        rows["... and the same records as dataclasses"].append(timed(AS_DATACLASSES))
    medians = {name: statistics.median(times) * 1000 for name, times in rows.items()}
    for name, ms in medians.items():
        print(f"{name:45} {ms:7.1f} ms")
    a, b = medians.values()
    print(f"{'what the hand-made records save a process':45} {b - a:7.1f} ms ({b / a:.2f}x)")


if __name__ == "__main__":
    main()
