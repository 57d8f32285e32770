"""Properties of the points family over random legal matches of each preset (and overrides),
played by referee.core.simulate.random_match: every play's count and what it is worth, busts,
each round's scores and the match's totals as the sum of its ``scored`` and end scores, and the
closed recording of a match (every seat hidden, hands revealed after each round) giving the same
rounds, scores and totals as the open one."""

from __future__ import annotations

import random

import pytest
from core_helpers import NAMES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.core.counting import worth
from referee.core.match import Match
from referee.core.replay import replay
from referee.core.report import build_report
from referee.core.rules import resolve_rules
from referee.core.simulate import random_match

CASES = [("fives-and-threes", 2), ("fives-and-threes", 3), ("fives-and-threes", 4),
         ({"preset": "fives-and-threes", "partnerships": False}, 4),
         ({"preset": "fives-and-threes", "hand_size": 7, "lead_scores": "always",
           "out_bonus": 0}, 2),
         ({"preset": "fives-and-threes", "exact_target": False, "partners_out": "one"}, 4),
         ("all-fives", 2), ("all-fives", 3), ("all-fives", 4),
         ({"preset": "all-fives", "partnerships": True}, 4),
         ({"preset": "all-fives", "exact_target": True, "target": 150, "out_bonus": 5}, 2),
         ("muggins", 2), ("muggins", 3), ({"preset": "muggins", "lead_scores": "never"}, 4),
         ({"preset": "muggins", "count": "fives_and_threes", "pips_round": 1}, 2)]
IDS = [f"{spec if isinstance(spec, str) else 'override'}-{n}-{i}" for i, (spec, n) in enumerate(CASES)]
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def simulate(spec, players, seed, **options):
    header, events = random_match(spec, NAMES[:players], random.Random(seed), **options)
    return resolve_rules(header["rules"], players), events


def without_seq(rounds):
    """The rounds with each scored play's seq left out (reveals shift a closed record's)."""
    return [{**r, "scored": [{k: v for k, v in e.items() if k != "seq"} for e in r["scored"]]}
            for r in rounds]


@pytest.mark.parametrize("spec, players", CASES, ids=IDS)
@SETTINGS
@given(seed=seeds)
def test_every_play_scores_its_count(spec, players, seed):
    """Replayed event by event: each play's score is its count's worth to its side (after the
    lead rule and busts), listed in ``scored`` exactly when worth a point and not kept."""
    rules, events = simulate(spec, players, seed)
    match = Match(rules, NAMES[:players])
    for event in events:
        before = list(match.totals)
        listed = len(match.round.scored) if match.round is not None else 0
        assert match.push(event) is None
        if event["type"] != "play":
            continue
        side = rules.side_of(event["seat"])
        round_ = match.round
        count = match.layout.count()
        value = worth(count, rules.count)
        lead = match.layout.left_tile == match.layout.right_tile
        kept = lead and (rules.lead_scores == "never" or rules.lead_scores == "not_to_win"
                         and before[side] + value >= rules.target)
        new = round_.scored[listed:]
        if kept or not value:
            assert new == []
        else:
            (entry,) = new
            assert (entry["seat"], entry["count"], entry["points"]) == (event["seat"], count, value)
        gained = match.totals[side] - before[side]
        bust = bool(new) and new[0].get("bust", False)
        assert not bust or rules.exact_target
        # beside each listed play, its side's total after it (a bust: the total it would make)
        assert len(round_.reached) == len(round_.scored)
        if new:
            (reached,) = round_.reached[listed:]
            if bust:
                assert reached > rules.target
                assert reached - before[side] in (value, value + rules.out_bonus)
            elif round_.ended is None or round_.outcome == "target":
                assert reached == match.totals[side]
        scored = 0 if kept or bust else value
        if round_.ended is None:  # play goes on: the play's score, nothing else, for its side
            assert gained == scored
            assert not bust or before[side] + value > rules.target
            assert all(match.totals[s] == before[s] for s in range(rules.sides) if s != side)
        elif round_.outcome == "target":  # reached by the play (with its chip-out point)
            out = not match.count[event["seat"]] and rules.exact_target
            assert gained in ((scored, scored + rules.out_bonus) if out else (scored,))
            assert match.finished and match.winner == side and match.totals[side] >= rules.target
            assert match.totals[side] == rules.target or not rules.exact_target
            assert all(match.totals[s] == before[s] for s in range(rules.sides) if s != side)


@pytest.mark.parametrize("spec, players", CASES, ids=IDS)
@SETTINGS
@given(seed=seeds)
def test_totals_are_the_scored_plays_and_the_end_scores(spec, players, seed):
    rules, events = simulate(spec, players, seed)
    rep = build_report(replay(rules, NAMES[:players], events))
    assert rep["valid"], rep["violations"][:3]
    assert rep["finished"] or len(rep["rounds"]) == 60
    totals = [0] * rules.sides
    for round_ in rep["rounds"]:
        plays = [0] * rules.sides
        for entry in round_["scored"]:
            assert entry["points"] == worth(entry["count"], rules.count) > 0
            if not entry.get("bust"):
                plays[rules.side_of(entry["seat"])] += entry["points"]
        end = [0] * rules.sides
        if round_["winner"] is not None:
            end[round_["winner"]] = round_["points"]
        if round_["outcome"] == "target" and rules.exact_target:
            # the play that went out and its chip-out point were one score: the point is in
            # the round's scores, and the round's points are 0
            bonus = round_["scores"][round_["winner"]] - plays[round_["winner"]]
            assert bonus in (0, rules.out_bonus)
            end[round_["winner"]] = bonus
        assert round_["scores"] == [p + e for p, e in zip(plays, end)]
        assert all(points >= 0 for points in round_["scores"])
        if round_["outcome"] == "target":
            assert round_["points"] == 0 and round_["pips"] is None
            assert round_ is rep["rounds"][-1] and rep["winner"] == round_["winner"]
        for side in range(rules.sides):
            totals[side] += round_["scores"][side]
    assert rep["totals"] == totals
    if rules.exact_target:
        assert max(totals) <= rules.target
    assert rep["finished"] == (max(totals) >= rules.target)


@pytest.mark.parametrize("spec, players", CASES, ids=IDS)
@SETTINGS
@given(seed=seeds, pips_only=st.booleans())
def test_the_closed_twin_scores_as_the_open_match(spec, players, seed, pips_only):
    rules, events = simulate(spec, players, seed)
    _, closed = simulate(spec, players, seed, hidden=range(players), pips_only=pips_only)
    opened = build_report(replay(rules, NAMES[:players], events))
    shut = build_report(replay(rules, NAMES[:players], closed))
    assert shut["valid"], shut["violations"][:3]
    assert without_seq(shut["rounds"]) == without_seq(opened["rounds"])
    assert (shut["totals"], shut["finished"], shut["winner"]) == (
        opened["totals"], opened["finished"], opened["winner"])


ENDS = (None, "left", "right", "up", "down", *range(13))


@pytest.mark.parametrize("spec, players", CASES, ids=IDS)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds)
def test_where_a_tile_goes_is_the_general_way(spec, players, seed):
    """The counted line's ``place`` answers a line's cases without listing the open ends
    (referee.core.counting): on every layout a random match shows, for every tile of its set
    and every end a play may name, the same answer as ``place_by_ends`` (every open end
    listed, the layouts each place gives compared)."""
    rules, events = simulate(spec, players, seed, max_rounds=3)
    match = Match(rules, NAMES[:players])
    tiles = match.tiles
    seen = set()
    for event in events:
        match.push(event)
        layout = match.layout
        if layout.left is None or layout in seen:
            continue
        seen.add(layout)
        for tile in range(tiles.size):
            high, low = tiles.high[tile], tiles.low[tile]
            for end in ENDS:
                assert layout.place(high, low, end) == layout.place_by_ends(high, low, end), (
                    layout, tiles.names[tile], end)
