"""The migrations, on SQLite and PostgreSQL: they build exactly the tables schema.py describes,
go down and up again, and make the events table append-only."""

from __future__ import annotations

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Engine, inspect, text
from sqlalchemy.exc import DBAPIError

from migrations import runner
from migrations.runner import is_current, upgrade
from referee.service import Service
from referee.store import db
from referee.store.schema import metadata

TABLES = {"clubs", "players", "matches", "match_players", "events", "tokens", "standing_rows",
          "standing_months", "player_ratings", "current_ratings"}

TABLES |= {"player_events"}  # 0003
TABLES |= {"tournaments", "tournament_entrants", "tournament_rounds", "tournament_matches"}  # 0007
TABLES |= {"signing_keys", "acta_leaves", "tree_heads"}  # 0009
TABLES |= {"tournament_constraints"}  # 0008
TABLES |= {"signin_codes"}  # 0012
TABLES |= {"league_seasons", "league_divisions", "league_teams", "league_squads",
           "league_fixtures", "league_legs", "league_leg_matches", "league_fixture_history",
           "league_captains", "league_deductions", "league_sheets"}  # 0019
TABLES |= {"league_cups", "league_cup_matches"}  # 0023
TABLES |= {"league_leg_results"}  # 0024
TABLES |= {"league_cup_awards"}  # 0026


def _diff(engine: Engine) -> list:
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        return compare_metadata(context, metadata)


def _tables(engine: Engine) -> set[str]:
    return set(inspect(engine).get_table_names()) - {"alembic_version"}


def test_models_match_the_migrated_database(engine: Engine) -> None:
    runner.upgrade(engine)
    assert runner.current_revision(engine) == runner.head_revision() == "0028"
    assert _diff(engine) == []


def test_each_revision_goes_down_and_up_again(engine: Engine) -> None:
    runner.upgrade(engine)
    runner.downgrade(engine, "0001")
    assert runner.current_revision(engine) == "0001"
    runner.upgrade(engine)
    assert _diff(engine) == []


def test_upgrade_downgrade_upgrade(engine: Engine) -> None:
    runner.upgrade(engine)
    assert _tables(engine) == TABLES
    runner.downgrade(engine, "base")
    assert _tables(engine) == set()
    assert runner.current_revision(engine) is None
    runner.upgrade(engine)
    runner.upgrade(engine)  # at head already: nothing to do
    assert _tables(engine) == TABLES
    assert _diff(engine) == []


def test_upgrade_from_a_url_without_alembic_ini(database_url: str, tmp_path, monkeypatch) -> None:
    # The alembic command line path: env.py makes its own engine from the configured URL.
    monkeypatch.chdir(tmp_path)
    command.upgrade(runner.alembic_config(url=database_url), "head")
    engine = db.make_engine(database_url)
    try:
        assert _tables(engine) == TABLES
    finally:
        engine.dispose()


def test_the_database_refuses_to_change_an_event(service: Service, club: str) -> None:
    match = service.recording.create_match(club, "parejas", ["Ana", "Beto", "Carla", "Dani"])
    service.recording.record_event(match["id"], {"type": "note", "text": "hola"}, expected_seq=0)
    for statement in ("UPDATE events SET data = '{}'", "DELETE FROM events"):
        with pytest.raises(DBAPIError, match="append-only"):
            with service.engine.begin() as conn:
                conn.execute(text(statement))
    assert [e["event"] for e in service.reading.list_events(match["id"])] == [
        {"type": "note", "text": "hola"}]


def test_sqlite_connection_settings(tmp_path) -> None:
    engine = db.make_engine(f"sqlite:///{tmp_path / 'x.db'}")
    try:
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
            assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == db.BUSY_TIMEOUT_MS
    finally:
        engine.dispose()


def test_default_database_is_an_sqlite_file(tmp_path, monkeypatch) -> None:
    monkeypatch.delenv(db.URL_VARIABLE, raising=False)
    monkeypatch.delenv(db.DATA_DIR_VARIABLE, raising=False)
    monkeypatch.chdir(tmp_path)
    assert db.database_url() == f"sqlite:///{tmp_path / 'domino.db'}"
    monkeypatch.setenv(db.DATA_DIR_VARIABLE, str(tmp_path / "data"))
    assert db.database_url() == f"sqlite:///{tmp_path / 'data' / 'domino.db'}"
    assert (tmp_path / "data").is_dir()
    monkeypatch.setenv(db.URL_VARIABLE, "postgresql+psycopg://u@h/d")
    assert db.database_url() == "postgresql+psycopg://u@h/d"
    assert db.database_url("sqlite:///other.db") == "sqlite:///other.db"


def test_the_service_knows_when_an_upgrade_is_due(engine: Engine) -> None:
    service = Service(engine)
    assert not is_current(service.engine)
    upgrade(service.engine)
    assert is_current(service.engine)
