"""``domino db upgrade`` and ``domino db rebuild`` on both databases."""

from __future__ import annotations

import random
from typing import Any

from click.testing import CliRunner
from sqlalchemy import select

from cli.main import main
from migrations.runner import current_revision, downgrade, head_revision, upgrade
from referee.core.log import make_log, write_log
from referee.core.simulate import random_match
from referee.service import Service
from referee.store import db
from referee.store.db import make_engine
from referee.store.schema import standing_rows


def test_db_upgrade_then_rebuild(database_url: str) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["db", "upgrade", "--database-url", database_url])
    assert result.exit_code == 0, result.output
    engine = make_engine(database_url)
    try:
        assert current_revision(engine) == head_revision()
        service = Service(engine)
        service.clubs.create_club("casino", "Casino")
        service.recording.create_match("casino", "parejas", ["Ana", "Beto", "Carla", "Dani"])
        result = runner.invoke(main, ["db", "rebuild"], env={"DOMINO_DATABASE_URL": database_url})
        assert result.exit_code == 0, result.output
        assert "rebuilt 1 match" in result.output
    finally:
        engine.dispose()


def test_db_upgrade_reports_an_unreachable_database() -> None:
    result = CliRunner().invoke(main, ["db", "upgrade", "--database-url",
                                       "postgresql+psycopg://nobody@127.0.0.1:1/none"])
    assert result.exit_code == 1 and "database error" in result.output


def _finished_club(service: Service) -> None:
    """A club with finished matches among rotating players (and one left in progress)."""
    service.clubs.create_club("casino", "Casino")
    names = ["Ana", "Beto", "Carla", "Dani", "Eva"]
    for seed in range(6):
        rng = random.Random(seed)
        preset, seats = ("parejas", 4) if seed % 2 else ("mano-a-mano", 2)
        header, events = random_match(preset, rng.sample(names, seats), rng)
        service.recording.import_log("casino", write_log(make_log(
            {**header, "date": f"2026-0{1 + seed % 3}-1{seed}"}, events)))
    service.recording.create_match("casino", "mano-a-mano", ["Ana", "Beto"])


def _readings(service: Service) -> tuple[Any, ...]:
    table = service.standings.table("casino")
    pairs = service.standings.table("casino", group="partnerships")
    march = service.standings.table("casino", date_from="2026-03-01", date_to="2026-03-31")
    history = {row["player"]: service.standings.rating_history("casino", row["player"])
               for row in table}
    return table, pairs, march, history


def test_db_upgrade_from_0003_fills_the_standings(database_url: str) -> None:
    # A database of revision 0003 holding finished matches: made at head, then taken down to
    # 0003, which drops the standings projection and keeps the matches and their events.
    engine = make_engine(database_url)
    try:
        upgrade(engine)
        service = Service(engine)
        _finished_club(service)
        expected = _readings(service)
        assert expected[0][0]["played"] > 0 and expected[0][0]["rating_games"] > 0
        downgrade(engine, "0003")
        assert current_revision(engine) == "0003"
        result = CliRunner().invoke(main, ["db", "upgrade", "--database-url", database_url])
        assert result.exit_code == 0, result.output
        assert "filled from 6 finished matches" in result.output
        assert current_revision(engine) == head_revision()
        service = Service(engine)  # a fresh one: nothing cached from before
        service.seal.run(again=True)  # the rows from before the row MACs (docs/verify.md)
        assert _readings(service) == expected
        # Run again, at head: every finished match has its rows, nothing is written.
        result = CliRunner().invoke(main, ["db", "upgrade", "--database-url", database_url])
        assert result.exit_code == 0 and "filled" not in result.output, result.output
        assert _readings(service) == expected
    finally:
        engine.dispose()


def test_db_upgrade_fills_a_club_whose_standings_were_left_empty(database_url: str) -> None:
    # Upgraded past 0004 without the fill (alembic alone, or an older domino), then a match
    # finished and was rated alone: the club's rows are written again in finishing order (the
    # old matches first, by their last event), its ratings from the first.
    engine = make_engine(database_url)
    try:
        upgrade(engine)
        _finished_club(Service(engine))
        downgrade(engine, "0003")
        upgrade(engine)  # no fill
        service = Service(engine)
        service.seal.run(again=True)  # the rows from before the row MACs (docs/verify.md)
        assert all(row["played"] == 0 for row in service.standings.table("casino"))
        header, events = random_match("mano-a-mano", ["Ana", "Beto"], random.Random(9))
        late = service.recording.import_log("casino", write_log(make_log(header, events)))
        assert sum(row["played"] for row in service.standings.table("casino")) == 2
        result = CliRunner().invoke(main, ["db", "upgrade", "--database-url", database_url])
        assert result.exit_code == 0 and "filled from 7 finished matches" in result.output
        with db.reading(engine) as conn:
            order = [m for m, _ in conn.execute(select(standing_rows.c.match_id,
                                                       standing_rows.c.finish_seq).distinct()
                                                .order_by(standing_rows.c.finish_seq))]
        finished = [m["id"] for m in service.reading.list_matches("casino", status="finished")[0]]
        assert order == sorted(finished) and order[-1] == late["id"] and len(order) == 7
        table = service.standings.table("casino")
        assert sum(row["played"] for row in table) == 3 * 4 + 3 * 2 + 2  # parejas, duels, the late
        for row in table:
            history = service.standings.rating_history("casino", row["player"])
            assert [h["games"] for h in history] == list(range(1, row["played"] + 1))
            assert [h["match"] for h in history] == sorted(h["match"] for h in history)
    finally:
        engine.dispose()


def test_db_catch_up_does_what_a_stopped_process_left(database_url: str,
                                                      monkeypatch: Any) -> None:
    """A club's matches finished while it had no signing key: their actas wait. ``domino db
    catch-up`` signs them once the key is made (and would bring stale ratings up to date): the
    job the server runs at start and every minute; reading them never does."""
    engine = make_engine(database_url)
    try:
        upgrade(engine)
        service = Service(engine)
        _finished_club(service)
        service.keys.init("casino")
        runner = CliRunner()
        result = runner.invoke(main, ["db", "catch-up", "--database-url", database_url])
        assert result.exit_code == 0, result.output
        assert "0 matches rated, 6 actas signed" in result.output
        again = runner.invoke(main, ["db", "catch-up", "--database-url", database_url])
        assert again.exit_code == 0 and "0 actas signed" in again.output
        service.notifier.close()
    finally:
        engine.dispose()
