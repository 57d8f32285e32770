"""Where the server's CPU for one append goes, step by step, with no server around it.

Appends legal events through the API in one thread (flask's test client: no sockets, no
server threads), on PostgreSQL (``--database-url`` or ``DOMINO_TEST_DATABASE_URL``) or else a
fresh SQLite file, and prints the CPU (``time.thread_time``, user and system, this thread only)
an append spends in all and inside each step named below. The steps nest: the append's own
work (``record_event``) holds its statement and its screen; the driver's rows and psycopg's
execute count the token lookup's statement too. Timing wraps each function for the run only;
nothing here is product code.

With ``--service``, no app: ``Service.record_event`` onto one long match (at seq 200 on), the
operator recording, and the parts timed are the service's own, none inside another (so a
part's timing does not stretch the one around it): the screen, the store's append, the pool's
checkout and checkin, the commit, the core's judgement, the event's JSON text.

    python bench/append_parts_bench.py [--appends 2000] [--database-url URL] [--service]
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
# --service: the service's parts, none inside another but the driver's statements
SERVICE_STEPS = [
    ("the screen (MatchView.screen)", "referee.service.view", "MatchView.screen"),
    ("the store's append (row, MACs, statement)", "referee.store", "append"),
    ("  of it, psycopg's statement", "referee.store.driver", "driver_rows"),
    ("  of it, sqlite3's statements", "referee.store.driver", "driver_count"),
    ("the pool's checkout (Engine.connect)", "sqlalchemy.engine.base", "Engine.connect"),
    ("the pool's checkin (Connection.close)", "sqlalchemy.engine.base", "Connection.close"),
    ("the commit (the dialect's do_commit)", "sqlalchemy.engine.default",
     "DefaultDialect.do_commit"),
    ("the core's judgement (MatchRecord.push)", "referee.service.record", "MatchRecord.push"),
    ("the event's JSON text (new_event)", "referee.service.recording", "new_event"),
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


def instrument(steps: list[tuple[str, str, str]]) -> None:
    for label, module, path in steps:
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
    parser.add_argument("--service", action="store_true",
                        help="the service's parts, record_event called directly")
    args = parser.parse_args()
    # before the app is built, so that its decorators wrap the timed functions
    instrument(SERVICE_STEPS if args.service else STEPS)
    from referee.store.db import scratch_schema

    go = run_service if args.service else run
    if args.database_url:
        with scratch_schema(args.database_url, prefix="bench") as url:
            go(url, args)
    else:
        with tempfile.TemporaryDirectory() as folder:
            go(f"sqlite:///{Path(folder) / 'domino.db'}", args)


def run_service(url: str, args: argparse.Namespace) -> None:
    from store_bench import PLAYERS as TWO
    from store_bench import RULES, long_matches

    from migrations.runner import upgrade
    from referee.service import Service
    from referee.store.db import make_engine

    engine = make_engine(url)
    service = Service(engine)
    upgrade(service.engine)
    service.clubs.create_club("bench", "Bench")
    match_id = service.recording.create_match("bench", RULES, TWO)["id"]
    [events] = long_matches(1, 200 + args.appends, args.seed)

    def append(seq: int) -> None:
        service.recording.record_event(match_id, events[seq], expected_seq=seq,
                                       client_event_id=f"k{seq}", recorded_by="bench")

    try:
        for seq in range(200):  # warm: imports, prepared statements; past the first rounds
            append(seq)
        spent.clear()
        calls.clear()
        start = time.thread_time()
        for seq in range(200, 200 + args.appends):
            append(seq)
        total = time.thread_time() - start
    finally:
        service.notifier.flush()
        engine.dispose()
    n = args.appends
    print(f"{n} appends through the service on {url.split(':')[0]} (seq 200 on, one match), one "
          f"thread: {1000 * total / n:.3f} ms of CPU an append in all "
          f"(load average {', '.join(f'{x:.1f}' for x in os.getloadavg())})")
    for label, _module, _path in SERVICE_STEPS:
        if calls[label]:
            print(f"  {label:<42} {1000 * spent[label] / n:7.3f} ms  {spent[label] / total:4.0%}"
                  f"  ({calls[label] / n:.2f} calls)")


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
