"""What the club pages read and write that no other use case does: a club's public setting,
and a player's results match by match, from the standing rows (a player's page names his
partners and opponents by their ids, so by their current names, whatever the matches' records
called them)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, select, update

from .schema import clubs, matches, standing_rows


def set_club_public(conn: Connection, club_id: int, public: bool) -> None:
    conn.execute(update(clubs).where(clubs.c.id == club_id).values(public=public))


def set_club_language(conn: Connection, club_id: int, language: str | None) -> None:
    conn.execute(update(clubs).where(clubs.c.id == club_id).values(language=language))


def set_club_name(conn: Connection, club_id: int, name: str) -> None:
    conn.execute(update(clubs).where(clubs.c.id == club_id).values(name=name))


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
