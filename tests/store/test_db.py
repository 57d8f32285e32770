"""referee.store.db: which database one setting picks, and how long it may keep anyone waiting."""

from __future__ import annotations

import os
import sqlite3
import threading
import time
import uuid
from pathlib import Path
from typing import Any, Iterator

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError

from referee.store import db
from referee.store.db import Timeouts, database_url, make_engine


def test_the_url_is_the_argument_then_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOMINO_DATABASE_URL", "postgresql+psycopg://u@h/db")
    assert database_url("sqlite:///x.db") == "sqlite:///x.db"
    assert database_url() == "postgresql+psycopg://u@h/db"


def test_the_default_is_domino_db_in_the_data_dir_or_here(monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:
    monkeypatch.delenv("DOMINO_DATABASE_URL", raising=False)
    monkeypatch.delenv("DOMINO_DATA_DIR", raising=False)
    monkeypatch.chdir(tmp_path)
    assert database_url() == f"sqlite:///{tmp_path / 'domino.db'}"
    data = tmp_path / "data" / "club"
    monkeypatch.setenv("DOMINO_DATA_DIR", str(data))
    assert database_url() == f"sqlite:///{data / 'domino.db'}"
    assert data.is_dir()  # created, so that SQLite can make its file there


# ---------------------------------------------------------------------------- timeouts

TIMEOUT_VARIABLES = ("DOMINO_DB_CONNECT_TIMEOUT_S", "DOMINO_DB_STATEMENT_TIMEOUT_MS",
                     "DOMINO_DB_LOCK_TIMEOUT_MS", "DOMINO_DB_POOL_TIMEOUT_S",
                     "DOMINO_DB_BUSY_TIMEOUT_MS", "DOMINO_DB_PING_AFTER_S")


@pytest.fixture
def no_timeout_variables(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for variable in TIMEOUT_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    return monkeypatch


def test_timeouts_have_defaults_and_environment_overrides(
        no_timeout_variables: pytest.MonkeyPatch) -> None:
    assert Timeouts.from_environment() == Timeouts(connect_s=5, statement_ms=10_000, lock_ms=5_000,
                                                   pool_s=10.0, busy_ms=10_000, ping_after_s=1.0)
    no_timeout_variables.setenv("DOMINO_DB_STATEMENT_TIMEOUT_MS", "2500")
    no_timeout_variables.setenv("DOMINO_DB_PING_AFTER_S", "0.5")
    no_timeout_variables.setenv("DOMINO_DB_LOCK_TIMEOUT_MS", " ")  # blank: the default
    found = Timeouts.from_environment()
    assert (found.statement_ms, found.ping_after_s, found.lock_ms) == (2500, 0.5, 5_000)
    for bad in ("soon", "-1", "1.5"):
        no_timeout_variables.setenv("DOMINO_DB_STATEMENT_TIMEOUT_MS", bad)
        with pytest.raises(ValueError, match="DOMINO_DB_STATEMENT_TIMEOUT_MS"):
            Timeouts.from_environment()


def test_sqlite_busy_timeout_is_a_setting(no_timeout_variables: pytest.MonkeyPatch,
                                          tmp_path: Path) -> None:
    no_timeout_variables.setenv("DOMINO_DB_BUSY_TIMEOUT_MS", "1234")
    engine = make_engine(f"sqlite:///{tmp_path / 'x.db'}")
    try:
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 1234
    finally:
        engine.dispose()


def write_locked(other: sqlite3.Connection) -> bool:
    """Whether another connection holds the file's write lock: ``other`` (timeout 0, autocommit)
    cannot BEGIN IMMEDIATE."""
    try:
        other.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as error:
        assert "locked" in str(error)
        return True
    other.execute("ROLLBACK")
    return False


def test_sqlite_writes_take_the_lock_at_begin_and_reads_never(tmp_path: Path) -> None:
    """A write transaction holds SQLite's write lock from its BEGIN (IMMEDIATE), a read-only
    one takes none, and a read's mark (db.reading) does not outlive it on the pooled
    connection: the next write on that very connection takes the lock again."""
    path = tmp_path / "x.db"
    engine = make_engine(f"sqlite:///{path}")
    other = sqlite3.connect(path, timeout=0, isolation_level=None)

    def locked() -> bool:
        return write_locked(other)

    try:
        with db.writing(engine) as conn:
            first = conn.connection.driver_connection
            assert locked()
        assert not locked()
        with db.reading(engine) as conn:
            assert conn.connection.driver_connection is first
            conn.exec_driver_sql("SELECT 1").scalar()
            assert not locked()
        with db.optimistic(engine) as conn:
            assert conn.connection.driver_connection is first
            assert locked()
    finally:
        other.close()
        engine.dispose()


@pytest.mark.parametrize("unit", ["writing", "optimistic"])
def test_sqlites_single_write_is_sqlalchemys_transaction(tmp_path: Path, unit: str) -> None:
    """db.optimistic on SQLite begins and commits on sqlite3 itself (db._sqlite_single), where
    db.writing goes through SQLAlchemy's transaction: both hold the same. The write lock from
    the BEGIN; the driver's statements and SQLAlchemy's in one transaction, committed together
    or, on any error, rolled back together; a constraint's error and a busy database as
    SQLAlchemy's own errors, writing nothing; and after each, the pooled connection is as it
    was: the next write takes the lock at its BEGIN, the next read takes none."""
    from sqlalchemy.exc import IntegrityError

    from referee.service.errors import database_unavailable
    from referee.store.driver import driver_count

    path = tmp_path / "x.db"
    # No reset by the pool on return: the unit itself must end what it began.
    engine = make_engine(f"sqlite:///{path}", timeouts=Timeouts(busy_ms=0),
                         pool_reset_on_return=None)
    transaction = getattr(db, unit)
    other = sqlite3.connect(path, timeout=0, isolation_level=None)
    other.execute("CREATE TABLE t (n INTEGER PRIMARY KEY)")

    def locked() -> bool:
        return write_locked(other)

    def stored() -> list[int]:
        return [n for (n,) in other.execute("SELECT n FROM t ORDER BY n")]

    try:
        with transaction(engine) as conn:
            assert locked()
            assert driver_count(conn, "INSERT INTO t VALUES (?)", (1,)) == 1
            assert conn.exec_driver_sql("INSERT INTO t VALUES (2)").rowcount == 1
            assert driver_count(conn, "INSERT INTO t VALUES (?)", (3,)) == 1
            assert conn.exec_driver_sql("SELECT count(*) FROM t").scalar() == 3
        assert not locked() and stored() == [1, 2, 3]
        with pytest.raises(RuntimeError), transaction(engine) as conn:
            driver_count(conn, "INSERT INTO t VALUES (?)", (4,))
            conn.exec_driver_sql("INSERT INTO t VALUES (5)")
            raise RuntimeError("taken back")
        assert not locked() and stored() == [1, 2, 3]
        with pytest.raises(IntegrityError), transaction(engine) as conn:
            driver_count(conn, "INSERT INTO t VALUES (?)", (6,))
            driver_count(conn, "INSERT INTO t VALUES (?)", (1,))
        with pytest.raises(IntegrityError), transaction(engine) as conn:
            driver_count(conn, "INSERT INTO t VALUES (?)", (7,))
            conn.exec_driver_sql("INSERT INTO t VALUES (1)")
        assert not locked() and stored() == [1, 2, 3]
        other.execute("BEGIN IMMEDIATE")
        try:
            with pytest.raises(OperationalError) as busy, transaction(engine):
                pass
            assert database_unavailable(busy.value)
        finally:
            other.execute("ROLLBACK")
        with db.reading(engine) as conn:  # the pool's one connection (a file's: a queue pool)
            conn.exec_driver_sql("SELECT 1").scalar()
            assert not locked()
        with db.writing(engine) as conn:
            assert locked()
        with transaction(engine) as conn:
            assert locked()
        assert stored() == [1, 2, 3]
    finally:
        other.close()
        engine.dispose()


def _pg_url(tmp_schema_url: str, **query: str) -> str:
    return make_url(tmp_schema_url).update_query_dict(query).render_as_string(hide_password=False)


@pytest.fixture
def pg_url(no_timeout_variables: pytest.MonkeyPatch) -> Iterator[str]:
    url = os.environ.get("DOMINO_TEST_DATABASE_URL")
    if not url:
        pytest.skip("DOMINO_TEST_DATABASE_URL is not set")
    with db.scratch_schema(url, prefix="test") as scoped:
        yield scoped


def _show(engine: Any, setting: str) -> str:
    with engine.connect() as conn:
        return conn.exec_driver_sql(f"SHOW {setting}").scalar()


def test_postgresql_connections_carry_the_timeouts(pg_url: str,
                                                    no_timeout_variables: pytest.MonkeyPatch) -> None:
    engine = make_engine(pg_url)
    try:
        assert (_show(engine, "statement_timeout"), _show(engine, "lock_timeout")) == ("10s", "5s")
        assert _show(engine, "search_path").startswith("test_")  # the URL's own options kept
        # No generic plans: one made while the tables were small scanned every event on each
        # append (referee.store.db._libpq_args).
        assert _show(engine, "plan_cache_mode") == "force_custom_plan"
        assert engine.pool.timeout() == 10.0
    finally:
        engine.dispose()
    no_timeout_variables.setenv("DOMINO_DB_STATEMENT_TIMEOUT_MS", "1234")
    no_timeout_variables.setenv("DOMINO_DB_LOCK_TIMEOUT_MS", "0")
    engine = make_engine(pg_url)
    try:
        assert (_show(engine, "statement_timeout"), _show(engine, "lock_timeout")) == ("1234ms", "0")
    finally:
        engine.dispose()
    # The URL's own options say last, so they win.
    own = make_url(pg_url)
    options = own.query["options"] + " -c statement_timeout=777"
    engine = make_engine(own.update_query_dict({"options": options}).render_as_string(hide_password=False))
    try:
        assert _show(engine, "statement_timeout") == "777ms"
    finally:
        engine.dispose()


def test_the_pool_holds_a_connection_for_every_request_thread(
        pg_url: str, no_timeout_variables: pytest.MonkeyPatch) -> None:
    """No overflow to close connections after use: the pool is the process's cap, sized for
    its threads (at least 20), unless DOMINO_DB_POOL_SIZE says otherwise."""
    no_timeout_variables.delenv("DOMINO_DB_POOL_SIZE", raising=False)
    for threads, size in ((None, 20), (8, 20), (40, 44)):
        engine = make_engine(pg_url, threads=threads)
        try:
            assert (engine.pool.size(), engine.pool._max_overflow) == (size, 0)  # type: ignore[attr-defined]
        finally:
            engine.dispose()
    no_timeout_variables.setenv("DOMINO_DB_POOL_SIZE", "7")
    engine = make_engine(pg_url, threads=40)
    try:
        assert engine.pool.size() == 7  # type: ignore[attr-defined]
    finally:
        engine.dispose()
    no_timeout_variables.setenv("DOMINO_DB_POOL_SIZE", "none")
    with pytest.raises(ValueError, match="DOMINO_DB_POOL_SIZE"):
        make_engine(pg_url)


def test_a_long_statement_and_a_held_lock_are_cut_short(pg_url: str) -> None:
    engine = make_engine(pg_url, timeouts=Timeouts(statement_ms=500, lock_ms=100))
    try:
        began = time.monotonic()
        with pytest.raises(OperationalError, match="statement timeout"):
            with engine.connect() as conn:
                conn.exec_driver_sql("SELECT pg_sleep(60)")
        with engine.begin() as conn:
            conn.exec_driver_sql("CREATE TABLE held (id int PRIMARY KEY)")
            conn.exec_driver_sql("INSERT INTO held VALUES (1)")
        holder = engine.connect()
        try:
            holder.begin()
            holder.exec_driver_sql("SELECT * FROM held FOR UPDATE")
            with pytest.raises(OperationalError, match="lock timeout"):
                with engine.begin() as conn:
                    conn.exec_driver_sql("UPDATE held SET id = 2")
        finally:
            holder.close()
        assert time.monotonic() - began < 30  # neither the 60 s sleep nor a lock wait ran out
    finally:
        engine.dispose()


def test_an_unreachable_server_fails_fast() -> None:
    engine = make_engine("postgresql+psycopg://postgres@127.0.0.1:1/none")
    try:
        began = time.monotonic()
        with pytest.raises(OperationalError):
            engine.connect()
        assert time.monotonic() - began < 15  # with no connect timeout, libpq waits on
    finally:
        engine.dispose()


def _kill(url: str, name: str) -> None:
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                              "WHERE datname = current_database() AND pid <> pg_backend_pid() "
                              "AND application_name = :name"), {"name": name})
            deadline = time.monotonic() + 60  # generous: a loaded machine
            while time.monotonic() < deadline and conn.execute(text(
                    "SELECT count(*) FROM pg_stat_activity WHERE application_name = :name"),
                    {"name": name}).scalar():
                time.sleep(0.02)
    finally:
        admin.dispose()


def _pooled(engine: Any, count: int) -> list[int]:
    """Check ``count`` connections out at once, then back into the pool; their backend pids."""
    conns = [engine.connect() for _ in range(count)]
    pids = [c.exec_driver_sql("SELECT pg_backend_pid()").scalar() for c in conns]
    for c in conns:
        c.close()
    return pids


def test_connections_the_server_dropped_are_replaced_before_use(pg_url: str) -> None:
    name = f"domino-test-{uuid.uuid4().hex[:12]}"
    engine = make_engine(_pg_url(pg_url, application_name=name))
    try:
        before = _pooled(engine, 3)
        _kill(pg_url, name)
        # Every pooled connection is dead; each checkout finds it so and connects afresh.
        after = _pooled(engine, 3)
        assert not set(before) & set(after)
    finally:
        engine.dispose()


def test_a_silent_dead_connection_is_found_by_the_idle_ping(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # A server gone without a word (a network cut) leaves the socket quiet: only a ping tells.
    monkeypatch.setattr(db, "_has_spoken", lambda connection: False)
    pings: list[int] = []
    real_ping = db._ping
    monkeypatch.setattr(db, "_ping", lambda c: pings.append(1) or real_ping(c))
    name = f"domino-test-{uuid.uuid4().hex[:12]}"
    engine = make_engine(_pg_url(pg_url, application_name=name),
                         timeouts=Timeouts(ping_after_s=0.2))
    try:
        _pooled(engine, 1)
        _pooled(engine, 1)
        assert pings == []  # idle for less than ping_after_s: no round trip
        _kill(pg_url, name)
        time.sleep(0.3)
        with engine.connect() as conn:
            assert conn.exec_driver_sql("SELECT 1").scalar() == 1
        assert pings == [1]
    finally:
        engine.dispose()


def test_many_threads_after_a_kill_get_no_error(pg_url: str) -> None:
    name = f"domino-test-{uuid.uuid4().hex[:12]}"
    engine = make_engine(_pg_url(pg_url, application_name=name), pool_size=4)
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(20):
                with engine.connect() as conn:
                    conn.exec_driver_sql("SELECT 1")
        except BaseException as error:  # noqa: BLE001 - collected for the assert
            errors.append(error)

    try:
        _pooled(engine, 4)
        _kill(pg_url, name)
        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
    finally:
        engine.dispose()
