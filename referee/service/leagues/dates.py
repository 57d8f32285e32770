"""A season's calendar: the first fixture day, the weekday fixtures are played on, the weeks
off, and (if the league sets one) the season's last day. Dates are values given in
(``datetime.date``); the engine reads no clock."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from ...core.said import said
from ..errors import N_, Phrase
from .errors import LeagueError

WEEK = timedelta(days=7)
# the days of the week as date.weekday() numbers them, said in the reader's language
WEEKDAYS = (said("Monday"), said("Tuesday"), said("Wednesday"), said("Thursday"),
            said("Friday"), said("Saturday"), said("Sunday"))


def day_of(value: object, what: Phrase) -> date:
    """``value`` if it is a calendar date (a date and time is not: a fixture day has no hour)."""
    if not isinstance(value, date) or isinstance(value, datetime):
        raise LeagueError("%(what)s must be a date, not %(value)r", what=what, value=value)
    return value


@dataclass(frozen=True)
class Calendar:
    """``first``: the first fixture day; ``weekday``: the day of the week fixtures are played
    (0 Monday to 6 Sunday; by default ``first``'s, and it must be ``first``'s); ``weeks_off``:
    fixture days with no round (each on the weekday, on or after ``first``); ``last``: the
    season's last day (None: the season has no set end)."""

    first: date
    weekday: int | None = None
    weeks_off: tuple[date, ...] = ()
    last: date | None = None

    def __post_init__(self) -> None:
        first = day_of(self.first, Phrase(N_("the first fixture day")))
        if self.weekday is not None and (type(self.weekday) is not int
                                         or not 0 <= self.weekday <= 6):
            raise LeagueError("the weekday is a number from 0 (Monday) to 6 (Sunday), not "
                              "%(weekday)r", weekday=self.weekday)
        if self.weekday is not None and self.weekday != first.weekday():
            raise LeagueError("the first fixture day, %(first)s, is a %(day)s, and the "
                              "season's fixtures are on %(weekday)s", first=first.isoformat(),
                              day=WEEKDAYS[first.weekday()], weekday=WEEKDAYS[self.weekday])
        object.__setattr__(self, "weekday", first.weekday())
        last = self.last
        if last is not None and day_of(last, Phrase(N_("the season's last day"))) < first:
            raise LeagueError("the season's last day, %(last)s, is before its first fixture "
                              "day, %(first)s", last=last.isoformat(),
                              first=first.isoformat())
        if isinstance(self.weeks_off, (date, str)):
            raise LeagueError("the weeks off are a list of dates, not %(value)r",
                              value=self.weeks_off)
        off = tuple(sorted({day_of(d, Phrase(N_("a week off"))) for d in self.weeks_off}))
        for day in off:
            if day.weekday() != first.weekday() or day < first:
                raise LeagueError("a week off is named by its fixture day, a %(weekday)s on or "
                                  "after %(first)s: %(day)s is not one",
                                  weekday=WEEKDAYS[first.weekday()], first=first.isoformat(),
                                  day=day.isoformat())
        object.__setattr__(self, "weeks_off", off)  # sorted and once each: the same calendar

    def fixture_days(self, count: int) -> tuple[date, ...]:
        """The first ``count`` fixture days: every week from ``first``, but the weeks off.
        LeagueError if the last of them falls after the season's last day."""
        days: list[date] = []
        off = set(self.weeks_off)
        day = self.first
        while len(days) < count:
            if day not in off:
                days.append(day)
            day += WEEK
        if days and self.last is not None and days[-1] > self.last:
            raise LeagueError("%(rounds)s rounds do not fit in the season: the last would be on "
                              "%(day)s, after the season's last day, %(last)s", rounds=count,
                              day=days[-1].isoformat(), last=self.last.isoformat())
        return tuple(days)

    def check(self, day: object) -> date:
        """``day`` if it is a date inside the season (from the first fixture day to the last
        day, when there is one), else LeagueError."""
        day = day_of(day, Phrase(N_("a fixture's date")))
        if day < self.first or (self.last is not None and day > self.last):
            end = self.last.isoformat() if self.last is not None else ""
            if end:
                raise LeagueError("%(day)s is outside the season, which runs from %(first)s to "
                                  "%(last)s", day=day.isoformat(), first=self.first.isoformat(),
                                  last=end)
            raise LeagueError("%(day)s is before the season's first fixture day, %(first)s",
                              day=day.isoformat(), first=self.first.isoformat())
        return day
