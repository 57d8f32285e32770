"""Matches and their projection: what a match's events add up to, kept beside them."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, Sequence

from sqlalchemy import Connection, Row, and_, bindparam, func, insert, select, union_all, update
from sqlalchemy.exc import IntegrityError

from ..core import chain
from ..core.vocab import MATCH_STATUSES as STATUSES
from ..core.vocab import RULINGS
from .codec import load_json
from .errors import AlreadyExists
from .macs import head_mac, match_mac, row_key, row_mac
from .schema import clubs, events, match_players, matches, tokens

if TYPE_CHECKING:  # the rules core's match is a type here: importing it costs every command's start
    from ..core.match import Match


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
        return cls(status=match.status,
                   round=match.round.number if match.round is not None else None,
                   totals=list(match.totals), winner=match.winner, last_seq=match.seq,
                   violations=violations, updated_at=updated_at)

    def values(self) -> dict[str, Any]:
        return {"status": self.status, "round": self.round, "totals": self.totals,
                "winner": self.winner, "last_seq": self.last_seq,
                "violations": self.violations, "updated_at": self.updated_at}


def header_link(header: str) -> str:
    """Link 0 of a match's chain (hex): the digest of its header as stored."""
    return chain.root(load_json(header)).hex()


_MATCH_COLUMNS = (matches, clubs.c.slug.label("club"))


def insert_match(conn: Connection, *, club_id: int, header: str, played_on: str,
                 rules: dict[str, Any], player_names: Sequence[str], player_ids: Sequence[int],
                 sides: Sequence[int], projection: Projection, created_at: dt.datetime,
                 client_key: str | None = None, created_by: int | None = None) -> int:
    """A new match, its chain head the header's link (events inserted with it move it:
    ``insert_events``); AlreadyExists when ``client_key`` names one of the club's matches already
    (the unique index on (club_id, client_key): a racing retry of the same create)."""
    key = row_key(conn)  # first: the key may be made now, on a database holding no row yet
    try:
        result = conn.execute(insert(matches).values(
            club_id=club_id, header=header, played_on=played_on, rules=rules,
            players=list(player_names), created_at=created_at, client_key=client_key,
            created_by=created_by, head=header_link(header),
            **projection.values()))
    except IntegrityError:
        if client_key is None:
            raise
        # No savepoint: the failed insert ends the caller's transaction, which is what it
        # should do (the match is the retry's original).
        raise AlreadyExists("a match was created with this idempotency key already") from None
    match_id = result.inserted_primary_key[0]
    # The MACs name the id, known only now: one more statement, at creation only.
    conn.execute(update(matches).where(matches.c.id == match_id).values(
        mac=match_mac(key, match_id, club_id, header),
        head_mac=head_mac(key, match_id, projection.last_seq, header_link(header))))
    seats = [{"match_id": match_id, "seat": seat, "player_id": pid, "side": side}
             for seat, (pid, side) in enumerate(zip(player_ids, sides))]
    conn.execute(insert(match_players), [
        {**seat, "mac": row_mac(key, "match_players", SimpleNamespace(**seat))} for seat in seats])
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


def match_by_client_key(conn: Connection, club: str, client_key: str) -> Row | None:
    """The club's match created under the idempotency key ``client_key``, as match_row has it."""
    return conn.execute(select(*_MATCH_COLUMNS).join(clubs, clubs.c.id == matches.c.club_id)
                        .where(clubs.c.slug == club, matches.c.client_key == client_key)).first()


def last_seq(conn: Connection, match_id: int) -> int | None:
    return conn.execute(select(matches.c.last_seq).where(matches.c.id == match_id)).scalar()


def match_ids(conn: Connection) -> list[int]:
    return list(conn.execute(select(matches.c.id).order_by(matches.c.id)).scalars())


def list_matches(conn: Connection, club_id: int, *, status: str | None = None,
                 player_id: int | None = None, date_from: str | None = None,
                 date_to: str | None = None, limit: int = 50, offset: int = 0,
                 statuses: Sequence[str] = STATUSES) -> tuple[list[Row], int]:
    """A club's matches, newest first, with the total that matched the filters: of
    ``status``, or of any of ``statuses`` (every status, unless told)."""
    conditions = listing_conditions(club_id, status=status, player_id=player_id,
                                    date_from=date_from, date_to=date_to, statuses=statuses)
    where = and_(*conditions)
    total = conn.execute(select(func.count()).select_from(matches).where(where)).scalar_one()
    rows = conn.execute(select(*_MATCH_COLUMNS).join(clubs, clubs.c.id == matches.c.club_id)
                        .where(matches.c.id.in_(_page_ids(conditions, status, limit, offset,
                                                          statuses)))
                        .order_by(matches.c.id.desc())).all()
    return rows, total


def listing_conditions(club_id: int, *, status: str | None = None, player_id: int | None = None,
                       date_from: str | None = None, date_to: str | None = None,
                       statuses: Sequence[str] = STATUSES) -> list[Any]:
    """The WHERE conditions of a club's listing of matches (:func:`list_matches`, and the
    pages' listing by event, ``referee.store.pages.matches_listed``)."""
    conditions = [matches.c.club_id == club_id]
    if status is not None:
        conditions.append(matches.c.status == status)
    elif tuple(statuses) != STATUSES:
        conditions.append(matches.c.status.in_(list(statuses)))
    if date_from is not None:
        conditions.append(matches.c.played_on >= date_from)
    if date_to is not None:
        conditions.append(matches.c.played_on <= date_to)
    if player_id is not None:
        conditions.append(matches.c.id.in_(
            select(match_players.c.match_id).where(match_players.c.player_id == player_id)))
    return conditions


def _page_ids(conditions: list[Any], status: str | None, limit: int, offset: int,
              statuses: Sequence[str] = STATUSES) -> Any:
    """The ids of a page of the listing, newest first, as a subquery. With no status filter,
    the newest of each status are taken apart and merged: the (club_id, status) index lists
    a status's matches in id order (SQLite keeps the rowid last in it), so the database reads
    a page's worth of ids instead of sorting every match of the club and their JSON columns
    (some 850 ms for a club of 100,000 on SQLite; an index on club and id would do it too)."""
    def newest(*where: Any) -> Any:
        return (select(matches.c.id).where(*where).order_by(matches.c.id.desc())
                .limit(limit + offset))

    if status is not None:
        return newest(*conditions).offset(offset).limit(limit).scalar_subquery()
    merged = union_all(*(select(newest(*conditions, matches.c.status == s).subquery().c.id)
                         for s in statuses)).subquery()
    return (select(merged.c.id).order_by(merged.c.id.desc()).limit(limit).offset(offset)
            .scalar_subquery())


def update_projection(conn: Connection, match_id: int, projection: Projection,
                      rules: dict[str, Any], event_bytes: int, head: str) -> None:
    """Rewrite what a match's header and events add up to (a rebuild): with the bytes of its
    events and its chain head, as stored."""
    # Its MACs stay as they are: the header's never changes, and the last seq and head a
    # rebuild finds are those stored, or the record fails its check (and a forced rebuild
    # must not bless a record changed behind the service's back).
    conn.execute(update(matches).where(matches.c.id == match_id)
                 .values(rules=rules, event_bytes=event_bytes, head=head, **projection.values()))


def open_dispute_counts(conn: Connection, club_id: int) -> list[tuple[int, int]]:
    """The club's matches with open disputes and how many each has (the projection's
    ``violations``), oldest match first: what the disputes desk pages through without
    replaying a match it does not show."""
    query = (select(matches.c.id, matches.c.violations)
             .where(matches.c.club_id == club_id, matches.c.violations > 0)
             .order_by(matches.c.id))
    return [(row.id, row.violations) for row in conn.execute(query)]


def ruled_match_rows(conn: Connection, club_id: int) -> list[Row]:
    """The club's matches that may hold a ruled dispute (``id``, ``updated_at``), the one
    changed last first: those with a ruling event, but for a scorekeeper's undo (a void its
    scorekeeper's token recorded: a scorekeeper rules on nothing)."""
    undo = and_(events.c.type == "void", tokens.c.role == "scorekeeper")
    ruled = (select(events.c.match_id)
             .join(matches, matches.c.id == events.c.match_id)
             .outerjoin(tokens, tokens.c.id == events.c.token_id)
             .where(matches.c.club_id == club_id, events.c.type.in_(RULINGS),
                    ~func.coalesce(undo, False))
             .distinct().subquery())
    query = (select(matches.c.id, matches.c.updated_at)
             .where(matches.c.id.in_(select(ruled.c.match_id)))
             .order_by(matches.c.updated_at.desc(), matches.c.id.desc()))
    return list(conn.execute(query))


def disputed_match_ids(conn: Connection, club_id: int) -> list[int]:
    """The club's matches that may hold a dispute: open violations, or a ruling recorded."""
    ruled = (select(events.c.match_id).join(matches, matches.c.id == events.c.match_id)
             .where(matches.c.club_id == club_id,
                    events.c.type.in_(("stands", "amend", "void", "penalty", "annul", "forfeit"))))
    open_ = select(matches.c.id).where(matches.c.club_id == club_id, matches.c.violations > 0)
    return sorted(set(conn.execute(ruled).scalars()) | set(conn.execute(open_).scalars()))


def seat_rows(conn: Connection, match_id: int) -> list[Row]:
    """The match's seats (match_players rows, every column), in seat order."""
    return conn.execute(select(match_players).where(match_players.c.match_id == match_id)
                        .order_by(match_players.c.seat)).all()
