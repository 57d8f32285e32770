"""push_all's runs of moves (referee.core.fastpath, hand-made copies of the move judges and
appliers: ``run_moves`` for the seeds' family, ``run_counted`` for the points family, and
their leads' ``lead_line`` and ``lead_counted``; and a plain deal's and reveal's shortcut
through their judges' own checks, Match._plain_deal and _plain_reveal) held to the slow path, every event judged by its kind's
judge and applied by its applier: for random legal records of every preset, open and closed,
and the same records changed (fields made odd, events dropped, moved, inserted, moves recorded
as disputed or stored unsighted), the same violations, the same state after, and the same
report."""

from __future__ import annotations

import inspect
import random

import pytest
from core_helpers import NAMES, ODD_SEATS, ODD_TILES, match_state
from core_helpers import mutate as mutated
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.core import fastpath
from referee.core.counting import SPINNER
from referee.core.family import HANDS, POINTS, POINTS_SPINNER, Family, family_of
from referee.core.match import Match
from referee.core.replay import replay
from referee.core.report import build_report
from referee.core.rules import resolve_rules
from referee.core.simulate import random_match
from referee.core.tiles import tile_set

# The seeds' family with the run of moves turned off: every event goes the slow path.
SLOW = Family(HANDS.name, HANDS.layout, HANDS.scoring, fast=False)

CASES = [("mano-a-mano", 2), ("parejas", 4), ("veracruz", 3), ("veracruz", 4), ("sircle", 2),
         ("puerto-rico", 4), ({"preset": "mano-a-mano", "max_pip": 9, "hand_size": 9}, 2),
         ({"preset": "sircle", "draw": "one", "reserve": 0}, 2),
         # the points family (run_counted): every preset at every seat count, and the
         # overrides that take the run's other branches (a boneyard to draw from, one draw a
         # turn, partners both going out, the chip-out point under an exact target, busts, a
         # larger set, the lead never scoring, fives and threes on a spinner)
         ("fives-and-threes", 2), ("fives-and-threes", 3), ("fives-and-threes", 4),
         ("all-fives", 2), ("all-fives", 3), ("all-fives", 4),
         ("muggins", 2), ("muggins", 3), ("muggins", 4),
         ({"preset": "fives-and-threes", "hand_size": 7, "draw": "until_playable", "reserve": 2}, 2),
         ({"preset": "fives-and-threes", "exact_target": False, "partners_out": "one"}, 4),
         ({"preset": "all-fives", "partnerships": True, "draw": "one"}, 4),
         ({"preset": "all-fives", "exact_target": True, "target": 60, "out_bonus": 5}, 2),
         ({"preset": "all-fives", "max_pip": 9, "hand_size": 9}, 3),
         ({"preset": "muggins", "lead_scores": "never", "count": "fives_and_threes"}, 4),
         ({"preset": "fives-and-threes", "spinner": "first_double", "target": 31}, 2)]


def _slow(family: Family) -> Family:
    """The same family with its run of moves turned off."""
    return Family(family.name, family.layout, family.scoring, fast=False)


def _disputed(events: list, rng: random.Random) -> list:
    """Some moves recorded as disputed or stored unsighted (applied as played when refused),
    one of them twice."""
    events = [dict(e) if type(e) is dict else e for e in events]
    moves = [i for i, e in enumerate(events) if type(e) is dict and e.get("type") in
             ("play", "draw", "pass")]
    # (from the last: a repeat inserted after a move leaves the earlier indexes in place)
    for i in sorted(rng.sample(moves, min(len(moves), rng.randint(1, 3))), reverse=True):
        events[i]["disputed" if rng.random() < 0.7 else "unsighted"] = True
        if rng.random() < 0.3:
            events.insert(i + 1, dict(events[i]))  # the same disputed event again: a repeat
    return events


def _state(match: Match) -> dict:
    state = match_state(match)
    del state["family"]  # the one difference: fast or not
    return state


@pytest.mark.parametrize("spec, players", CASES)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1),
       change=st.sampled_from(["none", "mutate", "dispute", "both"]),
       hidden=st.sampled_from(["none", "one", "all"]))
def test_the_run_of_moves_is_the_slow_path(spec, players, seed, change, hidden):
    rng = random.Random(seed)
    names = NAMES[:players]
    hide = {"none": (), "one": (0,), "all": tuple(range(players))}[hidden]
    _, events = random_match(spec, names, rng, hidden=hide, max_rounds=8)
    if change in ("mutate", "both"):
        events = mutated(events, rng)
    if change in ("dispute", "both"):
        events = _disputed(events, rng)
    rules = resolve_rules(spec, players)
    slow_family = _slow(family_of(rules))
    fast, slow = Match(rules, names), Match(rules, names, slow_family)
    assert fast.family.fast and not slow.family.fast
    assert fast.push_all(events) == slow.push_all(events)
    assert _state(fast) == _state(slow)
    assert (build_report(replay(rules, names, events))
            == build_report(replay(rules, names, events, family=slow_family)))
    one_by_one = Match(rules, names)  # push: push_all on one event, the run cut at each
    for event in events:
        one_by_one.push(event)
    assert _state(one_by_one) == _state(slow)



def _odd_reveals(events: list, rng: random.Random) -> list:
    """Each reveal by tiles changed, one in two: a tile written oddly, named twice, left out,
    taken from another hand or off the line, the pips said with it (right or not), a ``seq``,
    an odd seat, tiles that are no list, or moved before the round's end."""
    events = [dict(e) for e in events]
    for i in [i for i, e in enumerate(events) if e.get("type") == "reveal" and e.get("tiles")]:
        event, r = events[i], rng.random()
        tiles = list(event["tiles"])
        if r < 0.1:
            tiles[rng.randrange(len(tiles))] = rng.choice(ODD_TILES)
        elif r < 0.15:
            tiles.append(tiles[0])
        elif r < 0.2:
            tiles.pop()
        elif r < 0.25:
            played = [e["tile"] for e in events[:i] if e.get("type") == "play"]
            tiles[0] = rng.choice(played) if played else tiles[0]
        elif r < 0.3:
            event["pips"] = rng.randint(0, 40)
        elif r < 0.35:
            event["seq"] = rng.choice([i + 1, i + 2])
        elif r < 0.4:
            event["seat"] = rng.choice(ODD_SEATS)
        elif r < 0.45:
            tiles = rng.choice([tuple(tiles), ",".join(tiles), None, 7])
        elif r < 0.5:
            events.insert(max(0, i - rng.randint(1, 6)), events.pop(i))
            continue
        event["tiles"] = tiles
    return events


@pytest.mark.parametrize("spec, players", [case for case in CASES if case[1] > 2][:8]
                         + [("mano-a-mano", 2), ("all-fives", 2)])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), hidden=st.sampled_from(["one", "all"]))
def test_a_plain_reveal_is_the_slow_paths(spec, players, seed, hidden):
    """push_all applies a plainly legal reveal by tiles at once (Match._plain_reveal, through
    the reveal's own checks): closed records with their reveals made odd, the same violations,
    state and report as every event through its judge."""
    rng = random.Random(seed)
    names = NAMES[:players]
    hide = (0,) if hidden == "one" else tuple(range(players))
    _, events = random_match(spec, names, rng, hidden=hide, max_rounds=8)
    events = _odd_reveals(events, rng)
    rules = resolve_rules(spec, players)
    slow_family = _slow(family_of(rules))
    fast, slow = Match(rules, names), Match(rules, names, slow_family)
    assert fast.push_all(events) == slow.push_all(events)
    assert _state(fast) == _state(slow)
    assert (build_report(replay(rules, names, events))
            == build_report(replay(rules, names, events, family=slow_family)))


def test_each_family_has_its_run():
    """The seeds' line takes run_moves, the points family's counted lines run_counted; a
    family of another layout or policy class (a subclass, a family being built) has none."""
    assert HANDS.run is fastpath.run_moves
    assert POINTS.run is POINTS_SPINNER.run is fastpath.run_counted
    assert SLOW.run is None and not SLOW.fast
    # the hand-made lead: the seeds' line's, and the points family's (its policy scores it)
    assert HANDS.lead is fastpath.lead_line
    assert POINTS.lead is POINTS_SPINNER.lead is fastpath.lead_counted
    assert SLOW.lead is None

    class Odd(type(POINTS.layout)):  # a layout subclass the run does not know
        __slots__ = ()

    assert Family("odd", Odd(), POINTS.scoring, fast=True).run is None


def test_push_all_needs_no_exception_to_the_complexity_rule():
    """push_all is a short loop: the run of moves is its own module, listed as a hand-made
    copy (docs/performance.md), which alone says in place why it is one long function."""
    assert "noqa" not in inspect.getsource(Match.push_all)
    assert "noqa: C901 (a hand-made copy" in inspect.getsource(fastpath.run_moves)
    assert "noqa: C901 (a hand-made copy" in inspect.getsource(fastpath.run_counted)


ENDS = (None, "left", "right", "up", "down", *range(7))


def test_a_place_on_the_spinners_four_ends_is_the_general_way():
    """Once the spinner's arms are open, ``place`` answers without listing the open ends or
    comparing layouts (referee.core.counting, ``_place_on_four``), and the run of counted
    moves restates it inline: on random layouts of four open ends (each end plain, a double,
    or an arm with no tile yet; pips repeated often), for every tile and every end a play may
    name, the same answer as ``place_by_ends``."""
    tiles = tile_set(6)
    rng = random.Random(34)

    def outer(pip: int) -> int:  # a tile showing ``pip`` outward: a double or a plain tile
        other = pip if rng.random() < 0.3 else rng.randrange(7)
        return tiles.index_of(pip, other)

    answers = set()
    for _ in range(400):
        spun = rng.randrange(7)
        spinner = tiles.index_of(spun, spun)
        pips = [rng.choice((spun, rng.randrange(7))) for _ in range(4)]
        arms = tuple((spun, spinner) if rng.random() < 0.4 and pip == spun else (pip, outer(pip))
                     for pip in pips[2:])
        layout = SPINNER._make((pips[0], pips[1], outer(pips[0]), outer(pips[1]), spinner, arms))
        for tile in range(tiles.size):
            high, low = tiles.high[tile], tiles.low[tile]
            for end in ENDS:
                answer = layout.place(high, low, end)
                assert answer == layout.place_by_ends(high, low, end), (layout, tile, end)
                answers.add(answer)
    assert answers == {"R", "L", "U", "D", "no_match", "ambiguous_end"}
