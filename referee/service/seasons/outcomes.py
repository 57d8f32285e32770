"""What a season's fixtures came to, read from the store as the engine's values: each fixture's
:class:`FixtureResult` made from its legs' games (their matches' status and winner, who sat
on which side) and concessions, its :class:`Outcome`, and a division's :class:`Schedule`.

A leg's games are matches: a finished match is a game won by its side 0 (home) or 1 (away), or
drawn (no winner); a match still in play is a game not decided yet; an abandoned one counts for
nothing. Players are their ids, as text, so that a player renamed stays the same player."""

from __future__ import annotations

import datetime as dt
import functools
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
    and ``games`` (fixture id -> leg -> the games' rows)."""

    results: dict[int, FixtureResult]
    outcomes: dict[int, Outcome]
    games: dict[int, dict[int, list[Row]]]


def read(conn: Connection, format: FixtureFormat, fixtures: Sequence[Row],
         slugs: dict[int, str]) -> Played:
    """What ``fixtures`` came to (``slugs``: each team's id to its slug). The rows are walked
    once each, as plain tuples: a division's table reads some 10,000 of them."""
    ids = [f.id for f in fixtures]
    games: dict[int, dict[int, list[Row]]] = {}
    winners: dict[tuple[int, int], list[str | None]] = {}
    first: dict[int, tuple[int, int]] = {}  # a leg's first game's match -> (fixture, leg)
    for game in store.leg_games(conn, ids):
        fixture, leg, number, match_id, status, winner = game
        games.setdefault(fixture, {}).setdefault(leg, []).append(game)
        if number == 1:
            first[match_id] = (fixture, leg)
        if status == "finished":
            winners.setdefault((fixture, leg), []).append(
                None if winner is None else SIDE[winner])
    # a leg is played by its first game's players
    sat: dict[tuple[int, int], tuple[list[str], list[str]]] = {}
    for match_id, side, player in store.seats_of(conn, list(first)):
        sat.setdefault(first[match_id], ([], []))[side].append(str(player))
    conceded = {(leg.fixture_id, leg.leg): leg for leg in store.leg_rows(conn, ids)}
    results: dict[int, FixtureResult] = {}
    outcomes: dict[int, Outcome] = {}
    numbers = range(1, len(format.legs) + 1)
    for fixture in fixtures:
        home, away = slugs[fixture.home_id], slugs[fixture.away_id]
        if fixture.walkover_by is not None:
            result = FixtureResult(home, away, walkover_by=fixture.walkover_by,
                                   reason=fixture.walkover_reason or "")
        else:
            legs = []
            for number in numbers:
                key = (fixture.id, number)
                named = sat.get(key, NOBODY)
                given = conceded.get(key)
                by = () if given is None or given.conceded_by is None else (
                    SIDE if given.conceded_by == "both" else (given.conceded_by,))
                legs.append(LegResult(tuple(winners.get(key, ())), tuple(named[0]),
                                      tuple(named[1]), by,
                                      (given.reason or "") if given is not None else ""))
            result = FixtureResult(home, away, tuple(legs))
        results[fixture.id] = result
        outcomes[fixture.id] = _outcome(result, format)
    return Played(results, outcomes, games)


NOBODY: tuple[list[str], list[str]] = ([], [])


@functools.lru_cache(maxsize=8192)
def _outcome(result: FixtureResult, format: FixtureFormat) -> Outcome:
    """The engine's outcome of a result read from the store (its sheets checked as each leg
    was recorded), remembered: a result and a format are values, so the same two always give
    the same outcome, and a page read again (a table, a team's page) computes only the
    fixtures that changed. A league's season is some 5,000 fixtures."""
    return outcome(result, format, sheets_checked=True)


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
