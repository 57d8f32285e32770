"""How many transactions PostgreSQL counts for an append and for a page, by its own statistics.

The counts are PostgreSQL's: ``pg_stat_database.xact_commit + xact_rollback`` of a database of
the bench's own (created, then dropped), read before and after each kind of work, so that
nothing else running on the server is counted. Every connection the work used is closed before
the second read (a backend's counts reach the statistics when it goes idle or closes).

- appends: ``svc.recording.record_event`` with an expected seq and a client event id (what the
  API does), over random legal matches (goal, issue 17: at most 1.2 a append);
- the public club page ``GET /clubs/{club}`` without a token, through the app (goal: at most 2,
  a page view and its token lookup);
- the scorekeeper's screen ``GET /api/v1/matches/{id}`` with a token, and the same answered 304
  (``If-None-Match``): what a polling phone costs.

    python bench/transactions_bench.py [--pg postgresql+psycopg://postgres@127.0.0.1:5432/test]
                                       [--appends 400] [--pages 50]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
import uuid
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import create_engine, text  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from migrations.runner import upgrade  # noqa: E402
from referee.core.simulate import random_match  # noqa: E402
from referee.service import Service  # noqa: E402
from referee.store.db import make_engine  # noqa: E402

PLAYERS = ["Ana", "Beto", "Carla", "Dani"]


def transactions(admin_url: str, database: str) -> int:
    engine = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT pg_stat_clear_snapshot()"))
            return conn.execute(text(
                "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = :d"),
                {"d": database}).scalar_one()
    finally:
        engine.dispose()


def counted(admin_url: str, database: str, work: Callable[[], int]) -> tuple[int, int]:
    """(transactions, units of work) for ``work``, which closes its connections and returns
    how many units it did. The statistics of a closed backend may take a moment to show."""
    before = transactions(admin_url, database)
    units = work()
    time.sleep(1.5)
    return transactions(admin_url, database) - before, units


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pg", default=os.environ.get("DOMINO_TEST_DATABASE_URL")
                        or "postgresql+psycopg://postgres@127.0.0.1:5432/test")
    parser.add_argument("--appends", type=int, default=400)
    parser.add_argument("--pages", type=int, default=50)
    args = parser.parse_args()
    database = f"domino_bench_{uuid.uuid4().hex[:8]}"
    admin = create_engine(args.pg, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{database}"'))
    url = make_url(args.pg).set(database=database).render_as_string(hide_password=False)
    try:
        run(args, url, database)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE "{database}" WITH (FORCE)'))
        admin.dispose()


def run(args: Any, url: str, database: str) -> None:
    from api import create_app
    from api.context import EXTENSION

    setup = Service(make_engine(url))
    upgrade(setup.engine)
    setup.clubs.create_club("casino", "Casino")
    setup.clubs.set_public("casino", True)
    token = setup.tokens.create_token("casino", "scorekeeper", label="bench")
    rng = random.Random(17)
    games = []
    while sum(len(evs) for evs in games) < args.appends:
        _, evs = random_match("parejas", PLAYERS, rng)
        games.append(evs)
    ids = [setup.recording.create_match("casino", "parejas", PLAYERS)["id"] for _ in games]
    who = setup.tokens.authenticate(token)
    setup.close()

    def appends() -> int:
        svc = Service(make_engine(url))
        done = 0
        for match_id, evs in zip(ids, games):
            for seq, event in enumerate(evs):
                if done == args.appends:
                    break
                svc.recording.record_event(match_id, event, expected_seq=seq,
                                           client_event_id=f"{match_id}-{seq}", who=who)
                done += 1
        svc.close()  # sends the notifications it holds, closes the pool
        print(f"  ({done} appends to {len(ids)} matches; {svc.notifier.batches} batches of "
              f"notifications)")
        return done

    app = create_app({"DATABASE_URL": url, "ACCESS_LOG": False})
    client = app.test_client()

    def pages() -> int:
        for _ in range(args.pages):
            assert client.get("/clubs/casino").status_code == 200
        app.extensions[EXTENSION].engine.dispose()
        return args.pages

    bearer = {"Authorization": f"Bearer {token}"}

    def screens() -> int:
        for _ in range(args.pages):
            assert client.get(f"/api/v1/matches/{ids[0]}", headers=bearer).status_code == 200
        app.extensions[EXTENSION].engine.dispose()
        return args.pages

    def unchanged() -> int:
        etag = client.get(f"/api/v1/matches/{ids[0]}", headers=bearer).headers["ETag"]
        for _ in range(args.pages):
            answer = client.get(f"/api/v1/matches/{ids[0]}",
                                headers={**bearer, "If-None-Match": etag})
            assert answer.status_code == 304
        app.extensions[EXTENSION].engine.dispose()
        return args.pages + 1

    print(f"PostgreSQL transactions (pg_stat_database of {database}):")
    for name, work, goal in (("append through the service", appends, 1.2),
                             ("public club page, no token", pages, 2.0),
                             ("match screen with a token (200)", screens, None),
                             ("match screen polled (304)", unchanged, None)):
        count, units = counted(args.pg, database, work)
        target = f"  (goal at most {goal})" if goal is not None else ""
        print(f"  {name:34} {count:6} for {units:4}: {count / units:.2f} each{target}")


if __name__ == "__main__":
    main()
