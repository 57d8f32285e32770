"""The session's one cache of compiled statements (tests/compiled_helpers.py), held to what
SQLAlchemy does with it: a second SQLite engine runs the statement the first one compiled, a
dialect made otherwise compiles its own, and PostgreSQL's engines keep theirs."""

from __future__ import annotations

from pathlib import Path

import pytest
from compiled_helpers import SHARED, _share, dialect_kind
from db_helpers import PG_URL
from sqlalchemy import Engine, column, create_engine, event, select, table

from referee.store.db import make_engine

ITEMS = table("items", column("id"), column("name"))
STATEMENT = select(ITEMS.c.name).where(ITEMS.c.id == 1)


def _run(engine: Engine) -> tuple[object, object, list[str]]:
    with engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE IF NOT EXISTS items (id INTEGER, name TEXT)")
        conn.exec_driver_sql("INSERT INTO items VALUES (1, 'uno')")
        result = conn.execute(STATEMENT)
        return result.context.compiled, result.context.cache_hit, list(result.scalars())


def test_it_is_installed_for_every_engine() -> None:
    assert event.contains(Engine, "engine_connect", _share)


def test_a_second_sqlite_engine_runs_the_statement_the_first_compiled(tmp_path: Path) -> None:
    first, second = (make_engine(f"sqlite:///{tmp_path / name}") for name in ("a.db", "b.db"))
    try:
        compiled, _, names = _run(first)
        again, hit, names_again = _run(second)
        assert first.dialect is not second.dialect  # each engine keeps its own
        assert again is compiled and hit == second.dialect.CACHE_HIT
        assert names == names_again == ["uno"]
        assert dialect_kind(first.dialect) == dialect_kind(second.dialect)
    finally:
        first.dispose()
        second.dispose()


def test_a_dialect_made_otherwise_compiles_its_own(tmp_path: Path) -> None:
    plain = make_engine(f"sqlite:///{tmp_path / 'a.db'}")
    named = create_engine(f"sqlite:///{tmp_path / 'b.db'}", paramstyle="named")
    try:
        compiled, _, _ = _run(plain)
        other, _, names = _run(named)
        assert other is not compiled and names == ["uno"]
        assert ":id_1" in str(other) and "?" in str(compiled)
        assert dialect_kind(plain.dialect) != dialect_kind(named.dialect)
    finally:
        plain.dispose()
        named.dispose()


@pytest.mark.skipif(not PG_URL, reason="DOMINO_TEST_DATABASE_URL is not set")
def test_postgresql_engines_keep_their_own(tmp_path: Path) -> None:
    engines = make_engine(PG_URL), make_engine(f"sqlite:///{tmp_path / 'a.db'}")
    try:
        with engines[0].connect() as pg, engines[1].connect() as lite:
            assert "compiled_cache" not in pg.get_execution_options()
            assert lite.get_execution_options()["compiled_cache"] is SHARED
    finally:
        for engine in engines:
            engine.dispose()
