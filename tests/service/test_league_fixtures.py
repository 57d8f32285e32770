"""The league engine's fixtures (referee/service/leagues: dates, circle, fixtures): a division's
double round robin by the circle method, laid on the season's calendar, and postponements.

Proven for every division size from 2 to ``MAX_TEAMS`` (64), each size in full (a schedule
depends only on the number of teams and the calendar; the teams' ids only name places):

- every two teams meet exactly once at each's home; a round has each team at most once (an
  even division: every team; an odd one: all but the one with the week off, a different team
  each round of a half);
- each half is a single round robin, and the second repeats the first with venues swapped,
  round by round (in reverse order for 4 teams);
- no team has three home or three away fixtures running, a week off left out of the run;
- round ``r`` is on the calendar's ``r``-th fixture day (the weekday, weeks off skipped), so no
  team plays twice in a week; the same input gives the same schedule.

Hypothesis adds random ids, team orders and calendars (weeks off, a last day) for sizes up to
24. For 4 teams, every mirrored season (all 288) is tried: each gives someone three running,
which is why the design reverses the second half there.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import words
from referee.service import Invalid
from referee.service.leagues import (
    MAX_TEAMS,
    Calendar,
    LeagueError,
    Schedule,
    postpone,
    schedule,
    season,
)
from referee.service.leagues.circle import double_round_robin

THURSDAY = date(2025, 9, 4)
TEAMS = [f"t{n:02d}" for n in range(MAX_TEAMS)]


def runs(schedule: Schedule) -> dict[str, str]:
    """Each team's venues in the order played, a week off left out: "HAHHA..."."""
    venue = {team: "" for team in schedule.teams}
    for number in range(1, len(schedule.days) + 1):
        for fixture in schedule.round(number):
            venue[fixture.home] += "H"
            venue[fixture.away] += "A"
    return venue


def assert_contract(s: Schedule, calendar: Calendar) -> None:
    n = len(s.teams)
    rounds = 2 * (n - 1) if n % 2 == 0 else 2 * n
    assert len(s.days) == rounds
    # every two meet once at each's home
    pairs = [f.key for f in s.fixtures]
    assert sorted(pairs) == sorted((a, b) for a in s.teams for b in s.teams if a != b)
    # a round: each team at most once; an odd division has exactly one team off, the bye's
    byes = {b.round: b.team for b in s.byes}
    for number in range(1, rounds + 1):
        playing = [t for f in s.round(number) for t in f.key]
        assert len(playing) == len(set(playing))
        if n % 2:
            assert set(s.teams) - set(playing) == {byes[number]}
        else:
            assert set(playing) == set(s.teams) and number not in byes
    half = rounds // 2
    if n % 2:
        assert sorted(byes[r] for r in range(1, half + 1)) == sorted(s.teams)
    # each half a single round robin; the second the first, swapped (reversed for 4 teams)
    first = [s.round(r) for r in range(1, half + 1)]
    second = [s.round(r) for r in range(half + 1, rounds + 1)]
    assert sorted(tuple(sorted(f.key)) for fs in first for f in fs) == sorted(
        tuple(sorted((a, b))) for i, a in enumerate(s.teams) for b in s.teams[i + 1:])
    mirror = list(reversed(first)) if n == 4 else first
    assert [{(f.away, f.home) for f in fs} for fs in mirror] == [{f.key for f in fs}
                                                                   for fs in second]
    # no three running, a week off neither breaking nor extending a run; and the breaks (two
    # home or two away running) docs/leagues.md counts
    for team, venues in runs(s).items():
        assert "HHH" not in venues and "AAA" not in venues, (n, team, venues)
    breaks = sorted(sum(a == b for a, b in zip(v, v[1:])) for v in runs(s).values())
    assert breaks == ([1] * n if n % 2 else [0, 0, 2, 2] if n == 4 else [0, 0] + [3] * (n - 2))
    # the calendar: round r on its r-th fixture day; a team never twice in a week
    assert s.days == calendar.fixture_days(rounds)
    for f in s.fixtures:
        assert f.date == s.days[f.round - 1] and not f.moves
    for day in s.days:
        assert day.weekday() == calendar.first.weekday() and day not in calendar.weeks_off
    assert all((b - a).days % 7 == 0 and b > a for a, b in zip(s.days, s.days[1:]))


@pytest.mark.parametrize("n", range(2, MAX_TEAMS + 1))
def test_every_division_size_keeps_the_contract(n: int) -> None:
    calendar = Calendar(THURSDAY)
    made = schedule("Premier", TEAMS[:n], calendar)
    assert_contract(made, calendar)
    assert made == schedule("Premier", TEAMS[:n], calendar)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_any_teams_and_calendar_keep_the_contract(data: st.DataObject) -> None:
    ids = data.draw(st.lists(st.text(min_size=1, max_size=6).filter(str.strip), min_size=2,
                             max_size=24, unique=True))
    first = data.draw(st.dates(date(2000, 1, 1), date(2100, 1, 1)))
    weeks_off = data.draw(st.lists(st.integers(0, 60), max_size=8))
    calendar = Calendar(first, first.weekday(),
                        tuple(first + timedelta(weeks=w) for w in weeks_off))
    made = schedule("D", ids, calendar)
    assert_contract(made, calendar)
    assert made.teams == tuple(ids)
    assert schedule("D", list(ids), calendar) == made  # the same input, the same schedule


def test_four_teams_worked_by_hand() -> None:
    """The circle's turns 2, 0, 1 (the first round is the third turn), the second half in
    reverse order with venues swapped. Round 1 (turn 2) seats A C D B: table 0 is A v B, A at
    home (an even turn), table 1 C v D, the left at home (an odd table)."""
    made = schedule("D", ["A", "B", "C", "D"], Calendar(THURSDAY))
    assert [[f.key for f in made.round(r)] for r in range(1, 7)] == [
        [("A", "B"), ("C", "D")], [("A", "D"), ("B", "C")], [("C", "A"), ("D", "B")],
        [("A", "C"), ("B", "D")], [("D", "A"), ("C", "B")], [("B", "A"), ("D", "C")]]
    assert runs(made) == {"A": "HHAHAA", "B": "AHAHAH", "C": "HAHAHA", "D": "AAHAHH"}


def test_three_teams_worked_by_hand() -> None:
    """An odd division: the free place is place 0 of the circle; the one drawn against it has
    the week off."""
    made = schedule("D", ["A", "B", "C"], Calendar(THURSDAY))
    assert [[f.key for f in made.round(r)] for r in range(1, 7)] == [
        [("B", "C")], [("A", "B")], [("C", "A")], [("C", "B")], [("B", "A")], [("A", "C")]]
    assert [b.team for b in made.byes] == ["A", "C", "B", "A", "C", "B"]
    assert runs(made) == {"A": "HAAH", "B": "HAAH", "C": "AHHA"}


def test_no_mirrored_season_of_four_avoids_three_running() -> None:
    """The design's reason for reversing the second half of 4 teams: all 3! orders of K4's
    three rounds times 2**6 venue choices, mirrored, give some team three running; reversed,
    some do not (the engine's is one)."""
    matchings = [((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))]

    def three_running(rounds: list[list[tuple[int, int]]]) -> bool:
        venues = {t: "" for t in range(4)}
        for fixtures in rounds:
            for home, away in fixtures:
                venues[home] += "H"
                venues[away] += "A"
        return any("HHH" in v or "AAA" in v for v in venues.values())

    mirrored_ok = reversed_ok = 0
    for order in permutations(matchings):
        for bits in range(64):
            half = [[(a, b) if bits >> (2 * r + i) & 1 else (b, a) for i, (a, b) in
                     enumerate(order[r])] for r in range(3)]
            swapped = [[(b, a) for a, b in fixtures] for fixtures in half]
            mirrored_ok += not three_running(half + swapped)
            reversed_ok += not three_running(half + swapped[::-1])
    assert mirrored_ok == 0 and reversed_ok > 0
    engine = [list(fixtures) for fixtures, _ in double_round_robin(4)]
    assert not three_running(engine)


def test_the_first_turn_would_give_three_running(monkeypatch: pytest.MonkeyPatch) -> None:
    """Why the first round is the circle's third turn: started at the first, an even division
    of 6 gives two teams three running (so the START constant is what the property rests on)."""
    from referee.service.leagues import circle

    monkeypatch.setattr(circle, "START", 0)
    venues = runs(schedule("D", TEAMS[:6], Calendar(THURSDAY)))
    assert sum("HHH" in v or "AAA" in v for v in venues.values()) == 2


# --------------------------------------------------------------------------- the calendar

def test_weeks_off_are_skipped_and_the_season_may_end() -> None:
    christmas = date(2025, 12, 25)
    calendar = Calendar(THURSDAY, 3, (christmas, date(2026, 1, 1)))
    days = calendar.fixture_days(18)
    assert christmas not in days and date(2026, 1, 1) not in days
    assert days[15] == date(2025, 12, 18) and days[16] == date(2026, 1, 8)
    with pytest.raises(LeagueError, match="do not fit in the season"):
        schedule("D", TEAMS[:10], Calendar(THURSDAY, last=date(2025, 12, 31)))
    assert schedule("D", TEAMS[:10], Calendar(THURSDAY, last=date(2026, 1, 1))).days[-1] == \
        date(2026, 1, 1)


@pytest.mark.parametrize("make, says", [
    (lambda: Calendar(THURSDAY, 1), "is a Thursday, and the season's fixtures are on Tuesday"),
    (lambda: Calendar(THURSDAY, 7), r"a number from 0 \(Monday\) to 6"),
    (lambda: Calendar(datetime(2025, 9, 4, 20)), "the first fixture day must be a date"),
    (lambda: Calendar(THURSDAY, weeks_off=(date(2025, 12, 24),)), "2025-12-24 is not one"),
    (lambda: Calendar(THURSDAY, weeks_off=(date(2025, 8, 28),)), "2025-08-28 is not one"),
    (lambda: Calendar(THURSDAY, weeks_off=date(2025, 12, 25)), "a list of dates"),
    (lambda: Calendar(THURSDAY, last=date(2025, 9, 3)), "is before its first fixture day"),
    (lambda: Calendar("2025-09-04"), "must be a date"),
])
def test_a_bad_calendar_is_refused(make, says: str) -> None:
    with pytest.raises(LeagueError, match=says):
        make()


# --------------------------------------------------------------------------- teams

@pytest.mark.parametrize("teams, says", [
    (["A"], "at least 2 teams, and has 1"),
    ([], "at least 2 teams, and has 0"),
    (["A", "B", "A"], "'A' is listed twice"),
    (["A", ""], "a non-empty text"),
    (["A", 3], "a non-empty text"),
    ("AB", "the teams are a list of ids"),
    (TEAMS + ["x"], "at most 64 teams"),
])
def test_a_bad_division_is_refused(teams, says: str) -> None:
    with pytest.raises(LeagueError, match=says):
        schedule("D", teams, Calendar(THURSDAY))


def test_a_season_of_divisions_shares_the_calendar_and_no_team() -> None:
    made = season({"One": TEAMS[:6], "Two": TEAMS[6:11]}, Calendar(THURSDAY))
    assert made["One"].days[0] == made["Two"].days[0] == THURSDAY
    assert len(made["Two"].days) == 10
    with pytest.raises(LeagueError, match="'t03' is in two divisions, One and Two"):
        season({"One": TEAMS[:6], "Two": TEAMS[3:9]}, Calendar(THURSDAY))


# --------------------------------------------------------------------------- postponing

def test_a_postponed_fixture_keeps_its_history() -> None:
    calendar = Calendar(THURSDAY, last=date(2026, 5, 28))
    made = schedule("D", TEAMS[:6], calendar)
    fixture = made.round(1)[0]
    once = postpone(made, fixture.home, fixture.away, date(2025, 9, 9), calendar, "floods")
    # a week the teams already play (round 2, on the 11th) is allowed
    twice = postpone(once, fixture.home, fixture.away, date(2025, 9, 11), calendar)
    moved = twice.fixture(fixture.home, fixture.away)
    assert moved.date == date(2025, 9, 11) and moved.scheduled == THURSDAY
    assert [(m.was, m.to, m.reason) for m in moved.moves] == [
        (THURSDAY, date(2025, 9, 9), "floods"), (date(2025, 9, 9), date(2025, 9, 11), "")]
    assert moved.round == 1 and made.fixture(fixture.home, fixture.away) == fixture
    assert [f for f in twice.fixtures if f.key != fixture.key] == [
        f for f in made.fixtures if f.key != fixture.key]


@pytest.mark.parametrize("home, away, to, says", [
    ("t00", "t00", date(2025, 9, 9), "has no fixture 't00' v 't00'"),
    ("t00", "zz", date(2025, 9, 9), "has no fixture 't00' v 'zz'"),
    (None, None, date(2025, 9, 3), "2025-09-03 is outside the season, which runs from "
                                   "2025-09-04 to 2026-05-28"),
    (None, None, date(2026, 5, 29), "is outside the season"),
    (None, None, THURSDAY, "is already on 2025-09-04"),
    (None, None, datetime(2025, 9, 9, 20), "a fixture's date must be a date"),
])
def test_a_bad_postponement_is_refused(home, away, to, says: str) -> None:
    calendar = Calendar(THURSDAY, last=date(2026, 5, 28))
    made = schedule("D", TEAMS[:6], calendar)
    first = made.round(1)[0]
    with pytest.raises(LeagueError, match=says):
        postpone(made, home or first.home, away or first.away, to, calendar)


def test_an_open_ended_season_refuses_only_dates_before_it() -> None:
    calendar = Calendar(THURSDAY)
    made = schedule("D", TEAMS[:4], calendar)
    first = made.round(1)[0]
    assert postpone(made, *first.key, date(2030, 1, 1), calendar).fixture(*first.key).date == \
        date(2030, 1, 1)
    with pytest.raises(LeagueError, match="before the season's first fixture day"):
        postpone(made, *first.key, date(2025, 1, 1), calendar)


def test_the_error_is_a_value_error_said_in_the_readers_language() -> None:
    with pytest.raises(LeagueError) as caught:
        schedule("D", ["A"], Calendar(THURSDAY))
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, Invalid)
    token = words.use("es")
    try:
        assert words.message(caught.value) == "una división necesita al menos 2 equipos, y tiene 1"
        with pytest.raises(LeagueError) as weekday:
            Calendar(THURSDAY, 1)
        assert "jueves" in words.message(weekday.value)
    finally:
        words.reset(token)
