"""Hot statements run straight on the DBAPI connection: SQLAlchemy's statement, compiled once a
dialect, without SQLAlchemy's execution path.

For the statements whose Python matters, run once an append or once a request: the append's
compare-and-set and the token lookup. SQLAlchemy's execution (the compiled cache's lookup, the
parameters' processing, the result's wrapping) cost the compare-and-set some 0.2 ms of 0.9 ms on
this project's 2-core machine, timed statement for statement on one connection. What it would do
that matters is kept: the bind processors of the statement's parameters (the JSONB wrapping of
psycopg), its literals, and its errors as SQLAlchemy's own (an IntegrityError, an
OperationalError; a dropped connection invalidated). A statement whose columns would need a
result processor is refused when it is compiled: the driver's values are the rows' values.

Rows (:meth:`DriverStatement.rows`) only on psycopg (PostgreSQL); a statement that returns no
rows (:meth:`DriverStatement.count`: an UPDATE's or INSERT's row count) on psycopg and on SQLite's
sqlite3 too, where the append's two statements are run so. On any other driver both are
SQLAlchemy's ``execute``. Each pooled connection keeps one cursor for these statements (in its
record's ``info``, so a connection made anew gets a new one): a cursor made for every statement
cost psycopg some 0.03 ms of its set-up (its adapters' map and their dumpers found again).
tests/store/test_store_driver.py holds both ways to the same rows and counts, and
tests/store/test_store.py the append's errors to SQLAlchemy's.
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass
from typing import Any, Callable

from sqlalchemy import Connection
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql.expression import Executable

_CURSOR = "referee.store.driver:cursor"  # the key of a pooled connection's cursor in its info


def _cursor(conn: Connection) -> Any:
    """The cursor ``conn``'s pooled DBAPI connection keeps for these statements."""
    pooled = conn.connection
    driver = pooled.driver_connection
    kept = pooled.info.get(_CURSOR)
    if kept is None or kept[0] is not driver:  # none yet, or made on a connection since replaced
        kept = pooled.info[_CURSOR] = (driver, driver.cursor())
    return kept[1]


def driver_rows(conn: Connection, sql: str, params: Any) -> list[Any]:
    """The rows of one statement that returns rows (a SELECT, a DML with RETURNING), ``sql``
    in the DBAPI's own paramstyle, run straight on ``conn``'s DBAPI connection (in its
    transaction, or its autocommit), its errors raised as SQLAlchemy's own, as
    :meth:`Connection.execute` would. (Not asking the cursor for its description first: psycopg
    builds it anew each time it is asked.)"""
    try:
        cursor = _cursor(conn)
        cursor.execute(sql, params)
        return cursor.fetchall()
    except conn.dialect.loaded_dbapi.Error as error:
        raise _error(conn, sql, params, error) from error


def driver_count(conn: Connection, sql: str, params: Any) -> int:
    """The row count of one statement that returns no rows, run as :func:`driver_rows` runs
    one."""
    try:
        cursor = _cursor(conn)
        cursor.execute(sql, params)
        return cursor.rowcount
    except conn.dialect.loaded_dbapi.Error as error:
        raise _error(conn, sql, params, error) from error


def _error(conn: Connection, sql: str, params: Any, error: Exception) -> DBAPIError:
    """``error`` as SQLAlchemy raises it; a dropped connection invalidated."""
    invalidated = conn.dialect.is_disconnect(error, conn.connection.driver_connection, None)
    if invalidated:
        conn.invalidate(error)
    return DBAPIError.instance(sql, params, error, conn.dialect.loaded_dbapi.Error,
                               connection_invalidated=invalidated, dialect=conn.dialect)


@dataclass(frozen=True)
class _Compiled:
    sql: str
    literals: dict[str, Any]  # the statement's own values (a literal 0, say)
    processors: dict[str, Callable[[Any], Any]]  # by parameter: its type's bind processor
    row: Any  # the named tuple of a row
    positions: tuple[str, ...] | None  # a positional paramstyle's parameters, in order


class DriverStatement:
    """A statement (a select, or a DML with RETURNING) for :meth:`rows`."""

    def __init__(self, statement: Executable) -> None:
        self.statement = statement
        self._compiled: dict[Any, _Compiled] = {}

    def rows(self, conn: Connection, params: dict[str, Any]) -> list[Any]:
        """The statement's rows for ``params`` on ``conn`` (named tuples on psycopg, SQLAlchemy's
        rows elsewhere: both read by name)."""
        if conn.dialect.driver != "psycopg":
            return conn.execute(self.statement, params).all()  # type: ignore[arg-type]
        compiled = self._compiled.get(conn.dialect) or self._compile(conn.dialect)
        return [compiled.row._make(r)
                for r in driver_rows(conn, compiled.sql, _values(compiled, params))]

    def count(self, conn: Connection, params: dict[str, Any]) -> int:
        """The statement's row count for ``params`` on ``conn`` (a statement that returns no
        rows: an UPDATE, an INSERT), on psycopg and sqlite3 run straight on the driver."""
        if conn.dialect.driver not in _COUNTED:
            return conn.execute(self.statement, params).rowcount  # type: ignore[arg-type]
        compiled = self._compiled.get(conn.dialect) or self._compile(conn.dialect, rows=False)
        return driver_count(conn, compiled.sql, _values(compiled, params))

    def _compile(self, dialect: Any, rows: bool = True) -> _Compiled:
        compiled = self.statement.compile(dialect=dialect)
        # Only a statement read for its rows is asked for its columns: SQLAlchemy remembers an
        # UPDATE's (none, with no RETURNING) and a copy made from it by .returning() would
        # keep that memo (events._cas_insert makes one of _SET_PROJECTION).
        columns = (self.statement.exported_columns  # type: ignore[attr-defined]
                   if rows else {})
        for column in columns:
            if _processes_results(column.type, dialect):
                raise TypeError(f"column {column.key!r} needs SQLAlchemy's result processing")
        binds = compiled.binds
        found = _Compiled(
            sql=compiled.string,
            literals={name: bind.value for name, bind in binds.items() if bind.value is not None},
            processors={name: process for name, bind in binds.items()
                        if (process := bind.type.dialect_impl(dialect).bind_processor(dialect))
                        is not None},
            row=namedtuple("Row", list(columns.keys()), rename=True) if rows else None,  # type: ignore[misc]
            positions=tuple(compiled.positiontup) if compiled.positional else None)  # type: ignore[arg-type]
        self._compiled[dialect] = found
        return found


_COUNTED = ("psycopg", "pysqlite")  # the drivers DriverStatement.count runs on directly


def _values(compiled: _Compiled, params: dict[str, Any]) -> Any:
    """The driver's parameters: the statement's literals and ``params``, each through its
    type's bind processor; a tuple in the statement's order for a positional paramstyle."""
    values = {**compiled.literals, **params}
    for name, process in compiled.processors.items():
        values[name] = process(values[name])
    if compiled.positions is not None:
        return tuple(values[name] for name in compiled.positions)
    return values


def _processes_results(type_: Any, dialect: Any) -> bool:
    """Whether SQLAlchemy changes what the driver gives for a column of ``type_``."""
    try:
        return type_.dialect_impl(dialect).result_processor(dialect, None) is not None
    except Exception:  # noqa: BLE001 - one that needs the column's type code processes too
        return True
