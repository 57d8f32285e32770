"""What the club pages read and write that no other use case does: a club's public setting,
and who sat where in a set of matches (a player's page names his partners and opponents by
their current names, whatever the matches' records called them)."""

from __future__ import annotations

from typing import Iterable

from sqlalchemy import Connection, select, update

from .schema import clubs, match_players


def set_club_public(conn: Connection, club_id: int, public: bool) -> None:
    conn.execute(update(clubs).where(clubs.c.id == club_id).values(public=public))


def set_club_language(conn: Connection, club_id: int, language: str | None) -> None:
    conn.execute(update(clubs).where(clubs.c.id == club_id).values(language=language))


def seats_of(conn: Connection, match_ids: Iterable[int]) -> dict[int, list[int]]:
    """Each match's player ids in seat order."""
    ids = sorted(set(match_ids))
    found: dict[int, list[int]] = {}
    for start in range(0, len(ids), 500):  # a bounded IN list, whatever the history's length
        rows = conn.execute(select(match_players.c.match_id, match_players.c.player_id)
                            .where(match_players.c.match_id.in_(ids[start:start + 500]))
                            .order_by(match_players.c.match_id, match_players.c.seat))
        for match_id, player_id in rows:
            found.setdefault(match_id, []).append(player_id)
    return found
