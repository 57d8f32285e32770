"""Migration 0026 from a 0025 database and back, on SQLite and PostgreSQL: the ties decided
without a match (``league_cup_awards``) come as an empty table and nothing existing changes;
going down drops it and nothing else."""

from __future__ import annotations

from db_helpers import upgrade_and_seal
from sqlalchemy import Engine, inspect, text
from template_helpers import at_revision

from migrations import runner


def tables(engine: Engine) -> set[str]:
    return set(inspect(engine).get_table_names())


def test_upgrade_from_0025_and_down_again(engine: Engine) -> None:
    at_revision(engine, "0025")
    before = tables(engine)
    assert "league_cup_awards" not in before
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO clubs (slug, name, created_at, public, language) "
                          "VALUES ('casino', 'Casino', '2026-12-01 00:00:00', true, 'es')"))
        conn.execute(text(
            "INSERT INTO league_cups (club_id, slug, name, format, best_of, entrant_kind, "
            "rules, entrants, created_at) SELECT id, 'ko', 'Knockout', 'single_elimination', "
            "1, 'players', '{}', '[\"1\", \"2\"]', '2026-12-06 00:00:00' FROM clubs"))
    runner.upgrade(engine, "0026")
    assert tables(engine) == before | {"league_cup_awards"}
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM league_cup_awards")).scalar_one() == 0
        assert conn.execute(text("SELECT slug FROM league_cups")).scalar_one() == "ko"
    runner.downgrade(engine, "0025")
    assert tables(engine) == before
    with engine.connect() as conn:
        assert conn.execute(text("SELECT slug FROM league_cups")).scalar_one() == "ko"
    upgrade_and_seal(engine)
    assert "league_cup_awards" in tables(engine)
