"""Properties of the rules core over random legal matches (referee.core.simulate.random_match).

- every preset at every seat count it allows (and arbitrary rule combinations) replays clean;
- tiles are conserved at every step of an open recording;
- each round's result is what the design's scoring rules give, computed here from scratch;
- the closed recording of a match (all seats hidden, or some) gives the same results;
- single-event mutations of a legal log are caught at that event with the right code;
- an event of any shape (any JSON in any field) is judged, never raises.
"""

from __future__ import annotations

import random

import pytest
from core_helpers import NAMES, rules_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.core import vocab
from referee.core.match import Match
from referee.core.replay import replay
from referee.core.report import build_report
from referee.core.rules import CHOICES, DEFAULTS, resolve_rules
from referee.core.simulate import random_match
from referee.core.tiles import tile_set

CASES = [("mano-a-mano", 2), ("parejas", 4), ("veracruz", 2), ("veracruz", 3), ("veracruz", 4),
         ({"preset": "veracruz", "partnerships": True}, 4), ("sircle", 2), ("puerto-rico", 4)]
CASE_IDS = ["mano-a-mano", "parejas", "veracruz-2", "veracruz-3", "veracruz-4",
            "veracruz-pairs", "sircle", "puerto-rico"]
DRAWING = {"mano-a-mano", "veracruz-2", "veracruz-3", "sircle"}  # the cases with a boneyard

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32 - 1)


@st.composite
def any_rules(draw):
    """A rules object (every parameter named) and its number of players."""
    max_pip = draw(st.sampled_from(CHOICES["max_pip"]))
    size = tile_set(max_pip).size
    partnerships = draw(st.booleans())
    seats = 4 if partnerships else draw(st.integers(2, 4 if max_pip == 6 else 6))
    hand_size = draw(st.integers(1, min(9, size // seats)))
    reserve = draw(st.integers(0, min(4, size - seats * hand_size)))
    # the seeds' family here (scored from scratch below); the points family has its own
    # properties (test_core_points_properties.py)
    spec = {name: draw(st.sampled_from([v for v in values if v != "none" or name == "blocked_tie"]))
            for name, values in CHOICES.items() if name not in DEFAULTS}
    spec.update(max_pip=max_pip, partnerships=partnerships, hand_size=hand_size,
                reserve=reserve, target=draw(st.integers(1, 120)))
    return spec, seats


def simulate(spec, players, seed, **options):
    header, events = random_match(spec, NAMES[:players], random.Random(seed), **options)
    return resolve_rules(header["rules"], players), events


# ---------------------------------------------------------------------------- clean replays


def check_clean_replay(spec, players, seed):
    rules, events = simulate(spec, players, seed)
    result = replay(rules, NAMES[:players], events)
    assert result.valid, result.violations[:3]
    assert result.match.finished or len(result.rounds) == 60  # random_match's cap
    assert all(r.outcome in ("domino", "blocked") for r in result.rounds)
    check_scores(rules, events, result)


@pytest.mark.parametrize("spec, players", CASES, ids=CASE_IDS)
@SETTINGS
@given(seed=seeds)
def test_random_matches_replay_clean(spec, players, seed):
    check_clean_replay(spec, players, seed)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=any_rules(), seed=seeds)
def test_any_rules_replay_clean(case, seed):
    check_clean_replay(*case, seed)


# ---------------------------------------------------------------------------- conservation


def check_conserved(match: Match) -> None:
    """hands + line + boneyard = the set, with no tile in two places; every hand known."""
    size = match.tiles.size
    seen = match.line
    placed = match.line.bit_count()
    for seat, known in enumerate(match.known):
        assert known & seen == 0, "a tile in two places"
        assert match.count[seat] == known.bit_count(), "an open hand that is not known"
        seen |= known
        placed += known.bit_count()
    assert placed + match.boneyard == size
    assert (match.tiles.all_mask & ~seen).bit_count() == match.boneyard


def check_conserved_throughout(spec, players, seed):
    rules, events = simulate(spec, players, seed)
    match = Match(rules, NAMES[:players])
    for event in events:
        assert match.push(event) is None
        if match.round is not None:
            check_conserved(match)


@pytest.mark.parametrize("spec, players", CASES, ids=CASE_IDS)
@SETTINGS
@given(seed=seeds)
def test_tiles_are_conserved(spec, players, seed):
    check_conserved_throughout(spec, players, seed)


# ---------------------------------------------------------------------------- scores from scratch


def _tile(text):
    a, b = (int(x) for x in text.split("-"))
    return max(a, b), min(a, b)


def expected_result(rules, pips, seat_out, blocker, opener):
    """(winning side or None, points) from the design's Rules and Ending and scoring."""
    seats = rules["seats"]
    sides = 2 if rules["partnerships"] else seats
    side = (lambda s: s % 2) if rules["partnerships"] else (lambda s: s)
    totals = [sum(p for s, p in enumerate(pips) if side(s) == d) for d in range(sides)]
    if seat_out is not None:
        winner = side(seat_out)
        if rules["domino_points"] == "all":
            return winner, sum(pips)
        return winner, sum(totals) - totals[winner]
    if rules["blocked_compare"] == "side_total":
        measure = totals
    else:
        measure = [min(p for s, p in enumerate(pips) if side(s) == d) for d in range(sides)]
    tied = [d for d in range(sides) if measure[d] == min(measure)]
    if len(tied) > 1:
        tie = rules["blocked_tie"]
        if tie == "none":
            tied = []
        elif tie == "blocker_loses":
            tied = [d for d in tied if d != side(blocker)]
        else:  # mano: the tied side whose seat comes first in turn order from the opener
            order = [side((opener + i) % seats) for i in range(seats)]
            tied = [next(d for d in order if d in tied)]
    if len(tied) != 1:
        return None, 0
    winner = tied[0]
    others = [totals[d] for d in range(sides) if d != winner]
    if rules["blocked_points"] == "opponents":
        return winner, sum(others)
    if rules["blocked_points"] == "all":
        return winner, sum(totals)
    return winner, max(0, sum(t - totals[winner] for t in others))


def rounds_from_scratch(rules, events):
    """Follow an open log by hand: every round's (opener, outcome, winner, points, pips,
    blocked_by), checking on the way that each block is a real one."""
    rules = rules.as_dict()
    size = tile_set(rules["max_pip"]).size
    results = []
    state = {}

    def finish():
        hands, ends = state["hands"], state["ends"]
        pips = tuple(sum(a + b for a, b in hand) for hand in hands)
        out = next((s for s, h in enumerate(hands) if not h), None)
        if out is None:  # a block: a locked line, or nobody can play and no draw is left
            v = ends[0]
            locked = ends[1] == v and sum(v in t for t in state["line"]) == rules["max_pip"] + 1
            assert locked or not any(a in ends or b in ends for hand in hands for a, b in hand)
            assert locked or rules["draw"] == "none" or state["boneyard"] <= rules["reserve"]
        blocker = None if out is not None else state["last"]
        winner, points = expected_result(rules, pips, out, blocker, state["opener"])
        results.append((state["opener"], "domino" if out is not None else "blocked", winner,
                        points, pips, blocker))

    for event in events:
        kind = event["type"]
        if kind == "deal":
            if state:
                finish()
            hands = [{_tile(t) for t in hand} for hand in event["hands"]]
            state = {"hands": hands, "opener": None, "last": None, "ends": None, "line": [],
                     "boneyard": size - sum(map(len, hands))}
        elif kind == "draw":
            state["hands"][event["seat"]].add(_tile(event["tile"]))
            state["boneyard"] -= 1
        elif kind == "play":
            seat, tile = event["seat"], _tile(event["tile"])
            state["hands"][seat].remove(tile)
            state["line"].append(tile)
            state["last"] = seat
            if state["ends"] is None:
                state["opener"] = seat
                state["ends"] = [int(x) for x in event["tile"].split("-")]
                continue
            left, right = state["ends"]
            end = event.get("end")
            on_right = (end == "right" or (end == right and right in tile)
                        or (end is None and right in tile))
            if end == "left" or not on_right:
                state["ends"][0] = tile[0] + tile[1] - left
            else:
                state["ends"][1] = tile[0] + tile[1] - right
    if state:
        finish()
    return results


def check_scores(rules, events, result):
    expected = rounds_from_scratch(rules, events)
    got = [(r.opener, r.outcome, r.winner, r.points, r.pips, r.blocked_by) for r in result.rounds]
    assert got == expected
    totals = [0] * rules.sides
    for _, _, winner, points, _, _ in expected:
        if winner is not None:
            totals[winner] += points
    assert result.match.totals == totals
    reached = max(totals) >= rules.target
    assert result.match.finished == reached
    if reached:
        leaders = [d for d, t in enumerate(totals) if t == max(totals)]
        assert result.match.winner == (leaders[0] if len(leaders) == 1 else None)


# ---------------------------------------------------------------------------- closed recording


def check_closed_recording(spec, players, seed, data):
    rules, open_events = simulate(spec, players, seed)
    reference = replay(rules, NAMES[:players], open_events)
    every = list(range(players))
    hidden = data.draw(st.sampled_from([every, every[:1], every[1:], every[::2]]), label="hidden")
    pips_only = data.draw(st.booleans(), label="pips_only")
    _, closed_events = simulate(spec, players, seed, hidden=hidden, pips_only=pips_only)
    closed = replay(rules, NAMES[:players], closed_events)
    assert closed.valid, closed.violations[:3]
    assert closed.rounds == reference.rounds
    assert closed.match.totals == reference.match.totals
    assert (closed.match.finished, closed.match.winner) == (
        reference.match.finished, reference.match.winner)


@pytest.mark.parametrize("spec, players", CASES, ids=CASE_IDS)
@SETTINGS
@given(seed=seeds, data=st.data())
def test_closed_recording_gives_the_same_results(spec, players, seed, data):
    check_closed_recording(spec, players, seed, data)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=any_rules(), seed=seeds, data=st.data())
def test_any_rules_conserve_tiles_and_record_closed_alike(case, seed, data):
    spec, players = case
    check_conserved_throughout(spec, players, seed)
    check_closed_recording(spec, players, seed, data)


def with_unseen_draws(rules, players, events, rng):
    """The open log with some draws unseen (their tile left out) and, after each round, the
    reveals the hands that drew unseen then owe (an open hand that draws unseen is no longer
    known)."""
    seen, blind = Match(rules, NAMES[:players]), Match(rules, NAMES[:players])
    out = []
    for event in events:
        assert seen.push(event) is None
        if event["type"] == "draw" and rng.random() < 0.5:
            event = {"type": "draw", "seat": event["seat"]}
        assert blind.push(event) is None
        out.append(event)
        if blind.round.outcome == "awaiting_reveal" and seen.round.outcome != "awaiting_reveal":
            for seat in range(players):
                if not blind.hand_known(seat):
                    reveal = {"type": "reveal", "seat": seat,
                              "tiles": seen.tiles.mask_names(seen.known[seat])}
                    assert blind.push(reveal) is None
                    out.append(reveal)
    return out


DRAWING_CASES = [pytest.param(spec, players, id=name)
                 for (spec, players), name in zip(CASES, CASE_IDS) if name in DRAWING]


@pytest.mark.parametrize("spec, players", DRAWING_CASES)
@SETTINGS
@given(seed=seeds)
def test_open_hands_drawing_unseen_give_the_same_results(spec, players, seed):
    rules, events = simulate(spec, players, seed)
    reference = replay(rules, NAMES[:players], events)
    mixed = replay(rules, NAMES[:players], with_unseen_draws(rules, players, events,
                                                             random.Random(seed)))
    assert mixed.valid, mixed.violations[:3]
    assert mixed.rounds == reference.rounds and mixed.match.totals == reference.match.totals


# ---------------------------------------------------------------------------- mutations


def _state_before(rules, players, events, index):
    match = Match(rules, NAMES[:players])
    for event in events[:index]:
        assert match.push(event) is None
    return match


def _first_violation(rules, players, events):
    result = replay(rules, NAMES[:players], events)
    assert result.violations, "the mutation went unnoticed"
    v = result.violations[0]
    assert v.certainty == "proven"
    return v.seq, v.code, v.seat


MUTATIONS = ["another_tile", "another_seat", "pass_for_play", "dropped_draw"]


def _candidates(kind, events):
    if kind == "another_tile":
        return [i for i, e in enumerate(events) if e["type"] == "play"
                or (e["type"] == "draw" and "tile" in e)]
    if kind in ("another_seat", "pass_for_play"):
        types = ("play",) if kind == "pass_for_play" else ("play", "draw", "pass")
        return [i for i, e in enumerate(events) if e["type"] in types]
    return [i for i, e in enumerate(events[:-1]) if e["type"] == "draw"
            and events[i + 1]["type"] in ("play", "pass")
            and events[i + 1]["seat"] == e["seat"]]


MUTATION_CASES = [pytest.param(kind, spec, players, id=f"{kind}-{name}")
                  for kind in MUTATIONS for (spec, players), name in zip(CASES, CASE_IDS)
                  if kind != "dropped_draw" or name in DRAWING]


@pytest.mark.parametrize("kind, spec, players", MUTATION_CASES)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, data=st.data())
def test_mutations_are_caught(kind, spec, players, seed, data):
    rules, events = simulate(spec, players, seed)
    candidates = _candidates(kind, events)
    if not candidates:
        return  # a match that happened to need no draw
    index = data.draw(st.sampled_from(candidates), label="index")
    event = events[index]
    seat = event["seat"]
    match = _state_before(rules, players, events, index)
    seq = index + 1
    mutated = list(events)
    if kind == "another_tile":
        ts = match.tiles
        elsewhere = [t for t in range(ts.size) if not match.known[seat] >> t & 1]
        if event["type"] == "draw":  # a tile that is not in the boneyard
            elsewhere = [t for t in elsewhere
                         if match.line >> t & 1 or any(k >> t & 1 for k in match.known)]
            if not elsewhere:
                return
        tile = data.draw(st.sampled_from(elsewhere), label="tile")
        mutated[index] = {**event, "tile": ts.names[tile]}
        code = "tile_already_played" if match.line >> tile & 1 else "not_in_hand"
        expected = (seq, code, seat)
    elif kind == "another_seat":
        if match.left is None and match.may_lead != 1 << seat:
            return  # several seats might lead
        other = data.draw(st.sampled_from([s for s in range(players) if s != seat]),
                          label="seat")
        mutated[index] = {**event, "seat": other}
        expected = (seq, "wrong_opener" if match.left is None else "out_of_turn", other)
    elif kind == "pass_for_play":
        mutated[index] = {"type": "pass", "seat": seat}
        expected = (seq, "renege", seat)
    else:
        following = events[index + 1]
        del mutated[index]
        expected = (seq, "not_in_hand" if following["type"] == "play" else "must_draw", seat)
    assert _first_violation(rules, players, mutated) == expected


# ------------------------------------------------------------------- events of any shape

# Any JSON a log or a request may hold: a field of any type, objects and lists nested.
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 40) | st.floats(allow_nan=False)
    | st.sampled_from(["", "6-6", "6-4", "left", "right", "x", "deal", "play", "amend"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                                max_size=3),
    max_leaves=6)
FIELDS = ["type", "seat", "tile", "end", "side", "target", "event", "hands", "seq", "reason",
          "disputed", "points", "text", "tiles"]
KINDS = st.sampled_from(sorted({*vocab.EVENT_TYPES}))


@st.composite
def any_event(draw, depth: int = 1):
    """An object with some of the events' fields, each any JSON; its type a kind or anything,
    and an amend's correction an event of this kind again."""
    event = draw(st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=4))
    if draw(st.booleans()):
        event["type"] = draw(KINDS)
    if depth and draw(st.booleans()):
        event["event"] = draw(any_event(depth=0))
    return event


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tail=st.lists(any_event() | json_values, min_size=1, max_size=4))
def test_an_event_of_any_shape_is_judged_never_raises(tail):
    """After a legal start, events of any shape (a type that is a list, an amend correcting an
    object whose type is an object, ...) are judged and the report comes out: one with no
    text type is a bad event (unless a ruling in the tail names it), whatever else it holds."""
    from core_helpers import BASE

    rules = rules_for()
    events = [*BASE, *tail]
    result = replay(rules, NAMES[:2], events)
    found = {v.seq: v.code for v in result.violations}
    assert set(found.values()) <= set(vocab.VIOLATION_CODES)
    named = [e.get("target") for e in tail if isinstance(e, dict)]
    for seq, event in enumerate(events, start=1):
        if vocab.kind_of(event) is None and seq not in named:
            assert found.get(seq) == "bad_event", (seq, event)
    assert build_report(result)["violations"] is not None
    match = Match(rules, NAMES[:2])
    for event in events:
        match.push(event)
