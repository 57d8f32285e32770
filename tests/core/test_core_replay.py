"""Replays: closed recording and any mix, voids, annul, the report, positions
(design: Closed recording, The match and rulings, The report)."""

import pytest
from core_helpers import (
    BASE,
    HAND_A,
    HAND_B,
    LOCK_PLAYS,
    LOCK_SPEC,
    NAMES,
    PAIRS_DEAL,
    annul,
    codes,
    deal,
    draw,
    judge,
    last_code,
    legal,
    note,
    pass_,
    penalty,
    play,
    reveal,
    round_tuple,
    rules_for,
    void,
)

from referee.core.position import position
from referee.core.replay import positions, replay
from referee.core.report import build_report, error_report

QUICK = {"preset": "mano-a-mano", "hand_size": 2}         # until_playable, 24 undealt
QUICK_NONE = {**QUICK, "draw": "none"}

# closed: seat 0 leads 6-6, seat 1 draws unseen then plays 6-5, seat 0 goes out with 5-4
CLOSED_DOMINO = [deal(), play(0, "6-6"), draw(1), play(1, "6-5"), play(0, "5-4")]
# closed: seat 0 leads 6-6, both pass: blocked by seat 0
CLOSED_BLOCK = [deal(), play(0, "6-6"), pass_(1), pass_(0)]


# ---------------------------------------------------------------------------- closed recording


def test_awaiting_reveal_then_scored():
    result = legal(CLOSED_DOMINO, QUICK)
    r = result.rounds[0]
    assert (r.outcome, r.winner, r.points, r.pips, r.blocked_by) == (
        "awaiting_reveal", None, 0, None, None)
    assert result.match.count == [0, 2]
    result = legal(CLOSED_DOMINO + [reveal(1, "1-1 2-0")], QUICK)
    r = result.rounds[0]
    assert (r.outcome, r.winner, r.points, r.pips) == ("domino", 0, 4, (0, 4))
    assert result.match.totals == [4, 0]


def test_hands_null_is_the_same_as_no_hands():
    events = [{"type": "deal", "hands": None}] + CLOSED_DOMINO[1:] + [reveal(1, "1-1 2-0")]
    assert legal(events, QUICK).rounds == legal(CLOSED_DOMINO + [reveal(1, "1-1 2-0")],
                                                QUICK).rounds


def test_blocked_round_awaits_every_reveal():
    result = legal(CLOSED_BLOCK + [reveal(0, pips=3)], QUICK_NONE)
    r = result.rounds[0]
    assert (r.outcome, r.winner, r.points, r.pips, r.blocked_by) == (
        "awaiting_reveal", None, 0, None, 0)
    result = legal(CLOSED_BLOCK + [reveal(0, pips=3), reveal(1, "1-1 2-0")], QUICK_NONE)
    assert result.rounds[0].pips == (3, 4)
    assert round_tuple(result) == ("blocked", 0, 4)


def test_pips_only_reveal():
    result = legal(CLOSED_DOMINO + [reveal(1, pips=9)], QUICK)
    assert round_tuple(result) == ("domino", 0, 9)
    assert result.rounds[0].pips == (0, 9)


@pytest.mark.parametrize("bad", [
    reveal(1, "1-1"),                 # one tile; the seat holds two
    reveal(1, "1-1 2-0 3-0"),
    reveal(1, "1-1 1-1"),             # the same tile twice
    reveal(1, "1-1 1-1 2-0"),
    reveal(1, "6-6 2-0"),             # on the line
    reveal(1, "5-4 2-0"),
    reveal(1, "1-1 2-0", pips=5),     # tiles and pips disagree
])
def test_reveal_mismatch_closed(bad):
    assert last_code(CLOSED_DOMINO + [bad], QUICK) == ("reveal_mismatch", 1)
    # a mismatch is not applied: the round still awaits the reveal, and a right one scores it
    result = judge(CLOSED_DOMINO + [bad, reveal(1, "1-1 2-0")], QUICK)
    assert codes(result) == [(6, "reveal_mismatch", 1)]
    assert round_tuple(result) == ("domino", 0, 4)


def test_reveal_unknown_tile():
    assert last_code(CLOSED_DOMINO + [reveal(1, "1-1 9-9")], QUICK) == ("unknown_tile", 1)


# mixed: seat 0 open, seat 1 closed
MIXED = deal("6-6 3-3", None)


@pytest.mark.parametrize("events, result", [
    ([play(0, "6-6"), play(1, "3-3")], ("not_in_hand", 1)),        # known in seat 0's hand
    ([play(0, "6-6"), draw(1, "3-3")], ("not_in_hand", 1)),
    ([play(0, "6-6"), play(1, "6-6")], ("tile_already_played", 1)),
    ([play(0, "6-6"), pass_(1)], ("must_draw", 1)),                # whatever the hand held
    ([play(0, "6-6"), draw(1, "6-1"), pass_(1)], ("renege", 1)),   # a fitting tile drawn in sight
    ([play(0, "6-6"), draw(1, "6-1"), draw(1)], ("illegal_draw", 1)),
    ([play(0, "6-6"), draw(1), play(1, "6-1"), pass_(0)], ("must_draw", 0)),
    ([play(0, "6-6"), draw(1), play(1, "6-1"), draw(0, "1-0"), pass_(0)], ("renege", 0)),
    ([play(0, "6-6"), draw(1), play(1, "6-1"), play(0, "3-3")], ("no_match", 0)),
    ([play(0, "6-6"), play(1, "6-1"), play(0, "1-1")], ("not_in_hand", 0)),
])
def test_mixed_recording(events, result):
    assert last_code([MIXED] + events, QUICK) == result


def test_mixed_recording_scores_from_the_open_hand_and_the_reveal():
    events = [MIXED, play(0, "6-6"), play(1, "6-1"), pass_(0), pass_(1)]
    # blocked by seat 1; seat 0's hand is known (3-3): only seat 1 owes a reveal
    result = legal(events, QUICK_NONE)
    assert result.rounds[0].outcome == "awaiting_reveal" and result.rounds[0].blocked_by == 1
    result = legal(events + [reveal(1, pips=0)], QUICK_NONE)
    assert result.rounds[0].pips == (6, 0)
    assert round_tuple(result) == ("blocked", 1, 6)


def test_an_open_hand_that_draws_unseen_owes_a_reveal():
    events = [deal("6-6 6-5", "1-1 2-0"), play(0, "6-6"), draw(1), draw(1), play(1, "6-4"),
              play(0, "6-5")]
    result = legal(events, QUICK)
    assert not result.match.hand_known(1) and result.match.count == [0, 3]
    assert result.rounds[0].outcome == "awaiting_reveal"
    assert last_code(events + [reveal(1, "3-0 4-0 5-0")], QUICK) == ("reveal_mismatch", 1)
    assert round_tuple(legal(events + [reveal(1, "1-1 2-0 3-0")], QUICK)) == ("domino", 0, 7)


def test_reveal_during_a_round_makes_the_hand_known():
    events = [deal(), play(0, "6-6"), reveal(1, "1-1 2-0")]
    assert legal(events, QUICK).match.hand_known(1)
    assert last_code(events + [play(1, "6-5")], QUICK) == ("not_in_hand", 1)
    assert last_code(events + [pass_(1)], QUICK) == ("must_draw", 1)
    assert last_code(events + [reveal(1, "1-1 3-0")], QUICK) == ("reveal_mismatch", 1)


FREE = {**QUICK, "first_opener": "free"}
# seat 0 is closed; seat 1 leads 1-1 and seat 0, holding no 1 it is known of, draws 6-3 in sight
SEEN_DRAW = [deal(None, "1-1 2-0"), play(1, "1-1"), draw(0, "6-3")]


@pytest.mark.parametrize("events, bad, good", [
    # an open hand: the pips must be its total
    ([deal("6-6 3-3", "1-1 2-0")], reveal(0, pips=17), reveal(0, pips=18)),
    ([deal("6-6 3-3", "1-1 2-0")], reveal(0, "6-6 3-2"), reveal(0, "3-3 6-6")),
    # a closed hand with a tile seen drawn: at least that tile's pips, and no leaving it out
    (SEEN_DRAW, reveal(0, pips=8), reveal(0, pips=20)),
    (SEEN_DRAW, reveal(0, "5-0 1-0 4-0"), reveal(0, "6-3 1-0 4-0")),
    # a tile known in another hand
    (SEEN_DRAW, reveal(0, "6-3 2-0 4-0"), reveal(0, "6-3 0-0 4-0")),
])
def test_reveal_against_what_is_known(events, bad, good):
    assert last_code(events + [bad], FREE) == ("reveal_mismatch", 0)
    legal(events + [good], FREE)


def test_a_deal_while_awaiting_reveals():
    spec = {**QUICK, "later_opener": "first_rule"}
    events = CLOSED_DOMINO + [deal()]
    result = legal(events, spec)
    assert [r.outcome for r in result.rounds] == ["awaiting_reveal", "in_progress"]
    assert result.match.totals == [0, 0]
    # the reveal now speaks of the new hand (2 tiles), and the old round scores nothing
    result = legal(events + [reveal(1, "1-1 2-0")], spec)
    assert result.rounds[0].outcome == "awaiting_reveal" and result.match.totals == [0, 0]
    assert result.rounds[0].points == 0 and result.rounds[0].pips is None


def test_annul_of_a_round_awaiting_reveals_is_round_over():
    assert last_code(CLOSED_DOMINO + [annul()], QUICK) == ("round_over", None)


def test_a_round_whose_match_ended_stays_awaiting():
    spec = {**QUICK, "target": 10}
    result = legal(CLOSED_DOMINO + [penalty(1, 10), reveal(1, "1-1 2-0")], spec)
    assert result.match.finished and result.match.winner == 1
    assert result.rounds[0].outcome == "awaiting_reveal" and result.match.totals == [0, 10]


def test_closed_seat_with_no_tiles_left_has_gone_out():
    result = legal([deal(), play(0, "6-6"), play(1, "6-5"), play(0, "5-5")], QUICK)
    assert result.rounds[0].outcome == "awaiting_reveal"
    assert result.match.count == [0, 1]
    # only seat 1 owes a reveal; seat 0 is known to hold nothing
    assert round_tuple(legal([deal(), play(0, "6-6"), play(1, "6-5"), play(0, "5-5"),
                              reveal(1, pips=7)], QUICK)) == ("domino", 0, 7)


@pytest.mark.parametrize("hands, lead, result", [
    # every tile dealt, all closed: any seat may lead, only with the 6-6
    ([None] * 4, play(1, "6-6"), None),
    ([None] * 4, play(3, "5-5"), ("wrong_opening_tile", 3)),
    # seat 0 is open without the 6-6: it may not lead
    ([PAIRS_DEAL[0], None, None, None], play(0, "6-5"), ("wrong_opener", 0)),
    ([PAIRS_DEAL[0], None, None, None], play(2, "6-6"), None),
    ([PAIRS_DEAL[0], None, None, None], play(2, "6-5"), ("not_in_hand", 2)),
    # seat 2 is open with the 6-6: only seat 2
    ([None, None, PAIRS_DEAL[2], None], play(1, "6-6"), ("wrong_opener", 1)),
    ([None, None, PAIRS_DEAL[2], None], play(2, "6-6"), None),
])
def test_double_six_lead_with_every_tile_dealt(hands, lead, result):
    events = [deal(*hands) if any(hands) else deal(), lead]
    if result is None:
        legal(events, "parejas", 4)
    else:
        assert last_code(events, "parejas", 4) == result


@pytest.mark.parametrize("lead", [play(1, "5-5"), play(0, "1-0"), play(3, "6-6")])
def test_double_six_lead_not_checked_with_tiles_left_undealt(lead):
    legal([deal(), lead], {"preset": "parejas", "hand_size": 5}, 4)


def test_highest_double_opener_not_checked_while_a_hand_is_closed():
    legal([deal(HAND_A, None), play(1, "6-3")])  # seat 0 is known to hold the 6-6
    assert last_code([deal(HAND_A, HAND_B), play(1, "6-3")]) == ("wrong_opener", 1)


def test_closed_locked_line_and_block_by_passes():
    result = legal([deal()] + LOCK_PLAYS, LOCK_SPEC)
    assert result.rounds[0].outcome == "awaiting_reveal" and result.rounds[0].blocked_by == 0
    result = legal([deal()] + LOCK_PLAYS + [reveal(0, "2-2"), reveal(1, "0-0 5-5")], LOCK_SPEC)
    assert round_tuple(result) == ("blocked", 0, 10)


def test_closed_and_open_give_the_same_result():
    open_log = [deal("6-6 5-4", "1-1 2-0"), play(0, "6-6"), draw(1, "3-0"), draw(1, "6-5"),
                play(1, "6-5"), play(0, "5-4")]
    closed_log = [deal(), play(0, "6-6"), draw(1), draw(1), play(1, "6-5"), play(0, "5-4"),
                  reveal(1, "1-1 2-0 3-0")]
    a, b = legal(open_log, QUICK), legal(closed_log, QUICK)
    assert a.rounds == b.rounds and a.match.totals == b.match.totals == [7, 0]


# ---------------------------------------------------------------------------- voids


def test_void_strikes_a_violation():
    events = BASE + [play(1, "6-1"), void(5), play(1, "4-2", 4)]
    result = judge(events)
    assert result.valid and result.struck == frozenset({5})
    assert (result.match.left, result.match.right) == (2, 2)


def test_void_of_a_legal_event_makes_later_ones_illegal():
    result = judge(BASE + [void(3)])
    # without 6-2, seat 0's 6-4 goes on the right; seat 0 had just played: out of turn
    assert codes(result) == [(4, "out_of_turn", 0)]
    assert result.struck == frozenset({3})


def test_void_of_a_void_restores():
    events = BASE + [play(1, "6-1"), void(5), void(6)]
    assert codes(judge(events)) == [(5, "no_match", 1)]
    assert judge(events).struck == frozenset({6})
    events.append(void(7))  # strikes the void of the void: 6 strikes 5 again
    result = judge(events)
    assert result.valid and result.struck == frozenset({5, 7})


def test_void_that_targets_no_earlier_event():
    result = judge(BASE + [void(5)])
    assert codes(result) == [(5, "bad_event", None)]
    assert result.struck == frozenset()


def test_void_after_the_match_is_over_can_reopen_it():
    events = BASE + [penalty(0, 50)]
    assert legal(events).match.finished
    result = legal(events + [void(5)])
    assert not result.match.finished and result.match.totals == [0, 0]
    legal(events + [void(5), play(1, "4-2", 4)])


def test_void_of_a_deal():
    result = judge([deal(HAND_A, HAND_B), play(0, "6-6"), void(1)])
    assert codes(result) == [(2, "round_over", 0)]
    assert result.rounds == []


# ---------------------------------------------------------------------------- annul


def test_annul_keeps_the_round_number_and_scores_nothing():
    spec = {**QUICK_NONE}
    events = [deal("6-6 6-5", "1-1 2-2"), play(0, "6-6"), annul(), deal("4-4 3-0", "5-5 2-1")]
    result = legal(events, spec)
    assert [r.as_dict() for r in result.rounds] == [
        {"round": 1, "opener": 0, "outcome": "annulled", "winner": None, "points": 0,
         "pips": None, "blocked_by": None, "scores": [0, 0]},
        {"round": 2, "opener": 1, "outcome": "in_progress", "winner": None, "points": 0,
         "pips": None, "blocked_by": None, "scores": [0, 0]},
    ]
    # round 2 is "round 1" for the opener: the highest double (5-5, seat 1) leads it
    assert last_code(events + [play(0, "4-4")], spec) == ("wrong_opener", 0)
    assert last_code(events + [play(1, "2-1")], spec) == ("wrong_opening_tile", 1)


def test_next_opener_skips_an_annulled_round():
    spec = {**QUICK_NONE}  # later_opener: next
    round_1 = [deal("6-6 6-5", "1-1 2-2"), play(0, "6-6"), pass_(1), play(0, "6-5")]
    round_2 = [deal("4-4 3-0", "5-5 2-1"), play(1, "5-5"), annul()]
    events = round_1 + round_2 + [deal("4-4 3-0", "5-5 2-1")]
    # round 2 (opened by seat 1) never existed: round 3 goes to the seat after round 1's opener
    assert position(legal(events, spec).match).may_lead == (1,)
    assert last_code(events + [play(0, "4-4")], spec) == ("wrong_opener", 0)
    assert [r.outcome for r in legal(events, spec).rounds] == ["domino", "annulled",
                                                              "in_progress"]


def test_annul_only_cancels_a_round_in_progress():
    assert last_code([annul()]) == ("round_over", None)
    done = [deal("6-6 6-5", "1-1 2-2"), play(0, "6-6"), pass_(1), play(0, "6-5")]
    assert last_code(done + [annul()], QUICK_NONE) == ("round_over", None)
    assert last_code(BASE + [penalty(1, 50), annul()]) == ("match_over", None)
    assert last_code(BASE + [annul(), annul()]) == ("round_over", None)


# ---------------------------------------------------------------------------- the report


def test_report_shape():
    events = BASE + [pass_(1), note()]
    result = judge(events)
    report = build_report(result)
    assert list(report) == ["format", "rules", "valid", "violations", "rounds", "totals",
                            "finished", "winner", "suspicions", "disputes"]
    assert report["format"] == "domino-report/1"
    assert report["rules"] == rules_for().as_dict() and "preset" not in report["rules"]
    assert report["valid"] is False
    assert report["violations"] == [{"seq": 5, "code": "renege", "certainty": "proven",
                                     "seat": 1, "message": report["violations"][0]["message"]}]
    assert "4-2" in report["violations"][0]["message"]
    assert report["rounds"] == [{"round": 1, "opener": 0, "outcome": "in_progress",
                                 "winner": None, "points": 0, "pips": None, "blocked_by": None,
                                 "scores": [0, 0]}]
    assert report["totals"] == [0, 0] and report["finished"] is False and report["winner"] is None


def test_report_of_an_awaiting_block():
    report = build_report(legal(CLOSED_BLOCK, QUICK_NONE))
    assert report["valid"] is True
    assert report["rounds"][0]["outcome"] == "awaiting_reveal"
    assert report["rounds"][0]["pips"] is None and report["rounds"][0]["blocked_by"] == 0


def test_error_report():
    assert error_report("x.jsonl", 3, "not JSON") == {
        "format": "domino-report/1", "file": "x.jsonl",
        "error": {"line": 3, "message": "not JSON"}}


def test_positions_follow_the_record_as_it_stood():
    events = BASE + [play(1, "6-1"), void(5)]
    steps = [(seq, v and v.code) for seq, _, v in positions(rules_for(), NAMES[:2], events)]
    assert steps == [(1, None), (2, None), (3, None), (4, None), (5, "no_match"), (6, None)]
    assert replay(rules_for(), NAMES[:2], events).valid


def test_position_names_the_seats_that_owe_a_reveal():
    from referee import position
    from referee.core.log import make_log
    from referee.core.replay import replay as run
    header = {"format": "domino-log/1", "rules": {"preset": "mano-a-mano", "hand_size": 1},
              "players": ["a", "b"]}
    events = [{"type": "deal"}, {"type": "play", "seat": 0, "tile": "6-6"}]
    log = make_log(header, events)
    match = run(log.header.rules, log.header.players, log.events).match
    assert position(match).owes_reveal == (1,)
    match.push({"type": "reveal", "seat": 1, "pips": 3})
    assert position(match).owes_reveal == ()


def test_violation_at_names_one_events_violation():
    from referee.core.log import make_log
    from referee.core.replay import replay as run
    header = {"format": "domino-log/1", "rules": "mano-a-mano", "players": ["a", "b"]}
    log = make_log(header, [{"type": "pass", "seat": 0}, {"type": "note", "text": "x"}])
    result = run(log.header.rules, log.header.players, log.events)
    assert result.violation_at(1).code == "round_over"
    assert result.violation_at(2) is None


@pytest.mark.parametrize("preset, seats", [("mano-a-mano", 2), ("parejas", 4), ("veracruz", 3),
                                           ("sircle", 2), ("puerto-rico", 4),
                                           ("fives-and-threes", 2), ("all-fives", 3),
                                           ("muggins", 4)])
def test_a_rounds_report_line_is_its_results(preset, seats):
    """The report's rounds are each round's own line (Round.as_dict), made without a
    RoundResult between: for random records of both families, open, closed and changed
    (rounds annulled, awaiting reveals, scored at once, unfinished), each line is its
    RoundResult's, and a copy (changing it changes neither the round nor the next line)."""
    import random

    from core_helpers import mutate

    from referee.core.rules import resolve_rules
    from referee.core.simulate import random_match

    rng = random.Random(f"{preset}-{seats}")
    names, rules = NAMES[:seats], resolve_rules(preset, seats)
    for i in range(24):
        hidden = (tuple(range(seats)), (0,), ())[i % 3]
        _, events = random_match(preset, names, rng, hidden=hidden, max_rounds=6)
        if i % 2:
            events = mutate(events, rng)
        match = replay(rules, names, events).match
        lines = [r.as_dict() for r in match.rounds]
        assert lines == [r.as_dict() for r in match.results()]
        for line in lines:
            line["scores"].append(99)
            for entry in line.get("scored", ()):
                entry["points"] = -1
        assert [r.as_dict() for r in match.rounds] == [r.as_dict() for r in match.results()]
