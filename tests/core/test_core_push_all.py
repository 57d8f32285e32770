"""``Match.push_all`` (the replay's loop, with its fast paths) judges exactly as ``push`` on
each event in turn: the same violations, and the same state after, for legal matches and for
records with events changed, dropped, moved or inserted (any code at any point)."""

from __future__ import annotations

import random

import pytest
from core_helpers import NAMES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.core.match import Match
from referee.core.rules import resolve_rules
from referee.core.simulate import random_match

CASES = [("mano-a-mano", 2), ("parejas", 4), ("veracruz", 3), ("sircle", 2), ("puerto-rico", 4),
         ({"preset": "mano-a-mano", "max_pip": 9, "hand_size": 9}, 2)]

ODD_TILES = ["6-6", "0-0", "3-4", "4-3", "06-5", "7-7", "x", "", "1-2"]
ODD_SEATS = [0, 1, 3, 7, -1, "1", True, None]
ODD_ENDS = ["left", "right", 0, 3, 6, None, "up", True]


def _mutate(events: list, rng: random.Random) -> list:
    events = [dict(e) for e in events]
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(events))
        event, r = events[i], rng.random()
        if type(event) is not dict:  # an earlier mutation put a non-object here
            continue
        if r < 0.2:
            event["tile"] = rng.choice(ODD_TILES)
        elif r < 0.35:
            event["seat"] = rng.choice(ODD_SEATS)
        elif r < 0.45:
            events[i] = {"type": "pass", "seat": event.get("seat", 0)}
        elif r < 0.55:
            del events[i]
        elif r < 0.65:
            event["end"] = rng.choice(ODD_ENDS)
        elif r < 0.7:
            event["seq"] = rng.choice([i + 1, i + 2])
        elif r < 0.75 and event["type"] == "deal" and event.get("hands"):
            hands = [list(h) if h else h for h in event["hands"]]
            if hands[0]:
                hands[0][0] = rng.choice(ODD_TILES + [hands[0][-1]])
            event["hands"] = hands
        elif r < 0.8:
            events.insert(i, {"type": "penalty", "side": 0, "points": rng.randint(1, 80),
                              "reason": "r"})
        elif r < 0.85:
            events.insert(i, {"type": "reveal", "seat": 0, "pips": rng.randint(0, 30)})
        elif r < 0.9:
            events[i] = rng.choice([42, [], {"type": "play"}, {"seat": 0}])
        else:
            j = rng.randrange(len(events))
            events[i], events[j] = events[j], events[i]
    return events


def _state(match: Match) -> dict:
    state = {name: getattr(match, name) for name in Match.__slots__ if name != "_handlers"}
    state["rounds"] = [{name: getattr(r, name) for name in type(r).__slots__}
                       for r in match.rounds]
    state["round"] = match.round.number if match.round else None
    state["placed"] = match.placed
    return state


@pytest.mark.parametrize("spec, players", CASES)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), mutate=st.booleans(),
       hidden=st.sampled_from(["none", "one", "all"]))
def test_push_all_is_push_on_each(spec, players, seed, mutate, hidden):
    rng = random.Random(seed)
    names = NAMES[:players]
    hide = {"none": (), "one": (0,), "all": tuple(range(players))}[hidden]
    _, events = random_match(spec, names, rng, hidden=hide)
    if mutate:
        events = _mutate(events, rng)
    rules = resolve_rules(spec, players)
    one_by_one = Match(rules, names)
    pushed = [v for v in map(one_by_one.push, events) if v is not None]
    together = Match(rules, names)
    assert together.push_all(events) == pushed
    assert _state(together) == _state(one_by_one)
    once = Match(rules, names)  # events that can be gone through only once
    assert once.push_all(iter(events)) == pushed
    assert _state(once) == _state(one_by_one)
