"""The event store and its projections: every query the product makes lives here.

Functions take an open :class:`sqlalchemy.Connection` inside a transaction (see
:func:`referee.db.writing` and :func:`referee.db.reading`) so that the service decides what
one transaction spans. Events are only ever inserted; a match's projection row is rewritten in
the same transaction as each append.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from sqlalchemy import (
    Connection, Row, and_, bindparam, func, insert, select, union_all, update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError

from .errors import Conflict, Duplicate
from .match import Match
from .schema import clubs, events, match_players, matches, players, tokens


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


def as_utc(value: dt.datetime) -> dt.datetime:
    """SQLite gives timestamps back without a zone; everything is stored in UTC."""
    if value.tzinfo is None:
        return value.replace(tzinfo=dt.timezone.utc)
    return value.astimezone(dt.timezone.utc)


def iso(value: dt.datetime | None) -> str | None:
    return as_utc(value).isoformat() if value is not None else None


# ------------------------------------------------------------------------------------- JSON

def dump_json(value: Any) -> str:
    """The exact text stored for a client's JSON value. Raises ValueError or TypeError for what
    is not JSON (NaN, objects). Control characters, NUL included, are escaped by json itself, so
    the text is safe in a PostgreSQL TEXT column; a lone surrogate (legal in a JSON string, not in
    UTF-8) makes us fall back to ASCII escapes."""
    text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(value, ensure_ascii=True, allow_nan=False, separators=(",", ":"))
    return text


def load_json(text: str) -> Any:
    return json.loads(text)


def canonical_json(value: Any) -> str:
    """One spelling per JSON value, to tell whether two bodies are the same."""
    return json.dumps(value, ensure_ascii=True, allow_nan=False, sort_keys=True,
                      separators=(",", ":"))


# ------------------------------------------------------------------------------------- clubs

def insert_club(conn: Connection, slug: str, name: str, created_at: dt.datetime) -> None:
    # No savepoint: the failed insert ends the caller's transaction, which did nothing else.
    try:
        conn.execute(insert(clubs).values(slug=slug, name=name, created_at=created_at))
    except IntegrityError:
        raise Duplicate(f"a club {slug!r} exists already") from None


def club_row(conn: Connection, slug: str) -> Row | None:
    return conn.execute(select(clubs).where(clubs.c.slug == slug)).first()


# ------------------------------------------------------------------------------------ players

def insert_player(conn: Connection, club_id: int, name: str, created_at: dt.datetime) -> None:
    try:
        conn.execute(insert(players).values(club_id=club_id, name=name, created_at=created_at))
    except IntegrityError:
        raise Duplicate(f"a player {name!r} exists already in this club") from None


def ensure_players(conn: Connection, club_id: int, names: Sequence[str],
                   created_at: dt.datetime) -> dict[str, int]:
    """The ids of ``names`` in the club, registering the new ones. Concurrent registrations of
    the same name are harmless: the insert skips a name that exists (ON CONFLICT DO NOTHING)."""
    wanted = set(names)
    found = _player_ids(conn, club_id, wanted)
    missing = wanted - found.keys()
    if missing:
        dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
        statement = dialect.insert(players).on_conflict_do_nothing(
            index_elements=["club_id", "name"])
        conn.execute(statement, [{"club_id": club_id, "name": n, "created_at": created_at}
                                 for n in sorted(missing)])
        found.update(_player_ids(conn, club_id, missing))
    return found


def _player_ids(conn: Connection, club_id: int, names: Iterable[str]) -> dict[str, int]:
    rows = conn.execute(select(players.c.name, players.c.id).where(
        players.c.club_id == club_id, players.c.name.in_(list(names))))
    return {name: id_ for name, id_ in rows}


def player_row(conn: Connection, club_id: int, name: str) -> Row | None:
    return conn.execute(select(players).where(
        players.c.club_id == club_id, players.c.name == name)).first()


def list_players(conn: Connection, club_id: int, limit: int, offset: int) -> tuple[list[Row], int]:
    where = players.c.club_id == club_id
    total = conn.execute(select(func.count()).select_from(players).where(where)).scalar_one()
    rows = conn.execute(select(players).where(where).order_by(players.c.name, players.c.id)
                        .limit(limit).offset(offset)).all()
    return rows, total


# ------------------------------------------------------------------------------------- tokens

def insert_token(conn: Connection, club_id: int, role: str, label: str | None, digest: str,
                 created_at: dt.datetime) -> int:
    result = conn.execute(insert(tokens).values(
        club_id=club_id, role=role, label=label, hash=digest, created_at=created_at))
    return result.inserted_primary_key[0]


def token_row(conn: Connection, digest: str) -> Row | None:
    """The token with this hash, with its club's slug."""
    query = (select(tokens, clubs.c.slug.label("club"))
             .join(clubs, clubs.c.id == tokens.c.club_id).where(tokens.c.hash == digest))
    return conn.execute(query).first()


# ------------------------------------------------------------------------------------ matches

@dataclass(frozen=True)
class Projection:
    """What a match's events add up to, as the matches row keeps it."""

    status: str
    round: int | None
    totals: list[int]
    winner: int | None
    last_seq: int
    violations: int
    updated_at: dt.datetime

    @classmethod
    def of(cls, match: Match, violations: int, updated_at: dt.datetime) -> "Projection":
        return cls(status="finished" if match.finished else "in_progress",
                   round=match.round.number if match.round is not None else None,
                   totals=list(match.totals), winner=match.winner, last_seq=match.seq,
                   violations=violations, updated_at=updated_at)

    def values(self) -> dict[str, Any]:
        return {"status": self.status, "round": self.round, "totals": self.totals,
                "winner": self.winner, "last_seq": self.last_seq,
                "violations": self.violations, "updated_at": self.updated_at}


_MATCH_COLUMNS = (matches, clubs.c.slug.label("club"))


def insert_match(conn: Connection, *, club_id: int, header: str, played_on: str,
                 rules: dict[str, Any], player_names: Sequence[str], player_ids: Sequence[int],
                 sides: Sequence[int], projection: Projection, created_at: dt.datetime) -> int:
    result = conn.execute(insert(matches).values(
        club_id=club_id, header=header, played_on=played_on, rules=rules,
        players=list(player_names), created_at=created_at, **projection.values()))
    match_id = result.inserted_primary_key[0]
    conn.execute(insert(match_players), [
        {"match_id": match_id, "seat": seat, "player_id": pid, "side": side}
        for seat, (pid, side) in enumerate(zip(player_ids, sides))])
    return match_id


def _match_query(with_key: bool, for_update: bool) -> Any:
    columns: list[Any] = list(_MATCH_COLUMNS)
    if with_key:
        columns.append(select(events.c.seq).where(
            events.c.match_id == matches.c.id,
            events.c.client_event_id == bindparam("client_event_id"))
            .scalar_subquery().label("duplicate_seq"))
    query = (select(*columns).join(clubs, clubs.c.id == matches.c.club_id)
             .where(matches.c.id == bindparam("match_id")))
    return query.with_for_update(of=matches) if for_update else query


# Built once: constructing a statement costs more than running it on SQLite (appends are hot).
_MATCH_QUERIES = {(k, u): _match_query(k, u) for k in (False, True) for u in (False, True)}


def match_row(conn: Connection, match_id: int, *, client_event_id: str | None = None,
              for_update: bool = False) -> Row | None:
    """The match with its club's slug and, when ``client_event_id`` is given, ``duplicate_seq``:
    the seq of the event already recorded under that id (one round trip for both)."""
    with_key = client_event_id is not None
    params: dict[str, Any] = {"match_id": match_id}
    if with_key:
        params["client_event_id"] = client_event_id
    return conn.execute(_MATCH_QUERIES[with_key, for_update], params).first()


def last_seq(conn: Connection, match_id: int) -> int | None:
    return conn.execute(select(matches.c.last_seq).where(matches.c.id == match_id)).scalar()


def match_ids(conn: Connection) -> list[int]:
    return list(conn.execute(select(matches.c.id).order_by(matches.c.id)).scalars())


def list_matches(conn: Connection, club_id: int, *, status: str | None = None,
                 player_id: int | None = None, date_from: str | None = None,
                 date_to: str | None = None, limit: int = 50,
                 offset: int = 0) -> tuple[list[Row], int]:
    """A club's matches, newest first, with the total that matched the filters."""
    conditions = [matches.c.club_id == club_id]
    if status is not None:
        conditions.append(matches.c.status == status)
    if date_from is not None:
        conditions.append(matches.c.played_on >= date_from)
    if date_to is not None:
        conditions.append(matches.c.played_on <= date_to)
    if player_id is not None:
        conditions.append(matches.c.id.in_(
            select(match_players.c.match_id).where(match_players.c.player_id == player_id)))
    where = and_(*conditions)
    total = conn.execute(select(func.count()).select_from(matches).where(where)).scalar_one()
    rows = conn.execute(select(*_MATCH_COLUMNS).join(clubs, clubs.c.id == matches.c.club_id)
                        .where(where).order_by(matches.c.id.desc())
                        .limit(limit).offset(offset)).all()
    return rows, total


def update_projection(conn: Connection, match_id: int, projection: Projection,
                      rules: dict[str, Any]) -> None:
    """Rewrite what a match's header and events add up to (a rebuild)."""
    conn.execute(update(matches).where(matches.c.id == match_id)
                 .values(rules=rules, **projection.values()))


def standings(conn: Connection, club_id: int) -> list[dict[str, Any]]:
    """Per player of the club: finished matches played, won, lost (a side won and it was not
    his), and points_for (his side's totals). Players with no finished match are listed too."""
    table: dict[int, dict[str, Any]] = {}
    for pid, name in conn.execute(select(players.c.id, players.c.name)
                                  .where(players.c.club_id == club_id)):
        table[pid] = {"player": name, "played": 0, "won": 0, "lost": 0, "points_for": 0}
    query = (select(match_players.c.player_id, match_players.c.side, matches.c.totals,
                    matches.c.winner)
             .join(matches, matches.c.id == match_players.c.match_id)
             .where(matches.c.club_id == club_id, matches.c.status == "finished"))
    for pid, side, totals, winner in conn.execute(query):
        line = table[pid]
        line["played"] += 1
        line["points_for"] += totals[side]
        if winner is not None:
            line["won" if winner == side else "lost"] += 1
    return sorted(table.values(),
                  key=lambda r: (-r["won"], -r["points_for"], r["played"], r["player"]))


# ------------------------------------------------------------------------------------- events

@dataclass(frozen=True)
class NewEvent:
    data: str  # the JSON text, from dump_json
    type: str | None
    client_event_id: str | None = None
    recorded_by: str | None = None


_PROJECTION_COLUMNS = ("status", "round", "totals", "winner", "last_seq", "violations",
                       "updated_at")
_EVENT_COLUMNS = ("seq", "type", "data", "client_event_id", "recorded_at", "recorded_by")

# The compare-and-set of a match's projection: it moves only from the expected last seq.
_SET_PROJECTION = (update(matches)
                   .where(matches.c.id == bindparam("m_id"),
                          matches.c.last_seq == bindparam("m_expected"))
                   .values({c: bindparam("m_" + c) for c in _PROJECTION_COLUMNS}))
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


_CAS_INSERT_ONE = _cas_insert(1)


def append(conn: Connection, match_id: int, expected_seq: int, new: Sequence[NewEvent],
           projection: Projection, recorded_at: dt.datetime) -> int:
    """Store ``new`` as events expected_seq+1, ... and the match's new projection; returns the
    last seq. Raises Conflict when expected_seq is not the match's last seq any more.

    Two guards: the projection update is a compare-and-set on last_seq (on PostgreSQL a racing
    writer waits for the row lock, then finds last_seq moved and updates nothing), and the
    primary key (match_id, seq) refuses a second event at the same seq whatever happens to the
    projection. On PostgreSQL both are one statement, atomic even outside a transaction (see
    referee.db.optimistic); elsewhere the caller's transaction makes the pair atomic.
    """
    rows = _event_rows(match_id, expected_seq, new, recorded_at)
    cas = {"m_id": match_id, "m_expected": expected_seq,
           **{"m_" + k: v for k, v in projection.values().items()}}
    try:
        if conn.dialect.name == "postgresql":
            statement = _CAS_INSERT_ONE if len(rows) == 1 else _cas_insert(len(rows))
            params = {**cas, **{f"e{i}_{c}": row[c] for i, row in enumerate(rows)
                                for c in _EVENT_COLUMNS}}
            stored = len(conn.execute(statement, params).all()) == len(rows)
        else:
            stored = conn.execute(_SET_PROJECTION, cas).rowcount == 1
            if stored:
                conn.execute(_INSERT_EVENTS, rows)
    except IntegrityError:
        # Another writer took the seq, or this client event id came in twice at once.
        raise Conflict(None, expected_seq) from None
    if not stored:
        raise Conflict(None, expected_seq)
    return expected_seq + len(new)


def insert_events(conn: Connection, match_id: int, new: Sequence[NewEvent],
                  recorded_at: dt.datetime) -> None:
    """The events of a match created in this same transaction (an import), from seq 1."""
    if new:
        conn.execute(_INSERT_EVENTS, _event_rows(match_id, 0, new, recorded_at))


def _event_rows(match_id: int, after: int, new: Sequence[NewEvent],
                recorded_at: dt.datetime) -> list[dict[str, Any]]:
    """The rows of ``new`` as events after + 1, after + 2, ..."""
    return [{"match_id": match_id, "seq": seq, "type": e.type, "data": e.data,
             "client_event_id": e.client_event_id, "recorded_at": recorded_at,
             "recorded_by": e.recorded_by} for seq, e in enumerate(new, start=after + 1)]


def event_rows(conn: Connection, match_id: int, *, after: int = 0, upto: int | None = None,
               limit: int | None = None) -> list[Row]:
    query = select(events).where(events.c.match_id == match_id, events.c.seq > after)
    if upto is not None:
        query = query.where(events.c.seq <= upto)
    query = query.order_by(events.c.seq)
    if limit is not None:
        query = query.limit(limit)
    return conn.execute(query).all()


def event_data(conn: Connection, match_id: int, upto: int | None = None) -> list[str]:
    """The JSON text of a match's events in order: all a replay needs."""
    query = select(events.c.data).where(events.c.match_id == match_id)
    if upto is not None:
        query = query.where(events.c.seq <= upto)
    return list(conn.execute(query.order_by(events.c.seq)).scalars())


def event_by_seq(conn: Connection, match_id: int, seq: int) -> Row | None:
    return conn.execute(select(events).where(
        events.c.match_id == match_id, events.c.seq == seq)).first()


def last_recorded_at(conn: Connection, match_id: int) -> dt.datetime | None:
    return conn.execute(select(func.max(events.c.recorded_at))
                        .where(events.c.match_id == match_id)).scalar()
