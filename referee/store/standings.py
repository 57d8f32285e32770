"""Club standings, summed from the match projections (never by replaying a match)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, select

from .schema import match_players, matches, players


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
