"""A division's fixtures for a season: the double round robin of :mod:`.circle` laid on the
calendar's fixture days (:mod:`.dates`), and a fixture moved to a new date with its history
kept (:func:`postpone`).

A fixture is known by its division and its two teams, home first (:attr:`Fixture.key`): each
ordered pair of teams meets once a season, so the key stays the same whatever date the fixture
moves to. Teams are ids (text) listed in the order the league numbers them (a draw, or the
secretary's order): the first listed is place 0 of the circle, and the same list gives the same
schedule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date

from .checks import TEAMS, ids
from .circle import double_round_robin
from .dates import Calendar
from .errors import LeagueError

MAX_TEAMS = 64  # the largest division the tests prove the schedule's properties for


@dataclass(frozen=True, slots=True)
class Move:
    """A fixture moved: from the date ``was`` to ``to``, and why (as the league recorded it)."""

    was: date
    to: date
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Fixture:
    """One meeting of the season: ``home`` receives ``away`` in round ``round`` (from 1), on
    ``date`` (the round's fixture day, or the date it was moved to); ``moves`` are its
    postponements, oldest first."""

    division: str
    round: int
    home: str
    away: str
    date: date
    moves: tuple[Move, ...] = ()

    @property
    def key(self) -> tuple[str, str]:
        return (self.home, self.away)

    @property
    def scheduled(self) -> date:
        """The date the schedule first gave it."""
        return self.moves[0].was if self.moves else self.date


@dataclass(frozen=True, slots=True)
class Bye:
    """In an odd division, the team with round ``round``'s week off, and that round's day."""

    round: int
    team: str
    date: date


@dataclass(frozen=True)
class Schedule:
    """A division's season: its teams in the league's order, each round's fixture day, the
    fixtures (round by round, each round's in the circle's table order) and the weeks off."""

    division: str
    teams: tuple[str, ...]
    days: tuple[date, ...]
    fixtures: tuple[Fixture, ...]
    byes: tuple[Bye, ...] = ()
    _index: Mapping[tuple[str, str], int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # a lookup by key, made once: the object is frozen and the fixtures do not change
        object.__setattr__(self, "_index", {f.key: n for n, f in enumerate(self.fixtures)})

    def fixture(self, home: str, away: str) -> Fixture:
        """The fixture ``home`` v ``away``, else LeagueError."""
        found = self._index.get((home, away))
        if found is None:
            raise LeagueError("%(division)s has no fixture %(home)r v %(away)r",
                              division=self.division, home=home, away=away)
        return self.fixtures[found]

    def round(self, number: int) -> tuple[Fixture, ...]:
        """Round ``number``'s fixtures as the schedule made them (moved ones too)."""
        return tuple(f for f in self.fixtures if f.round == number)

    def of(self, team: str) -> tuple[Fixture, ...]:
        """``team``'s fixtures, round by round."""
        return tuple(f for f in self.fixtures if team in f.key)


def schedule(division: str, teams: Sequence[str], calendar: Calendar) -> Schedule:
    """The season of ``division``: every two of ``teams`` meet once at each's home, in
    2(n - 1) rounds (2n when n is odd, one team a round having the week off), round ``r`` on
    the calendar's ``r``-th fixture day. LeagueError for fewer than 2 teams or more than
    ``MAX_TEAMS``, a team listed twice, or rounds that do not fit before the season's end."""
    if not isinstance(division, str) or not division.strip():
        raise LeagueError("a division is named by a non-empty text, not %(value)r",
                          value=division)
    listed = ids(teams, TEAMS)
    if len(listed) > MAX_TEAMS:
        raise LeagueError("a division has at most %(most)s teams, and this one has %(count)s",
                          most=MAX_TEAMS, count=len(listed))
    rounds = double_round_robin(len(listed))
    days = calendar.fixture_days(len(rounds))
    fixtures: list[Fixture] = []
    byes: list[Bye] = []
    for number, ((meetings, off), day) in enumerate(zip(rounds, days, strict=True), start=1):
        fixtures += [Fixture(division, number, listed[home], listed[away], day)
                     for home, away in meetings]
        if off is not None:
            byes.append(Bye(number, listed[off], day))
    return Schedule(division, listed, days, tuple(fixtures), tuple(byes))


def postpone(schedule: Schedule, home: str, away: str, to: date, calendar: Calendar,
             reason: str = "") -> Schedule:
    """The schedule with ``home`` v ``away`` moved to ``to`` (a date inside the season; any day
    of the week, and it may fall in a week either team already plays), the date it leaves kept
    in its moves with ``reason``. LeagueError for an unknown fixture, a date outside the
    season, or the date it already has."""
    fixture = schedule.fixture(home, away)
    day = calendar.check(to)
    if day == fixture.date:
        raise LeagueError("%(home)r v %(away)r is already on %(day)s", home=home, away=away,
                          day=day.isoformat())
    if not isinstance(reason, str):
        raise LeagueError("a postponement's reason is a text, not %(value)r", value=reason)
    moved = replace(fixture, date=day, moves=fixture.moves + (Move(fixture.date, day, reason),))
    return replace(schedule, fixtures=tuple(moved if f is fixture else f
                                            for f in schedule.fixtures))


def season(divisions: Mapping[str, Sequence[str]], calendar: Calendar) -> dict[str, Schedule]:
    """Every division's schedule on one calendar (each from the first fixture day), by
    division. LeagueError as :func:`schedule` says, or for a team in two divisions."""
    where: dict[str, str] = {}
    for division, teams in divisions.items():
        for team in ids(teams, TEAMS):
            if team in where:
                raise LeagueError("team %(team)r is in two divisions, %(one)s and %(other)s",
                                  team=team, one=where[team], other=division)
            where[team] = division
    return {division: schedule(division, teams, calendar)
            for division, teams in divisions.items()}
