"""Club standings and ratings, from the store's projections: reading them never replays a match
(docs/standings.md).

A club's table is one aggregation over the standing rows of its finished matches, filtered by
period (``date_from``/``date_to`` on the day the match was played) and event (the log header's
``event``), per player or per fixed partnership (the same two players as partners). Rows are
ranked by the club's tie-breakers (:data:`DEFAULT_TIE_BREAKERS` unless an admin set others);
rows still tied on all of them share a rank ("1, 2, 2, 4"). Ratings come from
:mod:`.ratings`: the player's rating now, over every finished match of the club.
"""

from __future__ import annotations

from typing import Any, Sequence

from sqlalchemy import Engine

from .. import store
from ..store import db
from ..store.standings import (
    DEFAULT_TIE_BREAKERS, GROUPS, TIE_BREAKERS, aggregate, current, head_to_head, history,
    listed_players, player_names, set_tie_breakers, tie_breakers,
)
from . import checks
from .access import OPERATOR, Action, Caller, require
from .csvfile import to_csv
from .errors import Invalid, NotFound
from .lookup import club_row
from .ratings import MU, SIGMA, ordinal, provisional

_NUMBERS = ("played", "won", "lost", "rounds_won", "points_for", "points_against",
            "difference", "win_rate", "rating", "rating_games", "flagged", "provisional")
COLUMNS = ("rank", "player", *_NUMBERS)
PARTNERSHIP_COLUMNS = ("rank", "partner_1", "partner_2", *_NUMBERS)
MAX_EVENT_LENGTH = 1000

__all__ = ["Standings", "COLUMNS", "PARTNERSHIP_COLUMNS", "TIE_BREAKERS",
           "DEFAULT_TIE_BREAKERS", "GROUPS"]


class Standings:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def table(self, club: str, *, group: str = "players", date_from: Any = None,
              date_to: Any = None, event: str | None = None,
              who: Caller = OPERATOR) -> list[dict[str, Any]]:
        """The club's standings, best first: per player (``group="players"``: every player of
        the club, those with no finished match in the filters last) or per partnership
        (``"partnerships"``: each pair that played as partners in the filters), with rank,
        player (or partners), played, won, lost, rounds_won, points_for, points_against,
        difference, win_rate, rating, rating_games, flagged (matches counted that have an open
        dispute) and provisional. Only finished matches count; a flagged one counts as it
        stands until it is ruled."""
        require(who, club, Action.READ)
        group = checks.one_of(group, GROUPS, "group")
        filters = {"date_from": checks.date(date_from, "from"),
                   "date_to": checks.date(date_to, "to"), "event": _event(event)}
        with db.reading(self.engine) as conn:
            club_id = club_row(conn, club).id
            breakers = tie_breakers(conn, club_id) or list(DEFAULT_TIE_BREAKERS)
            names = player_names(conn, club_id)
            ratings = current(conn, club_id)
            counted = aggregate(conn, club_id, group=group, **filters)
            if group == "players":
                seen = {row["key"] for row in counted}
                counted += [{"key": pid, **dict.fromkeys(_SUMS, 0)}
                            for pid in listed_players(conn, club_id) if pid not in seen]
            rows = [_line(row, group, names, ratings) for row in counted]

            def h2h(keys: list[Any]) -> dict[Any, Any]:
                return head_to_head(conn, club_id, keys, group=group, **filters)

            return _ranked(rows, breakers, h2h)

    def csv(self, club: str, *, group: str = "players", date_from: Any = None,
            date_to: Any = None, event: str | None = None, who: Caller = OPERATOR) -> str:
        """The standings as CSV (RFC 4180): a header line, then one row a line (partnerships:
        partner_1 and partner_2 in place of player), with cells a spreadsheet would take for
        formulas escaped (:mod:`.csvfile`)."""
        rows = self.table(club, group=group, date_from=date_from, date_to=date_to, event=event,
                          who=who)
        if group == "partnerships":
            rows = [{**r, "partner_1": r["partners"][0], "partner_2": r["partners"][1]}
                    for r in rows]
        rows = [{**r, "provisional": "true" if r["provisional"] else "false"} for r in rows]
        return to_csv(rows, PARTNERSHIP_COLUMNS if group == "partnerships" else COLUMNS)

    def tie_breakers(self, club: str, *, who: Caller = OPERATOR) -> list[str]:
        """The club's tie-breakers, in the order they apply."""
        require(who, club, Action.READ)
        with db.reading(self.engine) as conn:
            return tie_breakers(conn, club_row(conn, club).id) or list(DEFAULT_TIE_BREAKERS)

    def set_tie_breakers(self, club: str, breakers: Sequence[str] | None, *,
                         who: Caller = OPERATOR) -> dict[str, Any]:
        """Set how the club's standings break ties (admin): a list of distinct names from
        TIE_BREAKERS, applied in order; None for the default. Returns the club with them."""
        require(who, club, Action.MANAGE)
        chosen = None if breakers is None else check_tie_breakers(breakers)
        if chosen is not None and chosen == list(DEFAULT_TIE_BREAKERS):
            chosen = None
        with db.writing(self.engine) as conn:
            row = club_row(conn, club)
            set_tie_breakers(conn, row.id, chosen)
        return {"slug": row.slug, "name": row.name, "created_at": store.iso(row.created_at),
                "tie_breakers": chosen or list(DEFAULT_TIE_BREAKERS)}

    def rating_history(self, club: str, player: str | int, *,
                       who: Caller = OPERATOR) -> list[dict[str, Any]]:
        """A player's rating after each of his finished matches, in the order they finished:
        match (id), played_on, finished_at, mu, sigma, rating (mu - 3 sigma), games (matches
        rated so far), provisional. ``player`` is a name or a player id of the club."""
        require(who, club, Action.READ)
        with db.reading(self.engine) as conn:
            club_id = club_row(conn, club).id
            player_id = _player_id(conn, club_id, player)
            return [{"match": row.match_id, "played_on": row.played_on,
                     "finished_at": store.iso(row.finished_at), "mu": row.mu,
                     "sigma": row.sigma, "rating": round(ordinal(row.mu, row.sigma), 2),
                     "games": row.games, "provisional": provisional(row.sigma)}
                    for row in history(conn, player_id)]


_SUMS = ("played", "won", "lost", "rounds_won", "points_for", "points_against", "flagged")


def check_tie_breakers(breakers: Any) -> list[str]:
    if isinstance(breakers, str) or not isinstance(breakers, (list, tuple)) or not breakers:
        raise Invalid(f"tie_breakers must be a non-empty list of: {', '.join(TIE_BREAKERS)}")
    for name in breakers:
        if name not in TIE_BREAKERS:
            raise Invalid(f"unknown tie-breaker {name!r}; known: {', '.join(TIE_BREAKERS)}")
    if len(set(breakers)) != len(breakers):
        raise Invalid("a tie-breaker is named twice")
    return list(breakers)


def _event(event: Any) -> str | None:
    if event is None:
        return None
    if not isinstance(event, str) or len(event) > MAX_EVENT_LENGTH:
        raise Invalid(f"an event is text of at most {MAX_EVENT_LENGTH} characters")
    return event


def _player_id(conn: Any, club_id: int, player: Any) -> int:
    names = player_names(conn, club_id)
    if type(player) is int and player in names:
        return player
    if isinstance(player, str):
        for pid, name in names.items():
            if name == player:
                return pid
    raise NotFound(f"no player {player!r} in this club")


def _line(row: dict[str, Any], group: str, names: dict[int, str],
          ratings: dict[int, tuple[float, float, int]]) -> dict[str, Any]:
    played, won = row["played"], row["won"]
    keys = (row["key"],) if group == "players" else row["key"]
    rated = [ratings.get(pid, (MU, SIGMA, 0)) for pid in keys]
    # A partnership's rating is its partners' mean; it is made of the fewer partner's games
    # and provisional while either partner is.
    rating = sum(ordinal(mu, sigma) for mu, sigma, _ in rated) / len(rated)
    line: dict[str, Any] = {"rank": 0}
    if group == "players":
        line["player"] = names[row["key"]]
    else:
        line["partners"] = sorted((names[pid] for pid in keys), key=lambda n: (n.casefold(), n))
    line.update({
        "played": played, "won": won, "lost": row["lost"], "rounds_won": row["rounds_won"],
        "points_for": row["points_for"], "points_against": row["points_against"],
        "difference": row["points_for"] - row["points_against"],
        "win_rate": round(won / played, 4) if played else 0.0,
        "rating": round(rating, 2), "rating_games": min(g for _, _, g in rated),
        "flagged": row["flagged"],
        "provisional": any(provisional(sigma) for _, sigma, _ in rated),
    })
    line["_key"] = row["key"]
    line["_rating"] = rating
    return line


def _value(line: dict[str, Any], breaker: str) -> Any:
    if breaker == "points_against":
        return -line["points_against"]  # fewer is better
    if breaker == "rating":
        return line["_rating"]
    return line[breaker]


def _ranked(rows: list[dict[str, Any]], breakers: Sequence[str], h2h: Any) -> list[dict[str, Any]]:
    """Rows ordered by the tie-breakers in turn, each splitting only the rows still tied; those
    tied on all share a rank. Head-to-head counts, within each tied group, a row's wins in
    matches against the group's other rows (one query for all the groups)."""
    groups = [rows] if rows else []
    for breaker in breakers:
        if all(len(g) == 1 for g in groups):
            break
        if breaker == "head_to_head":
            tied = [g for g in groups if len(g) > 1 and any(r["played"] for r in g)]
            keys = [r["_key"] for g in tied for r in g]
            wins = _h2h_wins(h2h(keys), tied) if keys else {}
            value = lambda r: wins.get(r["_key"], 0)  # noqa: E731
        else:
            value = lambda r, b=breaker: _value(r, b)  # noqa: E731
        split: list[list[dict[str, Any]]] = []
        for g in groups:
            if len(g) == 1:
                split.append(g)
                continue
            ordered = sorted(g, key=value, reverse=True)
            run = [ordered[0]]
            for r in ordered[1:]:
                if value(r) == value(run[0]):
                    run.append(r)
                else:
                    split.append(run)
                    run = [r]
            split.append(run)
        groups = split
    out = []
    for g in groups:
        rank = len(out) + 1
        for r in sorted(g, key=_display_order):
            r["rank"] = rank
            del r["_key"], r["_rating"]
            out.append(r)
    return out


def _display_order(row: dict[str, Any]) -> tuple:
    name = row.get("player") or " ".join(row["partners"])
    return (name.casefold(), name)


def _h2h_wins(found: list[tuple[Any, int, Any]], groups: list[list[dict[str, Any]]]) -> dict[Any, int]:
    """From (winner key, match, loser key) triples, each key's wins against its own group."""
    group_of = {r["_key"]: i for i, g in enumerate(groups) for r in g}
    won: dict[Any, set[int]] = {}
    for winner, match_id, loser in found:
        if group_of.get(winner) is not None and group_of.get(winner) == group_of.get(loser):
            won.setdefault(winner, set()).add(match_id)
    return {key: len(matches) for key, matches in won.items()}
