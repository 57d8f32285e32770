"""Cups kept by the service (``svc.leagues``), measured on a cup of 128 players, single and
double elimination, each tie one match (best of 1) won by a forfeit:

1. **the draw**: ``draw`` from a recorded seed, 8 seeded (the pot and seed written, the
   bracket's draw answered), the median of ``--reads`` draws made again before any tie is
   played (the same draw each time);
2. **a bracket read**: the whole cup read (``cup``: every tie of its bracket with its matches,
   the bracket worked out from the draw and the matches' results), once the cup is played to
   its champion (127 ties single, 254 or 255 double), the median of ``--reads`` reads;
3. **a ruling that turns an early tie**: the first tie's match ruled the other way (its forfeit
   voided, the other side's recorded: two appends), then the cup read: every later tie the
   first one's winner played is no longer between its entrants (its matches stale), so the
   bracket is resolved generation by generation; the appends' time, the first read's, and the
   median of ``--reads`` reads after it.

Each figure is wall time and the process's CPU time (``time.process_time``) of the bench's
own process: the service runs in it, so its CPU is the service's (PostgreSQL's own work is
outside it). The machine's load average is printed with the figures.

    python bench/cups_bench.py [--entrants 128] [--reads 9] [--pg URL] [--no-sqlite]

``--pg`` (default DOMINO_TEST_DATABASE_URL) runs the same on PostgreSQL in a scratch schema
dropped afterwards; SQLite runs in a temporary file unless ``--no-sqlite``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.service import Service  # noqa: E402
from referee.store import db  # noqa: E402

T = TypeVar("T")
CLUB = "cups"
FORMATS = ("single_elimination", "double_elimination")


def once(work: Callable[[], T]) -> tuple[float, float, T]:
    """Wall and CPU milliseconds of one run of ``work``, and its answer."""
    wall, cpu = time.perf_counter(), time.process_time()
    answer = work()
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000, answer


def median(work: Callable[[], Any], reads: int) -> tuple[float, float]:
    """The median wall and CPU milliseconds of ``reads`` runs of ``work``."""
    runs = [once(work)[:2] for _ in range(reads)]
    return (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs))


def forfeit(service: Service, match: int, side: int) -> None:
    """The match won by ``side``: the other side forfeits it (a referee's ruling)."""
    seq = service.reading.get_match(match)["last_seq"]
    service.recording.record_event(match, {"type": "forfeit", "side": 1 - side,
                                           "reason": "bench"}, expected_seq=seq)


def play_out(service: Service, cup: str) -> tuple[int, int]:
    """Every tie played, generation by generation (all ties ready after one read), each won
    by its home entrant; the ties played and the first tie's match."""
    first, played = 0, 0
    while True:
        whole = service.leagues.cup(CLUB, cup)
        ready = [t["id"] for t in whole["ties"] if t["status"] == "ready"]
        if not ready:
            assert whole["champion"] is not None, "stuck before the champion"
            return played, first
        for tie in ready:
            match = service.leagues.play_tie(CLUB, cup, tie)["match"]
            forfeit(service, match, 0)
            played += 1
            if tie == "W1-1":
                first = match


def line(label: str, figure: tuple[float, float]) -> None:
    print(f"   {label:<52} {figure[0]:>8.1f} ms wall {figure[1]:>8.1f} ms CPU")


def run(label: str, url: str, args: argparse.Namespace) -> None:
    from migrations.runner import upgrade

    engine = db.make_engine(url)
    upgrade(engine)
    service = Service(engine)
    try:
        service.clubs.create_club(CLUB, "Cups")
        names = [f"Player {n:03}" for n in range(1, args.entrants + 1)]
        for fmt in FORMATS:
            cup = fmt.split("_")[0]
            print(f"\n{label}, {fmt}, {args.entrants} players")
            service.leagues.create_cup(CLUB, cup, f"Cup {cup}", kind="players",
                                       entrants=names, format=fmt)
            drawn = once(lambda: service.leagues.draw(CLUB, cup, seed=2027, seeded=8))
            line("the draw, the first time", drawn[:2])
            line("the draw made again (median)",
                 median(lambda: service.leagues.draw(CLUB, cup, seed=2027, seeded=8),
                        args.reads))
            began = time.perf_counter()
            played, first = play_out(service, cup)
            print(f"   {played} ties played in {time.perf_counter() - began:.1f} s (setting up)")
            line("a bracket read, the cup played (median)",
                 median(lambda: service.leagues.cup(CLUB, cup), args.reads))
            ruling = once(lambda: (
                service.recording.record_event(first, {"type": "void", "target": 1,
                                                       "reason": "bench"}, expected_seq=1),
                forfeit(service, first, 1)))
            line("a ruling turning W1-1: its two appends", ruling[:2])
            after = once(lambda: service.leagues.cup(CLUB, cup))
            stale = sum(not m["counts"] for t in after[2]["ties"] for m in t["matches"])
            line("the first read after it", after[:2])
            line("a bracket read after it (median)",
                 median(lambda: service.leagues.cup(CLUB, cup), args.reads))
            print(f"   after the ruling: {stale} matches no longer count, champion "
                  f"{after[2]['champion']}")
    finally:
        service.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=128)
    parser.add_argument("--reads", type=int, default=9)
    parser.add_argument("--pg", default=os.environ.get("DOMINO_TEST_DATABASE_URL"),
                        help="a PostgreSQL URL (default DOMINO_TEST_DATABASE_URL)")
    parser.add_argument("--no-sqlite", action="store_true")
    args = parser.parse_args()
    print(f"load average at the start: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if not args.no_sqlite:
        with tempfile.TemporaryDirectory() as tmp:
            run("SQLite", f"sqlite:///{Path(tmp) / 'cups.db'}", args)
    if args.pg:
        with db.scratch_schema(args.pg, prefix="bench") as url:
            run("PostgreSQL", url, args)
    print(f"\nload average at the end: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
