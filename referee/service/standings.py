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

from sqlalchemy import Row

from .. import store
from ..core.vocab import EVENT_FILTER_LENGTH, UNRANKED
from ..store.standings import (
    DEFAULT_TIE_BREAKERS,
    GROUPS,
    SUMS,
    TIE_BREAKERS,
    aggregate,
    current,
    head_to_head,
    history,
    player_rows,
)
from . import checks
from .access import OPERATOR, Action, Caller, require
from .errors import Invalid, NotFound
from .lookup import club_row
from .ratings import (
    MU,
    SIGMA,
    RatingsStale,
    is_stale,
    ordinal,
    points,
    provisional,
    rating_points,
)
from .rowcheck import require_players
from .uow import READ, WRITE, UnitOfWork, Units, use_case

_NUMBERS = ("played", "won", "lost", "rounds_won", "points_for", "points_against",
            "difference", "win_rate", "rating", "rating_games", "flagged", "provisional")
# Added after the contract's columns, so that a reader of the first ones by place is not moved.
_ADDED = ("rating_points", "ranked")
COLUMNS = ("rank", "player", *_NUMBERS, *_ADDED)
PARTNERSHIP_COLUMNS = ("rank", "partner_1", "partner_2", *_NUMBERS, *_ADDED)

__all__ = ["Standings", "COLUMNS", "PARTNERSHIP_COLUMNS", "TIE_BREAKERS",
           "DEFAULT_TIE_BREAKERS", "GROUPS"]


def rated_club(uow: UnitOfWork, club: str) -> int:
    """The club's id, once its ratings are found up to date (else RatingsStale: the use
    case's entry waits for them and runs it again, ``uow.waited``, taking them as they are)."""
    club_id = club_row(uow, club).id
    if not uow.waited and uow.remember(("stale", club_id),
                                       lambda: is_stale(uow.conn, club_id)):
        raise RatingsStale(club_id)
    return club_id


def club_players(uow: UnitOfWork, club_id: int) -> list[Row]:
    """The club's players (id, name, merged_into: aliases too), read once in ``uow``."""
    return uow.remember(("players", club_id), lambda: _checked(uow, player_rows(uow.conn,
                                                                                club_id)))


def _checked(uow: UnitOfWork, rows: list[Row]) -> list[Row]:
    """``rows`` once every one holds its MAC: no table names a player renamed behind the
    service's back (docs/verify.md)."""
    require_players(uow.conn, rows)
    return rows


def player_names(uow: UnitOfWork, club_id: int) -> dict[int, str]:
    """Every player's name by id (aliases too: a merged player's old rows may name him)."""
    return {r.id: r.name for r in club_players(uow, club_id)}


class Standings:
    def __init__(self, units: Units) -> None:
        self.units = units

    @use_case(READ)
    def table(self, uow: UnitOfWork, club: str, *, group: str = "players", date_from: Any = None,
              date_to: Any = None, event: str | None = None, who: Caller = OPERATOR,
              ids: bool = False) -> list[dict[str, Any]]:
        """The club's standings, best first: per player (``group="players"``) or per
        partnership (``"partnerships"``: each pair that played as partners in the filters),
        with rank, player (or partners), played, won, lost, rounds_won, points_for,
        points_against, difference, win_rate, rating (in points: 1000 for a newcomer),
        rating_games, flagged (matches counted that have an open dispute), provisional,
        rating_points (the same number, the name it had first) and ranked. Only finished matches count; a flagged one counts as it stands until it is
        ruled. Only the players who played a counted match are ranked; the club's other
        players follow them, ``ranked`` false and ``rank`` None, when its ``unranked`` setting
        is "apart" (the default) and no event is asked for (an event's table is its players'),
        else they are left out. With ``ids``, each row also with the player's id
        (``player_id``; ``partner_ids``), for a page that links to players. While a ruling's
        re-rating is under way it waits for it (:class:`.ratings.RatingsStale`)."""
        require(who, club, Action.READ)
        group = checks.one_of(group, GROUPS, "group")
        filters = {"date_from": checks.date(date_from, "from"),
                   "date_to": checks.date(date_to, "to"), "event": _event(event)}
        conn = uow.conn
        club_id = rated_club(uow, club)
        settings = club_row(uow, club)
        breakers = settings.tie_breakers or list(DEFAULT_TIE_BREAKERS)
        names = player_names(uow, club_id)
        ratings = current(conn, club_id)
        counted = [row for row in aggregate(conn, club_id, group=group, **filters)
                   if row["played"]]
        apart: list[dict[str, Any]] = []
        if group == "players" and filters["event"] is None and (
                settings.unranked or UNRANKED[0]) == "apart":
            seen = {row["key"] for row in counted}
            apart = [standing_line({"key": r.id, **dict.fromkeys(SUMS, 0)}, group, names,
                                   ratings)
                     for r in club_players(uow, club_id)
                     if r.merged_into is None and r.id not in seen]
        rows = [standing_line(row, group, names, ratings) for row in counted]

        def h2h(keys: list[Any]) -> dict[Any, Any]:
            return head_to_head(conn, club_id, keys, group=group, **filters)

        found = ranked(rows, breakers, h2h)
        for row in sorted(apart, key=_display_order):
            row.update(rank=None, ranked=False)
            del row["_key"]
            found.append(row)
        if not ids:
            for row in found:
                row.pop("player_id", None)
                row.pop("partner_ids", None)
        return found

    @use_case(READ)
    def csv(self, uow: UnitOfWork, club: str, *, group: str = "players", date_from: Any = None,
            date_to: Any = None, event: str | None = None, who: Caller = OPERATOR) -> str:
        """The standings as CSV (RFC 4180): a header line, then one row a line (partnerships:
        partner_1 and partner_2 in place of player), with cells a spreadsheet would take for
        formulas escaped (:mod:`.csvfile`)."""
        rows = self.table.within(uow, club, group=group, date_from=date_from, date_to=date_to,
                                 event=event, who=who)
        if group == "partnerships":
            rows = [{**r, "partner_1": r["partners"][0], "partner_2": r["partners"][1]}
                    for r in rows]
        rows = [{**r, "rank": "" if r["rank"] is None else r["rank"],
                 **{k: "true" if r[k] else "false" for k in ("provisional", "ranked")}}
                for r in rows]
        from .csvfile import to_csv

        return to_csv(rows, PARTNERSHIP_COLUMNS if group == "partnerships" else COLUMNS)

    @use_case(READ)
    def tie_breakers(self, uow: UnitOfWork, club: str, *, who: Caller = OPERATOR) -> list[str]:
        """The club's tie-breakers, in the order they apply."""
        require(who, club, Action.READ)
        return club_row(uow, club).tie_breakers or list(DEFAULT_TIE_BREAKERS)

    @use_case(WRITE)
    def set_tie_breakers(self, uow: UnitOfWork, club: str, breakers: Sequence[str] | None, *,
                         who: Caller = OPERATOR) -> dict[str, Any]:
        """Set how the club's standings break ties (admin): a list of distinct names from
        TIE_BREAKERS, applied in order; None for the default. A club setting like the others
        (:meth:`.clubs.Clubs.settings`). Returns the club with them."""
        from .clubs import change_settings

        return change_settings(uow, club, {"tie_breakers": breakers}, who)

    @use_case(READ)
    def unranked(self, uow: UnitOfWork, club: str, *, who: Caller = OPERATOR) -> str:
        """Where the club's standings put the players with no counted match: UNRANKED."""
        require(who, club, Action.READ)
        return club_row(uow, club).unranked or UNRANKED[0]

    @use_case(WRITE)
    def set_unranked(self, uow: UnitOfWork, club: str, value: str | None, *,
                     who: Caller = OPERATOR) -> dict[str, Any]:
        """Set where the club's standings put the players who played no counted match in the
        period (admin): "apart" (after the ranked, without a rank) or "hidden" (not listed);
        None for the default ("apart"). A club setting like the others
        (:meth:`.clubs.Clubs.settings`). Returns the setting as it now stands."""
        from .clubs import change_settings

        return {"unranked": change_settings(uow, club, {"unranked": value}, who)["unranked"]}

    @use_case(READ)
    def rating_history(self, uow: UnitOfWork, club: str, player: str | int, *,
                       who: Caller = OPERATOR) -> list[dict[str, Any]]:
        """A player's rating after each of his finished matches, in the order they finished:
        match (id), played_on, finished_at, mu and sigma (the model's), rating (in points, as
        the standings show it), games (matches rated so far), provisional, rating_points (the
        same number, the name it had first). ``player`` is a name
        or a player id of the club."""
        require(who, club, Action.READ)
        conn = uow.conn
        club_id = rated_club(uow, club)
        player_id = _player_id(uow, club_id, player)
        return [{"match": row.match_id, "played_on": row.played_on,
                 "finished_at": store.iso(row.finished_at), "mu": row.mu,
                 "sigma": row.sigma, "rating": rating_points(row.mu, row.sigma),
                 "games": row.games, "provisional": provisional(row.sigma),
                 "rating_points": rating_points(row.mu, row.sigma)}
                for row in history(conn, player_id)]


def _event(event: Any) -> str | None:
    if event is None:
        return None
    if not isinstance(event, str) or len(event) > EVENT_FILTER_LENGTH:
        raise Invalid("an event is text of at most %(length)s characters",
                      length=EVENT_FILTER_LENGTH)
    return event


def _player_id(uow: UnitOfWork, club_id: int, player: Any) -> int:
    names = player_names(uow, club_id)
    if type(player) is int and player in names:
        return player
    if isinstance(player, str):
        from .players import find as find_player  # by name: the listing itself needs no .players

        found = find_player(uow.conn, club_id, player)  # by key, a merge followed: "ana" is Ana
        if found is not None:
            return found.id
    raise NotFound("no player %(player)r in this club", player=player)


_UNRATED = (MU, SIGMA, 0)


def standing_line(row: dict[str, Any], group: str, names: dict[int, str],
          ratings: dict[int, tuple[float, float, int]]) -> dict[str, Any]:
    played, won, pf, pa = row["played"], row["won"], row["points_for"], row["points_against"]
    key = row["key"]
    line: dict[str, Any] = {"rank": 0}
    if group == "players":
        mu, sigma, games = ratings.get(key, _UNRATED)
        rating, unsure = mu - 3 * sigma, provisional(sigma)
        line["player"] = names[key]
        line["player_id"] = key
    else:
        # A partnership's rating is its partners' mean ordinal, in points; it is made of the
        # fewer partner's games and provisional while either partner is.
        (mu1, s1, g1), (mu2, s2, g2) = ratings.get(key[0], _UNRATED), ratings.get(key[1], _UNRATED)
        rating, games = (ordinal(mu1, s1) + ordinal(mu2, s2)) / 2, min(g1, g2)
        unsure = provisional(s1) or provisional(s2)
        a, b = names[key[0]], names[key[1]]
        first = (a.casefold(), a) <= (b.casefold(), b)
        line["partners"] = [a, b] if first else [b, a]
        line["partner_ids"] = list(key) if first else [key[1], key[0]]
    line.update(played=played, won=won, lost=row["lost"], rounds_won=row["rounds_won"],
                points_for=pf, points_against=pa, difference=pf - pa,
                win_rate=round(won / played, 4) if played else 0.0, rating=points(rating),
                rating_games=games, flagged=row["flagged"], provisional=unsure,
                rating_points=points(rating), ranked=True, _key=key)
    return line


def _value(breaker: str) -> Any:
    """The breaker's value of a line, more being better."""
    if breaker == "points_against":
        return lambda line: -line["points_against"]  # fewer is better
    return lambda line: line[breaker]


def ranked(rows: list[dict[str, Any]], breakers: Sequence[str], h2h: Any) -> list[dict[str, Any]]:
    """Rows ordered by the tie-breakers in turn, each splitting only the rows still tied; those
    tied on all share a rank. Head-to-head counts, within each tied group, a row's wins in
    matches against the group's other rows (one query for all the groups). The breakers
    between two head-to-heads split the groups in one sort."""
    groups = [rows] if rows else []
    runs: list[list[str]] = []  # the breakers in runs: head_to_head alone, the others together
    for breaker in breakers:
        if breaker != "head_to_head" and runs and runs[-1][0] != "head_to_head":
            runs[-1].append(breaker)
        else:
            runs.append([breaker])
    for run in runs:
        if all(len(g) == 1 for g in groups):
            break
        if run == ["head_to_head"]:
            tied = [g for g in groups if len(g) > 1 and any(r["played"] for r in g)]
            keys = [r["_key"] for g in tied for r in g]
            wins = _h2h_wins(h2h(keys), tied) if keys else {}

            def value(r: dict[str, Any]) -> Any:
                return wins.get(r["_key"], 0)
        else:
            getters = [_value(b) for b in run]

            def value(r: dict[str, Any], getters: list = getters) -> Any:
                return tuple(get(r) for get in getters)
        split: list[list[dict[str, Any]]] = []
        for g in groups:
            if len(g) == 1:
                split.append(g)
                continue
            keyed = sorted(((value(r), r) for r in g), key=lambda pair: pair[0], reverse=True)
            same = None
            for v, r in keyed:
                if same is None or v != same:
                    split.append([r])
                    same = v
                else:
                    split[-1].append(r)
        groups = split
    out = []
    for g in groups:
        rank = len(out) + 1
        for r in (sorted(g, key=_display_order) if len(g) > 1 else g):
            r["rank"] = rank
            del r["_key"]
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
