"""Event shapes: what makes a JSON value a usable event (design: Edge cases, bad_event)."""

import pytest
from core_helpers import HAND_A, HAND_B, codes, deal, judge, legal, play, rules_for

from referee.core.events import EVENT_TYPES, RULINGS, VIOLATION_CODES, Violation, shape_error

RULES2 = rules_for("mano-a-mano", 2)
RULES4 = rules_for("parejas", 4)


def test_violation_codes_are_the_contract():
    # extend, never rename: every code the design names is there, in its order
    assert VIOLATION_CODES[:15] == (
        "bad_event", "unknown_tile", "tile_already_played", "not_in_hand", "out_of_turn",
        "no_match", "ambiguous_end", "wrong_opener", "wrong_opening_tile", "renege",
        "illegal_draw", "must_draw", "round_over", "match_over", "reveal_mismatch")


def test_event_types():
    assert set(EVENT_TYPES) == {"deal", "play", "draw", "pass", "reveal", "penalty", "void",
                                "annul", "forfeit", "note", "stands", "amend", "abandon", "time"}
    assert set(RULINGS) == {"penalty", "void", "annul", "forfeit", "stands", "amend"}


def test_violation_as_dict():
    v = Violation(17, "renege", 2, "passed holding 6-5")
    assert v.as_dict() == {"seq": 17, "code": "renege", "certainty": "proven", "seat": 2,
                           "message": "passed holding 6-5"}


GOOD = [
    {"type": "deal"},
    {"type": "deal", "hands": None},
    {"type": "deal", "hands": [["6-6"], None]},  # sizes are judged later, not by the shape
    {"type": "play", "seat": 1, "tile": "6-5"},
    {"type": "play", "seat": 1, "tile": "6-5", "end": 5},
    {"type": "play", "seat": 1, "tile": "6-5", "end": "left"},
    {"type": "play", "seat": 1, "tile": "6-5", "end": "right"},
    {"type": "play", "seat": 1, "tile": "6-5", "end": None},
    {"type": "play", "seat": 1, "tile": "zz"},  # a string: unknown_tile, not bad_event
    {"type": "draw", "seat": 0},
    {"type": "draw", "seat": 0, "tile": "1-1"},
    {"type": "draw", "seat": 0, "tile": None},
    {"type": "pass", "seat": 1},
    {"type": "reveal", "seat": 0, "tiles": []},
    {"type": "reveal", "seat": 0, "pips": 0},
    {"type": "reveal", "seat": 0, "tiles": ["6-6"], "pips": 12},
    {"type": "penalty", "side": 1, "points": -5, "reason": "talking"},
    {"type": "penalty", "side": 1, "points": -100_000, "reason": "the limit"},
    {"type": "penalty", "side": 1, "points": 100_000, "reason": "the limit"},
    {"type": "void", "target": 1, "reason": "typo"},
    {"type": "annul", "reason": "misdeal"},
    {"type": "forfeit", "side": 0, "reason": "left"},
    {"type": "note", "text": ""},
    {"type": "note", "text": "hi", "seq": 2},
    # null in an optional field is the field left out (docs/log.md)
    {"type": "penalty", "side": 1, "points": 5, "reason": "talking", "target": None},
    {"type": "annul", "reason": "misdeal", "target": None},
    {"type": "forfeit", "side": 0, "reason": "left", "target": None},
]


@pytest.mark.parametrize("event", GOOD)
def test_usable_events(event):
    assert shape_error(event, RULES2, 2) is None


BAD = [
    ["not", "an", "object"],
    "deal",
    17,
    None,
    {},
    {"type": "shuffle"},
    {"type": 3},
    {"type": None},
    {"type": "note", "text": "x", "seq": 3},      # not its position (2)
    {"type": "note", "text": "x", "seq": "2"},
    {"type": "note", "text": "x", "seq": True},
    {"type": "note"},                              # text is required
    {"type": "note", "text": 5},
    {"type": "deal", "hands": "6-6 5-5"},
    {"type": "deal", "hands": [["6-6", 55], None]},
    {"type": "deal", "hands": [[66], None]},
    {"type": "deal", "hands": ["6-6", None]},
    {"type": "play", "tile": "6-5"},
    {"type": "play", "seat": 2, "tile": "6-5"},    # out of range for 2 seats
    {"type": "play", "seat": -1, "tile": "6-5"},
    {"type": "play", "seat": "0", "tile": "6-5"},
    {"type": "play", "seat": True, "tile": "6-5"},
    {"type": "play", "seat": 0.0, "tile": "6-5"},
    {"type": "play", "seat": 0},
    {"type": "play", "seat": 0, "tile": 65},
    {"type": "play", "seat": 0, "tile": ["6", "5"]},
    {"type": "play", "seat": 0, "tile": "6-5", "end": "middle"},
    {"type": "play", "seat": 0, "tile": "6-5", "end": 5.0},
    {"type": "play", "seat": 0, "tile": "6-5", "end": True},
    {"type": "draw"},
    {"type": "draw", "seat": 0, "tile": 11},
    {"type": "pass"},
    {"type": "pass", "seat": 7},
    {"type": "reveal", "seat": 0},
    {"type": "reveal", "seat": 0, "tiles": "6-6"},
    {"type": "reveal", "seat": 0, "tiles": [66]},
    {"type": "reveal", "seat": 0, "pips": -1},
    {"type": "reveal", "seat": 0, "pips": "12"},
    {"type": "reveal", "tiles": []},
    {"type": "penalty", "side": 2, "points": 5, "reason": "x"},
    {"type": "penalty", "side": 0, "points": "5", "reason": "x"},
    {"type": "penalty", "side": 0, "points": 5},
    {"type": "penalty", "side": 0, "points": 100_001, "reason": "x"},   # a score's limit
    {"type": "penalty", "side": 0, "points": -100_001, "reason": "x"},
    {"type": "penalty", "side": 0, "points": 10**4000, "reason": "x"},
    {"type": "penalty", "side": 0, "reason": "x"},
    {"type": "void", "target": 2, "reason": "x"},  # itself: not an earlier event
    {"type": "void", "target": 0, "reason": "x"},  # the header is no event
    {"type": "void", "target": 9, "reason": "x"},
    {"type": "void", "target": 1},
    {"type": "void", "target": "1", "reason": "x"},
    {"type": "annul"},
    {"type": "annul", "reason": None},
    {"type": "forfeit", "side": 0},
    {"type": "forfeit", "side": 5, "reason": "x"},
]


@pytest.mark.parametrize("event", BAD, ids=lambda e: repr(e)[:60])
def test_unusable_events(event):
    assert isinstance(shape_error(event, RULES2, 2), str)


@pytest.mark.parametrize("event", BAD, ids=lambda e: repr(e)[:60])
def test_the_referee_reports_unusable_events_as_bad_event(event):
    # the same judgement through Match.push (which has a fast path for plays) at seq 2; the
    # violation names the acting seat of a seat's own event when that seat exists
    seat = event.get("seat") if isinstance(event, dict) else None
    acting = seat if event_type(event) in ("play", "draw", "pass", "reveal") and seat in (0, 1) \
        and type(seat) is int else None
    assert codes(judge([deal(HAND_A, HAND_B), event])) == [(2, "bad_event", acting)]


def event_type(event):
    return event.get("type") if isinstance(event, dict) else None


def test_side_range_follows_partnerships():
    # four seats in partnerships are two sides; without partnerships, four sides
    assert shape_error({"type": "penalty", "side": 2, "points": 1, "reason": "x"}, RULES4, 1)
    rules = rules_for("veracruz", 4)
    assert shape_error({"type": "penalty", "side": 3, "points": 1, "reason": "x"}, rules, 1) is None
    assert shape_error({"type": "play", "seat": 3, "tile": "1-1"}, RULES4, 1) is None


def test_bad_event_names_the_acting_seat_and_is_ignored():
    events = [deal(HAND_A, HAND_B),
              {"type": "play", "seat": 0, "tile": "6-6", "end": "middle"},
              play(0, "6-6")]
    result = judge(events)
    assert codes(result) == [(2, "bad_event", 0)]
    assert result.violations[0].certainty == "proven"
    assert result.match.left == 6  # the bad event was ignored; the later lead applied


def test_seq_field_must_equal_position():
    good = legal([{**deal(HAND_A, HAND_B), "seq": 1}, {**play(0, "6-6"), "seq": 2}])
    assert good.match.seq == 2
    assert codes(judge([deal(HAND_A, HAND_B), {**play(0, "6-6"), "seq": 1}])) == [
        (2, "bad_event", 0)]


# docs/log.md: "null in an optional field is the same as leaving the field out". The optional
# target of penalty, annul and forfeit, and time's reason, were bad_event when null (found by
# fuzzing logs). (seq is the reading's exception: docs/readings.md, tests/core/test_readings.py.)
NULLS = [
    ([deal(HAND_A, HAND_B), {"type": "penalty", "side": 1, "points": 5, "reason": "x",
                             "target": None}], "mano-a-mano"),
    ([deal(HAND_A, HAND_B), {"type": "annul", "reason": "misdeal", "target": None}], "mano-a-mano"),
    ([deal(HAND_A, HAND_B), {"type": "forfeit", "side": 0, "reason": "left", "target": None}],
     "mano-a-mano"),
    ([deal(HAND_A, HAND_B), {"type": "time", "reason": None}],
     {"preset": "mano-a-mano", "time_limit": 30}),
]


@pytest.mark.parametrize("events, spec", NULLS, ids=lambda v: repr(v)[-40:])
def test_null_in_an_optional_field_is_the_field_left_out(events, spec):
    from referee.core.report import build_report

    absent = [{k: v for k, v in e.items() if v is not None} for e in events]
    assert build_report(legal(events, spec)) == build_report(legal(absent, spec))


def test_a_penalty_with_a_null_target_is_no_ruling_after_the_end():
    # as without a target: after the match ended it is match_over, not a ruling on a dispute
    over = [deal(HAND_A, HAND_B), {"type": "forfeit", "side": 0, "reason": "left"}]
    for penalty in ({"type": "penalty", "side": 1, "points": 5, "reason": "x"},
                    {"type": "penalty", "side": 1, "points": 5, "reason": "x", "target": None}):
        assert codes(judge(over + [penalty])) == [(3, "match_over", None)]


def test_a_penalty_taking_a_total_past_its_limit_is_a_bad_event():
    """A side's total is from -1,000,000 to 1,000,000 (docs/readings.md): thousands of
    penalties naming an event, accepted after the end, or negative ones, made totals a month's
    standings could not sum in PostgreSQL's integers (an HTTP 500 on the fifth such import)."""
    down = {"type": "penalty", "side": 1, "points": -100_000, "reason": "x"}
    result = judge([down] * 11)
    assert codes(result) == [(11, "bad_event", None)]
    assert result.violations[0].message == ("a side's total may be from -1000000 to 1000000: "
                                            "this penalty would make it -1100000")
    assert result.match.totals == [0, -1_000_000]
    # after the end, a penalty naming an event still adds its points, up to the limit
    won = judge([{"type": "penalty", "side": 0, "points": 100_000, "reason": "x"}]
                + [{"type": "penalty", "side": 0, "points": 100_000, "reason": "x", "target": 1}] * 10)
    assert codes(won) == [(11, "bad_event", None)] and won.match.totals == [1_000_000, 0]


def test_an_amended_deal_is_shown_as_the_table_saw_it():
    from referee.core.events import as_table_saw_it

    deal = {"type": "deal", "hands": [["6-6"], ["6-5"]]}
    amend = {"type": "amend", "target": 1, "event": deal, "reason": "typo"}
    assert as_table_saw_it(amend)["event"] == {"type": "deal"}
    note = {"type": "amend", "target": 1, "event": {"type": "note", "text": "x"}, "reason": "y"}
    assert as_table_saw_it(note) is note
