"""Migrated databases without running the migrations for each test.

A test's database starts empty (the ``database_url`` fixture); :func:`migrate` brings it to the
head revision the quick way:

- SQLite: a copy of a file migrated once a session.
- PostgreSQL: the test's empty schema is swapped, in one transaction, for a migrated spare
  schema that takes its name (``ALTER SCHEMA ... RENAME``: a catalog update). When the test
  ends, the schema is checked to be still what the migrations made (a fingerprint of its
  tables, columns, constraints, indexes, triggers, functions and alembic revision), emptied
  (every row but the revision's, the sequences restarted) and renamed back into the spares for
  the next test. Running the sixteen migrations costs a test 0.9 s on this machine, copying a
  template database (``CREATE DATABASE ... TEMPLATE``) 0.2 to 0.4 s, emptying a table
  (``TRUNCATE``) 0.4 s for them all; the swap and the emptying cost some 10 ms. A schema a test
  changed (a downgrade, a trigger dropped) is dropped instead, and the next test gets a freshly
  migrated spare.

The migrations themselves are tested where they run, on an empty database
(tests/store/test_migrations.py and the test_migration_*.py files call ``upgrade``).
"""

from __future__ import annotations

import shutil
import tempfile
import uuid
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from sqlalchemy import Connection, Engine, create_engine
from sqlalchemy.engine import make_url

from migrations.runner import upgrade
from referee.store.db import make_engine

_sqlite_template: Path | None = None


def migrate(engine: Engine) -> None:
    """The engine's empty database brought to the head revision (see the module's docstring);
    a database that is not empty, or not one of this session's, is upgraded."""
    url = engine.url
    if url.get_backend_name() == "sqlite" and url.database and not Path(url.database).exists():
        shutil.copyfile(_sqlite_migrated(), url.database)
        return
    pool = _POOLS.get(_server(str(url)))
    if pool is not None and pool.fill(str(url)):
        return
    upgrade(engine)


def _sqlite_migrated() -> Path:
    global _sqlite_template
    if _sqlite_template is None:
        path = Path(tempfile.mkdtemp(prefix="domino-template-")) / "domino.db"
        made = make_engine(f"sqlite:///{path}")
        upgrade(made)
        made.dispose()  # the last connection closed: the WAL is in the file
        _sqlite_template = path
    return _sqlite_template


def _server(url: str) -> str:
    """A scoped URL's server and database: the URL without its search_path."""
    return make_url(url).difference_update_query(["options"]).render_as_string(hide_password=False)


def _schema(url: str) -> str | None:
    options = make_url(url).query.get("options")
    if isinstance(options, str) and options.startswith("-csearch_path="):
        return options.removeprefix("-csearch_path=")
    return None


def scoped(url: str, schema: str) -> str:
    """``url`` with its connections working in ``schema``."""
    return make_url(url).update_query_dict({"options": f"-csearch_path={schema}"}) \
        .render_as_string(hide_password=False)


@dataclass(frozen=True)
class _Shape:
    """What the migrations make: its fingerprint, and the SQL that empties a copy of it."""

    fingerprint: str
    tables: tuple[str, ...]  # every table but alembic's


# One text per object of the schema, with the schema's own name replaced by '@': two schemas
# the migrations made alike have the same lines, whatever their names.
_FINGERPRINT = """
SELECT md5(string_agg(replace(line, %(name)s::text, '@'), E'\\n' ORDER BY line)) FROM (
    SELECT 'relation ' || c.relname || ' ' || c.relkind::text AS line
    FROM pg_class c WHERE c.relnamespace = %(name)s::text::regnamespace
  UNION ALL
    SELECT 'column ' || c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
           || ' ' || a.attnotnull::text || ' ' || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE c.relnamespace = %(name)s::text::regnamespace AND a.attnum > 0 AND NOT a.attisdropped
  UNION ALL
    SELECT 'constraint ' || conname || ' ' || pg_get_constraintdef(oid)
    FROM pg_constraint WHERE connamespace = %(name)s::text::regnamespace
  UNION ALL
    SELECT 'index ' || pg_get_indexdef(i.indexrelid)
    FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
    WHERE c.relnamespace = %(name)s::text::regnamespace
  UNION ALL
    SELECT 'trigger ' || t.tgenabled::text || ' ' || pg_get_triggerdef(t.oid)
    FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
    WHERE c.relnamespace = %(name)s::text::regnamespace AND NOT t.tgisinternal
  UNION ALL
    SELECT 'function ' || p.proname || ' ' || md5(p.prosrc)
    FROM pg_proc p WHERE p.pronamespace = %(name)s::text::regnamespace
) AS lines
"""


class SchemaPool:
    """The test schemas of one PostgreSQL database, and the migrated spares (see the module's
    docstring). One per process: each pytest-xdist worker has its own, and every name is
    random."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.admin = create_engine(url, isolation_level="AUTOCOMMIT", pool_size=1)
        self.spares: list[str] = []
        self.empty: set[str] = set()  # test schemas as made, nothing in them yet
        self.filled: set[str] = set()  # test schemas that were spares: recycled afterwards
        self.shape: _Shape | None = None

    @contextmanager
    def scratch(self, prefix: str = "test") -> Iterator[str]:
        """A new empty schema; yields a URL whose connections work in it. Dropped afterwards,
        or, when :meth:`fill` made it a migrated one, emptied and kept as a spare."""
        schema = f"{prefix}_{uuid.uuid4().hex[:16]}"
        with self.admin.connect() as conn:
            conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
        self.empty.add(schema)
        try:
            yield scoped(self.url, schema)
        finally:
            self.empty.discard(schema)
            if not (schema in self.filled and self._recycle(schema)):
                self._drop(schema)
            self.filled.discard(schema)

    def fill(self, url: str) -> bool:
        """Make the empty schema ``url`` works in a migrated one (a spare renamed); False when
        it is not one of :meth:`scratch`'s, or no longer empty."""
        schema = _schema(url)
        if schema not in self.empty:
            return False
        with self.admin.connect() as conn:
            if conn.exec_driver_sql("SELECT count(*) FROM pg_class WHERE relnamespace ="
                                    " %(name)s::text::regnamespace", {"name": schema}).scalar():
                self.empty.discard(schema)
                return False
        spare = self.spares.pop() if self.spares else self._new_spare()
        with self.admin.connect() as conn:
            # One message of two statements: one transaction (the admin's are autocommit).
            conn.exec_driver_sql(f'DROP SCHEMA "{schema}"; ALTER SCHEMA "{spare}" RENAME TO "{schema}"')
        self.empty.discard(schema)
        self.filled.add(schema)
        return True

    def close(self) -> None:
        while self.spares:
            self._drop(self.spares.pop())
        self.admin.dispose()

    def _new_spare(self) -> str:
        spare = f"test_spare_{uuid.uuid4().hex[:16]}"
        with self.admin.connect() as conn:
            conn.exec_driver_sql(f'CREATE SCHEMA "{spare}"')
        engine = make_engine(scoped(self.url, spare))
        try:
            upgrade(engine)
        finally:
            engine.dispose()
        if self.shape is None:
            with self.admin.connect() as conn:
                tables = conn.exec_driver_sql(
                    "SELECT relname FROM pg_class WHERE relnamespace = %(name)s::text::regnamespace"
                    " AND relkind = 'r' AND relname <> 'alembic_version' ORDER BY relname",
                    {"name": spare}).scalars().all()
                self.shape = _Shape(_fingerprint(conn, spare), tuple(tables))
        return spare

    def _recycle(self, schema: str) -> bool:
        """Empty ``schema`` and keep it as a spare, if it is still as migrated; False when it
        is not (or a connection the test left open holds a lock on it)."""
        assert self.shape is not None
        spare = f"test_spare_{uuid.uuid4().hex[:16]}"
        deletes = "".join(f'DELETE FROM "{schema}"."{table}";' for table in self.shape.tables)
        try:
            with self.admin.connect() as conn:
                conn.exec_driver_sql("SET lock_timeout = '2s'")
                if _fingerprint(conn, schema) != self.shape.fingerprint:
                    return False
                # One message, so one transaction. Rows go in any order, the append-only
                # triggers and the foreign keys' checks not fired (a superuser's setting:
                # without it, the schema is dropped instead).
                conn.exec_driver_sql(
                    "SET LOCAL session_replication_role = replica;" + deletes
                    + "SELECT setval(oid, 1, false) FROM pg_class WHERE relkind = 'S'"
                    f" AND relnamespace = '\"{schema}\"'::regnamespace;"
                    f'ALTER SCHEMA "{schema}" RENAME TO "{spare}"')
        except Exception:  # noqa: BLE001 - whatever went wrong, the schema is dropped instead
            return False
        self.spares.append(spare)
        return True

    def _drop(self, schema: str) -> None:
        with self.admin.connect() as conn:
            # A connection left open in a transaction would block the drop for ever; better a
            # stray schema than a hung run.
            conn.exec_driver_sql("SET lock_timeout = '10s'")
            conn.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def _fingerprint(conn: Connection, schema: str) -> str:
    lines = conn.exec_driver_sql(_FINGERPRINT, {"name": schema}).scalar() or ""
    revision = conn.exec_driver_sql(
        f'SELECT string_agg(version_num, \',\') FROM "{schema}".alembic_version').scalar()
    return f"{lines} {revision}"


_POOLS: dict[str, SchemaPool] = {}


def schema_pool(url: str) -> SchemaPool:
    """This process's pool for the PostgreSQL database ``url``."""
    key = _server(url)
    if key not in _POOLS:
        _POOLS[key] = SchemaPool(url)
    return _POOLS[key]


def close_pools() -> None:
    while _POOLS:
        _POOLS.popitem()[1].close()
