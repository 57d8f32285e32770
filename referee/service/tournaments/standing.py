"""A tournament's event standing after its rounds (docs/tournaments.md): players in
``rotating``, partnerships otherwise.

Each entrant's sums come from the standing rows of the tournament's finished matches in the
rounds asked for (what a match adds to the club's standings, so a ruling changes both at once)
and from its byes, scored as the tournament says (a match played, won or not, with its points
for). The lines are made and ranked by the club standings' own code (:mod:`..standings`: the
club's tie-breakers, head-to-head among the tied counted in this event's matches only), so an
event standing breaks ties exactly as the club's table does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

from sqlalchemy import Row

from ...store import tournaments as store
from ...store.standings import DEFAULT_TIE_BREAKERS, SUMS, current
from ..access import OPERATOR, Action, Caller, require
from ..csvfile import to_csv
from ..lookup import club_row
from ..standings import player_names, ranked, standing_line
from ..uow import READ, UnitOfWork, use_case
from .base import Base
from .fields import MAX_ROUNDS, whole
from .rows import entrants_of, rounds_of, tournament_row

if TYPE_CHECKING:
    from ..pairing import Standing

_NUMBERS = ("played", "won", "lost", "byes", "rounds_won", "points_for", "points_against",
            "difference", "win_rate", "rating", "rating_games", "flagged", "provisional")
PLAYER_COLUMNS = ("rank", "entrant", "player", *_NUMBERS, "withdrawn")
PAIR_COLUMNS = ("rank", "entrant", "partner_1", "partner_2", *_NUMBERS, "withdrawn")


@dataclass(frozen=True)
class EventStanding:
    """The ranked rows, and the standing the pairing engine reads from them."""

    rows: list[dict[str, Any]]

    def for_pairing(self) -> Standing:
        """Entrants ranked by the rows, with their match points (matches won, byes as the event
        scores them: what a score group shares); those with nothing played yet (before round 1,
        a late arrival) left unranked, which the engine puts after every ranked one."""
        from ..pairing import Standing

        played = [r for r in self.rows if r["played"]]
        return Standing.of({r["entrant"]: r["rank"] for r in played},
                           {r["entrant"]: r["won"] for r in played})


class EventStandings(Base):
    @use_case(READ)
    def standings(self, uow: UnitOfWork, club: str, slug: str, *, after: int | None = None,
                  who: Caller = OPERATOR) -> list[dict[str, Any]]:
        """The event standing after round ``after`` (default: every round played), best
        first: rank, entrant, player (rotating) or partners, played, won, lost, byes,
        rounds_won, points_for, points_against, difference, win_rate, rating, rating_games,
        flagged, provisional, withdrawn. Only finished matches count; a bye counts as the
        tournament says (a match played, won or not, with its points for)."""
        require(who, club, Action.READ)
        row = tournament_row(uow, club, slug)
        rounds = rounds_of(uow, row)
        if after is not None:
            after = whole(after, "after", 0, MAX_ROUNDS)
            rounds = [r for r in rounds if r["number"] <= after]
        return event_standing(uow, club, row, entrants_of(uow, row), rounds).rows

    @use_case(READ)
    def standings_csv(self, uow: UnitOfWork, club: str, slug: str, *, after: int | None = None,
                      who: Caller = OPERATOR) -> str:
        """The event standing as CSV (:mod:`..csvfile`): partner_1 and partner_2 for pairs."""
        rows = self.standings.within(uow, club, slug, after=after, who=who)
        return standing_csv(rows, tournament_row(uow, club, slug).format)


def event_standing(uow: UnitOfWork, club: str, row: Row, entrants: Sequence[dict[str, Any]],
                   rounds: Sequence[dict[str, Any]]) -> EventStanding:
    """The standing of the club's tournament ``row`` after ``rounds`` (its rounds as the service reads
    them: number and pairing)."""
    numbers = {r["number"] for r in rounds}
    rotating = row.format == "rotating"
    group = "players" if rotating else "partnerships"

    def key(e: dict[str, Any]) -> Any:
        return e["player_ids"][0] if rotating else tuple(sorted(e["player_ids"]))

    by_key = {key(e): e for e in entrants}
    by_id = {e["id"]: e for e in entrants}
    sums = {key(e): {"key": key(e), **dict.fromkeys(SUMS, 0), "byes": 0} for e in entrants}
    counted_once: set[tuple[int, Any]] = set()
    seats: dict[int, list[tuple[Any, int, int]]] = {}  # match -> (entrant key, side, won)
    for seat in store.results(uow.conn, row.id):
        if seat.round not in numbers:
            continue
        k = seat.player_id if rotating else tuple(sorted((seat.player_id, seat.partner_id or 0)))
        if k not in sums or (seat.match_id, k) in counted_once:
            continue  # a seat no entrant holds; a partnership's second seat
        counted_once.add((seat.match_id, k))
        seats.setdefault(seat.match_id, []).append((k, seat.side, seat.won))
        line = sums[k]
        line["played"] += 1
        for name in SUMS[1:]:
            line[name] += getattr(seat, name)
    for r in rounds:
        for bye in r["pairing"]["byes"]:
            e = by_id.get(bye["entrant"])
            if e is None:
                continue
            line = sums[key(e)]
            line["byes"] += 1
            line["played"] += 1
            line["won"] += int(row.bye_won)
            line["points_for"] += row.bye_points
    names = player_names(uow, row.club_id)
    ratings = current(uow.conn, row.club_id)
    lines = []
    for k, counted in sums.items():
        e = by_key[k]
        if counted["played"] == 0 and e["entered"] > max(numbers, default=0) + 1:
            continue  # entered after the rounds asked for
        line = standing_line(counted, group, names, ratings)
        line.update(entrant=e["id"], byes=counted["byes"], withdrawn=e["withdrawn"])
        if not rotating:  # the partners as the entrant is named everywhere else (as entered)
            line["partners"], line["partner_ids"] = list(e["players"]), list(e["player_ids"])
        lines.append(line)
    wins = _wins(seats)
    breakers = club_row(uow, club).tie_breakers or list(DEFAULT_TIE_BREAKERS)
    order = ranked(lines, breakers, lambda keys: [w for w in wins if w[0] in keys])
    return EventStanding([_ordered(r, rotating) for r in order])


def _wins(seats: dict[int, list[tuple[Any, int, int]]]) -> list[tuple[Any, int, Any]]:
    """(winner, match, loser) for each entrant on a winning side and each on a side that did
    not win, match by match: what head-to-head counts, as the club's standings count it."""
    return [(w, match_id, lo) for match_id, found in seats.items()
            for w, w_side, won in found if won
            for lo, lo_side, lo_won in found if lo_side != w_side and not lo_won]


def _ordered(row: dict[str, Any], rotating: bool) -> dict[str, Any]:
    """The row's fields in the documented order."""
    first = ["rank", "entrant", "player" if rotating else "partners"]
    return {k: row[k] for k in [*first, *_NUMBERS, "withdrawn"]}


def standing_csv(rows: Sequence[dict[str, Any]], format: str) -> str:
    """The rows as CSV (RFC 4180), cells a spreadsheet would run escaped (:mod:`.csvfile`)."""
    if format != "rotating":
        rows = [{**r, "partner_1": r["partners"][0], "partner_2": r["partners"][1]} for r in rows]
    rows = [{**r, "provisional": "true" if r["provisional"] else "false"} for r in rows]
    return to_csv(rows, PLAYER_COLUMNS if format == "rotating" else PAIR_COLUMNS)
