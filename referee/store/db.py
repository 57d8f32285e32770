"""Connecting to the database, and running the migrations.

One setting picks the database: ``DOMINO_DATABASE_URL`` (for PostgreSQL,
``postgresql+psycopg://user@host:5432/dbname``). Without it, the embedded SQLite file
``domino.db`` is used, in ``DOMINO_DATA_DIR`` when that is set (the directory is created if
need be) and in the current directory otherwise.

SQLite is set up for several writers (API threads, the CLI, other processes): WAL, so readers
never wait for a writer; a busy timeout, so a writer waits for the lock instead of failing; and
``BEGIN IMMEDIATE`` for write transactions, so the lock is taken up front and two writers can
never deadlock upgrading a read lock. Foreign keys are enforced on every connection.

No request may wait on the database for ever. Each bound is a setting (environment variable,
default):

| environment | default | what |
| --- | --- | --- |
| ``DOMINO_DB_CONNECT_TIMEOUT_S`` | 5 | PostgreSQL: giving up on connecting (libpq ``connect_timeout``) |
| ``DOMINO_DB_STATEMENT_TIMEOUT_MS`` | 10000 | PostgreSQL: a statement running longer is cancelled (``statement_timeout``) |
| ``DOMINO_DB_LOCK_TIMEOUT_MS`` | 5000 | PostgreSQL: waiting for a row or table lock (``lock_timeout``) |
| ``DOMINO_DB_POOL_TIMEOUT_S`` | 10 | waiting for a free connection of the pool |
| ``DOMINO_DB_BUSY_TIMEOUT_MS`` | 10000 | SQLite: a writer waiting for the write lock (``busy_timeout``) |
| ``DOMINO_DB_PING_AFTER_S`` | 1 | PostgreSQL: a pooled connection idle longer is pinged before use |

Nor may one match grow without bound: at most ``DOMINO_MAX_MATCH_EVENTS`` events (default
5000; a long match to 500 points is some 1500) and ``DOMINO_MAX_MATCH_BYTES`` bytes of event
JSON (default 8 MiB) a match. An engine carries its :class:`MatchLimits` (``make_engine(limits=)``,
else those variables) and the store enforces them as it appends.

The PostgreSQL settings travel in the connection's startup packet (``options=-c ...``, no
round trip); options in the URL come after them, so a URL can still override one. 0 turns a
timeout off, as PostgreSQL and SQLite read it.

A process opens at most ``DOMINO_DB_POOL_SIZE`` connections (default: its request threads and
four, the notifier, the scoreboard's listener and poll and a spare; at least 20), each when all
the open ones are in use, and keeps them open. No overflow: SQLAlchemy closes a connection lent
beyond the pool's size when it comes back, so with its default (5, and 10 more) and 16 threads
most requests under load opened a connection of their own, a new PostgreSQL backend each
(py-spy under ``bench/api_bench.py``: a twentieth of the server's time was spent connecting).

Connections the server dropped (a restart, ``pg_terminate_backend``, an idle timeout) are found
before use, not by the request that uses them: at checkout, a pooled connection whose socket has
something to say while idle (the server's goodbye, or its end of the stream) is discarded at the
cost of one poll, no round trip; one idle longer than ``DOMINO_DB_PING_AFTER_S`` is pinged too
(one round trip), for a server that vanished without a word. The pool then connects afresh, so
the first request after a restart is served. ``pool_pre_ping`` would ping every checkout: a
third of an append's cost on PostgreSQL.
"""

from __future__ import annotations

import os
import select
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.pool import StaticPool

from .driver import driver_count

URL_VARIABLE = "DOMINO_DATABASE_URL"
DATA_DIR_VARIABLE = "DOMINO_DATA_DIR"
SQLITE_FILE = "domino.db"
BUSY_TIMEOUT_MS = 10_000
_READ_ONLY = "domino_read_only"  # a borrowed SQLite connection's info: its transaction writes nothing
_IDLE_SINCE = "domino_idle_since"  # a pooled connection's info: when it was checked in
_BEGUN = "domino_begun"  # a borrowed SQLite connection's info: its transaction begun on sqlite3


@dataclass(frozen=True)
class Timeouts:
    """How long the database may keep a request waiting (see the module's table)."""

    connect_s: int = 5
    statement_ms: int = 10_000
    lock_ms: int = 5_000
    pool_s: float = 10.0
    busy_ms: int = BUSY_TIMEOUT_MS
    ping_after_s: float = 1.0

    @classmethod
    def from_environment(cls) -> "Timeouts":
        """The defaults, with each DOMINO_DB_* variable that is set instead."""
        values: dict[str, Any] = {}
        for field, (variable, kind) in _TIMEOUT_VARIABLES.items():
            if text := os.environ.get(variable, "").strip():
                try:
                    value = kind(text)
                except ValueError:
                    raise ValueError(f"{variable} must be a number, not {text!r}") from None
                if value < 0:
                    raise ValueError(f"{variable} must not be negative, not {text!r}")
                values[field] = value
        return cls(**values)


@dataclass(frozen=True)
class MatchLimits:
    """How much one match may hold: events, and bytes of event JSON (UTF-8)."""

    events: int = 5_000
    bytes: int = 8 * 1024 * 1024

    def __post_init__(self) -> None:
        if not (isinstance(self.events, int) and isinstance(self.bytes, int)
                and self.events >= 1 and self.bytes >= 1):
            raise ValueError(f"match limits are whole numbers of at least 1, not {self}")

    @classmethod
    def from_environment(cls) -> "MatchLimits":
        values: dict[str, Any] = {}
        for field, variable in (("events", "DOMINO_MAX_MATCH_EVENTS"),
                                ("bytes", "DOMINO_MAX_MATCH_BYTES")):
            if text := os.environ.get(variable, "").strip():
                values[field] = _positive(variable, text)
        return cls(**values)


POOL_SIZE = 20  # DOMINO_DB_POOL_SIZE; see the module's docstring


def pool_size_from_environment(threads: int | None = None) -> int:
    """DOMINO_DB_POOL_SIZE; else enough for ``threads`` request threads and the process's own
    (the notifier, the scoreboard's listener and poll, one spare), and at least POOL_SIZE."""
    text = os.environ.get("DOMINO_DB_POOL_SIZE", "").strip()
    if text:
        return _positive("DOMINO_DB_POOL_SIZE", text)
    return max(POOL_SIZE, threads + 4) if threads else POOL_SIZE


def _positive(variable: str, text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"{variable} must be a whole number, not {text!r}") from None
    if value < 1:
        raise ValueError(f"{variable} must be at least 1, not {text!r}")
    return value


_LIMITS = "domino_match_limits"  # an engine's execution option: its MatchLimits


def match_limits(bind: Engine | Connection) -> MatchLimits:
    """The limits an engine (or a connection of it) was made with; the defaults for an engine
    not made by :func:`make_engine`."""
    return bind.get_execution_options().get(_LIMITS) or MatchLimits()


_TIMEOUT_VARIABLES = {
    "connect_s": ("DOMINO_DB_CONNECT_TIMEOUT_S", int),
    "statement_ms": ("DOMINO_DB_STATEMENT_TIMEOUT_MS", int),
    "lock_ms": ("DOMINO_DB_LOCK_TIMEOUT_MS", int),
    "pool_s": ("DOMINO_DB_POOL_TIMEOUT_S", float),
    "busy_ms": ("DOMINO_DB_BUSY_TIMEOUT_MS", int),
    "ping_after_s": ("DOMINO_DB_PING_AFTER_S", float),
}


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
    return make_url(url).render_as_string(hide_password=True)


def make_engine(url: str | None = None, *, timeouts: Timeouts | None = None,
                limits: MatchLimits | None = None, threads: int | None = None,
                **kwargs: Any) -> Engine:
    """An engine on ``url`` (see :func:`database_url`), bounded by ``timeouts`` and holding
    matches to ``limits`` (defaults: the DOMINO_* environment, else the defaults), with a pool
    for ``threads`` request threads (:func:`pool_size_from_environment`)."""
    url = database_url(url)
    timeouts = timeouts or Timeouts.from_environment()
    kwargs["execution_options"] = {**kwargs.get("execution_options", {}),
                                   _LIMITS: limits or MatchLimits.from_environment()}
    if url.startswith("sqlite"):
        return _sqlite_engine(url, timeouts, **kwargs)
    kwargs.setdefault("pool_recycle", 1800)
    kwargs.setdefault("pool_timeout", timeouts.pool_s)
    kwargs.setdefault("pool_size", pool_size_from_environment(threads))
    kwargs.setdefault("max_overflow", 0)
    parsed = make_url(url)
    if parsed.get_backend_name() == "postgresql" and parsed.get_driver_name() in ("psycopg", "psycopg2"):
        kwargs["connect_args"] = _libpq_args(parsed, timeouts, kwargs.get("connect_args") or {})
        engine = create_engine(url, **kwargs)
        _find_dropped_connections(engine, timeouts.ping_after_s)
        return engine
    return create_engine(url, **kwargs)


def _libpq_args(url: Any, timeouts: Timeouts, connect_args: dict[str, Any]) -> dict[str, Any]:
    """connect_timeout, statement and lock timeouts, and custom plans only, in the startup
    packet. What the URL (or ``connect_args``) says wins: its options come later, and
    PostgreSQL keeps the last.

    Why custom plans: psycopg prepares a statement run five times, and PostgreSQL may then
    keep one generic plan for the connection's life. Made while the tables were small (a new
    club, a fresh database), the append's generic plan checked the chain link with a
    sequential scan of every event (a hashed subplan), so each append cost more than the one
    before until autovacuum's ANALYZE replanned it: 0.5 ms an append became 2 ms within
    2,000 events (bench/store_bench.py). A custom plan is made for each execution's values
    and is right for the table as it is; it costs the append some 0.3 ms of planning (against
    the generic plan, statement for statement, on this project's 2-core machine), the price of
    never being wrong. A chain check looked up by the parameters instead did not make the
    generic plan safe: made on a fresh database it read a match's events through the
    client-event-id index, and after an ANALYZE of small tables it scanned every event. Since
    migration 0016 the append's statement reads only the match row, and its generic plan made on
    a fresh database is held to that by tests/store/test_store.py; but made after an ANALYZE
    of a few rows, generic plans are sequential scans, the append's of the matches table, a
    lookup of an event by match and seq of the events (checked 3 December), kept until the next
    ANALYZE. So custom plans stay, though on this machine a generic plan would save some 0.1 ms
    a statement (a page's, the token lookup's). The append's is the exception made safe: one
    event is appended by the procedure ``append_event`` (migration 0028, referee.store.events),
    whose own settings (generic plans, no sequential scans) hold for its duration only."""
    args = dict(connect_args)
    if "connect_timeout" not in url.query:
        args.setdefault("connect_timeout", timeouts.connect_s)
    ours = (f"-c statement_timeout={timeouts.statement_ms} -c lock_timeout={timeouts.lock_ms}"
            " -c plan_cache_mode=force_custom_plan")
    theirs = [o for o in (url.query.get("options"), args.get("options")) if isinstance(o, str)]
    args["options"] = " ".join([ours, *theirs])
    return args


def _find_dropped_connections(engine: Engine, ping_after_s: float) -> None:
    """Pooled connections the server dropped are discarded at checkout, before any use (see
    the module's docstring); a DisconnectionError makes the pool connect afresh."""

    @event.listens_for(engine, "checkin")
    def _checkin(dbapi_connection: Any, record: Any) -> None:
        record.info[_IDLE_SINCE] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _checkout(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        since = record.info.pop(_IDLE_SINCE, None)
        if since is None:
            return  # new: just connected
        if _has_spoken(dbapi_connection):
            raise DisconnectionError("the server closed this connection while it was idle")
        if time.monotonic() - since > ping_after_s and not _ping(dbapi_connection):
            raise DisconnectionError("this idle connection no longer answers")


def _has_spoken(dbapi_connection: Any) -> bool:
    """Whether an idle connection's socket is readable: with no query pending, that is the
    server's FATAL goodbye or the end of the stream (no LISTEN is ever issued here)."""
    try:
        fd = dbapi_connection.fileno()
    except Exception:  # noqa: BLE001 - closed, or no socket: dead either way
        return True
    if hasattr(select, "poll"):
        poller = select.poll()
        poller.register(fd, select.POLLIN | select.POLLPRI)
        return bool(poller.poll(0))
    return bool(select.select([fd], [], [], 0)[0])


def _ping(dbapi_connection: Any) -> bool:
    """One round trip (SELECT 1), leaving no transaction open behind it."""
    autocommit = dbapi_connection.autocommit
    try:
        dbapi_connection.autocommit = True  # no BEGIN, and nothing to roll back after
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("SELECT 1")
        finally:
            cursor.close()
        dbapi_connection.autocommit = autocommit
    except Exception:  # noqa: BLE001 - whatever the driver raises, this connection is done
        return False
    return True


def _sqlite_engine(url: str, timeouts: Timeouts, **kwargs: Any) -> Engine:
    connect_args = kwargs.pop("connect_args", {})
    connect_args.setdefault("timeout", timeouts.busy_ms / 1000)
    connect_args.setdefault("check_same_thread", False)
    if url in ("sqlite://", "sqlite:///:memory:"):
        # One shared connection, or every checkout would see its own empty database.
        kwargs.setdefault("poolclass", StaticPool)
    engine = create_engine(url, connect_args=connect_args, **kwargs)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Take BEGIN away from the sqlite3 module (it would skip it for SELECT and DDL) and
        # emit our own (_sqlite_begin): the documented pysqlite recipe.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {timeouts.busy_ms}")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA journal_mode = WAL")
        # FULL: a commit is on disk before the append is acknowledged, power cut or not
        # (NORMAL would save an fsync per commit but may lose the last appends on a power cut,
        # and nothing acknowledged may be lost).
        cursor.execute("PRAGMA synchronous = FULL")
        cursor.close()

    # The BEGIN is the dialect's own step (SQLAlchemy calls ``do_begin`` where a transaction
    # begins, and raises its errors, a busy database, as its own), not a "begin" listener: any
    # listener of the engine's connection events has SQLAlchemy dispatch events at every
    # step of every connection (checkout, begin, each statement, commit, close): some 17 us
    # of an empty write transaction's 65, timed alone (an append is one such transaction).
    engine.dialect.do_begin = _sqlite_begin  # type: ignore[method-assign]
    return engine


def _sqlite_begin(dbapi_connection: Any) -> None:
    """SQLite's BEGIN: deferred in a read-only transaction (:func:`reading`: a snapshot, no
    lock), else IMMEDIATE, every write's (an append's included)."""
    info = dbapi_connection.info
    if info.get(_BEGUN):
        return  # begun on sqlite3 itself (_sqlite_single): SQLAlchemy's transaction runs in it
    read_only = info.get(_READ_ONLY)
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("BEGIN" if read_only else "BEGIN IMMEDIATE")
    finally:
        cursor.close()


@contextmanager
def writing(engine: Engine) -> Iterator[Connection]:
    """A write transaction (BEGIN IMMEDIATE on SQLite), committed on success."""
    with engine.begin() as conn:
        yield conn


def optimistic(engine: Engine) -> Any:
    """For a read, then a write that is one compare-and-set statement (an append).

    On PostgreSQL every statement commits on its own: the reads need no snapshot (what they
    read is immutable or re-checked by the write) and the write is atomic by itself, so the
    BEGIN and COMMIT round trips of a transaction would buy nothing. On SQLite, where round
    trips cost nothing and writers queue anyway, it is a BEGIN IMMEDIATE transaction, begun
    and ended on sqlite3 itself (:func:`_sqlite_single`)."""
    if engine.dialect.driver == "pysqlite":
        return _sqlite_single(engine)  # not through _statements: a generator the fewer
    return _statements(engine, otherwise=writing)


@contextmanager
def _sqlite_single(engine: Engine) -> Iterator[Connection]:
    """SQLite's transaction for :func:`optimistic`: what :func:`writing` does (BEGIN IMMEDIATE,
    committed on success, rolled back on any error, errors as SQLAlchemy's own), with the BEGIN
    and the COMMIT run on the sqlite3 connection (referee.store.driver) instead of through
    SQLAlchemy's transaction, whose bookkeeping an append's unit of work pays for nothing: the
    append's two statements run on the driver too. An empty write transaction, timed alone
    (``db.optimistic``, thread time): 19 µs through ``engine.begin()``, 14 µs so (the pool's
    checkout and return 7 µs of each); an append 3.6 % fewer instructions (callgrind).

    A statement run through SQLAlchemy inside it (a refused append's re-read, a token's last
    use) has SQLAlchemy begin its own transaction, which :func:`_sqlite_begin` leaves inside
    this one (the mark ``_BEGUN``, on the borrowed connection for this block only); it is then
    committed through SQLAlchemy, which commits sqlite3's one transaction. So the block must not
    begin or commit a transaction of its own (``conn.begin()``, ``conn.commit()``; a savepoint
    is fine): ``engine.begin()`` refuses that, here it would commit early. None does: the
    block is a unit of work's, and its use case's statements are all it runs.
    tests/store/test_db.py holds both ways to the same rows, locks and errors."""
    with engine.connect() as conn:
        driver_count(conn, "BEGIN IMMEDIATE", ())
        info = conn.connection.info
        info[_BEGUN] = True
        try:
            yield conn
            if conn.in_transaction():
                conn.commit()
            else:
                driver_count(conn, "COMMIT", ())
        except BaseException:
            if not conn.invalidated:
                try:
                    conn.connection.driver_connection.rollback()  # none open: nothing done
                except Exception as error:  # noqa: BLE001 - a connection that broke: not lent again
                    conn.invalidate(error)
            raise
        finally:
            info.pop(_BEGUN, None)


def lookup(engine: Engine) -> Any:
    """For a read that is one statement (a token's row): one statement is one snapshot by
    itself, so on PostgreSQL it runs in autocommit, without the BEGIN and COMMIT round trips
    of :func:`reading` (two of the three an authenticated request's token lookup cost); on
    SQLite it is :func:`reading`."""
    return _statements(engine, otherwise=reading)


@contextmanager
def _statements(engine: Engine, otherwise: Callable[[Engine], Any]) -> Iterator[Connection]:
    """PostgreSQL: a connection in autocommit, each statement its own transaction; elsewhere
    ``otherwise``'s transaction."""
    if engine.dialect.name != "postgresql":
        with otherwise(engine) as conn:
            yield conn
        return
    with engine.connect() as conn:
        # psycopg's own autocommit, set and taken back here: SQLAlchemy's isolation level
        # (execution_options) set it the same way through its connection characteristics,
        # applied and reset at each checkout, some 0.03 ms of an append's or a token lookup's
        # CPU. SQLAlchemy's BEGIN is psycopg's own (none is sent in autocommit), and its
        # ROLLBACK at the end finds no transaction open.
        driver = conn.connection.driver_connection
        driver.autocommit = True
        try:
            yield conn
        finally:
            if not conn.invalidated:
                try:
                    driver.autocommit = False  # as the pool lends its connections
                except Exception as error:  # noqa: BLE001 - a connection that broke: not lent again
                    conn.invalidate(error)


@contextmanager
def reading(engine: Engine) -> Iterator[Connection]:
    """A read-only transaction: one consistent snapshot (PostgreSQL: REPEATABLE READ, READ
    ONLY; its default, READ COMMITTED, would let each statement see what committed since the
    last), and on SQLite no write lock."""
    with engine.connect() as conn:
        if engine.dialect.name == "postgresql":
            conn.execution_options(isolation_level="REPEATABLE READ", postgresql_readonly=True)
            with conn.begin():
                yield conn
            return
        # SQLite: the mark _sqlite_begin reads, on this borrowed connection for this block only
        info = conn.connection.info
        info[_READ_ONLY] = True
        try:
            with conn.begin():
                yield conn
        finally:
            info.pop(_READ_ONLY, None)


@contextmanager
def scratch_schema(url: str, prefix: str = "scratch") -> Iterator[str]:
    """A new empty PostgreSQL schema, for a test or a benchmark: yields a URL whose connections
    work in it (through their search_path, so the tables and alembic's version table land
    there), and drops it afterwards."""
    import uuid

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
