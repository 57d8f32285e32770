"""What the club pages read that no other use case does: a player's results match by match, from the standing rows (a player's page names his
partners and opponents by their ids, so by their current names, whatever the matches' records
called them), the public clubs of the site's home, a club's players with their matches, and
its matches filtered by event as well (every answer keeps the rows' ids, which the pages link
by)."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Connection, Row, func, select

from . import matches as match_store
from .schema import clubs, match_players, matches, players, standing_rows

# Printable ASCII but for the quote and backslash: what every JSON writer writes as itself, so
# an event of only these is found in a header's text as it is (see matches_listed).
_PLAIN = frozenset(chr(c) for c in range(0x20, 0x7F)) - {'"', "\\"}


def player_results(conn: Connection, club_id: int, player_id: int) -> list[dict[str, Any]]:
    """The player's finished matches, newest first: each match's id, header, rules and date,
    his side's standing row (side, won, lost, points_for, points_against), and ``seats``, the
    match's (player id, side) in seat order."""
    mine = conn.execute(
        select(standing_rows.c.match_id, standing_rows.c.side, standing_rows.c.won,
               standing_rows.c.lost, standing_rows.c.points_for, standing_rows.c.points_against,
               matches.c.header, matches.c.rules, matches.c.played_on, matches.c.players)
        .join(matches, matches.c.id == standing_rows.c.match_id)
        .where(standing_rows.c.club_id == club_id, standing_rows.c.player_id == player_id)
        .order_by(standing_rows.c.match_id.desc())).all()
    seats: dict[int, list[tuple[int, int]]] = {}
    ids = [r.match_id for r in mine]
    for start in range(0, len(ids), 500):  # a bounded IN list, whatever the history's length
        for match_id, player, side in conn.execute(
                select(standing_rows.c.match_id, standing_rows.c.player_id, standing_rows.c.side)
                .where(standing_rows.c.match_id.in_(ids[start:start + 500]))
                .order_by(standing_rows.c.match_id, standing_rows.c.seat)):
            seats.setdefault(match_id, []).append((player, side))
    return [{**r._asdict(), "seats": seats.get(r.match_id, [])} for r in mine]


def public_clubs(conn: Connection) -> list[Row]:
    """The clubs whose admin made them public: slug and name (the site's home lists them)."""
    return conn.execute(select(clubs.c.id, clubs.c.slug, clubs.c.name, clubs.c.language)
                        .where(clubs.c.public.is_(True)).order_by(clubs.c.slug)).all()


def club_players(conn: Connection, club_id: int) -> list[Row]:
    """The club's players (not the aliases merges left): id, name, and ``matches``, how many
    matches they sit in (finished or not)."""
    played = (select(match_players.c.player_id, func.count().label("matches"))
              .join(matches, matches.c.id == match_players.c.match_id)
              .where(matches.c.club_id == club_id)
              .group_by(match_players.c.player_id).subquery())
    return conn.execute(
        select(players.c.id, players.c.name, func.coalesce(played.c.matches, 0).label("matches"))
        .outerjoin(played, played.c.player_id == players.c.id)
        .where(players.c.club_id == club_id, players.c.merged_into.is_(None))
        .order_by(players.c.name, players.c.id)).all()


def club_events(conn: Connection, club_id: int) -> list[str]:
    """The events the club's finished matches name (their log headers' ``event``, when text)."""
    keys = conn.execute(select(standing_rows.c.event).distinct()
                        .where(standing_rows.c.club_id == club_id,
                               standing_rows.c.event.is_not(None))).scalars()
    events = set()
    for key in keys:
        if key.startswith("#"):  # a key kept as a digest (an over-long event): no text to show
            continue
        value = json.loads(key)
        if isinstance(value, str):
            events.add(value)
    return sorted(events)


def matches_listed(conn: Connection, club_id: int, *, event: str | None = None,
                   status: str | None = None, player_id: int | None = None,
                   date_from: str | None = None, date_to: str | None = None, limit: int = 50,
                   offset: int = 0) -> tuple[list[Row], int]:
    """:func:`.matches.list_matches` with one more filter: ``event``, the matches whose log
    header's ``event`` is this text exactly. The header is JSON text, so the matches of the
    other filters are narrowed in SQL to those whose header holds the event's JSON text (when
    it is plain ASCII, which every writer writes alike), then checked exactly here."""
    if event is None:
        return match_store.list_matches(conn, club_id, status=status, player_id=player_id,
                                        date_from=date_from, date_to=date_to, limit=limit,
                                        offset=offset)
    conditions = match_store.listing_conditions(club_id, status=status, player_id=player_id,
                                                date_from=date_from, date_to=date_to)
    if set(event) <= _PLAIN:
        conditions.append(matches.c.header.contains(json.dumps(event), autoescape=True))
    ids = [match_id for match_id, header in conn.execute(
        select(matches.c.id, matches.c.header).where(*conditions).order_by(matches.c.id.desc()))
        if _event_of(header) == event]
    page = ids[offset:offset + limit]
    if not page:
        return [], len(ids)
    rows = conn.execute(select(matches, clubs.c.slug.label("club"))
                        .join(clubs, clubs.c.id == matches.c.club_id)
                        .where(matches.c.id.in_(page)).order_by(matches.c.id.desc())).all()
    return rows, len(ids)


def _event_of(header: str) -> Any:
    try:
        value = json.loads(header)
    except ValueError:
        return None
    return value.get("event") if isinstance(value, dict) else None
