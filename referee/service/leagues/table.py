"""A division's table: played, won, drawn, lost, legs for and against, leg difference, points,
form; ordered by points, then the league's tie-breakers; promotion and relegation places
marked.

**Only complete fixtures count** (every leg decided, drawn, conceded or void, or a walkover);
an outcome still in play is listed as pending and counts nowhere. A walkover counts as played
by both teams: won at the walkover score by the team that turned up, lost by the team that gave
it, whose points from it are none (its legs still count for and against).

**Order.** Points (after the league's deductions), most first. Teams level on points go through
the league's tie-breakers in the order it gives them:

- ``leg_difference``, ``legs_for``: the team's own figure, more first;
- ``head_to_head``: a mini-table of the complete fixtures among the teams still level (each
  team's points from them by the league's points rule, then the league's other tie-breakers
  counted in those fixtures only, in the league's order); when it separates some of them, it is
  applied again, from scratch, to each smaller group it leaves level (a mini-table of that
  group's fixtures); when it separates none, the next tie-breaker is tried.

A group a tie-breaker splits goes on to the next tie-breaker, each part by itself. Teams that
nothing separates share a place (3, 3, then 5), listed in the division's order.

**Places marked.** The first ``promotion`` places are marked ``promotion``, the last
``relegation`` places ``relegation``. Teams sharing a place that lies across one of those lines
are not marked: the table lists them (:attr:`Table.level_across`) for the league to decide.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ...core.vocab import DEFAULT_LEAGUE_TIE_BREAKERS, LEAGUE_TIE_BREAKERS
from .checks import count
from .errors import LeagueError
from .fixtures import Schedule
from .points import Deduction, PointsRule
from .results import Outcome

FORM = 5  # the results the form shows, the last played


@dataclass(frozen=True)
class TableRules:
    """How a division's table is made: the points rule, the tie-breakers after points (in
    order: ``leg_difference``, ``legs_for``, ``head_to_head``, any of them once), and how many
    places at the top are promoted and at the bottom relegated."""

    points: PointsRule = PointsRule()
    tie_breakers: tuple[str, ...] = DEFAULT_LEAGUE_TIE_BREAKERS
    promotion: int = 0
    relegation: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.points, PointsRule):
            raise LeagueError("a table needs a points rule, not %(value)r", value=self.points)
        breakers = self.tie_breakers
        if isinstance(breakers, str) or not isinstance(breakers, Sequence):
            raise LeagueError("the tie-breakers are a list, not %(value)r", value=breakers)
        for breaker in breakers:
            if breaker not in LEAGUE_TIE_BREAKERS:
                raise LeagueError("unknown tie-breaker %(value)r: one of %(known)s",
                                  value=breaker, known=", ".join(LEAGUE_TIE_BREAKERS))
        if len(set(breakers)) != len(breakers):
            raise LeagueError("a tie-breaker is listed twice: %(value)r", value=breakers)
        object.__setattr__(self, "tie_breakers", tuple(breakers))
        count(self.promotion, 0, "promotion")
        count(self.relegation, 0, "relegation")


@dataclass(frozen=True, slots=True)
class Row:
    """A team's line of the table. ``place`` is shared by teams nothing separates; ``points``
    are after ``deducted``; ``form`` is the results (``won``, ``drawn``, ``lost``) of its last
    five complete fixtures in the order played, the latest last; ``zone`` is ``promotion``,
    ``relegation`` or None."""

    place: int
    team: str
    played: int
    won: int
    drawn: int
    lost: int
    legs_for: int
    legs_against: int
    points: int
    deducted: int
    form: tuple[str, ...]
    zone: str | None = None

    @property
    def leg_difference(self) -> int:
        return self.legs_for - self.legs_against


@dataclass(frozen=True)
class Table:
    """A division's table: its rows in order; ``pending``, the fixtures with a result that is
    not complete yet (home, away); ``level_across``, each group of teams sharing a place across
    the promotion or the relegation line, with the line's zone."""

    division: str
    rows: tuple[Row, ...]
    pending: tuple[tuple[str, str], ...] = ()
    level_across: tuple[tuple[str, tuple[str, ...]], ...] = field(default=())

    def row(self, team: str) -> Row:
        for row in self.rows:
            if row.team == team:
                return row
        raise LeagueError("team %(team)r is not in %(division)s", team=team,
                          division=self.division)


@dataclass
class _Tally:
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    legs_for: int = 0
    legs_against: int = 0
    points: int = 0

    def add(self, outcome: Outcome, side: str, rule: PointsRule) -> str:
        result = outcome.result(side)
        self.played += 1
        setattr(self, result, getattr(self, result) + 1)
        self.legs_for += outcome.legs_won(side)
        self.legs_against += outcome.legs_won("away" if side == "home" else "home")
        self.points += rule.points(outcome, side)
        return result

    def figure(self, breaker: str) -> int:
        return self.legs_for - self.legs_against if breaker == "leg_difference" else self.legs_for


def _tallies(outcomes: Iterable[Outcome], rule: PointsRule) -> dict[str, _Tally]:
    tallies: dict[str, _Tally] = defaultdict(_Tally)
    for outcome in outcomes:
        tallies[outcome.home].add(outcome, "home", rule)
        tallies[outcome.away].add(outcome, "away", rule)
    return tallies


def _split(group: list[str], key: dict[str, tuple[int, ...]]) -> list[list[str]]:
    """``group`` in parts of equal ``key``, the highest first (each part in the group's order)."""
    parts: dict[tuple[int, ...], list[str]] = defaultdict(list)
    for team in group:
        parts[key[team]].append(team)
    return [parts[k] for k in sorted(parts, reverse=True)]


def _order(group: list[str], breakers: tuple[str, ...], tallies: dict[str, _Tally],
           counted: list[Outcome], rules: TableRules) -> list[list[str]]:
    """``group`` (level on points) in the parts the tie-breakers leave, best first."""
    if len(group) == 1 or not breakers:
        return [group]
    breaker, rest = breakers[0], breakers[1:]
    if breaker != "head_to_head":
        key = {team: (tallies[team].figure(breaker),) for team in group}
        return [p for part in _split(group, key) for p in _order(part, rest, tallies, counted,
                                                                   rules)]
    members = set(group)
    mini = _tallies((o for o in counted if o.home in members and o.away in members),
                    rules.points)
    others = [b for b in rules.tie_breakers if b != "head_to_head"]
    key = {team: (mini[team].points, *(mini[team].figure(b) for b in others)) for team in group}
    parts = _split(group, key)
    if len(parts) == 1:
        return _order(group, rest, tallies, counted, rules)
    # each smaller group still level gets a mini-table of its own fixtures, then the rest
    return [p for part in parts for p in _order(part, breakers, tallies, counted, rules)]


def _counted(schedule: Schedule, outcomes: Iterable[Outcome]
             ) -> tuple[list[Outcome], list[tuple[str, str]]]:
    """The complete outcomes in the order played (date, then round, then the schedule's
    order), and the keys of those pending. LeagueError for a result of no fixture of the
    division, or two results of one fixture."""
    seen: set[tuple[str, str]] = set()
    complete: list[tuple[tuple, Outcome]] = []
    pending: list[tuple[str, str]] = []
    position = {f.key: n for n, f in enumerate(schedule.fixtures)}
    for outcome in outcomes:
        if not isinstance(outcome, Outcome):
            raise LeagueError("a table is made from fixtures' outcomes, not %(value)r",
                              value=outcome)
        fixture = schedule.fixture(outcome.home, outcome.away)
        if outcome.key in seen:
            raise LeagueError("%(home)r v %(away)r has two results", home=outcome.home,
                              away=outcome.away)
        seen.add(outcome.key)
        if outcome.complete:
            complete.append(((fixture.date, fixture.round, position[fixture.key]), outcome))
        else:
            pending.append(outcome.key)
    complete.sort(key=lambda item: item[0])
    return [o for _, o in complete], sorted(pending, key=position.__getitem__)


def _deducted(schedule: Schedule, deductions: Iterable[Deduction]) -> dict[str, int]:
    taken: dict[str, int] = defaultdict(int)
    for deduction in deductions:
        if not isinstance(deduction, Deduction):
            raise LeagueError("a points deduction is needed, not %(value)r", value=deduction)
        if deduction.team not in schedule.teams:
            raise LeagueError("a points deduction names %(team)r, who is not in %(division)s",
                              team=deduction.team, division=schedule.division)
        taken[deduction.team] += deduction.points
    return taken


def division_table(schedule: Schedule, outcomes: Iterable[Outcome],
                   rules: TableRules = TableRules(),
                   deductions: Iterable[Deduction] = ()) -> Table:
    """The table of ``schedule``'s division from its fixtures' ``outcomes`` (any order; see
    the module's text). LeagueError for a result of no fixture of the division, two results
    of one fixture, a deduction of a team not in it, or more places promoted and relegated
    than the division has teams."""
    teams = list(schedule.teams)
    if rules.promotion + rules.relegation > len(teams):
        raise LeagueError("%(division)s has %(teams)s teams: it cannot promote %(promotion)s "
                          "and relegate %(relegation)s", division=schedule.division,
                          teams=len(teams), promotion=rules.promotion,
                          relegation=rules.relegation)
    counted, pending = _counted(schedule, outcomes)
    taken = _deducted(schedule, deductions)
    tallies: dict[str, _Tally] = {team: _Tally() for team in teams}
    forms: dict[str, list[str]] = {team: [] for team in teams}
    for outcome in counted:
        for side, team in (("home", outcome.home), ("away", outcome.away)):
            forms[team].append(tallies[team].add(outcome, side, rules.points))
    points = {team: tallies[team].points - taken[team] for team in teams}
    groups = [g for level in _split(teams, {t: (points[t],) for t in teams})
              for g in _order(level, rules.tie_breakers, tallies, counted, rules)]
    rows: list[Row] = []
    across: list[tuple[str, tuple[str, ...]]] = []
    place = 1
    for group in groups:
        last = place + len(group) - 1
        safe = len(teams) - rules.relegation  # the last place above the relegation line
        zone = ("promotion" if last <= rules.promotion else
                "relegation" if place > safe else None)
        for line, at in (("promotion", rules.promotion), ("relegation", safe)):
            if place <= at < last:
                across.append((line, tuple(group)))
        for team in group:
            t = tallies[team]
            rows.append(Row(place, team, t.played, t.won, t.drawn, t.lost, t.legs_for,
                            t.legs_against, points[team], taken[team],
                            tuple(forms[team][-FORM:]), zone))
        place = last + 1
    return Table(schedule.division, tuple(rows), tuple(pending), tuple(across))
