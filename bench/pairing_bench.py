"""Times the tournament pairing engine (``referee.service.pairing``): for each format and field
size, an event of ``--rounds`` rounds in a row, a random standing before each, and prints the
median and the slowest time to pair one round. Pure computation, no database.

    python bench/pairing_bench.py [--sizes 16,32,64,128] [--rounds 8] [--events 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.service.pairing import FORMATS, Entrant, History, Standing, pair_round  # noqa: E402


def round_times(fmt: str, size: int, rounds: int, seed: int) -> list[float]:
    rng = random.Random(seed)
    entrants = [Entrant(f"e{n:03d}", f"Entrant {n}") for n in range(size)]
    history = History()
    times = []
    for _ in range(rounds):
        ids = [e.id for e in entrants]
        rng.shuffle(ids)
        start = time.perf_counter()
        pairing = pair_round(fmt, entrants, Standing.ordered(ids), history)
        times.append(time.perf_counter() - start)
        history = history.after(pairing)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="16,32,64,128")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--events", type=int, default=3)
    args = parser.parse_args()
    print(f"{'format':<12} {'entrants':>8} {'median':>10} {'slowest':>10}   ({args.events} events of "
          f"{args.rounds} rounds)")
    for fmt in FORMATS:
        for size in (int(s) for s in args.sizes.split(",")):
            times = [t for seed in range(args.events) for t in round_times(fmt, size, args.rounds, seed)]
            print(f"{fmt:<12} {size:>8} {statistics.median(times) * 1000:>8.1f} ms "
                  f"{max(times) * 1000:>7.1f} ms")


if __name__ == "__main__":
    main()
