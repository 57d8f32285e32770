"""A fixture's result from its legs, and the points it earns (referee/service/leagues: format,
results, points): legs of best of n decided at n//2 + 1 games, conceded and void legs,
walkovers at the league's score, team sheets, the British points rules worked by hand; and,
over random fixtures (hypothesis), what a result must always satisfy."""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.service.leagues import (
    Deduction,
    FixtureFormat,
    FixtureResult,
    LeagueError,
    LegFormat,
    LegResult,
    PointsRule,
    check_sheet,
    decide,
    outcome,
)

BRITISH = FixtureFormat.of(6, 3)  # six singles, three pairs, walkovers 5-4
THREE_AND_BONUS = PointsRule(win=3, draw=1, bonus=1, bonus_margin=1)
TWO_AND_LEGS = PointsRule(win=2, draw=1, per_leg=1)
HOME = [f"h{n}" for n in range(1, 10)]
AWAY = [f"a{n}" for n in range(1, 10)]


def played(winners: str, concede: dict[int, tuple[str, ...]] | None = None) -> FixtureResult:
    """A British fixture whose leg i is won by "h" or "a" (winners[i]), singles by players 1
    to 6, pairs by players 1 and 2, 3 and 4, 5 and 6 (each plays one singles, one pairs)."""
    legs = []
    for i, w in enumerate(winners):
        conceded = (concede or {}).get(i + 1, ())
        if i < 6:
            home, away = (HOME[i],), (AWAY[i],)
        else:
            k = 2 * (i - 6)
            home, away = (HOME[k], HOME[k + 1]), (AWAY[k], AWAY[k + 1])
        games = () if conceded else ({"h": "home", "a": "away"}[w],)
        legs.append(LegResult(games, home, away, conceded))
    return FixtureResult("Crown", "Anchor", tuple(legs))


# --------------------------------------------------------------------------- a leg

@pytest.mark.parametrize("games, best_of, status, winner", [
    ((), 1, "in_play", None),
    (("home",), 1, "won", "home"),
    ((None,), 1, "drawn", None),
    (("home", "home"), 3, "won", "home"),
    (("home", "away"), 3, "in_play", None),
    (("home", "away", "away"), 3, "won", "away"),
    (("home", "home", "away"), 3, "won", "home"),  # three tables played at once
    ((None, "home"), 3, "in_play", None),
    ((None, "home", "away"), 3, "drawn", None),
    (("home", "away"), 2, "drawn", None),
    (("away", "away", "away"), 5, "won", "away"),
    ((None, None, "home"), 5, "in_play", None),
    ((None, None, None), 5, "drawn", None),
])
def test_a_leg_is_decided_at_half_its_games_and_one(games, best_of: int, status: str,
                                                     winner: str | None) -> None:
    found = decide(games, best_of)
    assert (found.status, found.winner) == (status, winner)
    assert found.home_games + found.away_games + found.drawn_games == len(games)


@settings(max_examples=300)
@given(st.integers(1, 7).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.sampled_from(["home", "away", None]), max_size=n))))
def test_a_leg_is_won_exactly_when_a_side_can_no_longer_be_caught(case) -> None:
    """Won iff a side has n//2 + 1 games; drawn iff no way of playing the rest gives either
    side that many; else in play. Playing on never changes a decided leg's winner."""
    best_of, games = case
    found = decide(games, best_of)
    need = best_of // 2 + 1
    reached = [s for s in ("home", "away") if games.count(s) >= need]
    endings = {decide(games + list(rest), best_of).winner
               for rest in product(["home", "away", None], repeat=best_of - len(games))}
    if reached:
        assert found.status == "won" and [found.winner] == reached and endings == {found.winner}
    elif endings == {None}:
        assert found.status == "drawn"
    else:
        assert found.status == "in_play" and found.winner is None


def test_a_leg_past_its_games_or_won_by_nobody_is_refused() -> None:
    with pytest.raises(LeagueError, match="best of 3 has no more games than that, and this one has 4"):
        decide(["home", "away", "home", "home"], 3)
    with pytest.raises(LeagueError, match="won by home or away"):
        decide(["seat 1"], 3)


# --------------------------------------------------------------------------- a fixture

def test_a_five_four_fixture_worked_by_hand() -> None:
    found = outcome(played("hhahaahah"), BRITISH)
    assert (found.home_legs, found.away_legs, found.complete) == (5, 4, True)
    assert found.winner == "home" and found.result("away") == "lost"
    assert [leg.status for leg in found.legs] == ["won"] * 9
    assert found.legs[6].home == ("h1", "h2") and found.legs[6].kind == "pairs"
    assert THREE_AND_BONUS.points(found, "home") == 3
    assert THREE_AND_BONUS.points(found, "away") == 1  # lost 5-4: the bonus
    assert TWO_AND_LEGS.points(found, "home") == 2 + 5
    assert TWO_AND_LEGS.points(found, "away") == 4


def test_a_wide_loss_earns_no_bonus_and_a_draw_is_shared() -> None:
    wide = outcome(played("hhhhhhaaa"), BRITISH)
    assert (wide.home_legs, wide.away_legs) == (6, 3)
    assert THREE_AND_BONUS.points(wide, "away") == 0
    four = FixtureFormat.of(2, 2)
    legs = tuple(LegResult((w,), p, q) for w, p, q in [
        ("home", ("h1",), ("a1",)), ("away", ("h2",), ("a2",)),
        ("home", ("h1", "h2"), ("a1", "a2")), ("away", ("h3", "h4"), ("a3", "a4"))])
    drawn = outcome(FixtureResult("Crown", "Anchor", legs), four)
    assert drawn.winner is None and drawn.result("home") == drawn.result("away") == "drawn"
    assert THREE_AND_BONUS.points(drawn, "home") == THREE_AND_BONUS.points(drawn, "away") == 1


def test_a_conceded_leg_goes_to_the_other_team_and_both_conceding_voids_it() -> None:
    found = outcome(played("hhahaahah", {2: ("home",), 4: ("home", "away")}), BRITISH)
    assert found.legs[1].status == "conceded" and found.legs[1].winner == "away"
    assert found.legs[3].status == "void" and found.legs[3].winner is None
    assert (found.home_legs, found.away_legs) == (3, 5) and found.complete
    assert found.winner == "away"


def test_a_walkover_is_a_win_at_the_walkover_score_and_nothing_for_the_giver() -> None:
    found = outcome(FixtureResult("Crown", "Anchor", walkover_by="home"), BRITISH)
    assert (found.home_legs, found.away_legs, found.complete) == (4, 5, True)
    assert found.winner == "away" and found.walkover_by == "home"
    assert THREE_AND_BONUS.points(found, "away") == 3
    assert THREE_AND_BONUS.points(found, "home") == 0  # not the 5-4 loser's bonus
    assert TWO_AND_LEGS.points(found, "away") == 2 + 5
    assert TWO_AND_LEGS.points(found, "home") == 0  # nor its four legs' points
    nine_nil = FixtureFormat.of(6, 3, walkover=(9, 0))
    assert outcome(FixtureResult("Crown", "Anchor", walkover_by="away"), nine_nil).home_legs == 9


def test_a_fixture_in_play_earns_nothing_yet() -> None:
    found = outcome(FixtureResult("Crown", "Anchor"), BRITISH)
    assert not found.complete and found.winner is None
    assert [leg.status for leg in found.legs] == ["in_play"] * 9
    with pytest.raises(LeagueError, match="is not complete"):
        THREE_AND_BONUS.points(found, "home")


def test_the_default_walkover_is_the_narrowest_win() -> None:
    assert BRITISH.walkover == (5, 4)
    assert FixtureFormat.of(2, 2).walkover == (3, 1)
    assert FixtureFormat((LegFormat("singles"),)).walkover == (1, 0)


@pytest.mark.parametrize("result, says", [
    (FixtureResult("Crown", "Crown"), "'Crown' is both"),
    (FixtureResult("Crown", "Anchor", walkover_by="both"), "given by home or away"),
    (FixtureResult("Crown", "Anchor", played("h").legs, walkover_by="away"),
     "a walkover has no legs"),
    (FixtureResult("Crown", "Anchor", played("hha").legs), "each of the fixture's 9 legs"),
    (FixtureResult("Crown", "Anchor", played("hhahaahah").legs[:8] + (
        LegResult(("home",) * 2, ("h5", "h6"), ("a5", "a6")),)),
     "best of 1 has no more games than that, and this one has 2"),
    (FixtureResult("Crown", "Anchor", played("hhahaaha").legs + (
        LegResult(("home",), ("h5", "h5"), ("a5", "a6")),)), "leg 9 names 'h5' twice"),
    (FixtureResult("Crown", "Anchor", played("hhahaaha").legs + (
        LegResult(("home",), ("h5", "a6"), ("a5", "a6")),)), "'a6' plays for both teams"),
    (FixtureResult("Crown", "Anchor", (LegResult(("home",), ("h1", "h2"), ("a1",)),) +
                   played("hhahaahah").legs[1:]), "leg 1 is a singles leg: it takes 1 player"),
    (FixtureResult("Crown", "Anchor", played("hhahaahah").legs[:6] + (
        LegResult(("home",), ("h1",), ("a1", "a2")),) + played("hhahaahah").legs[7:]),
     "leg 7 is a pairs leg: it takes 2 players a team, not 1"),
    (FixtureResult("Crown", "Anchor", (LegResult(("home",), ("h2",), ("a1",)),) +
                   played("hhahaahah").legs[1:]),
     "'h2' is named for 2 singles legs, and a player may play 1 in a fixture"),
    (FixtureResult("Crown", "Anchor", (LegResult(("home",), (), ("a1",)),) +
                   played("hhahaahah").legs[1:]), "the players of both teams are to be named"),
    (FixtureResult("Crown", "Anchor", (LegResult(conceded_by=("nobody",)),) +
                   played("hhahaahah").legs[1:]), "home, away or both, once each"),
    ("Crown 5 Anchor 4", "a fixture's result is needed"),
])
def test_a_bad_result_is_refused(result, says: str) -> None:
    with pytest.raises(LeagueError, match=says):
        outcome(result, BRITISH)


def test_a_team_sheet_is_checked_against_the_format_and_the_squad() -> None:
    sheet = [["h1"], ["h2"], ["h3"], ["h4"], ["h5"], [], ["h1", "h2"], ["h3", "h4"], []]
    assert check_sheet(BRITISH, sheet, squad=HOME)[6] == ("h1", "h2")
    with pytest.raises(LeagueError, match="leg 7 names 'h1' twice"):
        check_sheet(BRITISH, sheet[:6] + [["h1", "h1"]] + sheet[7:])
    with pytest.raises(LeagueError, match="'h3' is named for 2 pairs legs, and a player may "
                                          "play 1 in a fixture"):
        check_sheet(BRITISH, sheet[:8] + [["h3", "h5"]])
    assert check_sheet(FixtureFormat.of(6, 3, pairs_each=2), sheet[:8] + [["h3", "h5"]])
    with pytest.raises(LeagueError, match="names 'z9', who is not in the team's squad"):
        check_sheet(BRITISH, [["z9"]] + sheet[1:], squad=HOME)
    with pytest.raises(LeagueError, match="each of the fixture's 9 legs"):
        check_sheet(BRITISH, sheet[:8])


@pytest.mark.parametrize("make, says", [
    (lambda: LegFormat("triples"), "singles or pairs, not 'triples'"),
    (lambda: LegFormat("pairs", 0), "best_of is a whole number of at least 1, not 0"),
    (lambda: FixtureFormat(()), "one leg or more"),
    (lambda: FixtureFormat.of(6, 3, walkover=(4, 5)), "more legs to the team that turned up"),
    (lambda: FixtureFormat.of(6, 3, walkover=(9, 1)), "9 legs at most in all"),
    (lambda: FixtureFormat.of(6, 3, singles_each=0), "singles_each is a whole number"),
    (lambda: PointsRule(win=-1), "win is a whole number of at least 0"),
    (lambda: PointsRule(bonus=1), "needs the margin it is earned within"),
    (lambda: Deduction("Crown", 2, " "), "its reason is missing"),
    (lambda: Deduction("Crown", 0, "late sheet"), "points is a whole number of at least 1"),
])
def test_a_bad_format_or_rule_is_refused(make, says: str) -> None:
    with pytest.raises(LeagueError, match=says):
        make()


# --------------------------------------------------------------------------- any fixture

LEG_RESULTS = st.tuples(st.sampled_from(["singles", "pairs"]), st.integers(1, 5)).flatmap(
    lambda shape: st.tuples(st.just(shape), st.lists(st.sampled_from(["home", "away", None]),
                                                     max_size=shape[1]),
                            st.sampled_from([(), (), (), ("home",), ("away",),
                                             ("home", "away")])))


@settings(max_examples=300)
@given(st.lists(LEG_RESULTS, min_size=1, max_size=12), st.sampled_from([None, "home", "away"]),
       st.integers(0, 3), st.integers(0, 2), st.integers(0, 2))
def test_any_fixture_adds_up(legs, walkover, win, per_leg, bonus) -> None:
    """Legs won by each team are the legs each won or had conceded to it; void and drawn legs
    go to neither; a fixture is complete when no leg is in play; the points follow the rule."""
    fmt = FixtureFormat(tuple(LegFormat(kind, best_of) for (kind, best_of), _, _ in legs),
                        singles_each=12, pairs_each=12)
    recorded = []
    for n, ((kind, _), games, conceded) in enumerate(legs):
        size = 1 if kind == "singles" else 2
        recorded.append(LegResult(tuple(games), tuple(f"h{n}.{i}" for i in range(size)),
                                  tuple(f"a{n}.{i}" for i in range(size)), conceded))
    result = FixtureResult("Crown", "Anchor", () if walkover else tuple(recorded), walkover)
    found = outcome(result, fmt)
    assert outcome(result, fmt, sheets_checked=True) == found  # the store's reading, sooner
    rule = PointsRule(win=win + 1, draw=min(win, 1), per_leg=per_leg, bonus=bonus,
                      bonus_margin=1 if bonus else 0)
    if walkover:
        assert (found.legs_won(walkover), found.legs_won("home" if walkover == "away" else
                                                         "away")) == fmt.walkover[::-1]
        assert rule.points(found, walkover) == 0
        return
    for side in ("home", "away"):
        assert found.legs_won(side) == sum(1 for leg in found.legs if leg.winner == side)
        conceded_to = [leg for leg in found.legs if leg.status == "conceded"]
        assert all(leg.winner != leg.conceded_by[0] for leg in conceded_to)
    assert found.complete == all(leg.status != "in_play" for leg in found.legs)
    assert all(leg.winner is None for leg in found.legs if leg.status in ("void", "drawn",
                                                                          "in_play"))
    if found.complete:
        home, away = rule.points(found, "home"), rule.points(found, "away")
        if found.home_legs > found.away_legs:
            assert home >= rule.win and found.result("home") == "won"
        assert home - per_leg * found.home_legs in (rule.win, rule.draw, rule.loss,
                                                    rule.loss + rule.bonus)
        assert away - per_leg * found.away_legs in (rule.win, rule.draw, rule.loss,
                                                    rule.loss + rule.bonus)


def test_games_played_before_a_concession_are_kept_and_count_for_nothing() -> None:
    """A player taken ill after winning the first game of three: the leg is conceded, and goes
    to the other team."""
    fmt = FixtureFormat((LegFormat("singles", 3),))
    found = outcome(FixtureResult("Crown", "Anchor", (
        LegResult(("home",), ("h1",), ("a1",), ("home",), "taken ill"),)), fmt)
    leg = found.legs[0]
    assert (leg.status, leg.winner, leg.home_games, leg.away_games) == ("conceded", "away", 1, 0)
    assert (found.home_legs, found.away_legs, found.complete) == (0, 1, True)
    assert not leg.counts_for_players
