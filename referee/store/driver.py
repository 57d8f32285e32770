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

Only on psycopg (PostgreSQL); on any other driver :meth:`DriverStatement.rows` is SQLAlchemy's
``execute``. tests/store/test_store_driver.py holds both ways to the same rows, and
tests/store/test_store.py the append's errors to SQLAlchemy's.
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass
from typing import Any, Callable

from sqlalchemy import Connection
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql.expression import Executable


def driver_rows(conn: Connection, sql: str, params: dict[str, Any]) -> list[Any]:
    """The rows of one statement, ``sql`` in the DBAPI's own paramstyle, run straight on
    ``conn``'s DBAPI connection (in its transaction, or its autocommit), its errors raised as
    SQLAlchemy's own, as :meth:`Connection.execute` would."""
    driver = conn.connection.driver_connection
    try:
        cursor = driver.cursor()
        try:
            cursor.execute(sql, params)
            return cursor.fetchall() if cursor.description is not None else []
        finally:
            cursor.close()
    except conn.dialect.loaded_dbapi.Error as error:
        invalidated = conn.dialect.is_disconnect(error, driver, None)
        if invalidated:
            conn.invalidate(error)
        raise DBAPIError.instance(sql, params, error, conn.dialect.loaded_dbapi.Error,
                                  connection_invalidated=invalidated,
                                  dialect=conn.dialect) from error


@dataclass(frozen=True)
class _Compiled:
    sql: str
    literals: dict[str, Any]  # the statement's own values (a literal 0, say)
    processors: dict[str, Callable[[Any], Any]]  # by parameter: its type's bind processor
    row: Any  # the named tuple of a row


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
        values = {**compiled.literals, **params}
        for name, process in compiled.processors.items():
            values[name] = process(values[name])
        return [compiled.row._make(r) for r in driver_rows(conn, compiled.sql, values)]

    def _compile(self, dialect: Any) -> _Compiled:
        compiled = self.statement.compile(dialect=dialect)
        columns = self.statement.exported_columns  # type: ignore[attr-defined]
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
            row=namedtuple("Row", list(columns.keys()), rename=True))  # type: ignore[misc]
        self._compiled[dialect] = found
        return found


def _processes_results(type_: Any, dialect: Any) -> bool:
    """Whether SQLAlchemy changes what the driver gives for a column of ``type_``."""
    try:
        return type_.dialect_impl(dialect).result_processor(dialect, None) is not None
    except Exception:  # noqa: BLE001 - one that needs the column's type code processes too
        return True
