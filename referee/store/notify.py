"""Telling the other processes that a match moved, and what a live scoreboard reads.

On PostgreSQL, once an append has committed, :func:`send` runs ``pg_notify`` (the repository
calls it after the append's transaction, so never for an append that rolled back, was refused
or found its seq taken). Every process listening on the channel hears it, whichever worker or
machine appended: the transport between workers is PostgreSQL, not memory.

Why after the commit and not inside the append's own statement: NOTIFY takes a database-wide
lock from the start of its transaction's commit to its end, so appends that notify commit one
at a time. Measured with 8 threads appending at once (PostgreSQL 15, this project's 2-core
machine), notifying inside the append's statement cut appends to 35-45 % of the rate without
notifications; a notification of its own after the commit, committed asynchronously
(``synchronous_commit`` off for that one-statement transaction: a notification is not data),
keeps 75-85 %. The price: a process that dies between an append's commit and its notification
(microseconds) loses that one notification, which the listeners' periodic poll repairs
(referee.service.live RESYNC_SECONDS).

The channel is ``domino_events`` when the tables are in the ``public`` schema, else
``domino_events_<schema>``: NOTIFY is database-wide, and two services (or two test runs) in two
schemas of one database must not hear each other. The database works the name out itself
(``current_schema()``), for the sender as for the listener. The payload is
``<club>:<match_id>:<seq>`` (a club's slug holds no colon).

SQLite has no notifications: a scoreboard there polls :func:`last_seqs` (a PostgreSQL listener
also polls it now and then, to catch a table created since and anything missed while its
connection was down).
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any, Iterable, NamedTuple

from sqlalchemy import Connection, Engine, Row, Text, bindparam, case, func, literal, or_, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.sql.elements import ColumnElement

from .schema import clubs, events, matches

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
        if not club or not match_id.isdigit() or not seq.isdigit():
            return None
        return cls(club, int(match_id), int(seq))


def channel_sql() -> ColumnElement[Any]:
    """The channel's name, as the database works it out (see the module's docstring)."""
    schema = func.current_schema()
    return literal(CHANNEL, Text) + case((schema == "public", ""), else_="_" + schema)


# One statement, one round trip, its own transaction (the connection is in autocommit).
_SEND = select(func.set_config("synchronous_commit", "off", True),
               func.pg_notify(channel_sql(), bindparam("payload", type_=Text)))


def send(engine: Engine, club: str, match_id: int, seq: int) -> None:
    """Tell the listeners that ``match_id`` of ``club`` holds events up to ``seq`` (PostgreSQL;
    nothing elsewhere). Call it once the append has committed. A failure is logged, never
    raised: the append stands, and the listeners' next poll finds it."""
    if engine.dialect.name != "postgresql":
        return
    try:
        with engine.connect() as conn:
            conn.execution_options(isolation_level="AUTOCOMMIT")
            conn.execute(_SEND, {"payload": f"{club}:{match_id}:{seq}"})
    except SQLAlchemyError as error:
        log.warning("scoreboard notification for match %s not sent (%s); the next poll finds it",
                    match_id, type(error).__name__)


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
        notices = (Notice.parse(n.payload) for n in got if n.channel == self.channel)
        return [n for n in notices if n is not None]

    def close(self) -> None:
        try:
            self._conn.close()
        except Exception:  # closing a connection the server dropped already
            pass


def board_condition(on_or_after: str) -> ColumnElement[bool]:
    """The matches a club's scoreboard shows: those in play, and those played on or after the
    date ``on_or_after`` (YYYY-MM-DD; the night's, finished or not)."""
    return or_(matches.c.status == "in_progress", matches.c.played_on >= on_or_after)


def board_rows(conn: Connection, club_id: int, on_or_after: str | None,
               ids: Iterable[int] | None = None) -> list[Row]:
    """The club's scoreboard matches (see board_condition; ``on_or_after`` None: any date),
    each with its club's slug; only those of ``ids`` when given."""
    query = (select(matches, clubs.c.slug.label("club"))
             .join(clubs, clubs.c.id == matches.c.club_id)
             .where(matches.c.club_id == club_id))
    if on_or_after is not None:
        query = query.where(board_condition(on_or_after))
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


def events_of(conn: Connection, match_ids: Iterable[int]) -> dict[int, list[str]]:
    """The JSON text of the events of each of ``match_ids``, in order: a board's rows built
    in one round trip instead of one a table."""
    found: dict[int, list[str]] = {m: [] for m in match_ids}
    if found:
        for match_id, data in conn.execute(
                select(events.c.match_id, events.c.data).where(events.c.match_id.in_(list(found)))
                .order_by(events.c.match_id, events.c.seq)):
            found[match_id].append(data)
    return found
