"""What the row MACs cost (docs/verify.md, "Who can forge what: row MACs"), in this thread's
CPU time (``time.thread_time``: another process's load does not count), the median of
``--repeat`` runs of ``--number`` calls:

- an append's two MACs: its event row's (every column) and its match row's count and head;
- checking one event row on a read from the database (a record not in the worker's memory:
  a match of 1,000 events checks 1,000);
- SHA-256 of 200 bytes, the chain's own unit of work, for scale.

    python bench/macs_bench.py [--number 20000] [--repeat 7]
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.core.macs import RowKey  # noqa: E402
from referee.store.macs import event_holds, event_mac, head_mac  # noqa: E402

DATA = '{"type":"play","seat":2,"tile":"6-4","end":"left","client_time":"2026-12-06T11:00:00Z"}'


def per_call_us(work: Callable[[], object], number: int, repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        start = time.thread_time()
        for _ in range(number):
            work()
        runs.append((time.thread_time() - start) / number * 1e6)
    return statistics.median(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    key = RowKey(bytes(range(32)))
    now = dt.datetime.now(dt.timezone.utc)
    fields = (12, 345, "play", DATA, "c-123", now, "Ana", 7, "ab" * 32)
    row = SimpleNamespace(match_id=12, seq=345, type="play", data=DATA, client_event_id="c-123",
                          recorded_at=now, recorded_by="Ana", token_id=7, digest="ab" * 32,
                          mac=event_mac(key, *fields))
    measure = {
        "event row's MAC": lambda: event_mac(key, *fields),
        "match row's count and head MAC": lambda: head_mac(key, 12, 345, "ab" * 32),
        "one event row checked": lambda: event_holds(key, row),
        "SHA-256 of 200 bytes": lambda: hashlib.sha256(DATA.encode() * 2).digest(),
    }
    found = {name: per_call_us(work, args.number, args.repeat) for name, work in measure.items()}
    for name, us in found.items():
        print(f"  {name:32} {us:6.2f} us")
    append = found["event row's MAC"] + found["match row's count and head MAC"]
    print(f"  an append's MACs {append:.2f} us; a read of 1,000 events from the database checks "
          f"them in {found['one event row checked'] * 1000 / 1000:.2f} ms")


if __name__ == "__main__":
    main()
