"""The league engine (``referee.service.leagues``), measured: pure computation, no database.

1. **fixtures**: a national league's season generated, ``--divisions`` divisions of
   ``--teams`` teams on one calendar (the goal: the whole season within 5 s);
2. **results, tables, averages**: every fixture of that season played (``--singles`` singles
   and ``--pairs`` pairs legs each, random winners, one leg in fifty conceded, one fixture in a
   hundred a walkover): the time to derive every fixture's outcome from its legs, one
   division's table and averages, and the whole league's (every division's table, the
   season's averages over every leg).

The defaults make 40 x 132 fixtures x 18 legs = 95,040 legs. Each figure is the median of
``--repeat`` runs.

    python bench/league_bench.py [--divisions 40] [--teams 12] [--singles 12] [--pairs 6]
                                 [--repeat 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from datetime import date
from pathlib import Path
from typing import Callable, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.service.leagues import (  # noqa: E402
    Calendar,
    FixtureFormat,
    FixtureResult,
    LegResult,
    Outcome,
    PointsRule,
    Schedule,
    TableRules,
    averages,
    division_table,
    outcome,
    season,
)

T = TypeVar("T")
CALENDAR = Calendar(date(2025, 9, 4), weeks_off=(date(2025, 12, 25), date(2026, 1, 1)))


def timed(work: Callable[[], T], repeat: int) -> tuple[float, T]:
    """The median seconds of ``repeat`` runs of ``work``, and its last answer."""
    spent = []
    for _ in range(repeat):
        start = time.perf_counter()
        answer = work()
        spent.append(time.perf_counter() - start)
    return statistics.median(spent), answer


def played(schedule: Schedule, fmt: FixtureFormat, rng: random.Random) -> list[FixtureResult]:
    """Every fixture of the division played: each team's squad plays one singles leg each and
    one pairs leg each (singles legs first), winners at random."""
    results = []
    for fixture in schedule.fixtures:
        if rng.random() < 0.01:
            results.append(FixtureResult(fixture.home, fixture.away,
                                         walkover_by=rng.choice(["home", "away"])))
            continue
        squads = {side: [f"{team}-p{k}" for k in range(12)]
                  for side, team in (("home", fixture.home), ("away", fixture.away))}
        for squad in squads.values():
            rng.shuffle(squad)
        legs, singles, pairs = [], 0, 0
        for leg in fmt.legs:
            if leg.kind == "singles":
                home, away = (squads["home"][singles],), (squads["away"][singles],)
                singles += 1
            else:
                home = tuple(squads["home"][2 * pairs:2 * pairs + 2])
                away = tuple(squads["away"][2 * pairs:2 * pairs + 2])
                pairs += 1
            if rng.random() < 0.02:
                legs.append(LegResult((), home, away, (rng.choice(["home", "away"]),)))
            else:
                legs.append(LegResult((rng.choice(["home", "away"]),), home, away))
        results.append(FixtureResult(fixture.home, fixture.away, tuple(legs)))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--divisions", type=int, default=40)
    parser.add_argument("--teams", type=int, default=12)
    parser.add_argument("--singles", type=int, default=12)
    parser.add_argument("--pairs", type=int, default=6)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    divisions = {f"Division {d}": [f"d{d}t{t}" for t in range(args.teams)]
                 for d in range(1, args.divisions + 1)}
    fmt = FixtureFormat.of(args.singles, args.pairs)
    rules = TableRules(PointsRule(win=3, draw=1, bonus=1, bonus_margin=1), promotion=2,
                       relegation=2)

    print(f"1. fixtures: {args.divisions} divisions x {args.teams} teams")
    spent, schedules = timed(lambda: season(divisions, CALENDAR), args.repeat)
    fixtures = sum(len(s.fixtures) for s in schedules.values())
    print(f"   {fixtures:,} fixtures in {len(next(iter(schedules.values())).days)} rounds: "
          f"{spent * 1000:.1f} ms for the whole season (goal: 5,000 ms)")

    rng = random.Random(2025)
    results = {name: played(s, fmt, rng) for name, s in schedules.items()}
    legs = sum(len(r.legs) for rs in results.values() for r in rs)
    print(f"\n2. results: {fixtures:,} fixtures of {len(fmt.legs)} legs, {legs:,} legs played")
    spent, outcomes = timed(lambda: {name: [outcome(r, fmt) for r in rs]
                                     for name, rs in results.items()}, args.repeat)
    print(f"   {'every outcome from its legs':<40} {spent * 1000:>9.1f} ms")
    name = next(iter(schedules))
    one: list[Outcome] = outcomes[name]
    every = [o for os in outcomes.values() for o in os]
    figures = [
        ("one division's outcomes from its legs", lambda: [outcome(r, fmt) for r in results[name]]),
        ("one division's table", lambda: division_table(schedules[name], one, rules)),
        ("one division's averages", lambda: averages(one, minimum=5)),
        ("every division's table", lambda: [division_table(schedules[n], outcomes[n], rules)
                                            for n in schedules]),
        ("the season's averages (every leg)", lambda: averages(every, minimum=5)),
    ]
    for label, work in figures:
        spent, _ = timed(work, args.repeat)
        print(f"   {label:<40} {spent * 1000:>9.1f} ms")
    players = len(averages(every))
    print(f"   ({players:,} players in the season's averages)")


if __name__ == "__main__":
    main()
