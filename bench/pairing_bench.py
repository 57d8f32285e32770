"""The tournament pairing engine (``referee.service.pairing``), measured: pure computation, no
database. Five parts, each printed as a table:

1. **time**: for each format and field size, events of ``--rounds`` rounds in a row (each
   table won by a side at random, a standing by match points before each round), the median
   and slowest time to pair one round;
2. **Swiss score groups**: in small fields (8 to 12 partnerships, so that every pairing can be
   enumerated) the cross-group tables and the floats twice running the engine makes, against
   the fewest any pairing with as few rematches (then as few cross-group tables) makes;
3. **rotating opponents**: repeated opponent meetings over a whole event of 8, 12 and 16
   players in 3 to 5 rounds: the engine (a planned event), the engine pairing round by round
   (the event's length unknown), the least any schedule can have (a lower bound), and the
   fewest found by either: when that is the least, it is the best schedule there is;
4. **whist**: the time to build the whist schedule of a whole event, and its check;
5. **seats**: over a whole event, how many times each entrant held side 0 (seats 0 and 2):
   the range across entrants, and the largest difference between an entrant's side 0 and
   side 1 tables.

    python bench/pairing_bench.py [--sizes 32,128,512] [--rounds 6] [--events 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from itertools import combinations
from pathlib import Path
from typing import Iterator

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.service.pairing import (  # noqa: E402
    FORMATS,
    Entrant,
    History,
    Pairing,
    PairingRules,
    Standing,
    pair_round,
)
from referee.service.pairing.plans import least_repeats  # noqa: E402
from referee.service.pairing.whist import whist, whole_event  # noqa: E402


def event(fmt: str, size: int, rounds: int, seed: int, planned: int | None = None
          ) -> Iterator[tuple[Standing, History, Pairing, float]]:
    """Each round of an event: the standing and history it was paired from, the pairing and
    the time it took."""
    rng = random.Random(seed)
    entrants = [Entrant(f"e{n:03d}", f"Entrant {n}") for n in range(size)]
    history, points = History(), Counter[str]()
    for _ in range(rounds):
        ids = [e.id for e in entrants]
        rng.shuffle(ids)
        ids.sort(key=lambda e: -points[e])
        standing = Standing.ordered(ids, {e: points[e] for e in ids})
        start = time.perf_counter()
        pairing = pair_round(PairingRules(fmt, rounds=planned), entrants, standing, history)
        spent = time.perf_counter() - start
        yield standing, history, pairing, spent
        for table in pairing.tables:
            points.update(table.sides[rng.randrange(2)])
        points.update(b.entrant for b in pairing.byes)
        history = history.after(pairing)


def times(sizes: list[int], rounds: int, events: int) -> None:
    print(f"1. time to pair a round ({events} events of {rounds} rounds each)")
    print(f"{'format':<12} {'entrants':>8} {'median':>10} {'slowest':>10}")
    for fmt in FORMATS:
        for size in sizes:
            spent = [s for seed in range(events) for *_, s in event(fmt, size, rounds, seed)]
            print(f"{fmt:<12} {size:>8} {statistics.median(spent) * 1000:>8.1f} ms "
                  f"{max(spent) * 1000:>7.1f} ms")


def matchings(nodes: list[str]) -> Iterator[list[tuple[str, str]]]:
    if not nodes:
        yield []
        return
    for i in range(1, len(nodes)):
        for rest in matchings(nodes[1:i] + nodes[i + 1:]):
            yield [(nodes[0], nodes[i]), *rest]


def swiss_groups(events: int) -> None:
    print("\n2. Swiss: cross-group tables and floats twice running, against the fewest possible "
          "(every pairing enumerated)")
    print(f"{'partnerships':>12} {'rounds':>7} {'cross-group':>12} {'fewest':>7} "
          f"{'floats again':>13} {'fewest':>7} {'rounds worse':>13}")
    for size in (8, 10, 12):
        totals = Counter[str]()
        for seed in range(events):
            for standing, history, pairing, _ in event("pairs", size, 5, seed):
                points = dict(standing.points)
                seated = [e for e, _ in standing.ranks if e in set(pairing.seated())]
                last = {e for e in points if pairing.round - 1 in history.floated(e)}

                def score(pairs: list[tuple[str, str]]) -> tuple[int, int, int]:
                    cross = [(a, b) for a, b in pairs if points[a] != points[b]]
                    return (sum(len(history.met(a, b)) for a, b in pairs), len(cross),
                            sum(e in last for pair in cross for e in pair))
                got = score([(t.sides[0][0], t.sides[1][0]) for t in pairing.tables])
                best = min(score(m) for m in matchings(seated))
                totals.update(rounds=1, cross=got[1], fewest_cross=best[1], floats=got[2],
                              fewest_floats=best[2], worse=int(got > best))
        print(f"{size:>12} {totals['rounds']:>7} {totals['cross']:>12} {totals['fewest_cross']:>7} "
              f"{totals['floats']:>13} {totals['fewest_floats']:>7} {totals['worse']:>13}")


def repeats(history: History) -> int:
    met = Counter(frozenset((a, b)) for r in history.rounds for one, other in r.tables
                  for a in one for b in other)
    return sum(count - 1 for count in met.values())


def rotating_opponents(events: int) -> None:
    print("\n3. rotating: repeated opponent meetings over a whole event")
    print(f"{'players':>7} {'rounds':>7} {'planned':>8} {'round by round (median, worst)':>31} "
          f"{'least possible':>15} {'best found':>11}")
    for size in (8, 12, 16):
        for rounds in (3, 4, 5):
            final = [list(event("rotating", size, rounds, seed, planned=rounds))[-1]
                     for seed in range(events)]
            planned = max(repeats(history.after(pairing)) for _, history, pairing, _ in final)
            unplanned = [repeats(history.after(pairing)) for _, history, pairing, _ in
                         (list(event("rotating", size, rounds, seed))[-1] for seed in range(events))]
            least = least_repeats(size, rounds)
            best = min(planned, *unplanned)
            print(f"{size:>7} {rounds:>7} {planned:>8} "
                  f"{statistics.median(unplanned):>22} {max(unplanned):>8} "
                  f"{least:>15} {best:>5}{' (the best)' if best == least else ''}")


def whist_schedules() -> None:
    print("\n4. whist schedules of whole events")
    print(f"{'players':>7} {'rounds':>7} {'build':>10}   partners once, opponents twice")
    for size in (8, 12, 13, 16, 17, 20):
        whist.cache_clear()
        start = time.perf_counter()
        found = whist(size)
        spent = time.perf_counter() - start
        partners = Counter(frozenset(s) for r in found for t in r for s in t)
        opponents = Counter(frozenset((a, b)) for r in found for x, y in r for a in x for b in y)
        pairs = {frozenset(p) for p in combinations(range(size), 2)}
        ok = (set(partners) == set(opponents) == pairs and set(partners.values()) == {1}
              and set(opponents.values()) == {2})
        print(f"{size:>7} {whole_event(size):>7} {spent * 1000:>7.1f} ms   {'yes' if ok else 'NO'}")


def seats() -> None:
    print("\n5. seats over a whole event: side 0 held per entrant")
    print(f"{'format':<12} {'entrants':>8} {'rounds':>7} {'side 0, fewest-most':>20} "
          f"{'largest |side 0 - side 1|':>26}")
    for fmt, size, rounds in (("round_robin", 32, 31), ("pairs", 32, 8), ("rotating", 16, 15),
                              ("rotating", 32, 10)):
        *_, (_, history, pairing, _) = event(fmt, size, rounds, 1, planned=rounds)
        history = history.after(pairing)
        held = Counter(e for r in history.rounds for t in r.tables for e in t[0])
        other = Counter(e for r in history.rounds for t in r.tables for e in t[1])
        everyone = set(held) | set(other)
        spread = max(abs(held[e] - other[e]) for e in everyone)
        print(f"{fmt:<12} {size:>8} {rounds:>7} "
              f"{min(held[e] for e in everyone):>11}-{max(held[e] for e in everyone):<8} "
              f"{spread:>26}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="32,128,512")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--events", type=int, default=3)
    args = parser.parse_args()
    times([int(s) for s in args.sizes.split(",")], args.rounds, args.events)
    swiss_groups(args.events)
    rotating_opponents(args.events)
    whist_schedules()
    seats()


if __name__ == "__main__":
    main()
