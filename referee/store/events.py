"""The events: only ever inserted, each append a compare-and-set of the match's projection."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, Iterable, NamedTuple, Sequence

from sqlalchemy import (
    Connection,
    Integer,
    LargeBinary,
    Row,
    bindparam,
    cast,
    func,
    insert,
    select,
    text,
    union_all,
    update,
)
from sqlalchemy.exc import IntegrityError

from ..core import chain
from ..core.macs import RowKey
from .codec import load_json
from .db import MatchLimits, match_limits
from .driver import DriverStatement
from .errors import MatchFull, StaleSeq
from .macs import event_mac, head_mac, row_key
from .matches import Projection, header_link
from .schema import events, matches


@dataclass(frozen=True)
class NewEvent:
    data: str  # the JSON text, from dump_json
    type: str | None
    client_event_id: str | None = None
    recorded_by: str | None = None
    token_id: int | None = None  # the token that recorded it (None: the CLI)

    @property
    def size(self) -> int:
        """Bytes of its JSON, as the match's event_bytes counts them (UTF-8)."""
        return len(self.data.encode("utf-8"))


def check_room(limits: MatchLimits, events_after: int, bytes_after: int) -> None:
    """MatchFull when a match holding ``events_after`` events of ``bytes_after`` bytes in all
    would be past ``limits``."""
    if events_after > limits.events:
        raise MatchFull("events", limits.events, events_after)
    if bytes_after > limits.bytes:
        raise MatchFull("bytes of events", limits.bytes, bytes_after)


_PROJECTION_COLUMNS = ("status", "round", "totals", "winner", "last_seq", "violations",
                       "updated_at")
_EVENT_COLUMNS = ("seq", "type", "data", "client_event_id", "recorded_at", "recorded_by",
                  "token_id", "digest", "mac")

# The compare-and-set of a match's projection: it moves only from the expected last seq, only
# while the events' bytes leave room for the new ones (m_room: the limit less their size), and
# only if the chain link the new digests were computed from (m_chain) is the row's head, the
# link at the expected last seq: a wrong link (a bug in a cache) would be written for good, so
# the same statement refuses it, and moves the head on to the last new digest (m_head).
#
# The statement reads nothing but the row it updates, found by its primary key. Even a generic
# plan made on a fresh database does (tests/store/test_store.py); one made after an ANALYZE of
# a matches table of a few rows scans those rows, and keeps doing so until the next ANALYZE.
_SET_PROJECTION = (update(matches)
                   .where(matches.c.id == bindparam("m_id"),
                          matches.c.last_seq == bindparam("m_expected"),
                          matches.c.event_bytes <= bindparam("m_room"),
                          matches.c.head == bindparam("m_chain"))
                   .values({**{c: bindparam("m_" + c) for c in _PROJECTION_COLUMNS},
                            "head": bindparam("m_head"), "head_mac": bindparam("m_head_mac"),
                            "event_bytes": matches.c.event_bytes + bindparam("m_added")}))
_INSERT_EVENTS = insert(events)


def _cas_insert(count: int) -> Any:
    """PostgreSQL: the compare-and-set and the insert of ``count`` events in one statement, one
    round trip. The insert reads the row the update returns, so when the update matches
    nothing (another writer moved last_seq) nothing is inserted either."""
    moved = _SET_PROJECTION.returning(matches.c.id).cte("moved")
    sources = [select(moved.c.id, *(bindparam(f"e{i}_{c}", type_=events.c[c].type)
                                    for c in _EVENT_COLUMNS)) for i in range(count)]
    source = sources[0] if count == 1 else union_all(*sources)
    return (insert(events).from_select(["match_id", *_EVENT_COLUMNS], source)
            .returning(events.c.seq))  # rowcount is not reported for this form


def _append_event() -> Any:
    """PostgreSQL: one event's compare-and-set and insert, the statement of ``_cas_insert(1)``
    run by the procedure ``append_event`` (migration 0028) under generic plans that cannot be a
    scan, each argument named for its parameter; ``stored`` is the new seq, NULL when nothing
    was stored. The connections' custom plans (db._libpq_args) had the server plan the
    statement, and the foreign key's check, afresh for every append (0.800 → 0.600-0.675 ms of
    the server's CPU an append, bench/append_plan_bench.py); a CALL is not planned at all."""
    from sqlalchemy.dialects import postgresql  # here: a process on SQLite never loads it

    binds = _cas_insert(1).compile(dialect=postgresql.dialect()).binds
    call = ", ".join(f"a_{name} => :{name}" for name in binds)
    return (text(f"CALL append_event({call}, stored => NULL)")
            .bindparams(*(bindparam(name, type_=bind.type) for name, bind in binds.items()))
            .columns(stored=Integer))


# Hot: run on the driver (.driver). Made at the first PostgreSQL append, not at import: its
# compilation loads the PostgreSQL dialect, which a command on SQLite never needs
# (tests/cli/test_cli_startup.py, bench/cli_bench.py).
_APPEND_EVENT: DriverStatement | None = None


def append_event_statement() -> DriverStatement:
    """The procedure's call (:func:`_append_event`), made once a process."""
    global _APPEND_EVENT
    if _APPEND_EVENT is None:
        _APPEND_EVENT = DriverStatement(_append_event())
    return _APPEND_EVENT


# SQLite's two statements, each run on the sqlite3 connection in the caller's transaction
# (.driver): SQLAlchemy's execution of the pair cost some 0.15 ms of an append's 0.8.
_SET_PROJECTION_HOT = DriverStatement(_SET_PROJECTION)
_INSERT_EVENT = DriverStatement(_INSERT_EVENTS)  # every column of a row of _event_rows


class Appended(NamedTuple):
    """What an append stored: the last seq, and the chain head (that event's digest, hex)."""

    seq: int
    head: str


def append(conn: Connection, match_id: int, expected_seq: int, new: Sequence[NewEvent],
           projection: Projection, recorded_at: dt.datetime, link: str) -> Appended:
    """Store ``new`` as events expected_seq+1, ... and the match's new projection; returns the
    last seq and the new chain head. ``link`` is the chain's link at expected_seq (the digest of
    that event, or of the header for 0: :func:`chain_link`, the row's head); each new event's
    digest follows from it (referee.core.chain). Raises StaleSeq when expected_seq is not the
    match's last seq any more, and MatchFull when the events would take the match past its
    limits (the connection's engine's MatchLimits): the count is known from expected_seq, the
    bytes are checked by the same compare-and-set, so a full match costs no extra round trip
    until it is refused.

    Two guards: the projection update is a compare-and-set on last_seq (on PostgreSQL a racing
    writer waits for the row lock, then finds last_seq moved and updates nothing), and the
    primary key (match_id, seq) refuses a second event at the same seq whatever happens to the
    projection. On PostgreSQL both are one statement, atomic even outside a transaction (see
    referee.store.db.optimistic); elsewhere the caller's transaction makes the pair atomic.
    """
    limits = match_limits(conn)
    added = sum(e.size for e in new)
    check_room(limits, expected_seq + len(new), added)
    key = row_key(conn)
    rows = _event_rows(key, match_id, expected_seq, new, recorded_at, link)
    last = expected_seq + len(new)
    cas = {"m_id": match_id, "m_expected": expected_seq, "m_added": added,
           "m_room": limits.bytes - added, "m_chain": link, "m_head": rows[-1]["digest"],
           "m_head_mac": head_mac(key, match_id, last, rows[-1]["digest"]),
           **{"m_" + k: v for k, v in projection.values().items()}}
    try:
        if conn.dialect.name == "postgresql":
            params = {**cas, **{f"e{i}_{c}": row[c] for i, row in enumerate(rows)
                                for c in _EVENT_COLUMNS}}
            if len(rows) == 1:
                stored = ((_APPEND_EVENT or append_event_statement()).rows(conn, params)[0]
                          .stored is not None)
            else:
                stored = len(conn.execute(_cas_insert(len(rows)), params).all()) == len(rows)
        else:
            stored = _SET_PROJECTION_HOT.count(conn, cas) == 1
            if stored:
                for row in rows:
                    _INSERT_EVENT.count(conn, row)
    except IntegrityError:
        # Another writer took the seq, or this client event id came in twice at once.
        raise StaleSeq(expected_seq) from None
    if not stored:
        # Stale, or full: only a refusal pays for the read that tells which.
        now = conn.execute(select(matches.c.last_seq, matches.c.event_bytes)
                           .where(matches.c.id == match_id)).first()
        if now is not None and now.last_seq == expected_seq:
            check_room(limits, expected_seq + len(new), now.event_bytes + added)
        # Else another writer came first; or (never, unless a bug) ``link`` was not the stored
        # link: stale either way, and the caller's retry reads the record afresh.
        raise StaleSeq(expected_seq)
    return Appended(expected_seq + len(new), rows[-1]["digest"])


def insert_events(conn: Connection, match_id: int, new: Sequence[NewEvent],
                  recorded_at: dt.datetime, header: str) -> str:
    """The events of a match created in this same transaction (an import), from seq 1, and
    their bytes on the match; MatchFull (nothing stored) past the match limits. ``header``: the
    match's header as stored, link 0 of the chain. Returns the chain head."""
    link = header_link(header)
    if not new:
        return link
    size = sum(e.size for e in new)
    check_room(match_limits(conn), len(new), size)
    key = row_key(conn)
    rows = _event_rows(key, match_id, 0, new, recorded_at, link)
    conn.execute(_INSERT_EVENTS, rows)
    head = rows[-1]["digest"]
    conn.execute(update(matches).where(matches.c.id == match_id)
                 .values(event_bytes=size, head=head,
                         head_mac=head_mac(key, match_id, len(rows), head)))
    return head


def chain_link(conn: Connection, match_id: int, seq: int) -> str:
    """The chain's link at ``seq`` (hex): event seq's stored digest, or for 0 the digest of the
    match's header as stored."""
    if seq == 0:
        header = conn.execute(select(matches.c.header).where(matches.c.id == match_id))
        return header_link(header.scalar_one())
    return conn.execute(select(events.c.digest).where(
        events.c.match_id == match_id, events.c.seq == seq)).scalar_one()


def stored_head(header: str, rows: Sequence[Row]) -> str:
    """A record's chain head as stored: its last event row's digest, or with no events the
    header's link (what ``matches.head`` keeps)."""
    return rows[-1].digest if rows else header_link(header)


def event_bytes(conn: Connection, match_id: int) -> int:
    """The bytes of a match's events (UTF-8), counted by the database: what a rebuild sets."""
    if conn.dialect.name == "postgresql":
        size = func.octet_length(events.c.data)
    else:
        size = func.length(cast(events.c.data, LargeBinary))  # bytes, not characters
    return conn.execute(select(func.coalesce(func.sum(size), 0))
                        .where(events.c.match_id == match_id)).scalar_one()


def _event_rows(key: RowKey, match_id: int, after: int, new: Sequence[NewEvent],
                recorded_at: dt.datetime, link: str) -> list[dict[str, Any]]:
    """The rows of ``new`` as events after + 1, after + 2, ..., chained on from ``link`` (the
    digest covers the value stored, so it is computed from the stored text), each with its
    MAC under ``key``."""
    digests = chain.extend(link, (load_json(e.data) for e in new))
    return [{"match_id": match_id, "seq": seq, "type": e.type, "data": e.data,
             "client_event_id": e.client_event_id, "recorded_at": recorded_at,
             "recorded_by": e.recorded_by, "token_id": e.token_id, "digest": digest,
             "mac": event_mac(key, match_id, seq, e.type, e.data, e.client_event_id,
                              recorded_at, e.recorded_by, e.token_id, digest)}
            for seq, e, digest in zip(range(after + 1, after + 1 + len(new)), new, digests)]


def event_rows(conn: Connection, match_id: int, *, after: int = 0, upto: int | None = None,
               limit: int | None = None) -> list[Row]:
    query = select(events).where(events.c.match_id == match_id, events.c.seq > after)
    if upto is not None:
        query = query.where(events.c.seq <= upto)
    query = query.order_by(events.c.seq)
    if limit is not None:
        query = query.limit(limit)
    return conn.execute(query).all()


def event_rows_of(conn: Connection, match_ids: Iterable[int]) -> dict[int, list[Row]]:
    """The event rows of each of ``match_ids``, in order: many records read in one round trip
    instead of one a match (a scoreboard's, a listing's)."""
    found: dict[int, list[Row]] = {m: [] for m in match_ids}
    if found:
        for row in conn.execute(select(events).where(events.c.match_id.in_(list(found)))
                                .order_by(events.c.match_id, events.c.seq)):
            found[row.match_id].append(row)
    return found


def event_data(conn: Connection, match_id: int, upto: int | None = None) -> list[str]:
    """The JSON text of a match's events in order: all a replay needs."""
    query = select(events.c.data).where(events.c.match_id == match_id)
    if upto is not None:
        query = query.where(events.c.seq <= upto)
    return list(conn.execute(query.order_by(events.c.seq)).scalars())


def event_by_seq(conn: Connection, match_id: int, seq: int) -> Row | None:
    return conn.execute(select(events).where(
        events.c.match_id == match_id, events.c.seq == seq)).first()


def recorded_span(conn: Connection, match_id: int) -> tuple[dt.datetime | None,
                                                             dt.datetime | None]:
    """When a match's first and last events were recorded (None, None: it has none)."""
    first, last = conn.execute(select(func.min(events.c.recorded_at), func.max(
        events.c.recorded_at)).where(events.c.match_id == match_id)).one()
    return first, last


def last_recorded_at(conn: Connection, match_id: int) -> dt.datetime | None:
    return conn.execute(select(func.max(events.c.recorded_at))
                        .where(events.c.match_id == match_id)).scalar()


def secret_rows(conn: Connection, match_id: int, since: int) -> list[Row]:
    """(seq, token_id, data) of the deals, draws and amends from seq ``since`` on: the events
    that may hold tiles the table has not seen (an amend may correct a deal)."""
    return conn.execute(select(events.c.seq, events.c.token_id, events.c.data).where(
        events.c.match_id == match_id, events.c.seq >= since,
        events.c.type.in_(("deal", "draw", "amend"))).order_by(events.c.seq)).all()
