"""Migration 0019 from a 0018 database and back, on SQLite and PostgreSQL: the league tables
come empty and nothing existing changes; going down drops them and nothing else."""

from __future__ import annotations

from db_helpers import upgrade_and_seal
from sqlalchemy import Engine, inspect, text
from template_helpers import at_revision

from migrations import runner

LEAGUE_TABLES = {"league_seasons", "league_divisions", "league_teams", "league_squads",
                 "league_fixtures", "league_legs", "league_leg_matches",
                 "league_fixture_history", "league_captains", "league_deductions",
                 "league_sheets"}


def tables(engine: Engine) -> set[str]:
    return set(inspect(engine).get_table_names())


def test_upgrade_from_0018_and_down_again(engine: Engine) -> None:
    at_revision(engine, "0018")
    before = tables(engine)
    assert not before & LEAGUE_TABLES
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO clubs (slug, name, created_at, public, language) "
                          "VALUES ('casino', 'Casino', '2026-12-01 00:00:00', true, 'es')"))

    runner.upgrade(engine, "0019")
    assert tables(engine) == before | LEAGUE_TABLES
    with engine.connect() as conn:
        for table in LEAGUE_TABLES:
            assert conn.execute(text(f"SELECT count(*) FROM {table}")).scalar_one() == 0
    with engine.connect() as conn:
        assert conn.execute(text("SELECT language FROM clubs")).scalar_one() == "es"

    runner.downgrade(engine, "0018")
    assert tables(engine) == before
    with engine.connect() as conn:
        assert conn.execute(text("SELECT name FROM clubs")).one() == ("Casino",)
    upgrade_and_seal(engine)
    assert LEAGUE_TABLES <= tables(engine)
