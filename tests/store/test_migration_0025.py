"""Migration 0025 from a 0024 database and back, on SQLite and PostgreSQL: the cups' rows get a
MAC column, NULL in a row written before (refused until sealed; the seal MACs it, and the audit
finds it sound); going down drops the column and nothing else."""

from __future__ import annotations

from db_helpers import upgrade_and_seal
from sqlalchemy import Engine, inspect, text
from template_helpers import at_revision

from migrations import runner
from referee.service import Service


def columns(engine: Engine, table: str) -> set[str]:
    return {c["name"] for c in inspect(engine).get_columns(table)}


def test_upgrade_from_0024_seal_and_down_again(engine: Engine) -> None:
    at_revision(engine, "0024")
    assert "mac" not in columns(engine, "league_cups")
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO clubs (slug, name, created_at, public, language) "
                          "VALUES ('casino', 'Casino', '2026-12-01 00:00:00', true, 'es')"))
        conn.execute(text(
            "INSERT INTO league_cups (club_id, slug, name, format, best_of, entrant_kind, "
            "rules, entrants, created_at) SELECT id, 'ko', 'Knockout', 'single_elimination', "
            "1, 'players', '{}', '[\"1\", \"2\"]', '2026-12-06 00:00:00' FROM clubs"))
    runner.upgrade(engine, "0025")
    assert {"mac"} <= columns(engine, "league_cups") & columns(engine, "league_cup_matches")
    with engine.connect() as conn:
        assert conn.execute(text("SELECT mac FROM league_cups")).scalar_one() is None
    runner.downgrade(engine, "0024")
    assert "mac" not in columns(engine, "league_cups") | columns(engine, "league_cup_matches")
    with engine.connect() as conn:
        assert conn.execute(text("SELECT slug FROM league_cups")).scalar_one() == "ko"
    upgrade_and_seal(engine)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT mac FROM league_cups")).scalar_one() is not None
    service = Service(engine)
    try:
        assert not [p for p in service.audit.run().problems if "cup" in p.line()]  # sealed
    finally:
        service.notifier.close()
