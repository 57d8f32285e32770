"""A division's table (referee/service/leagues/table.py): the columns, the order by points and
the league's tie-breakers (leg difference, legs for, head-to-head as a mini-table applied again
to any smaller group it leaves level), shared places, form in the order played, promotion and
relegation places, deductions; worked by hand, and over random seasons (hypothesis): the
columns add up, the order is by points, a shared place is one nothing separates, and the
order the outcomes are given in changes nothing."""

from __future__ import annotations

import random
from collections import defaultdict
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.service.leagues import (
    Calendar,
    Deduction,
    FixtureFormat,
    FixtureResult,
    LeagueError,
    LegResult,
    Outcome,
    PointsRule,
    Schedule,
    TableRules,
    division_table,
    outcome,
    postpone,
    schedule,
)

FOUR = FixtureFormat.of(4, 0, singles_each=4)  # four singles legs; a 2-2 draw is possible
CALENDAR = Calendar(date(2025, 9, 4))


def score(home: str, away: str, h: int, a: int, fmt: FixtureFormat = FOUR) -> Outcome:
    """``home`` v ``away`` complete at h-a: the first h legs to home, the next a to away, the
    rest conceded by both (void)."""
    legs = []
    for n in range(len(fmt.legs)):
        who = "home" if n < h else "away" if n < h + a else None
        legs.append(LegResult((who,) if who else (), (f"{home}{n}",), (f"{away}{n}",),
                              () if who else ("home", "away")))
    return outcome(FixtureResult(home, away, tuple(legs)), fmt)


def table_of(teams: list[str], outcomes: list[Outcome], **rules) -> list[tuple]:
    made = division_table(schedule("D", teams, CALENDAR), outcomes, TableRules(**rules))
    return [(r.place, r.team, r.points) for r in made.rows]


def test_the_columns_worked_by_hand() -> None:
    made = division_table(schedule("D", ["A", "B", "C"], CALENDAR), [
        score("A", "B", 3, 1), score("B", "C", 2, 2), score("C", "A", 0, 4)],
        TableRules(PointsRule(win=3, draw=1, bonus=1, bonus_margin=2)))
    a, b, c = (made.row(t) for t in "ABC")
    assert (a.played, a.won, a.drawn, a.lost, a.legs_for, a.legs_against, a.points) == \
        (2, 2, 0, 0, 7, 1, 6)
    assert (b.played, b.won, b.drawn, b.lost, b.legs_for, b.legs_against, b.points) == \
        (2, 0, 1, 1, 3, 5, 2)  # a draw, and the bonus for losing 3-1
    assert (c.played, c.won, c.drawn, c.lost, c.leg_difference, c.points) == (2, 0, 1, 1, -4, 1)
    assert [(r.place, r.team) for r in made.rows] == [(1, "A"), (2, "B"), (3, "C")]
    # round 1 is B v C, round 2 A v B: the form is in the order played
    assert a.form == ("won", "won") and b.form == ("drawn", "lost")


def test_level_on_points_leg_difference_then_legs_for() -> None:
    """B and C level on points: B's leg difference is better. C and D level on points and leg
    difference: D has more legs for."""
    outcomes = [score("A", "B", 4, 0), score("B", "A", 3, 1),  # B: 3 legs for, 5 against
                score("C", "A", 2, 1), score("A", "C", 2, 1),  # C: 3 for, 3 against
                score("D", "A", 3, 1), score("A", "D", 3, 1)]  # D: 4 for, 4 against
    rows = table_of(["A", "B", "C", "D"], outcomes)
    # A: won 3 (9 points); B, C, D one win each (3 points); B -2, C 0, D 0 with more legs for
    assert rows == [(1, "A", 9), (2, "D", 3), (3, "C", 3), (4, "B", 3)]
    shared = table_of(["A", "B", "C", "D"], outcomes, tie_breakers=())
    assert shared == [(1, "A", 9), (2, "B", 3), (2, "C", 3), (2, "D", 3)]


def test_head_to_head_is_applied_again_to_the_group_it_leaves_level() -> None:
    """A, C and B are level on 3 points (A after a 3-point deduction). Their mini-table: A 6,
    C 3, B 3; B and C still level, so a mini-table of their two fixtures alone: B 3, C 1."""
    outcomes = [score("A", "B", 3, 1), score("B", "A", 1, 3),
                score("A", "C", 3, 1), score("C", "A", 3, 1),
                score("B", "C", 3, 1), score("C", "B", 2, 2)]
    teams = ["A", "C", "B", "D"]
    made = division_table(schedule("D", teams, CALENDAR), outcomes,
                          TableRules(PointsRule(win=2, draw=1), ("head_to_head",)),
                          [Deduction("A", 3, "late result sheet")])
    assert [(r.place, r.team, r.points) for r in made.rows] == [
        (1, "A", 3), (2, "B", 3), (3, "C", 3), (4, "D", 0)]
    assert made.row("A").deducted == 3


def test_a_mini_table_is_ordered_by_the_leagues_other_tie_breakers() -> None:
    """X and Y split their meetings (3-1 and 1-2): level on mini-table points, but X has the
    better leg difference in them; overall they are level on points and legs."""
    outcomes = [score("X", "Y", 3, 1), score("Y", "X", 2, 1),
                score("Y", "Z", 4, 0), score("X", "Z", 3, 1)]
    rule = PointsRule(win=2, draw=1)
    assert table_of(["Y", "X", "Z"], outcomes, points=rule, tie_breakers=("head_to_head",)) \
        == [(1, "Y", 4), (1, "X", 4), (3, "Z", 0)]
    assert table_of(["Y", "X", "Z"], outcomes, points=rule,
                    tie_breakers=("head_to_head", "leg_difference")) == [
        (1, "X", 4), (2, "Y", 4), (3, "Z", 0)]


def test_a_cycle_nothing_separates_shares_a_place() -> None:
    outcomes = [score("A", "B", 3, 1), score("B", "C", 3, 1), score("C", "A", 3, 1)]
    assert table_of(["A", "B", "C", "D"], outcomes) == [
        (1, "A", 3), (1, "B", 3), (1, "C", 3), (4, "D", 0)]


def test_promotion_and_relegation_places_and_a_place_shared_across_a_line() -> None:
    teams = ["A", "B", "C", "D", "E"]
    made = division_table(schedule("D", teams, CALENDAR), [
        score("A", "E", 4, 0), score("B", "E", 4, 0), score("C", "D", 3, 1)],
        TableRules(promotion=1, relegation=2))
    assert [(r.place, r.team, r.zone) for r in made.rows] == [
        (1, "A", None), (1, "B", None), (3, "C", None), (4, "D", "relegation"),
        (5, "E", "relegation")]
    assert made.level_across == (("promotion", ("A", "B")),)
    # A 3 points; B, C, D level at 0 in places 2 to 4; E 0 points, four legs down
    one = division_table(schedule("D", teams, CALENDAR), [score("A", "E", 4, 0)],
                         TableRules(promotion=1, relegation=1))
    assert [r.zone for r in one.rows] == ["promotion", None, None, None, "relegation"]
    assert one.level_across == ()
    two = division_table(schedule("D", teams, CALENDAR), [score("A", "E", 4, 0)],
                         TableRules(promotion=1, relegation=2))
    assert [r.zone for r in two.rows] == ["promotion", None, None, None, "relegation"]
    assert two.level_across == (("relegation", ("B", "C", "D")),)


def test_form_is_the_last_five_in_the_order_played() -> None:
    """A round-1 fixture postponed past round 7 comes last in the form."""
    teams = ["A", "B", "C", "D"]
    made = schedule("D", teams, CALENDAR)
    first = next(f for f in made.round(1) if "A" in f.key)
    moved = postpone(made, *first.key, date(2025, 11, 6), CALENDAR)
    outcomes = []
    for f in made.fixtures:
        if "A" in f.key:  # A wins every fixture but the postponed one, which it loses
            a_wins = f.key != first.key
            h, a = (4, 0) if (f.home == "A") == a_wins else (0, 4)
            outcomes.append(score(f.home, f.away, h, a))
    table = division_table(moved, outcomes)
    assert table.row("A").form == ("won", "won", "won", "won", "lost")
    assert division_table(made, outcomes).row("A").form == ("won",) * 5


def test_pending_results_count_nowhere() -> None:
    teams = ["A", "B", "C"]
    in_play = outcome(FixtureResult("B", "C"), FOUR)
    made = division_table(schedule("D", teams, CALENDAR), [score("A", "B", 4, 0), in_play])
    assert made.pending == (("B", "C"),)
    assert made.row("C").played == 0 and made.row("B").played == 1


def test_a_walkover_counts_as_played_and_lost_for_nothing() -> None:
    teams = ["A", "B"]
    walkover = outcome(FixtureResult("A", "B", walkover_by="away"), FixtureFormat.of(6, 3))
    made = division_table(schedule("D", teams, CALENDAR), [walkover],
                          TableRules(PointsRule(win=3, bonus=1, bonus_margin=1)))
    a, b = made.row("A"), made.row("B")
    assert (a.won, a.legs_for, a.legs_against, a.points) == (1, 5, 4, 3)
    assert (b.lost, b.legs_for, b.legs_against, b.points, b.form) == (1, 4, 5, 0, ("lost",))


@pytest.mark.parametrize("outcomes, deductions, rules, says", [
    ([score("A", "Z", 1, 0)], [], {}, "has no fixture 'A' v 'Z'"),
    ([score("A", "B", 1, 0), score("A", "B", 2, 0)], [], {}, "'A' v 'B' has two results"),
    ([], [Deduction("Z", 1, "late")], {}, "names 'Z', who is not in D"),
    ([], [], {"promotion": 2, "relegation": 2}, "cannot promote 2 and relegate 2"),
    ([], [], {"tie_breakers": ("goal_difference",)}, "unknown tie-breaker 'goal_difference'"),
    ([], [], {"tie_breakers": ("legs_for", "legs_for")}, "listed twice"),
    (["A 4 B 0"], [], {}, "made from fixtures' outcomes"),
])
def test_a_bad_table_is_refused(outcomes, deductions, rules, says: str) -> None:
    with pytest.raises(LeagueError, match=says):
        division_table(schedule("D", ["A", "B", "C"], CALENDAR), outcomes, TableRules(**rules),
                       deductions)


# --------------------------------------------------------------------------- any season

def random_season(seed: int, n: int) -> tuple[Schedule, list[Outcome]]:
    rng = random.Random(seed)
    made = schedule("D", [f"T{k}" for k in range(n)], CALENDAR)
    outcomes = []
    for f in made.fixtures:
        roll = rng.random()
        if roll < 0.15:
            continue  # not played yet
        if roll < 0.2:
            outcomes.append(outcome(FixtureResult(f.home, f.away), FOUR))
        elif roll < 0.25:
            outcomes.append(outcome(FixtureResult(f.home, f.away,
                                                  walkover_by=rng.choice(["home", "away"])), FOUR))
        else:
            h = rng.randint(0, 4)
            outcomes.append(score(f.home, f.away, h, rng.randint(0, 4 - h)))
    return made, outcomes


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 9), st.permutations(
    ("leg_difference", "legs_for", "head_to_head")).flatmap(
        lambda p: st.integers(0, 3).map(lambda k: p[:k])),
       st.integers(0, 2), st.integers(0, 1), st.integers(0, 3))
def test_any_table_adds_up(seed, n, breakers, per_leg, bonus, deducted) -> None:
    made, outcomes = random_season(seed, n)
    rule = PointsRule(win=3, draw=1, per_leg=per_leg, bonus=bonus, bonus_margin=bonus)
    deductions = [Deduction("T0", deducted, "late sheet")] if deducted else []
    rules = TableRules(rule, breakers, promotion=min(1, n - 1), relegation=1)
    table = division_table(made, outcomes, rules, deductions)
    rows = table.rows
    counted = [o for o in outcomes if o.complete]
    assert sorted(r.team for r in rows) == sorted(made.teams)
    assert sum(r.won for r in rows) == sum(r.lost for r in rows)
    assert sum(r.legs_for for r in rows) == sum(r.legs_against for r in rows)
    earned: dict[str, int] = defaultdict(int)
    for o in counted:
        earned[o.home] += rule.points(o, "home")
        earned[o.away] += rule.points(o, "away")
    for r in rows:
        assert r.played == r.won + r.drawn + r.lost == sum(r.team in o.key for o in counted)
        assert r.points == earned[r.team] - (deducted if r.team == "T0" else 0)
        assert len(r.form) == min(5, r.played)
    # ordered by points; places 1, then each place is its row's position unless shared
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)
    for i, r in enumerate(rows):
        assert r.place == (i + 1 if i == 0 or rows[i - 1].place != r.place else rows[i - 1].place)
    # a shared place is one nothing separates: the same points and figures, a level mini-table
    groups: dict[int, list[str]] = defaultdict(list)
    for r in rows:
        groups[r.place].append(r.team)
    for place, group in groups.items():
        lines = [table.row(t) for t in group]
        assert len({(x.points,) + tuple(x.leg_difference if b == "leg_difference" else
                                        x.legs_for for b in breakers if b != "head_to_head")
                    for x in lines}) == 1
        if "head_to_head" in breakers and len(group) > 1:
            mini = division_table(made, [o for o in counted if o.home in group and
                                         o.away in group], TableRules(rule, ()))
            figures = {(x.points, *(x.leg_difference if b == "leg_difference" else x.legs_for
                                    for b in breakers if b != "head_to_head"))
                       for x in mini.rows if x.team in group}
            assert len(figures) == 1
    # the order outcomes are given in changes nothing
    shuffled = list(outcomes)
    random.Random(seed + 1).shuffle(shuffled)
    assert division_table(made, shuffled, rules, deductions) == table
