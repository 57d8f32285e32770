"""The league engine: pure functions from a league's values to its fixtures, results, tables,
averages and cups. No database, no clock, no framework: values in, values out, and bad input a
:class:`LeagueError` said for people. The use cases, the store, the pages, the desk, the CLI and
the API call it; docs/leagues.md gives the algorithms as a league reads them.

- :mod:`.dates`: the season's calendar (:class:`Calendar`: first fixture day, weekday, weeks
  off, last day);
- :mod:`.circle`, :mod:`.fixtures`: a division's double round robin by the circle method
  (:func:`schedule`, :func:`season`) and a fixture moved (:func:`postpone`);
- :mod:`.format`: the fixture format (:class:`FixtureFormat` of :class:`LegFormat` legs) and a
  team sheet checked against it (:func:`check_sheet`);
- :mod:`.results`: a fixture's result from its legs (:func:`outcome` of a
  :class:`FixtureResult`; :func:`decide` for a best-of series);
- :mod:`.points`: the points rule (:class:`PointsRule`) and deductions (:class:`Deduction`);
- :mod:`.table`: a division's table (:func:`division_table`, :class:`TableRules`);
- :mod:`.averages`: players' averages (:func:`averages`);
- :mod:`.draw`, :mod:`.bracket`: a cup's draw from a recorded seed or a ranking
  (:func:`draw_cup`; :func:`redraw` while no tie is played) and its bracket, single or double
  elimination (:func:`bracket`; :func:`called`, a tie as people say it).

Conceding a leg and giving a walkover are records, not operations: a :class:`LegResult` with
``conceded_by``, a :class:`FixtureResult` with ``walkover_by``; what they mean (the leg to the
other team, void when both concede; a win at the walkover score) is :func:`outcome`'s.
Postponing changes the schedule, so it is a function (:func:`postpone`).
"""

from __future__ import annotations

from .averages import Average, averages
from .bracket import Bracket, Source, Tie, bracket, called, redraw
from .dates import Calendar
from .draw import Draw, bracket_order, draw_cup
from .errors import LeagueError
from .fixtures import MAX_TEAMS, Bye, Fixture, Move, Schedule, postpone, schedule, season
from .format import FixtureFormat, LegFormat, check_sheet
from .points import Deduction, PointsRule
from .results import (
    Decision,
    FixtureResult,
    LegOutcome,
    LegResult,
    Outcome,
    decide,
    outcome,
)
from .table import Row, Table, TableRules, division_table

__all__ = [
    "MAX_TEAMS", "Average", "Bracket", "Bye", "Calendar", "Decision", "Deduction", "Draw",
    "Fixture", "FixtureFormat", "FixtureResult", "LeagueError", "LegFormat", "LegOutcome",
    "LegResult", "Move", "Outcome", "PointsRule", "Row", "Schedule", "Source", "Table",
    "TableRules", "Tie", "averages", "bracket", "bracket_order", "called", "check_sheet", "decide",
    "division_table", "draw_cup", "outcome", "postpone", "redraw", "schedule", "season",
]
