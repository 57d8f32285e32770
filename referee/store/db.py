"""Connecting to the database, and running the migrations.

One setting picks the database: ``DOMINO_DATABASE_URL`` (for PostgreSQL,
``postgresql+psycopg://user@host:5432/dbname``). Without it, the embedded SQLite file
``domino.db`` is used, in ``DOMINO_DATA_DIR`` when that is set (the directory is created if
need be) and in the current directory otherwise.

SQLite is set up for several writers (API threads, the CLI, other processes): WAL, so readers
never wait for a writer; a busy timeout, so a writer waits for the lock instead of failing; and
``BEGIN IMMEDIATE`` for write transactions, so the lock is taken up front and two writers can
never deadlock upgrading a read lock. Foreign keys are enforced on every connection.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.pool import StaticPool

URL_VARIABLE = "DOMINO_DATABASE_URL"
DATA_DIR_VARIABLE = "DOMINO_DATA_DIR"
SQLITE_FILE = "domino.db"
BUSY_TIMEOUT_MS = 30_000
_READ_ONLY = "domino_read_only"  # an execution option: this transaction writes nothing


def database_url(url: str | None = None) -> str:
    """The URL to use: ``url``, else DOMINO_DATABASE_URL, else the embedded SQLite file."""
    if url:
        return url
    if env := os.environ.get(URL_VARIABLE):
        return env
    directory = Path(os.environ.get(DATA_DIR_VARIABLE) or ".")
    if os.environ.get(DATA_DIR_VARIABLE):
        directory.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{(directory / SQLITE_FILE).absolute()}"


def safe_url(url: str) -> str:
    """The URL without its password, for messages."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def make_engine(url: str | None = None, **kwargs: Any) -> Engine:
    url = database_url(url)
    if url.startswith("sqlite"):
        return _sqlite_engine(url, **kwargs)
    # No pool_pre_ping: it costs a round trip per transaction, a third of an append's. A
    # connection the server dropped fails once and is discarded by the pool; recycling idle
    # connections keeps that rare.
    kwargs.setdefault("pool_recycle", 1800)
    return create_engine(url, **kwargs)


def _sqlite_engine(url: str, **kwargs: Any) -> Engine:
    connect_args = kwargs.pop("connect_args", {})
    connect_args.setdefault("timeout", BUSY_TIMEOUT_MS / 1000)
    connect_args.setdefault("check_same_thread", False)
    if url in ("sqlite://", "sqlite:///:memory:"):
        # One shared connection, or every checkout would see its own empty database.
        kwargs.setdefault("poolclass", StaticPool)
    engine = create_engine(url, connect_args=connect_args, **kwargs)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Take BEGIN away from the sqlite3 module (it would skip it for SELECT and DDL) and
        # emit our own in _on_begin: the documented pysqlite recipe.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA journal_mode = WAL")
        # FULL: a commit is on disk before the append is acknowledged, power cut or not
        # (NORMAL would save an fsync per commit but may lose the last appends on a power cut,
        # and nothing acknowledged may be lost).
        cursor.execute("PRAGMA synchronous = FULL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        if conn.get_execution_options().get(_READ_ONLY):
            conn.exec_driver_sql("BEGIN")  # deferred: a snapshot, no lock
        else:
            conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


@contextmanager
def writing(engine: Engine) -> Iterator[Connection]:
    """A write transaction (BEGIN IMMEDIATE on SQLite), committed on success."""
    with engine.begin() as conn:
        yield conn


@contextmanager
def optimistic(engine: Engine) -> Iterator[Connection]:
    """For a read, then a write that is one compare-and-set statement (an append).

    On PostgreSQL every statement commits on its own: the reads need no snapshot (what they
    read is immutable or re-checked by the write) and the write is atomic by itself, so the
    BEGIN and COMMIT round trips of a transaction would buy nothing. On SQLite, where round
    trips cost nothing and writers queue anyway, it is a BEGIN IMMEDIATE transaction."""
    if engine.dialect.name != "postgresql":
        with writing(engine) as conn:
            yield conn
        return
    with engine.connect() as conn:
        conn.execution_options(isolation_level="AUTOCOMMIT")
        yield conn


@contextmanager
def reading(engine: Engine) -> Iterator[Connection]:
    """A read-only transaction: one consistent snapshot, and on SQLite no write lock."""
    with engine.connect() as conn:
        conn.execution_options(**{_READ_ONLY: True})
        with conn.begin():
            yield conn


@contextmanager
def scratch_schema(url: str, prefix: str = "scratch") -> Iterator[str]:
    """A new empty PostgreSQL schema, for a test or a benchmark: yields a URL whose connections
    work in it (through their search_path, so the tables and alembic's version table land
    there), and drops it afterwards."""
    import uuid

    from sqlalchemy.engine import make_url

    schema = f"{prefix}_{uuid.uuid4().hex[:16]}"
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
        scoped = make_url(url).update_query_dict({"options": f"-csearch_path={schema}"})
        yield scoped.render_as_string(hide_password=False)
        with admin.connect() as conn:
            # A connection left open in a transaction would block the drop for ever; better a
            # stray schema than a hung run.
            conn.exec_driver_sql("SET lock_timeout = '10s'")
            conn.exec_driver_sql(f'DROP SCHEMA "{schema}" CASCADE')
    finally:
        admin.dispose()
