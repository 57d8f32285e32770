"""``Match.push_all`` (the replay's loop, with its fast paths) judges exactly as ``push`` on
each event in turn: the same violations, and the same state after, for legal matches and for
records with events changed, dropped, moved or inserted (any code at any point)."""

from __future__ import annotations

import random

import pytest
from core_helpers import NAMES, match_state
from core_helpers import mutate as mutated
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.core.match import Match
from referee.core.rules import resolve_rules
from referee.core.simulate import random_match

CASES = [("mano-a-mano", 2), ("parejas", 4), ("veracruz", 3), ("sircle", 2), ("puerto-rico", 4),
         ({"preset": "mano-a-mano", "max_pip": 9, "hand_size": 9}, 2)]


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
        events = mutated(events, rng)
    rules = resolve_rules(spec, players)
    one_by_one = Match(rules, names)
    pushed = [v for v in map(one_by_one.push, events) if v is not None]
    together = Match(rules, names)
    assert together.push_all(events) == pushed
    assert match_state(together) == match_state(one_by_one)
    once = Match(rules, names)  # events that can be gone through only once
    assert once.push_all(iter(events)) == pushed
    assert match_state(once) == match_state(one_by_one)
