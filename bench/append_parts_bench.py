"""Where the server's CPU for one append goes, step by step, with no server around it.

Appends legal events through the API in one thread (flask's test client: no sockets, no
server threads), on PostgreSQL (``--database-url`` or ``DOMINO_TEST_DATABASE_URL``) or else a
fresh SQLite file, and prints the CPU (``time.thread_time``, user and system, this thread only)
an append spends in all and inside each step named below. The steps nest: the append's own
work (``record_event``) holds its statement and its screen; the driver's rows and psycopg's
execute count the token lookup's statement too. Timing wraps each function for the run only;
nothing here is product code.

    python bench/append_parts_bench.py [--appends 2000] [--database-url URL]
"""

from __future__ import annotations

import argparse
import collections
import importlib
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Iterator

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from api_bench import PLAYERS, PRESETS, setup  # noqa: E402 - the same club, token and matches

# (label, module, attribute path): the steps, outermost first
STEPS = [
    ("the app (Flask.wsgi_app)", "flask.app", "Flask.wsgi_app"),
    ("record_event (the append)", "referee.service.recording", "Recording.record_event"),
    ("  its compare-and-set (put)", "referee.service.repository", "MatchRepository.put"),
    ("  its screen", "referee.service.view", "MatchView.screen"),
    ("token lookup (authenticate)", "referee.service.tokens", "Tokens.authenticate"),
    ("the append's reading (plain)", "api.events", "_plain_arguments"),
    ("webargs: query, headers, body", "webargs.core", "Parser.parse"),
    ("the answer's JSON", "flask.json.provider", "DefaultJSONProvider.response"),
    ("statements on the driver", "referee.store.driver", "DriverStatement.rows"),
    ("psycopg Cursor.execute", "psycopg.cursor", "Cursor.execute"),
]
spent: collections.Counter[str] = collections.Counter()
calls: collections.Counter[str] = collections.Counter()


def timed(label: str, function: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.thread_time()
        try:
            return function(*args, **kwargs)
        finally:
            spent[label] += time.thread_time() - start
            calls[label] += 1
    return wrapper


def instrument() -> None:
    for label, module, path in STEPS:
        try:
            owner: Any = importlib.import_module(module)
        except ImportError:  # psycopg on SQLite-only installs
            continue
        *outer, name = path.split(".")
        for part in outer:
            owner = getattr(owner, part)
        setattr(owner, name, timed(label, getattr(owner, name)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", default=os.environ.get("DOMINO_TEST_DATABASE_URL"))
    parser.add_argument("--appends", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    instrument()  # before the app is built, so that its decorators wrap the timed functions
    from referee.store.db import scratch_schema

    if args.database_url:
        with scratch_schema(args.database_url, prefix="bench") as url:
            run(url, args)
    else:
        with tempfile.TemporaryDirectory() as folder:
            run(f"sqlite:///{Path(folder) / 'domino.db'}", args)


def run(url: str, args: argparse.Namespace) -> None:
    from api import create_app
    from api.context import EXTENSION
    from referee.core.simulate import random_match

    [token] = setup(url, 1)
    app = create_app({"DATABASE_URL": url, "ACCESS_LOG": "0"})
    client = app.test_client()
    headers = {"Authorization": f"Bearer {token}"}
    rng = random.Random(args.seed)

    def appends() -> Iterator[tuple[int, int, str]]:
        while True:
            preset = rng.choice(PRESETS)
            _, events = random_match(preset, PLAYERS, rng)
            match_id = client.post("/api/v1/clubs/bench/matches", headers=headers,
                                   json={"rules": preset, "players": PLAYERS}).get_json()["id"]
            for seq, event in enumerate(events):
                yield match_id, seq, json.dumps(event)

    source = appends()

    def append() -> None:
        match_id, seq, body = next(source)
        answer = client.post(f"/api/v1/matches/{match_id}/events", data=body,
                             content_type="application/json",
                             headers={**headers, "If-Match": f'"{seq}"'})
        if answer.status_code != 201:
            raise SystemExit(f"append refused: {answer.status_code} {answer.get_data()[:300]!r}")

    try:
        for _ in range(300):  # warm: imports, prepared statements, the match cache
            append()
        spent.clear()
        calls.clear()
        start = time.thread_time()
        for _ in range(args.appends):
            append()
        total = time.thread_time() - start
    finally:
        app.extensions[EXTENSION].close()
    n = args.appends
    print(f"{n} appends through the app on {url.split(':')[0]}, one thread: "
          f"{1000 * total / n:.3f} ms of CPU an append in all (flask's test client included)")
    for label, _module, _path in STEPS:
        if calls[label]:
            print(f"  {label:<32} {1000 * spent[label] / n:7.3f} ms  ({calls[label] / n:.2f} calls)")


if __name__ == "__main__":
    main()
