"""Telling the other processes that a match moved, and what a live scoreboard reads.

On PostgreSQL, once appends have committed, this process's :class:`Notifier` tells every
process listening on the channel (``pg_notify``), whichever worker or machine appended: the
transport between workers is PostgreSQL, not memory. The service hands it each committed append
(never one that rolled back, was refused or found its seq taken).

Why after the commit, and why batched: NOTIFY takes a database-wide lock from the start of its
transaction's commit to its end, so appends that notify in their own transaction commit one at
a time. Measured with 8 threads appending at once (PostgreSQL 15, this project's 2-core
machine), notifying inside the append's statement cut appends to 35-45 % of the rate without
notifications. A notification of its own after each commit kept 75-85 %, but doubled the
transactions (and round trips) an append costs. So one thread a process gathers what was
committed for :data:`BATCH_SECONDS` and sends it all in one statement (one transaction,
committed asynchronously: ``synchronous_commit`` off, a notification is not data); under load a
batch carries many appends, and an idle table's append goes out within the window. The price:
a process that dies between an append's commit and its batch loses those notifications, which
the listeners' periodic poll repairs (referee.service.live RESYNC_SECONDS); a command that exits
sends what it holds first.

The channel is ``domino_events`` when the tables are in the ``public`` schema, else
``domino_events_<schema>``: NOTIFY is database-wide, and two services (or two test runs) in two
schemas of one database must not hear each other. The database works the name out itself
(``current_schema()``), for the sender as for the listener. A payload is one or more lines
``<club>:<match_id>:<seq>`` (a club's slug holds no colon), at most :data:`PAYLOAD_BYTES`.

SQLite has no notifications: a scoreboard there polls :func:`last_seqs` (a PostgreSQL listener
also polls it now and then, to catch a table created since and anything missed while its
connection was down).
"""

from __future__ import annotations

import atexit
import datetime as dt
import logging
import threading
import time
from typing import Any, Iterable, NamedTuple

from sqlalchemy import (
    ARRAY,
    Connection,
    Engine,
    Row,
    Text,
    bindparam,
    case,
    func,
    literal,
    or_,
    select,
)
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.sql.elements import ColumnElement

from ..core.vocab import ABANDONED, whole_number
from .schema import clubs, matches

CHANNEL = "domino_events"
log = logging.getLogger("domino.live")


class Notice(NamedTuple):
    """One notification: match ``match_id`` of ``club`` holds events up to ``seq``."""

    club: str
    match_id: int
    seq: int

    @classmethod
    def parse(cls, payload: str) -> "Notice | None":
        """The notice a payload names; None for anything else (not ours: ignored)."""
        club, _, rest = payload.partition(":")
        match_id, _, seq = rest.partition(":")
        number, last = whole_number(match_id), whole_number(seq)
        if not club or number is None or last is None:
            return None
        return cls(club, number, last)

    @classmethod
    def parse_all(cls, payload: str) -> list["Notice"]:
        """The notices a payload's lines name (anything else: ignored)."""
        return [n for line in payload.splitlines() if (n := cls.parse(line)) is not None]

    def line(self) -> str:
        return f"{self.club}:{self.match_id}:{self.seq}"


def channel_sql() -> ColumnElement[Any]:
    """The channel's name, as the database works it out (see the module's docstring)."""
    schema = func.current_schema()
    return literal(CHANNEL, Text) + case((schema == "public", ""), else_="_" + schema)


BATCH_SECONDS = 0.1
PAYLOAD_BYTES = 7000  # PostgreSQL takes up to 8000 bytes a payload

# One statement, one round trip, its own transaction (the connection is in autocommit): a
# notification for each payload of the array.
_PAYLOAD = func.unnest(bindparam("payloads", type_=ARRAY(Text))).column_valued("payload")
_SEND = select(func.set_config("synchronous_commit", "off", True),
               select(func.count(func.pg_notify(channel_sql(), _PAYLOAD))).scalar_subquery())


def payloads(notices: Iterable[Notice]) -> list[str]:
    """The notices as payloads of at most PAYLOAD_BYTES, the newest seq of each match only."""
    newest: dict[int, Notice] = {}
    for notice in notices:
        if notice.match_id not in newest or newest[notice.match_id].seq < notice.seq:
            newest[notice.match_id] = notice
    found: list[str] = []
    lines: list[str] = []
    size = 0
    for notice in newest.values():
        line = notice.line()
        if lines and size + len(line) + 1 > PAYLOAD_BYTES:
            found.append("\n".join(lines))
            lines, size = [], 0
        lines.append(line)
        size += len(line) + 1
    if lines:
        found.append("\n".join(lines))
    return found


class Notifier:
    """This process's sender of notifications (PostgreSQL; on SQLite :meth:`tell` does
    nothing): :meth:`tell` queues a committed append, and a thread of its own sends what
    BATCH_SECONDS gathered as one statement. A failure is logged, never raised: the appends
    stand, and the listeners' next poll finds them."""

    def __init__(self, engine: Engine, *, batch_seconds: float = BATCH_SECONDS) -> None:
        self.engine = engine
        self.batch_seconds = batch_seconds
        self.enabled = engine.dialect.name == "postgresql"
        self._queue: list[Notice] = []
        self._lock = threading.Lock()
        self._sending = threading.Lock()  # one batch at a time, in the order they were told
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._closed = False
        self.batches = 0  # statements sent, for the benches and tests

    def tell(self, club: str, match_id: int, seq: int) -> None:
        if not self.enabled or self._closed:
            return
        with self._lock:
            self._queue.append(Notice(club, match_id, seq))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="domino-notify",
                                                daemon=True)
                self._thread.start()
                atexit.register(self.flush)
        self._wake.set()

    def flush(self) -> None:
        """Send what is queued now (what a command does before it exits); once it returns,
        everything told before has been sent."""
        with self._sending:
            with self._lock:
                notices, self._queue = self._queue, []
            if notices:
                self._send(notices)

    def close(self) -> None:
        """Send what is queued, then nothing more: the thread ends, and no batch can open a
        connection on an engine its owner has disposed (which would hold it for good)."""
        self._closed = True
        self.flush()
        self._wake.set()

    def _run(self) -> None:
        while not self._closed:
            self._wake.wait()
            self._wake.clear()
            if self._closed:
                return
            time.sleep(self.batch_seconds)  # gather the window's appends into one statement
            self.flush()

    def _send(self, notices: list[Notice]) -> None:
        try:
            with self.engine.connect() as conn:
                conn.execution_options(isolation_level="AUTOCOMMIT")
                conn.execute(_SEND, {"payloads": payloads(notices)})
            self.batches += 1
        except SQLAlchemyError as error:
            log.warning("scoreboard notifications for %d appends not sent (%s: %s); the next poll "
                        "finds them", len(notices), type(error).__name__, error)


class Listener:
    """A connection of its own that LISTENs on the channel (PostgreSQL only).

    It is taken from the engine's pool and detached, so it has the engine's settings (host,
    schema, timeouts) but never goes back to the pool holding a LISTEN. One per process is
    enough: whoever owns it fans the notices out."""

    def __init__(self, engine: Engine) -> None:
        raw = engine.raw_connection()
        self._conn: Any = raw.driver_connection  # a psycopg.Connection
        raw.detach()
        self._conn.autocommit = True
        name = self._conn.execute(
            str(select(channel_sql()).compile(engine, compile_kwargs={"literal_binds": True}))
        ).fetchone()[0]
        quoted = engine.dialect.identifier_preparer.quote_identifier(name)
        self._conn.execute(f"LISTEN {quoted}")
        self.channel: str = name

    def wait(self, timeout: float) -> list[Notice]:
        """The notices that arrive within ``timeout`` seconds: as soon as one does, with any
        others already received (a burst comes back as one batch)."""
        got = list(self._conn.notifies(timeout=timeout, stop_after=1))
        if got:
            got += self._conn.notifies(timeout=0.0)
        return [n for got_one in got if got_one.channel == self.channel
                for n in Notice.parse_all(got_one.payload)]

    def close(self) -> None:
        try:
            self._conn.close()
        except Exception:  # closing a connection the server dropped already
            pass


def board_condition(on_or_after: str) -> ColumnElement[bool]:
    """The matches a club's scoreboard follows: those in play, and those played on or after the
    date ``on_or_after`` (YYYY-MM-DD; the night's, finished, or withdrawn: a stream's last
    update of a table withdrawn takes it off the board)."""
    return or_(matches.c.status == "in_progress", matches.c.played_on >= on_or_after)


def board_rows(conn: Connection, club_id: int, on_or_after: str | None,
               ids: Iterable[int] | None = None) -> list[Row]:
    """The club's scoreboard matches (see board_condition; ``on_or_after`` None: any date),
    each with its club's slug; only those of ``ids`` when given."""
    query = (select(matches, clubs.c.slug.label("club"))
             .join(clubs, clubs.c.id == matches.c.club_id)
             .where(matches.c.club_id == club_id))
    if on_or_after is not None:  # the board as it stands: no table withdrawn
        query = query.where(board_condition(on_or_after), matches.c.status != ABANDONED)
    if ids is not None:
        query = query.where(matches.c.id.in_(list(ids)))
    return conn.execute(query.order_by(matches.c.id)).all()


def last_seqs(conn: Connection, club_ids: Iterable[int], on_or_after: str) -> list[Row]:
    """(id, club_id, last_seq, updated_at) of the scoreboard matches of ``club_ids``: what a
    poll compares with what it saw last."""
    return conn.execute(
        select(matches.c.id, matches.c.club_id, matches.c.last_seq, matches.c.updated_at)
        .where(matches.c.club_id.in_(list(club_ids)), board_condition(on_or_after))).all()


def changed_since(conn: Connection, club_id: int, on_or_after: str,
                  since: dt.datetime) -> list[int]:
    """The ids of the club's scoreboard matches recorded to at or after ``since``."""
    return list(conn.execute(
        select(matches.c.id).where(matches.c.club_id == club_id, board_condition(on_or_after),
                                   matches.c.updated_at >= since)
        .order_by(matches.c.id)).scalars())
