"""Players' averages (referee/service/leagues/averages.py): singles and pairs legs played and
won, games, win rate; conceded and void legs count for nobody; the minimum to be ranked; the
ranking by win rate then legs won, shared ranks; worked by hand and over random fixtures."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.service.leagues import (
    FixtureFormat,
    FixtureResult,
    LeagueError,
    LegFormat,
    LegResult,
    averages,
    outcome,
)

FORMAT = FixtureFormat((LegFormat("singles", 3), LegFormat("singles", 3), LegFormat("pairs")))


def fixture(home: str, away: str, *legs: LegResult) -> object:
    return outcome(FixtureResult(home, away, legs), FORMAT)


def test_averages_worked_by_hand() -> None:
    one = fixture("Crown", "Anchor",
                  LegResult(("home", "away", "home"), ("ana",), ("bea",)),
                  LegResult((), ("carla",), ("dani",), ("away",)),  # conceded: nobody's
                  LegResult(("away",), ("ana", "carla"), ("bea", "dani")))
    two = fixture("Anchor", "Crown",
                  LegResult(("home", "home"), ("bea",), ("carla",)),
                  LegResult(("away", "away"), ("dani",), ("ana",)),
                  LegResult((), ("bea", "dani"), ("ana", "carla"), ("home", "away")))  # void
    lines = {a.player: a for a in averages([one, two])}
    ana = lines["ana"]
    assert (ana.singles_played, ana.singles_won, ana.pairs_played, ana.pairs_won) == (2, 2, 1, 0)
    assert (ana.games_played, ana.games_won) == (3 + 2 + 1, 2 + 2 + 0)
    assert ana.win_rate == Fraction(2, 3) and ana.teams == ("Crown",)
    bea = lines["bea"]
    assert (bea.legs_played, bea.legs_won, bea.win_rate) == (3, 2, Fraction(2, 3))
    assert (lines["carla"].legs_played, lines["carla"].legs_won) == (2, 0)  # not the conceded
    assert (lines["dani"].legs_played, lines["dani"].legs_won) == (2, 1)
    # ana and bea: 2 of 3; dani 1 of 2; carla none
    assert [(a.rank, a.player) for a in averages([one, two])] == [
        (1, "ana"), (1, "bea"), (3, "dani"), (4, "carla")]


def test_the_minimum_leaves_players_unranked_after_the_ranked() -> None:
    one = fixture("Crown", "Anchor",
                  LegResult(("home", "home"), ("ana",), ("bea",)),
                  LegResult(("home", "home"), ("carla",), ("dani",)),
                  LegResult(("away",), ("ana", "carla"), ("bea", "dani")))
    two = fixture("Anchor", "Crown",
                  LegResult(("home", "home"), ("eva",), ("ana",)),
                  LegResult(("away", "away"), ("dani",), ("carla",)),
                  LegResult(("away",), ("bea", "dani"), ("ana", "carla")))
    assert [(a.player, a.rank, a.legs_won, a.legs_played) for a in averages([one, two])] == [
        ("eva", 1, 1, 1), ("carla", 2, 3, 4), ("ana", 3, 2, 4), ("bea", 4, 1, 3),
        ("dani", 5, 1, 4)]
    assert [(a.player, a.rank) for a in averages([one, two], minimum=4)] == [
        ("carla", 1), ("ana", 2), ("dani", 3), ("eva", None), ("bea", None)]


def test_rate_first_then_legs_won() -> None:
    """Two of three beats three of five; four of six beats two of three (more legs won)."""
    legs = [("x", 2, 3), ("y", 3, 5), ("z", 4, 6)]
    outcomes = []
    for player, won, played in legs:
        for n in range(played):
            outcomes.append(outcome(FixtureResult(f"{player}{n}H", f"{player}{n}A", (
                LegResult(("home" if n < won else "away",), (player,), (f"o{player}{n}",)),)),
                FixtureFormat((LegFormat("singles"),))))
    ranks = [(a.player, a.rank) for a in averages(outcomes) if len(a.player) == 1]
    # after the five opponents who won their only leg
    assert ranks == [("z", 6), ("x", 7), ("y", 8)]


def test_a_bad_minimum_or_input_is_refused() -> None:
    with pytest.raises(LeagueError, match="minimum is a whole number of at least 1"):
        averages([], minimum=0)
    with pytest.raises(LeagueError, match="averages are made from fixtures' outcomes"):
        averages(["ana 3 of 4"])


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 4))
def test_any_averages_add_up(seed: int, minimum: int) -> None:
    """Every leg played out counts once for each of its players; legs won by the players of
    a side are that side's legs; ranks follow the order."""
    rng = random.Random(seed)
    squad = {team: [f"{team}{k}" for k in range(4)] for team in "ABCD"}
    outcomes = []
    for _ in range(rng.randint(0, 12)):
        home, away = rng.sample("ABCD", 2)
        legs = []
        for shape in FORMAT.legs:
            size = 1 if shape.kind == "singles" else 2
            players = (tuple(rng.sample(squad[home], size)), tuple(rng.sample(squad[away], size)))
            if legs and shape.kind == "singles":  # one singles leg each: the other two players
                players = (tuple(p for p in squad[home] if p not in legs[0].home)[:1],
                           tuple(p for p in squad[away] if p not in legs[0].away)[:1])
            games = tuple(rng.choice(["home", "away", None]) for _ in range(rng.randint(0, shape.best_of)))
            conceded = rng.choice([(), (), (), ("home",), ("home", "away")])
            legs.append(LegResult(games, *players, conceded))
        outcomes.append(outcome(FixtureResult(home, away, tuple(legs)), FORMAT))
    lines = averages(outcomes, minimum)
    counted = [(o, leg) for o in outcomes for leg in o.legs if leg.status in ("won", "drawn")]
    assert sum(a.legs_played for a in lines) == sum(len(leg.home) + len(leg.away)
                                                    for _, leg in counted)
    assert sum(a.legs_won for a in lines) == sum(len(leg.players(leg.winner)) for _, leg in
                                                 counted if leg.winner)
    ranked = [a for a in lines if a.rank is not None]
    assert all(a.legs_played >= minimum for a in ranked)
    assert lines[:len(ranked)] == tuple(ranked)
    keys = [(-a.win_rate, -a.legs_won) for a in ranked]
    assert keys == sorted(keys)
    for i, a in enumerate(ranked):
        assert a.rank == (i + 1 if i == 0 or keys[i - 1] != keys[i] else ranked[i - 1].rank)


def test_a_drawn_leg_is_played_and_not_won_and_its_drawn_games_are_games() -> None:
    """Best of 3: a drawn game, one each: nobody can reach two; the leg is drawn."""
    drawn = fixture("Crown", "Anchor",
                    LegResult((None, "home", "away"), ("ana",), ("bea",)),
                    LegResult((), ("carla",), ("dani",)),  # still in play: counts for nobody
                    LegResult((), ("ana", "carla"), ("bea", "dani")))
    assert drawn.legs[0].status == "drawn" and drawn.legs[1].status == "in_play"
    lines = {a.player: a for a in averages([drawn])}
    assert set(lines) == {"ana", "bea"}
    ana = lines["ana"]
    assert (ana.singles_played, ana.singles_won, ana.games_played, ana.games_won) == (1, 0, 3, 1)
