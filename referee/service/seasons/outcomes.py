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
from typing import Any

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
    legs: dict[tuple[int, int], LegResult] = {}
    for key in sat.keys() | winners.keys() | conceded.keys():
        named = sat.get(key, NOBODY)
        given = conceded.get(key)
        legs[key] = LegResult(tuple(winners.get(key, ())), tuple(named[0]), tuple(named[1]),
                              _conceded(given.conceded_by if given is not None else None),
                              (given.reason or "") if given is not None else "")
    return _played(format, fixtures, slugs, legs, games)


def projected(conn: Connection, format: FixtureFormat, fixtures: Sequence[Row],
              slugs: dict[int, str], *, division_id: int | None = None,
              season_id: int | None = None) -> Played:
    """What ``fixtures`` came to, as :func:`read` says, from the legs' results kept with every
    change (``league_leg_results``, :func:`referee.store.leagues.project_legs`): one row a leg,
    no games' rows (``games`` is empty). ``division_id`` or ``season_id``: the fixtures are all
    of that division's or season's, read by it.

    A fixture's result and outcome are remembered by what its rows say (plain strings, cheap
    to compare): a page read again makes only the fixtures whose legs changed."""
    if division_id is None and season_id is None:
        rows = store.leg_results(conn, fixture_ids=[f.id for f in fixtures])
    else:
        rows = store.leg_results(conn, division_id=division_id, season_id=season_id)
    said: dict[int, list[tuple[Any, ...]]] = {}
    for row in rows:
        said.setdefault(row[0], []).append(tuple(row[1:]))  # by leg: the rows come so
    results: dict[int, FixtureResult] = {}
    outcomes: dict[int, Outcome] = {}
    shape = repr(format)  # a dataclass hashes field by field, in Python: its text once
    for fixture in fixtures:
        key = (shape, slugs[fixture.home_id], slugs[fixture.away_id], fixture.walkover_by,
               fixture.walkover_reason, tuple(said.get(fixture.id, ())))
        made = _MADE.get(key)
        if made is None:
            made = _made(format, *key[1:])
            if len(_MADE) >= _MADE_MOST:
                _MADE.clear()
            _MADE[key] = made
        results[fixture.id], outcomes[fixture.id] = made
    return Played(results, outcomes, {})


# A fixture's (result, outcome) by its format's text and what its rows say: a season is some
# 5,000 fixtures.
_MADE: dict[tuple[Any, ...], tuple[FixtureResult, Outcome]] = {}
_MADE_MOST = 20_000


def _made(format: FixtureFormat, home: str, away: str, walkover_by: str | None,
          walkover_reason: str | None, legs: tuple[tuple[Any, ...], ...]
          ) -> tuple[FixtureResult, Outcome]:
    if walkover_by is not None:
        result = FixtureResult(home, away, walkover_by=walkover_by,
                               reason=walkover_reason or "")
    else:
        given = {leg: LegResult(tuple(WINNER[mark] for mark in games),
                                tuple(named_home.split(",")) if named_home else (),
                                tuple(named_away.split(",")) if named_away else (),
                                _conceded(conceded_by), reason or "")
                 for leg, games, named_home, named_away, conceded_by, reason in legs}
        result = FixtureResult(home, away, tuple(given.get(number, NOT_PLAYED)
                                                 for number in range(1, len(format.legs) + 1)))
    return result, outcome(result, format, sheets_checked=True)


WINNER = {"h": "home", "a": "away", "d": None}
NOT_PLAYED = LegResult()


def _conceded(by: str | None) -> tuple[str, ...]:
    return () if by is None else SIDE if by == "both" else (by,)


def _played(format: FixtureFormat, fixtures: Sequence[Row], slugs: dict[int, str],
            legs: dict[tuple[int, int], LegResult],
            games: dict[int, dict[int, list[Row]]]) -> Played:
    """Each fixture's result and outcome from its legs (a leg not there: nothing yet)."""
    results: dict[int, FixtureResult] = {}
    outcomes: dict[int, Outcome] = {}
    numbers = range(1, len(format.legs) + 1)
    for fixture in fixtures:
        home, away = slugs[fixture.home_id], slugs[fixture.away_id]
        if fixture.walkover_by is not None:
            result = FixtureResult(home, away, walkover_by=fixture.walkover_by,
                                   reason=fixture.walkover_reason or "")
        else:
            result = FixtureResult(home, away, tuple(legs.get((fixture.id, number), NOT_PLAYED)
                                                     for number in numbers))
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
