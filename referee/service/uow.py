"""The unit of work: one use case's one transaction, what it looked up once in it, and what it
does once that has committed; where units of work come from (:class:`Units`); and how a use
case is given one (:func:`use_case`).

Every use case is a handler given its unit of work (``def table(self, uow, club, ...)``): it
reads and writes through ``uow`` alone, and so reads one consistent snapshot and writes
atomically, and one use case builds on another by calling its handler in the same unit of work
(``svc.standings.table.within(uow, club, ...)``). Its entry, what the API, the CLI and the pages
call (``svc.standings.table(club, ...)``), opens the unit of work the use case is declared to
take (``@use_case(READ)``) and hands it over. That declaration is the one place which engine a
use case reads: see :class:`Kind`. No use case holds an engine.

What must happen only once the writes are durable (telling the scoreboards, putting a replayed
match back in the repository's cache, asking for the ratings' catch-up, signing an acta) is
registered with :meth:`UnitOfWork.after_commit` and runs after the commit, never after a
rollback.

``memo`` holds what a use case looks up more than once in its transaction (the club's row, its
players' names), so a page reads each once (:meth:`UnitOfWork.remember`).
"""

from __future__ import annotations

import enum
import functools
import logging
import threading
import time
from contextlib import ExitStack, contextmanager
from typing import Any, Callable, Concatenate, Generic, Iterator, ParamSpec, TypeVar, overload

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import DBAPIError

from ..store import db
from .errors import database_unavailable, schema_behind

log = logging.getLogger("domino.service")

P = ParamSpec("P")
R = TypeVar("R")
S = TypeVar("S")
T = TypeVar("T")


class Kind(enum.Enum):
    """Which transaction a use case takes, on which engine (decided once, at the use case).

    - ``READ``: a read-only snapshot on the *read* engine (``DOMINO_READ_DATABASE_URL``; by
      default the primary): what anyone may be shown a moment late, because nobody acts on it
      at once and nobody has just written it: the public pages, the standings, the listings,
      the exports, the transparency log, the keys' listing.
    - ``PRIMARY``: a read-only snapshot on the primary: a read that must see every write
      committed before it: the scorekeeper's screen and events, the desks of the referee, the
      director and the secretary (each acts on what it reads, and reads again right after its
      own writes), the live scoreboard (its streams are told of appends by the primary), the
      audit.
    - ``WRITE``: a write transaction on the primary (SQLite: BEGIN IMMEDIATE): every use case
      that records anything, and what it reads to decide.
    - ``SINGLE``: the primary, for a use case whose only write is one compare-and-set
      statement needing no snapshot (an append onto a cached match): on PostgreSQL in
      autocommit, one statement one transaction; on SQLite like ``WRITE``.
    - ``LOOKUP``: the primary, for a read that is one statement (the token lookup every request
      makes): on PostgreSQL in autocommit; on SQLite like ``PRIMARY``.
    """

    READ = "read"
    PRIMARY = "primary"
    WRITE = "write"
    SINGLE = "single"
    LOOKUP = "lookup"


READ, PRIMARY, WRITE, SINGLE, LOOKUP = Kind


class UnitOfWork:
    """One transaction's connection (``conn``), its kind, a memo for what the use case looks up
    more than once in it, and the actions to run once it has committed. ``waited``: the entry
    ran the use case again after waiting for what it found not ready (:class:`NotReady`), and
    it takes what it finds now.

    The transaction begins when the use case first asks for ``conn``: a use case that refuses
    its caller or its input first (as each does) opens none, so a refused request costs no
    connection, no round trip, and on SQLite never takes (nor waits for) the write lock."""

    def __init__(self, engine: Engine, kind: Kind, begin: Callable[[], Connection], *,
                 waited: bool = False) -> None:
        self.engine = engine
        self.kind = kind
        self.waited = waited
        self.memo: dict[Any, Any] = {}
        self._begin = begin
        self._conn: Connection | None = None
        self._after: list[Callable[[], None]] = []

    @property
    def conn(self) -> Connection:
        if self._conn is None:
            self._conn = self._begin()
        return self._conn

    @property
    def writes(self) -> bool:
        return self.kind in (WRITE, SINGLE)

    def remember(self, key: Any, read: Callable[[], T]) -> T:
        """What ``read()`` gives, read once in this unit of work: the first call reads, the
        others are answered from the memo. A use case that changes what ``key`` names forgets
        it (:meth:`forget`)."""
        if key not in self.memo:
            self.memo[key] = read()
        return self.memo[key]

    def forget(self, key: Any) -> None:
        self.memo.pop(key, None)

    def after_commit(self, action: Callable[[], None]) -> None:
        self._after.append(action)

    def _committed(self) -> None:
        for action in self._after:
            try:
                action()
            except Exception:  # noqa: BLE001 - the data is committed; an aftermath never undoes it
                log.exception("an after-commit action failed")


class NotReady(Exception):
    """What a use case read is being brought up to date elsewhere (the ratings, after a ruling
    on an old match): its entry waits for it outside the unit of work (:meth:`wait`), then runs
    the use case again, once, in a unit of work of the same kind marked ``waited``, where the
    use case takes what it finds. A read never brings anything up to date itself."""

    def wait(self, units: "Units", kind: Kind) -> None:
        raise NotImplementedError


class Units:
    """Where units of work come from: the primary (``engine``: every write, and the reads that
    must see them) and the read engine (``read_engine``: the same engine by default, a replica
    by configuration). :class:`Kind` says which use case takes which.

    A replica that cannot be connected to (stopped, unreachable, refusing), or whose schema is
    behind the code's (a statement names a table, column or function of a migration it has not
    replayed yet: :func:`schema_behind`), is passed over: the read it was to serve is served by
    the primary (a read found behind is run again there, from its start: it wrote nothing), as
    are the reads of the next ``REPLICA_RETRY_S`` seconds, without trying the replica again
    meanwhile; then the next read tries it again. The log says so once, until the replica
    serves a read again. A replica is a help, never a way to fail a page."""

    REPLICA_RETRY_S = 5.0

    def __init__(self, engine: Engine, read_engine: Engine | None = None) -> None:
        self.engine = engine
        self.read_engine = read_engine if read_engine is not None else engine
        self._replica_down_until = 0.0  # time.monotonic(): the replica passed over until then
        self._replica_trouble: str | None = None  # why it was passed over, as logged
        self._lock = threading.Lock()
        self._shared = threading.local()  # this thread's shared connection (:meth:`sharing`)

    def engine_of(self, kind: Kind) -> Engine:
        return self.read_engine if kind is READ else self.engine

    @property
    def replica_passed_over(self) -> bool:
        """Whether reads are being sent to the primary because the replica could not be
        reached a moment ago."""
        return time.monotonic() < self._replica_down_until

    @contextmanager
    def sharing(self) -> Iterator[None]:
        """Within the block, this thread's units of work of the kinds that run each statement
        on its own on PostgreSQL (``LOOKUP``, ``SINGLE``: autocommit, no transaction) take one
        connection from the pool and share it, one after the other, instead of checking one
        out and back each: a request's token lookup and its append (what the API's append
        does), a pool checkout and return the fewer. What they run is what they ran: each
        statement its own transaction, on the primary.

        The connection is given back to the pool before any other kind of unit of work takes
        one while it is not in use (so this thread never holds two of the pool's connections
        for it, a pool sized to the threads could otherwise run dry), once one of the units
        sharing it ends with an error (a connection that broke is not lent again, and a failed
        statement leaves nothing behind in autocommit), and at the end of the block. On SQLite
        (``LOOKUP`` and ``SINGLE`` are transactions there) nothing is shared."""
        shared = self._shared
        if self.engine.dialect.name != "postgresql" or getattr(shared, "on", False):
            yield
            return
        shared.on, shared.users, shared.held = True, 0, None
        try:
            yield
        finally:
            shared.on = False
            self._give_back_shared()

    def _shared_connection(self) -> Connection:
        """This thread's shared connection (:meth:`sharing`), checked out at its first use."""
        held: tuple[ExitStack, Connection] | None = self._shared.held
        if held is not None and not held[1].invalidated:
            return held[1]
        self._give_back_shared()
        stack = ExitStack()
        conn = stack.enter_context(_TRANSACTIONS[LOOKUP](self.engine))
        self._shared.held = (stack, conn)
        return conn

    def _give_back_shared(self) -> None:
        held: tuple[ExitStack, Connection] | None = getattr(self._shared, "held", None)
        if held is not None:
            self._shared.held = None
            held[0].close()

    @contextmanager
    def open(self, kind: Kind, *, waited: bool = False) -> Iterator[UnitOfWork]:
        """A unit of work of ``kind``, its transaction begun when first used, committed when
        the block ends without an error (then its after-commit actions run), rolled back
        otherwise."""
        if getattr(self._shared, "on", False):
            if kind in _AUTOCOMMIT:
                with self._sharing_unit(kind, waited) as uow:
                    yield uow
                uow._committed()
                return
            if not self._shared.users:  # not in use: back to the pool before another is taken
                self._give_back_shared()
        engine = self.engine_of(kind)
        if engine is not self.engine and self.replica_passed_over:
            engine = self.engine
        with ExitStack() as transaction:
            def begin() -> Connection:
                if uow.engine is not self.engine:
                    try:
                        return transaction.enter_context(_TRANSACTIONS[kind](uow.engine))
                    except DBAPIError as error:
                        # Entering a transaction only connects (psycopg sends its BEGIN with
                        # the first statement): this replica cannot be reached.
                        if not database_unavailable(error):
                            raise
                        self._pass_over_replica(error, _UNREACHABLE)
                        uow.engine = self.engine
                return transaction.enter_context(_TRANSACTIONS[kind](self.engine))

            uow = UnitOfWork(engine, kind, begin, waited=waited)
            yield uow
        if self._replica_trouble is not None and uow.engine is not self.engine \
                and uow._conn is not None:
            self._replica_serves_again()
        uow._committed()

    @contextmanager
    def _sharing_unit(self, kind: Kind, waited: bool) -> Iterator[UnitOfWork]:
        """A unit of work of ``kind`` (``LOOKUP``, ``SINGLE``) on the shared connection."""
        shared = self._shared
        uow = UnitOfWork(self.engine, kind, self._shared_connection, waited=waited)
        shared.users += 1
        try:
            yield uow
        except BaseException:
            shared.users -= 1
            if uow._conn is not None and not shared.users:
                self._give_back_shared()  # as the unit's own connection would have gone back
            raise
        shared.users -= 1

    def _pass_over_replica(self, error: Exception, why: str) -> None:
        with self._lock:
            self._replica_down_until = time.monotonic() + self.REPLICA_RETRY_S
            first, self._replica_trouble = self._replica_trouble != why, why
        if first:  # once an outage, not every REPLICA_RETRY_S while it lasts
            log.warning("the read replica %s (%s); its reads go to the primary, tried again every "
                        "%g s", why, str(error).splitlines()[0] if str(error) else type(error).__name__,
                        self.REPLICA_RETRY_S)

    def _replica_serves_again(self) -> None:
        with self._lock:
            was, self._replica_trouble = self._replica_trouble, None
        if was is not None:
            log.info("the read replica serves reads again")

    def run(self, kind: Kind, handler: Callable[[UnitOfWork], R]) -> R:
        """``handler(uow)`` in a unit of work of ``kind``; when it finds something not ready
        (:class:`NotReady`), again once that has been waited for."""
        try:
            return self._run(kind, handler, waited=False)
        except NotReady as late:
            late.wait(self, kind)
        return self._run(kind, handler, waited=True)

    def _run(self, kind: Kind, handler: Callable[[UnitOfWork], R], *, waited: bool) -> R:
        """``handler(uow)`` in a unit of work of ``kind``; on the replica, when a statement finds
        its schema behind (:func:`schema_behind`), the replica passed over and the handler run
        again on the primary: a READ wrote nothing, and its transaction (aborted, on
        PostgreSQL) is rolled back first."""
        uow: UnitOfWork | None = None
        try:
            with self.open(kind, waited=waited) as uow:
                return handler(uow)
        except DBAPIError as error:
            if uow is None or uow.engine is self.engine or not schema_behind(error):
                raise
            self._pass_over_replica(error, _BEHIND)
        with self.open(kind, waited=waited) as uow:
            return handler(uow)


# Why the replica was passed over, as the log says it.
_UNREACHABLE = "cannot be reached"
_BEHIND = "is behind the schema (a migration it has not replayed yet)"

# The kinds whose statements each commit on their own on PostgreSQL (db.optimistic, db.lookup):
# a connection may pass from one such unit of work to the next (Units.sharing).
_AUTOCOMMIT = frozenset({SINGLE, LOOKUP})

_TRANSACTIONS: dict[Kind, Callable[[Engine], Any]] = {
    READ: db.reading, PRIMARY: db.reading, WRITE: db.writing, SINGLE: db.optimistic,
    LOOKUP: db.lookup}


class UseCase(Generic[S, P, R]):
    """A use case's handler (``handler(self, uow, ...)``) and the kind of unit of work its
    entry opens (see :func:`use_case`)."""

    def __init__(self, kind: Kind, handler: Callable[Concatenate[S, UnitOfWork, P], R]) -> None:
        self.kind = kind
        self.handler = handler
        functools.update_wrapper(self, handler)  # type: ignore[arg-type]

    def __set_name__(self, owner: type, name: str) -> None:
        USE_CASES[f"{owner.__qualname__}.{name}"] = self.kind

    @overload
    def __get__(self, holder: None, owner: type) -> "UseCase[S, P, R]": ...

    @overload
    def __get__(self, holder: S, owner: type) -> "Entry[P, R]": ...

    def __get__(self, holder: Any, owner: type) -> Any:
        return self if holder is None else Entry(self, holder)

    def __call__(self, holder: S, *args: P.args, **kwargs: P.kwargs) -> R:
        """Called on the class with its holder, as an unbound method is: its entry."""
        return Entry(self, holder)(*args, **kwargs)


class Entry(Generic[P, R]):
    """A use case as its callers see it: called, it opens its unit of work
    (``holder.units``) and runs the handler in it; :meth:`within` runs the handler in a unit of
    work the caller holds (a use case built on others)."""

    def __init__(self, case: UseCase[Any, P, R], holder: Any) -> None:
        self._case = case
        self._holder = holder
        self.__doc__ = case.handler.__doc__

    @property
    def kind(self) -> Kind:
        return self._case.kind

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        units: Units = self._holder.units
        return units.run(self._case.kind, lambda uow: self._case.handler(
            self._holder, uow, *args, **kwargs))

    def within(self, uow: UnitOfWork, *args: P.args, **kwargs: P.kwargs) -> R:
        return self._case.handler(self._holder, uow, *args, **kwargs)


# Every use case declared, by "Class.method", with its kind: what docs/service.md lists.
USE_CASES: dict[str, Kind] = {}


def use_case(kind: Kind) -> Callable[[Callable[Concatenate[S, UnitOfWork, P], R]],
                                     UseCase[S, P, R]]:
    """Declare a method ``(self, uow, ...)`` of an object holding ``units`` a use case taking a
    unit of work of ``kind``: ``obj.method(...)`` opens one and runs the method in it,
    ``obj.method.within(uow, ...)`` runs it in the caller's."""

    def declare(handler: Callable[Concatenate[S, UnitOfWork, P], R]) -> UseCase[S, P, R]:
        return UseCase(kind, handler)

    return declare
