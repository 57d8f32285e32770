"""What a season's fixtures came to, read from the store as the engine's values: each fixture's
:class:`FixtureResult` made from its legs' games (their matches' status and winner, who sat
on which side) and concessions, its :class:`Outcome`, and a division's :class:`Schedule`.

A leg's games are matches: a finished match is a game won by its side 0 (home) or 1 (away), or
drawn (no winner); a match still in play is a game not decided yet; an abandoned one counts for
nothing. Players are their ids, as text, so that a player renamed stays the same player."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlalchemy import Connection, Row

from ...store import leagues as store
from ..leagues import (
    Fixture,
    FixtureFormat,
    FixtureResult,
    LegResult,
    Move,
    Outcome,
    Schedule,
    outcome,
)

SIDE = ("home", "away")


@dataclass(frozen=True)
class Played:
    """The fixtures read with what they came to: ``results`` and ``outcomes`` by fixture id,
    ``games`` (fixture id -> leg -> the games' rows) and ``seats`` (fixture id -> leg ->
    side -> the player ids of the leg's first game)."""

    results: dict[int, FixtureResult]
    outcomes: dict[int, Outcome]
    games: dict[int, dict[int, list[Row]]]
    seats: dict[int, dict[int, dict[str, tuple[int, ...]]]]


def read(conn: Connection, format: FixtureFormat, fixtures: Sequence[Row],
         slugs: dict[int, str]) -> Played:
    """What ``fixtures`` came to (``slugs``: each team's id to its slug)."""
    ids = [f.id for f in fixtures]
    games: dict[int, dict[int, list[Row]]] = defaultdict(lambda: defaultdict(list))
    for game in store.leg_games(conn, ids):
        games[game.fixture_id][game.leg].append(game)
    seats: dict[int, dict[int, dict[str, list[int]]]] = defaultdict(
        lambda: defaultdict(lambda: {"home": [], "away": []}))
    for seat in store.leg_seats(conn, ids):
        if seat.game == 1:
            seats[seat.fixture_id][seat.leg][SIDE[seat.side]].append(seat.player_id)
    conceded = {(leg.fixture_id, leg.leg): leg for leg in store.leg_rows(conn, ids)}
    results: dict[int, FixtureResult] = {}
    outcomes: dict[int, Outcome] = {}
    for fixture in fixtures:
        result = _result(fixture, format, slugs, games.get(fixture.id, {}),
                         seats.get(fixture.id, {}), conceded)
        results[fixture.id] = result
        outcomes[fixture.id] = outcome(result, format)
    frozen = {f: {leg: {side: tuple(ids) for side, ids in sides.items()}
                  for leg, sides in legs.items()} for f, legs in seats.items()}
    return Played(results, outcomes, {f: dict(legs) for f, legs in games.items()}, frozen)


def _result(fixture: Row, format: FixtureFormat, slugs: dict[int, str],
            games: dict[int, list[Row]], seats: dict[int, dict[str, list[int]]],
            conceded: dict[tuple[int, int], Row]) -> FixtureResult:
    home, away = slugs[fixture.home_id], slugs[fixture.away_id]
    if fixture.walkover_by is not None:
        return FixtureResult(home, away, walkover_by=fixture.walkover_by,
                             reason=fixture.walkover_reason or "")
    legs = []
    for number in range(1, len(format.legs) + 1):
        winners = tuple(None if g.winner is None else SIDE[g.winner]
                        for g in games.get(number, []) if g.status == "finished")
        named = seats.get(number, {"home": [], "away": []})
        given = conceded.get((fixture.id, number))
        by = given.conceded_by if given is not None else None
        legs.append(LegResult(
            winners, tuple(str(p) for p in named["home"]), tuple(str(p) for p in named["away"]),
            () if by is None else (("home", "away") if by == "both" else (by,)),
            given.reason or "" if given is not None else ""))
    return FixtureResult(home, away, tuple(legs))


def schedule(division: str, teams: Iterable[Row], fixtures: Iterable[Row]) -> Schedule:
    """A division's schedule as it stands (moved fixtures at their new dates, the date the
    schedule gave each kept as its first move)."""
    slugs = {t.id: t.slug for t in teams}
    made = []
    days: dict[int, dt.date] = {}
    for f in fixtures:
        when, first = dt.date.fromisoformat(f.played_on), dt.date.fromisoformat(f.scheduled_on)
        moves = () if when == first else (Move(first, when),)
        made.append(Fixture(division, f.round, slugs[f.home_id], slugs[f.away_id], when, moves))
        days.setdefault(f.round, first)
    return Schedule(division, tuple(slugs.values()), tuple(days[r] for r in sorted(days)),
                    tuple(made))
