"""A unit of work: one use case's one transaction, and what it does once that has committed.

Every use case opens exactly one (``with UnitOfWork.reading(engine) as uow:``), passes it to the
queries and the repository it uses, and so reads one consistent snapshot and writes atomically.
What must happen only once the writes are durable (telling the scoreboards, putting a replayed
match back in the repository's cache) is registered with :meth:`UnitOfWork.after_commit` and runs
after the commit, never after a rollback.

Three kinds, by what the use case does:

- ``reading``: a read-only snapshot (on SQLite a deferred BEGIN, so no write lock);
- ``writing``: a write transaction (on SQLite BEGIN IMMEDIATE, the lock taken up front);
- ``single``: a use case whose only write is one compare-and-set statement that needs no
  snapshot (an append onto a cached match). On PostgreSQL that statement runs in autocommit,
  as its own transaction, with no BEGIN and COMMIT round trips; on SQLite, where round trips
  cost nothing and writers queue anyway, it is a write transaction like ``writing``. Anything
  it would read must be immutable or re-checked by the write.
"""

from __future__ import annotations

import logging
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from sqlalchemy import Connection, Engine

from ..store import db

log = logging.getLogger("domino.service")


class UnitOfWork:
    """One transaction's connection (``conn``), a memo for what the use case looks up more
    than once in it (``memo``), and the actions to run once it has committed."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.memo: dict[Any, Any] = {}
        self._after: list[Callable[[], None]] = []

    @property
    def engine(self) -> Engine:
        return self.conn.engine

    def after_commit(self, action: Callable[[], None]) -> None:
        self._after.append(action)

    def _committed(self) -> None:
        for action in self._after:
            try:
                action()
            except Exception:  # noqa: BLE001 - the data is committed; an aftermath never undoes it
                log.exception("an after-commit action failed")

    @classmethod
    @contextmanager
    def _over(cls, transaction: Any) -> Iterator["UnitOfWork"]:
        with transaction as conn:
            uow = cls(conn)
            yield uow
        uow._committed()

    @classmethod
    def reading(cls, engine: Engine) -> Any:
        """A read-only snapshot (db.reading)."""
        return cls._over(db.reading(engine))

    @classmethod
    def writing(cls, engine: Engine) -> Any:
        """A write transaction (db.writing)."""
        return cls._over(db.writing(engine))

    @classmethod
    def single(cls, engine: Engine) -> Any:
        """One optimistic statement's transaction (db.optimistic): an append."""
        return cls._over(db.optimistic(engine))
