"""The tests' migrated databases (tests/template_helpers.py) are what the migrations make, and a
PostgreSQL schema handed on to the next test holds nothing of the last one."""

from __future__ import annotations

from typing import Any

import pytest
from db_helpers import PG_URL
from sqlalchemy import Engine, inspect, text
from template_helpers import migrate, schema_pool

from migrations.runner import upgrade
from referee.service import Service
from referee.store.db import make_engine

pg_only = pytest.mark.skipif(not PG_URL, reason="DOMINO_TEST_DATABASE_URL is not set")


def _shape(engine: Engine) -> dict[str, Any]:
    """Every table's columns, keys, indexes and checks, as SQLAlchemy reads them back."""
    found = inspect(engine)
    shape: dict[str, Any] = {}
    for table in sorted(found.get_table_names()):
        shape[table] = {
            "columns": [(c["name"], str(c["type"]), c["nullable"], str(c.get("default")))
                        for c in found.get_columns(table)],
            "primary": found.get_pk_constraint(table)["constrained_columns"],
            "foreign": sorted((f["name"] or "", tuple(f["constrained_columns"]), f["referred_table"])
                              for f in found.get_foreign_keys(table)),
            "indexes": sorted((i["name"], tuple(i["column_names"]), bool(i["unique"]))
                              for i in found.get_indexes(table)),
            "unique": sorted((u["name"], tuple(u["column_names"]))
                             for u in found.get_unique_constraints(table)),
            "checks": sorted((c["name"], c["sqltext"]) for c in found.get_check_constraints(table)),
        }
    with engine.connect() as conn:
        shape["revision"] = conn.execute(text("SELECT version_num FROM alembic_version")).all()
    return shape


def test_a_migrated_database_is_what_the_migrations_make(database_url: str, tmp_path: Any) -> None:
    fast = make_engine(database_url)
    migrate(fast)
    if database_url.startswith("sqlite"):
        slow = make_engine(f"sqlite:///{tmp_path / 'upgraded.db'}")
        upgrade(slow)
        assert _shape(fast) == _shape(slow)
    else:
        with schema_pool(PG_URL).scratch() as other:
            slow = make_engine(other)
            upgrade(slow)
            assert _shape(fast) == _shape(slow)
            slow.dispose()
    fast.dispose()


def _fill(url: str) -> Service:
    service = Service(make_engine(url))
    migrate(service.engine)
    return service


@pg_only
def test_a_schema_handed_on_holds_nothing_of_the_last_test() -> None:
    pool = schema_pool(PG_URL)
    with pool.scratch() as url:
        service = _fill(url)
        service.clubs.create_club("casino", "Casino")
        match = service.recording.create_match("casino", "parejas", ["Ana", "Beto", "Carla", "Dani"])
        service.close()
        spares = len(pool.spares)
    assert len(pool.spares) == spares + 1, "the schema was not handed on"
    with pool.scratch() as url:
        service = _fill(url)
        assert len(pool.spares) == spares  # the one handed on, taken again
        with service.engine.connect() as conn:
            tables = inspect(conn).get_table_names()
            assert {t: conn.execute(text(f'SELECT count(*) FROM "{t}"')).scalar() for t in tables
                    if t != "alembic_version"} == dict.fromkeys(set(tables) - {"alembic_version"}, 0)
        service.clubs.create_club("casino", "Casino")
        again = service.recording.create_match("casino", "parejas", ["Ana", "Beto", "Carla", "Dani"])
        assert again["id"] == match["id"] == 1  # the sequences start again
        service.close()


@pg_only
def test_a_schema_a_test_changed_is_dropped_not_handed_on() -> None:
    pool = schema_pool(PG_URL)
    with pool.scratch() as url:
        service = _fill(url)
        with service.engine.begin() as conn:
            conn.execute(text("DROP TRIGGER events_append_only ON events"))
        service.close()
        spares = list(pool.spares)
    assert pool.spares == spares
