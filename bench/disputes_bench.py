"""How fast the referee's disputes desk opens in a club with many open disputes.

For each database (a fresh SQLite file always; PostgreSQL too with --pg URL, or when
DOMINO_BENCH_DATABASE_URL or DOMINO_TEST_DATABASE_URL is set, in a scratch schema dropped
afterwards):

- a club with --disputes (1,000) open disputes, --per-match (4) in each of its matches: random
  legal parejas matches (``referee.core.simulate``, whole matches to 100 points) in which a
  table's phone recorded a refused tap as disputed (a tile no set has, ``unknown_tile``) that
  many times, imported as a referee would import their logs (``svc.recording.import_log``);
  plus --ruled (10) more such matches whose disputes a referee ruled (``stands``);
- ``GET /clubs/{club}/desk/disputes`` with a referee's token, rendered by the real app
  (flask's test client, no network): its first page, and its last page; the medians of
  --reads (5) after one read to warm the caches. Goal: under 1 s each.

    python bench/disputes_bench.py [--disputes 1000] [--per-match 4] [--ruled 10] [--reads 5]
                                   [--pg URL]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from api import create_app  # noqa: E402
from api.context import EXTENSION  # noqa: E402
from migrations.runner import upgrade  # noqa: E402
from referee.core.simulate import random_match  # noqa: E402
from referee.service import open_service  # noqa: E402
from referee.store.db import scratch_schema  # noqa: E402

CLUB = "night"
GOAL = 1.0  # seconds
PLAYERS = ["Ana", "Beto", "Carla", "Dani"]
# A tile no double-six set has, played as a table's phone would record a refused tap: kept,
# disputed (unknown_tile), open until a referee rules on it; the match plays on around it.
BAD_TAP = {"type": "play", "seat": 0, "tile": "9-9", "disputed": True}


def disputed_log(seed: int, per_match: int) -> tuple[str, list[int]]:
    """A random legal parejas match (referee.core.simulate) with ``per_match`` refused taps
    spread through it, as a domino-log/1; and the seqs of the taps."""
    _, events = random_match("parejas", PLAYERS, random.Random(seed))
    spots = {len(events) * k // (per_match + 1) for k in range(1, per_match + 1)}
    lines: list[dict[str, Any]] = [{"format": "domino-log/1", "rules": "parejas",
                                    "players": PLAYERS, "date": "2026-11-27",
                                    "table": str(seed)}]
    taps = []
    for n, event in enumerate(events):
        lines.append(event)
        if n in spots:
            lines.append(BAD_TAP)
            taps.append(len(lines) - 1)
    return "".join(json.dumps(line) + "\n" for line in lines), taps


def build(url: str, args: argparse.Namespace) -> tuple[str, int]:
    """The club, its disputed matches and a referee's token; the open disputes made."""
    started = time.perf_counter()
    matches = -(-args.disputes // args.per_match)
    events = made = 0
    with open_service(url) as svc:
        upgrade(svc.engine)
        svc.clubs.create_club(CLUB, "Night")
        token = svc.tokens.create_token(CLUB, "referee", label="head referee")
        for n in range(matches + args.ruled):
            text, taps = disputed_log(n, args.per_match)
            match = svc.recording.import_log(CLUB, text)["id"]
            events += text.count("\n") - 1
            if n < matches:
                made += len(taps)
                continue
            for seq in taps:  # ruled: each refused tap stands as recorded, a referee said
                svc.recording.record_event(match, {"type": "stands", "target": seq,
                                                   "reason": "the tap was a slip"},
                                           expected_seq=None)
    print(f"  built {made} open disputes in {matches} matches and {args.ruled} matches ruled "
          f"({events} events) in {time.perf_counter() - started:.1f} s")
    return token, made


def timed(client: Any, path: str, token: str, reads: int) -> tuple[float, str]:
    headers = {"Authorization": f"Bearer {token}", "Accept": "text/html"}
    answer = client.get(path, headers=headers)  # warm: templates, catalogs, caches
    assert answer.status_code == 200, answer.status_code
    times = []
    for _ in range(reads):
        started = time.perf_counter()
        answer = client.get(path, headers=headers)
        times.append(time.perf_counter() - started)
        assert answer.status_code == 200, answer.status_code
    return statistics.median(times), answer.get_data(as_text=True)


def run(name: str, url: str, args: argparse.Namespace) -> None:
    print(f"{name}:")
    token, made = build(url, args)
    app = create_app({"DATABASE_URL": url, "ACCESS_LOG": "0"})
    try:
        client = app.test_client()
        first, html = timed(client, f"/clubs/{CLUB}/desk/disputes", token, args.reads)
        shown = html.count("data-dispute=")
        print(f"  the desk's first page ({shown} of {made} open disputes shown): "
              f"{first * 1000:.0f} ms (goal < {GOAL * 1000:.0f} ms: "
              f"{'met' if first < GOAL else 'NOT met'})")
        pages = -(-made // max(shown, 1))
        last, html = timed(client, f"/clubs/{CLUB}/desk/disputes?page={pages}", token,
                           args.reads)
        print(f"  its last page (page {pages}, {html.count('data-dispute=')} shown): "
              f"{last * 1000:.0f} ms (goal < {GOAL * 1000:.0f} ms: "
              f"{'met' if last < GOAL else 'NOT met'})")
    finally:
        app.extensions[EXTENSION].close()


@contextmanager
def sqlite() -> Iterator[str]:
    with tempfile.TemporaryDirectory() as folder:
        yield f"sqlite:///{Path(folder) / 'domino.db'}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--disputes", type=int, default=1000)
    parser.add_argument("--per-match", type=int, default=4)
    parser.add_argument("--ruled", type=int, default=10)
    parser.add_argument("--reads", type=int, default=5)
    parser.add_argument("--pg", default=os.environ.get("DOMINO_BENCH_DATABASE_URL")
                        or os.environ.get("DOMINO_TEST_DATABASE_URL"))
    args = parser.parse_args()
    with sqlite() as url:
        run("SQLite", url, args)
    if args.pg:
        with scratch_schema(args.pg, prefix="bench") as url:
            run("PostgreSQL", url, args)


if __name__ == "__main__":
    main()
