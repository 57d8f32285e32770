"""Migrated databases without running the migrations for each test.

A test's database starts empty (the ``database_url`` fixture); :func:`migrate` brings it to the
head revision the quick way:

- SQLite: a copy of a file migrated once a session.
- PostgreSQL: the test's empty schema is swapped, in one transaction, for a migrated spare
  schema that takes its name (``ALTER SCHEMA ... RENAME``: a catalog update). When the test
  ends, the schema is checked to be still what the migrations made (a fingerprint of its
  tables, columns, constraints, indexes, triggers, functions and alembic revision), emptied
  (every row but the revision's, the sequences restarted) and renamed back into the spares for
  the next test. Measured on this project's 2-core machine under a load of 8 to 10: running
  the migrations cost a test 1.2 to 2 s, copying a template database (``CREATE DATABASE ...
  TEMPLATE``, then dropping it) 0.4 to 0.9 s, emptying the tables with ``TRUNCATE`` 0.4 s; the
  swap, the fingerprint and the emptying with ``DELETE`` some 40 ms. A schema a test changed (a
  downgrade, a trigger dropped) is dropped instead, and the next test gets a freshly migrated
  spare.

:func:`seeded` does the same for a fixture's whole database (the API's clubs, tokens, keys and
matches; a season of standings): built once a session on a template, then copied into each
test's database (SQLite: the file, through SQLite's backup; PostgreSQL: the rows, from the
template's schema).

The quick ways on PostgreSQL empty and fill tables with ``session_replication_role = replica``
(the append-only triggers and the foreign keys' checks not fired), which takes a superuser, as
the tests' ``postgres`` is. Under another user every test migrates and builds its own.

The migrations themselves are tested where they run, on an empty database
(tests/store/test_migrations.py and the test_migration_*.py files call ``upgrade``).
"""

from __future__ import annotations

import copy
import shutil
import sqlite3
import tempfile
import uuid
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, TypeVar

from sqlalchemy import Connection, Engine, create_engine
from sqlalchemy.engine import make_url

from migrations.runner import upgrade
from referee.store.db import make_engine

T = TypeVar("T")
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


def at_revision(engine: Engine, revision: str) -> None:
    """The engine's empty database brought to ``revision`` (a migration test's starting point).
    SQLite: a copy of a file this session migrated to it, each such file made from the nearest
    earlier one by running only the migrations in between (the tests' upgrades from an empty
    database, 0.1 to 0.3 s of CPU each, ran the same first migrations again in every test). A
    database that is not empty, or a PostgreSQL one, is upgraded."""
    url = engine.url
    if url.get_backend_name() != "sqlite" or not url.database or Path(url.database).exists():
        upgrade(engine, revision)
        return
    shutil.copyfile(_sqlite_at(revision), url.database)


_SQLITE_REVISIONS: dict[str, Path] = {}


def _sqlite_at(revision: str) -> Path:
    if revision not in _SQLITE_REVISIONS:
        # The revisions are numbered "0001", "0002", ...: the nearest earlier file is the
        # largest name below this one.
        earlier = max((r for r in _SQLITE_REVISIONS if r < revision), default=None)
        path = Path(tempfile.mkdtemp(prefix=f"domino-at-{revision}-")) / "domino.db"
        if earlier is not None:
            shutil.copyfile(_SQLITE_REVISIONS[earlier], path)
        made = make_engine(f"sqlite:///{path}")
        upgrade(made, revision)
        made.dispose()  # the last connection closed: the WAL is in the file
        _SQLITE_REVISIONS[revision] = path
    return _SQLITE_REVISIONS[revision]


def seeded(engine: Engine, key: str, build: Callable[[Engine], T]) -> T:
    """The engine's database made what ``build`` makes of an empty migrated one, whatever it
    held; returns (a copy of) what ``build`` returned. The first call of a session for ``key``
    on each kind of database builds a template; the others copy it. ``build`` must make the
    same whenever it runs (no randomness but seeded, nothing read from the test)."""
    url = engine.url
    if url.get_backend_name() == "sqlite" and url.database:
        template, value = _SQLITE_SEEDS.get(key) or _sqlite_seed(key, build)
        if Path(url.database).exists():
            source, target = sqlite3.connect(template), sqlite3.connect(url.database)
            try:
                source.backup(target)  # page by page, under the target's write lock
            finally:
                source.close()
                target.close()
        else:
            shutil.copyfile(template, url.database)
        return copy.deepcopy(value)
    pool = _POOLS.get(_server(str(url)))
    if pool is not None and pool.restore(str(url), key, build):
        return copy.deepcopy(pool.seeds[key][1])
    # Not a schema of this session's pool, or no superuser: the slow way, alike.
    with engine.begin() as conn:
        schema = conn.exec_driver_sql("SELECT current_schema()").scalar()
        conn.exec_driver_sql(f'DROP SCHEMA "{schema}" CASCADE; CREATE SCHEMA "{schema}"')
    upgrade(engine)
    return build(engine)


_SQLITE_SEEDS: dict[str, tuple[Path, Any]] = {}


def close_templates() -> None:
    """This process's SQLite templates removed (their folders are outside pytest's, which
    pytest removes in turn; on a memory file system they would stay until a reboot)."""
    global _sqlite_template
    folders = [path.parent for path, _ in _SQLITE_SEEDS.values()]
    folders += [_sqlite_template.parent] if _sqlite_template is not None else []
    folders += [path.parent for path in _SQLITE_REVISIONS.values()]
    _SQLITE_SEEDS.clear()
    _SQLITE_REVISIONS.clear()
    _sqlite_template = None
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)


def _sqlite_seed(key: str, build: Callable[[Engine], T]) -> tuple[Path, T]:
    path = Path(tempfile.mkdtemp(prefix="domino-seed-")) / "domino.db"
    made = make_engine(f"sqlite:///{path}")
    migrate(made)
    value = build(made)
    made.dispose()
    _SQLITE_SEEDS[key] = (path, value)
    return path, value


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
    """What the migrations make: its fingerprint, its tables and sequences."""

    fingerprint: str
    tables: tuple[str, ...]  # every table but alembic's
    sequences: tuple[str, ...]


# One text per object of the schema, with the schema's own name replaced by '@': two schemas
# the migrations made alike have the same lines, whatever their names. The schema's tables,
# sequences and functions are found through what depends on it (pg_depend, indexed), their
# columns, indexes, constraints and triggers through their table: the catalogs of a database
# where many tests made and dropped schemas are large, and scanning them cost 0.1 s.
_FINGERPRINT = """
WITH ns AS (SELECT oid FROM pg_namespace WHERE nspname = %(name)s),
owned AS (SELECT d.classid, d.objid FROM pg_depend d, ns
          WHERE d.refclassid = 'pg_namespace'::regclass AND d.refobjid = ns.oid),
rel AS (SELECT c.oid, c.relname, c.relkind FROM owned JOIN pg_class c ON c.oid = owned.objid
        WHERE owned.classid = 'pg_class'::regclass)
SELECT md5(string_agg(replace(line, %(name)s, '@'), E'\\n' ORDER BY line)) FROM (
    SELECT 'relation ' || relname || ' ' || relkind::text AS line FROM rel
  UNION ALL
    SELECT 'column ' || rel.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
           || ' ' || a.attnotnull::text || ' ' || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
    FROM rel JOIN pg_attribute a ON a.attrelid = rel.oid
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE a.attnum > 0 AND NOT a.attisdropped
  UNION ALL
    SELECT 'constraint ' || conname || ' ' || pg_get_constraintdef(c.oid)
    FROM rel JOIN pg_constraint c ON c.conrelid = rel.oid
  UNION ALL
    SELECT 'index ' || pg_get_indexdef(i.indexrelid) FROM rel JOIN pg_index i ON i.indrelid = rel.oid
  UNION ALL
    SELECT 'trigger ' || t.tgenabled::text || ' ' || pg_get_triggerdef(t.oid)
    FROM rel JOIN pg_trigger t ON t.tgrelid = rel.oid WHERE NOT t.tgisinternal
  UNION ALL
    SELECT 'function ' || p.proname || ' ' || md5(p.prosrc)
    FROM owned JOIN pg_proc p ON p.oid = owned.objid WHERE owned.classid = 'pg_proc'::regclass
) AS lines
"""


class SchemaPool:
    """The test schemas of one PostgreSQL database, and the migrated spares (see the module's
    docstring). One per process: each pytest-xdist worker has its own, and every name is
    random."""

    def __init__(self, url: str) -> None:
        self.url = url
        # No parallel workers: starting them costs more than these small catalog reads.
        self.admin = create_engine(url, isolation_level="AUTOCOMMIT", pool_size=1, connect_args={
            "options": "-c max_parallel_workers_per_gather=0"})
        self.spares: list[str] = []
        self.empty: set[str] = set()  # test schemas as made, nothing in them yet
        self.filled: set[str] = set()  # test schemas that were spares: recycled afterwards
        self.shape: _Shape | None = None
        self.seeds: dict[str, tuple[str, Any]] = {}  # key -> (the SQL filling a schema, value)
        self.templates: list[str] = []  # the seeds' schemas
        with self.admin.connect() as conn:
            self.superuser = bool(conn.exec_driver_sql(
                "SELECT rolsuper FROM pg_roles WHERE rolname = current_user").scalar())

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
        if schema not in self.empty or not self.superuser:
            return False
        with self.admin.connect() as conn:
            if conn.exec_driver_sql(
                    "SELECT EXISTS (SELECT FROM pg_depend d JOIN pg_namespace n ON n.oid = d.refobjid"
                    " WHERE d.refclassid = 'pg_namespace'::regclass AND n.nspname = %(name)s)",
                    {"name": schema}).scalar():
                self.empty.discard(schema)
                return False
        spare = self.spares.pop() if self.spares else self._new_spare()
        with self.admin.connect() as conn:
            # One message of two statements: one transaction (the admin's are autocommit).
            conn.exec_driver_sql(f'DROP SCHEMA "{schema}"; ALTER SCHEMA "{spare}" RENAME TO "{schema}"')
        self.empty.discard(schema)
        self.filled.add(schema)
        return True

    def restore(self, url: str, key: str, build: Callable[[Engine], Any]) -> bool:
        """Make the schema ``url`` works in a copy of ``key``'s template (built first if need
        be); False when it is not one of :meth:`scratch`'s, or no superuser."""
        schema = _schema(url)
        if not self.superuser or schema not in self.empty | self.filled | set(self.templates):
            return False
        if schema in self.empty and not self.fill(url):
            return False
        if key not in self.seeds:
            self.seeds[key] = self._seed(build)
        with self.admin.connect() as conn:
            conn.exec_driver_sql(self.seeds[key][0].replace("{target}", schema))
        return True

    def _seed(self, build: Callable[[Engine], Any]) -> tuple[str, Any]:
        """A template built by ``build`` in a spare of its own, kept for the session, and the
        SQL that copies it into a schema (``{target}`` in it, the schema's name)."""
        assert self.shape is not None
        template = self.spares.pop() if self.spares else self._new_spare()
        self.templates.append(template)
        engine = make_engine(scoped(self.url, template))
        try:
            value = build(engine)
        finally:
            engine.dispose()
        with self.admin.connect() as conn:
            full = [t for t in self.shape.tables if conn.exec_driver_sql(
                f'SELECT EXISTS (SELECT FROM "{template}"."{t}")').scalar()]
            sequences = [(name, *conn.exec_driver_sql(
                f'SELECT last_value, is_called FROM "{template}"."{name}"').one())
                for name in self.shape.sequences]
        sql = ["SET LOCAL session_replication_role = replica"]
        sql += [f'DELETE FROM "{{target}}"."{t}"' for t in self.shape.tables]
        sql += [f'INSERT INTO "{{target}}"."{t}" SELECT * FROM "{template}"."{t}"' for t in full]
        sql += [f"SELECT setval('\"{{target}}\".\"{name}\"', {last}, {called})"
                for name, last, called in sequences]
        return ";".join(sql), value

    def close(self) -> None:
        # Connections kept from before a server restart (the resilience suite stops PostgreSQL
        # on purpose) are dead: the drops take new ones.
        self.admin.dispose()
        while self.spares:
            self._drop(self.spares.pop())
        while self.templates:
            self._drop(self.templates.pop())
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
                names = conn.exec_driver_sql(
                    "SELECT relkind::text, relname FROM pg_class WHERE relnamespace ="
                    " %(name)s::text::regnamespace AND relkind IN ('r', 'S')"
                    " AND relname <> 'alembic_version' ORDER BY relname", {"name": spare}).all()
                self.shape = _Shape(_fingerprint(conn, spare),
                                    tuple(name for kind, name in names if kind == "r"),
                                    tuple(name for kind, name in names if kind == "S"))
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
