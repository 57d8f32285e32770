"""Migration 0023 from a 0022 database and back, on SQLite and PostgreSQL: the cups' tables come
empty and nothing existing changes; going down drops them and nothing else."""

from __future__ import annotations

from db_helpers import upgrade_and_seal
from sqlalchemy import Engine, inspect, text
from template_helpers import at_revision

from migrations import runner

CUP_TABLES = {"league_cups", "league_cup_matches"}


def tables(engine: Engine) -> set[str]:
    return set(inspect(engine).get_table_names())


def test_upgrade_from_0022_and_down_again(engine: Engine) -> None:
    at_revision(engine, "0022")
    before = tables(engine)
    assert not before & CUP_TABLES
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO clubs (slug, name, created_at, public, language) "
                          "VALUES ('casino', 'Casino', '2026-12-01 00:00:00', true, 'es')"))

    runner.upgrade(engine, "0023")
    assert tables(engine) == before | CUP_TABLES
    with engine.connect() as conn:
        for table in CUP_TABLES:
            assert conn.execute(text(f"SELECT count(*) FROM {table}")).scalar_one() == 0
        assert conn.execute(text("SELECT name FROM clubs")).one() == ("Casino",)

    runner.downgrade(engine, "0022")
    assert tables(engine) == before
    with engine.connect() as conn:
        assert conn.execute(text("SELECT name FROM clubs")).one() == ("Casino",)
    upgrade_and_seal(engine)
    assert CUP_TABLES <= tables(engine)
