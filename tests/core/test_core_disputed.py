"""Recording as disputed keeps the game going (docs/rules.md, *Recording as disputed keeps the game going*): properties
over random legal matches with one forbidden event injected, recorded ``"disputed": true``.

For each violation a disputed event is applied with (a pass or draw the rules forbid, a lead by
the wrong seat or with the wrong tile, a tile played out of turn, a tile a typed hand says is
elsewhere): the event is reported at its seq with that code, stays an open dispute, and is
applied as played (the turn goes on from the seat that acted); the game then goes on from it
with legal moves only; and a ``void`` of it replays the record as if its line held nothing.
An inapplicable one (a tile that fits no end, a pass out of turn, a play after the round ended)
changes nothing, and the same disputed event again right after it is a ``repeat``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from core_helpers import HAND_A, HAND_B, NAMES, deal, draw, pass_, play, rules_for
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from referee.core.match import Match
from referee.core.position import position
from referee.core.replay import replay
from referee.core.report import build_report
from referee.core.rules import resolve_rules
from referee.core.simulate import random_match
from referee.core.tiles import iter_bits

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32 - 1)

# Where each violation can be injected: (preset, players) with the rules that allow it.
CASES = {
    "renege": [("mano-a-mano", 2), ("parejas", 4), ("veracruz", 3)],
    "must_draw": [("mano-a-mano", 2), ("sircle", 2), ("veracruz", 3)],
    "illegal_draw": [("mano-a-mano", 2), ("sircle", 2), ("veracruz", 2)],
    "wrong_opener": [("mano-a-mano", 2), ("parejas", 4), ("veracruz", 4)],
    "wrong_opening_tile": [("parejas", 4), ({"preset": "mano-a-mano", "later_opening_tile":
                                             "forced"}, 2)],
    "out_of_turn": [("mano-a-mano", 2), ("parejas", 4), ("veracruz", 3), ("puerto-rico", 4)],
    "not_in_hand": [("mano-a-mano", 2), ("parejas", 4), ("veracruz", 3)],
}
PARAMS = [pytest.param(code, spec, players, id=f"{code}-{i}")
          for code, cases in CASES.items() for i, (spec, players) in enumerate(cases)]


def _fitting_plays(match: Match, seat: int, mask: int) -> list[dict[str, Any]]:
    """Plays by ``seat`` of the tiles in ``mask`` that fit an open end, each naming its end."""
    ts, found = match.tiles, []
    for tile in iter_bits(mask & match.playable_mask()):
        for end in sorted({match.left, match.right}):
            if end in (ts.high[tile], ts.low[tile]):
                found.append({"type": "play", "seat": seat, "tile": ts.names[tile], "end": end})
    return found


def _forbidden(match: Match, code: str) -> list[dict[str, Any]]:
    """The events with violation ``code`` a seat could make now (the table did them; the
    referee refuses them), as the match stands (its hands recorded open)."""
    if not match.playing or match.finished:
        return []
    ts, seats, turn = match.tiles, range(match.seats), match.turn
    if match.left is None:  # before the lead
        if code == "wrong_opener":
            return [{"type": "play", "seat": s, "tile": ts.names[t]} for s in seats
                    if not match.may_lead >> s & 1 for t in iter_bits(match.known[s])]
        if code == "wrong_opening_tile" and match.lead_tile is not None:
            return [{"type": "play", "seat": s, "tile": ts.names[t]} for s in seats
                    if match.may_lead >> s & 1
                    for t in iter_bits(match.known[s] & ~(1 << match.lead_tile))]
        return []
    holds = match.known[turn] & match.playable_mask()
    if code == "renege" and holds:
        return [{"type": "pass", "seat": turn}]
    if code == "must_draw" and not holds and match.can_draw():
        return [{"type": "pass", "seat": turn}]
    if code == "illegal_draw" and holds and match.boneyard:
        free = ts.all_mask & ~match.line
        for known in match.known:
            free &= ~known
        return [{"type": "draw", "seat": turn}] + [
            {"type": "draw", "seat": turn, "tile": ts.names[t]} for t in iter_bits(free)]
    if code == "out_of_turn":
        return [e for s in seats if s != turn for e in _fitting_plays(match, s, match.known[s])]
    if code == "not_in_hand":
        others = 0
        for s in seats:
            if s != turn:
                others |= match.known[s]
        return _fitting_plays(match, turn, others)
    return []


def each_injection(test: Any) -> Any:
    """Run ``test(code, spec, players, seed, data)`` for each case of CASES, seeds at random."""
    return pytest.mark.parametrize("code, spec, players", PARAMS)(
        SETTINGS(given(seed=seeds, data=st.data())(test)))


def _match_after(rules: Any, players: int, events: list[Any]) -> Match:
    match = Match(rules, NAMES[:players])
    match.push_all(events)
    return match


def _inject(spec: Any, players: int, seed: int, code: str, data: Any
            ) -> tuple[Any, list[Any], dict[str, Any], int]:
    """A random legal match cut where a seat could commit ``code``, that event disputed, and
    its seq (hypothesis rejects a match with no such moment)."""
    header, events = random_match(spec, NAMES[:players], random.Random(seed), max_rounds=4)
    rules = resolve_rules(header["rules"], players)
    match = Match(rules, NAMES[:players])
    spots = []
    for cut, event in enumerate(events):
        if found := _forbidden(match, code):
            spots.append((cut, found))
        assert match.push(event) is None
    assume(spots)
    cut, found = data.draw(st.sampled_from(spots), label="cut")
    event = {**data.draw(st.sampled_from(found), label="event"), "disputed": True}
    return rules, events[:cut], event, cut + 1


def _go_on(match: Match, rng: random.Random, steps: int = 80) -> list[dict[str, Any]]:
    """Legal moves from where the match stands to the round's end (at most ``steps``): each is
    accepted. Plays, draws and passes as random_match makes them, by the seat on turn."""
    made = []
    ts = match.tiles
    while match.playing and not match.finished and len(made) < steps:
        if match.left is None:
            seat = rng.choice(list(iter_bits(match.may_lead)))
            tiles = ([match.lead_tile] if match.lead_tile is not None
                     else list(iter_bits(match.known[seat])) or [None])
            if tiles == [None]:
                return made  # a lead the record cannot name: nothing to go on with
            event: dict[str, Any] = {"type": "play", "seat": seat, "tile": ts.names[tiles[0]]}
        else:
            seat = match.turn
            plays = _fitting_plays(match, seat, match.known[seat])
            if plays:
                event = rng.choice(plays)
            elif match.can_draw():
                event = {"type": "draw", "seat": seat}
            else:
                event = {"type": "pass", "seat": seat}
        assert match.push(event) is None, (event, position(match).as_dict())
        made.append(event)
    return made


def _as_applied(match: Match, event: dict[str, Any], before: Any) -> None:
    """The disputed event is on the table as the table played it."""
    after = position(match)
    seat = event["seat"]
    if event["type"] == "play":
        assert match.line >> match.tiles.parse(event["tile"]) & 1
        assert after.counts[seat] == before.counts[seat] - 1
        assert not match.playing or match.turn == match.next_seat[seat]
    elif event["type"] == "pass":
        assert after.counts == before.counts and after.line == before.line
        assert not match.playing or match.turn == match.next_seat[seat]
    else:
        assert after.counts[seat] == before.counts[seat] + 1
        assert after.boneyard == before.boneyard - 1 and match.turn == seat


@each_injection
def test_a_disputed_event_is_applied_as_played_and_stays_open(code, spec, players, seed, data):
    rules, before_events, event, seq = _inject(spec, players, seed, code, data)
    before = position(_match_after(rules, players, before_events))
    result = replay(rules, NAMES[:players], [*before_events, event])
    # reported at its seq with its code, an open dispute
    assert [(v.seq, v.code) for v in result.violations] == [(seq, code)]
    report = build_report(result)
    assert [(d["seq"], d["code"], d["ruling"]) for d in report["disputes"]] == [(seq, code, None)]
    assert (seq, code) in [(v["seq"], v["code"]) for v in report["violations"]]
    # applied: the turn goes on from the seat that acted
    _as_applied(result.match, event, before)
    # and the record goes on from it with legal moves only
    match = result.match
    later = _go_on(match, random.Random(seed))
    assert match.push(dict(event)) is not None or later == []  # once applied, never again
    whole = [*before_events, event, *later]
    still = build_report(replay(rules, NAMES[:players], whole))
    assert [(d["seq"], d["code"], d["ruling"]) for d in still["disputes"]
            if d["seq"] == seq] == [(seq, code, None)]


@each_injection
def test_a_void_of_an_applied_disputed_event_replays_the_record_without_it(
        code, spec, players, seed, data):
    rules, before_events, event, seq = _inject(spec, players, seed, code, data)
    match = _match_after(rules, players, [*before_events, event])
    later = _go_on(match, random.Random(seed))
    void = {"type": "void", "target": seq, "reason": "the table misread it"}
    voided = replay(rules, NAMES[:players], [*before_events, event, *later, void])
    # as if its line held nothing: a note in its place (a note changes nothing)
    without = replay(rules, NAMES[:players],
                     [*before_events, {"type": "note", "text": "-"}, *later,
                      {"type": "note", "text": "-"}])
    assert position(voided.match).as_dict() == position(without.match).as_dict()
    assert voided.rounds == without.rounds and voided.match.totals == without.match.totals
    # later events that no longer fit are disputes of their own; the voided one is ruled
    assert [(v.seq, v.code) for v in voided.violations] == [
        (v.seq, v.code) for v in without.violations]
    ruled = [d for d in build_report(voided)["disputes"] if d["seq"] == seq]
    assert [(d["code"], d["ruling"]["type"]) for d in ruled] == [(code, "void")]


@each_injection
def test_the_same_disputed_event_again_is_a_repeat_and_changes_nothing(
        code, spec, players, seed, data):
    rules, before_events, event, seq = _inject(spec, players, seed, code, data)
    once = replay(rules, NAMES[:players], [*before_events, event])
    twice = replay(rules, NAMES[:players], [*before_events, event, dict(event)])
    assert [(v.seq, v.code) for v in twice.violations] == [(seq, code), (seq + 1, "repeat")]
    assert position(twice.match).as_dict() == {**position(once.match).as_dict(), "seq": seq + 1}
    # with anything between them, it is an event of its own again
    apart = replay(rules, NAMES[:players],
                   [*before_events, event, {"type": "note", "text": "again"}, dict(event)])
    assert apart.violation_at(seq + 2) is None or apart.violation_at(seq + 2).code != "repeat"


# ---------------------------------------------------------------------------- examples


def judge(*events: Any, rules: Any = None):
    return replay(rules or rules_for(), NAMES[:2], list(events))


def disputed(event: dict[str, Any]) -> dict[str, Any]:
    return {**event, "disputed": True}


def test_a_disputed_renege_passes_the_turn_and_the_next_seat_plays():
    result = judge(deal(HAND_A, HAND_B), play(0, "6-6"), disputed(pass_(1)), play(0, "6-4"))
    assert [(v.seq, v.code) for v in result.violations] == [(3, "renege")]
    assert position(result.match).line == ("6-6", "6-4") and result.match.turn == 1


@pytest.mark.parametrize("event, code", [
    (play(0, "5-5"), "out_of_turn"),   # and the 5-5 fits no end (6 and 6)
    (play(1, "6-6"), "tile_already_played"),
    (play(1, "4-2"), "no_match"),
    (pass_(0), "out_of_turn"),          # a pass out of turn
    (play(1, "9-9"), "unknown_tile"),
])
def test_a_disputed_event_that_cannot_be_applied_changes_nothing(event, code):
    # after the lead (6-6) it is seat 1's turn; the ends are 6 and 6
    base = [deal(HAND_A, HAND_B), play(0, "6-6")]
    result = judge(*base, disputed(event))
    assert [(v.seq, v.code) for v in result.violations] == [(3, code)]
    assert {**position(result.match).as_dict(), "seq": 2} == position(judge(*base).match).as_dict()


def test_a_disputed_event_after_the_round_ended_is_not_applied():
    # seat 0 opens with a one-tile hand and goes out at once
    rules = rules_for({"preset": "mano-a-mano", "first_opener": "free", "hand_size": 1})
    result = judge(deal(["6-6"], ["5-5"]), play(0, "6-6"), disputed(play(1, "5-5")), rules=rules)
    assert [(v.seq, v.code) for v in result.violations] == [(3, "round_over")]
    assert result.match.count == [0, 1] and not result.match.playing


def test_a_disputed_pass_before_the_lead_passes_the_turn():
    # the opener (6-6) passes instead of leading; the next seat leads: a lead by the wrong seat
    result = judge(deal(HAND_A, HAND_B), disputed(pass_(0)), disputed(play(1, "6-3")),
                   play(0, "6-4"))
    assert [(v.seq, v.code) for v in result.violations] == [(2, "renege"), (3, "wrong_opener")]
    assert position(result.match).line == ("4-6", "6-3") and result.match.turn == 1


def test_a_disputed_draw_before_the_lead_goes_into_the_hand():
    result = judge(deal(HAND_A, HAND_B), disputed(draw(0, "0-0")), play(0, "6-6"))
    assert [(v.seq, v.code) for v in result.violations] == [(2, "illegal_draw")]
    assert result.match.count == [7, 7] and result.match.boneyard == 13
    assert result.match.known[0] & 1 << result.match.tiles.parse("0-0")


def test_a_tile_a_typed_hand_holds_gives_way_to_the_play():
    # seat 1 plays the 6-4 typed in seat 0's hand: seat 0's hand is known no more
    result = judge(deal(HAND_A, HAND_B), play(0, "6-6"), disputed(play(1, "6-4")))
    assert [(v.seq, v.code) for v in result.violations] == [(3, "not_in_hand")]
    match = result.match
    assert not match.hand_known(0) and not match.hand_known(1)
    assert position(match).hands == (None, None) and match.turn == 0
