"""The referee in open recording: every violation code, the order checks run in, turns, placing,
drawing, blocks, and the effect of each play rule (draw, reserve, openers, max_pip).

Most logs start from BASE (mano-a-mano, seat 0 holds the 6-6): after it the ends are 4 and 2 and
seat 1 is to play, holding 6-3 6-1 4-2 3-1 2-2 1-0.
"""

import pytest
from core_helpers import (
    BASE,
    HAND_A,
    HAND_B,
    LOCK_A,
    LOCK_B,
    LOCK_PLAYS,
    LOCK_SPEC,
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
)

from referee.core.position import position

# ---------------------------------------------------------------------------- each code


@pytest.mark.parametrize("event, code, seat", [
    ({"type": "play", "seat": 1, "tile": 42}, "bad_event", 1),
    (play(1, "7-7"), "unknown_tile", 1),
    (play(1, "x"), "unknown_tile", 1),
    (play(1, "6-6"), "tile_already_played", 1),
    (play(1, "5-5"), "not_in_hand", 1),        # in seat 0's hand
    (play(1, "6-5"), "not_in_hand", 1),        # in the boneyard
    (play(0, "4-4"), "out_of_turn", 0),
    (draw(0), "out_of_turn", 0),
    (pass_(0), "out_of_turn", 0),
    (play(1, "6-1"), "no_match", 1),
    (play(1, "1-0", "left"), "no_match", 1),
    (play(1, "4-2", 3), "no_match", 1),        # 3 is no open end
    (play(1, "2-2", 4), "no_match", 1),        # 4 is an open end the tile does not fit
    (play(1, "4-2"), "ambiguous_end", 1),
    (pass_(1), "renege", 1),
    (draw(1), "illegal_draw", 1),
    (draw(1, "6-5"), "illegal_draw", 1),
])
def test_codes_after_base(event, code, seat):
    assert last_code(BASE + [event]) == (code, seat)


@pytest.mark.parametrize("end, ends", [
    (4, (2, 2)), ("left", (2, 2)), (2, (4, 4)), ("right", (4, 4)),
])
def test_end_picks_the_side(end, ends):
    match = legal(BASE + [play(1, "4-2", end)]).match
    assert (match.left, match.right) == ends


def test_wrong_opener_and_wrong_opening_tile():
    d = deal(HAND_A, HAND_B)
    assert last_code([d, play(1, "6-3")]) == ("wrong_opener", 1)
    assert last_code([d, play(0, "5-5")]) == ("wrong_opening_tile", 0)
    assert last_code([d, play(0, "6-5")]) == ("not_in_hand", 0)  # not_in_hand comes first
    assert last_code([d, play(1, "5-5")]) == ("wrong_opener", 1)  # whose turn before the tile
    assert last_code([d, pass_(1)]) == ("out_of_turn", 1)
    assert last_code([d, draw(1)]) == ("out_of_turn", 1)
    assert last_code([d, pass_(0)]) == ("renege", 0)  # the opener holds a tile he may lead
    assert last_code([d, draw(0)]) == ("illegal_draw", 0)


def test_round_over_and_match_over():
    assert last_code([play(0, "6-6")]) == ("round_over", 0)
    assert last_code([draw(0)]) == ("round_over", 0)
    assert last_code([pass_(1)]) == ("round_over", 1)
    assert last_code([annul()]) == ("round_over", None)
    assert last_code([reveal(0, pips=3)]) == ("round_over", 0)
    over = BASE + [penalty(0, 50)]
    for event, seat in [(play(1, "4-2", 4), 1), (draw(1), 1), (pass_(1), 1), (deal(), None),
                        (penalty(1, 3), None), (annul(), None),
                        ({"type": "forfeit", "side": 1, "reason": "x"}, None)]:
        assert last_code(over + [event]) == ("match_over", seat), event
    # note, reveal and void are still accepted once the match is over
    legal(over + [note(), reveal(1, "6-3 6-1 4-2 3-1 2-2 1-0"),
                  {"type": "void", "target": 5, "reason": "wrong"}])


# ---------------------------------------------------------------------------- check order


@pytest.mark.parametrize("prefix, event, code, seat", [
    # a play: match_over before round_over before unknown_tile before the turn before the rest
    (BASE + [penalty(0, 50)], play(1, "9-9"), "match_over", 1),
    ([], play(0, "9-9"), "round_over", 0),
    (BASE, play(0, "9-9"), "unknown_tile", 0),             # tile before turn
    (BASE, play(0, "6-6"), "out_of_turn", 0),              # turn before tile_already_played
    (BASE, play(0, "5-5", 7), "out_of_turn", 0),
    (BASE, play(1, "6-6", 4), "tile_already_played", 1),   # before no_match
    (BASE, play(1, "5-5", 4), "not_in_hand", 1),
    ([deal(HAND_A, HAND_B)], play(1, "9-9"), "unknown_tile", 1),
    # a draw: illegal_draw before where the drawn tile is
    (BASE, draw(1, "6-6"), "illegal_draw", 1),
    (BASE, draw(0, "6-6"), "out_of_turn", 0),
    (BASE, draw(0, "6-9"), "unknown_tile", 0),
    ([], draw(0, "6-9"), "round_over", 0),
    # a deal: match_over, then a round in progress (bad_event), then unknown tiles, then the rest
    (BASE + [penalty(1, 60)], deal(["9-9"], None), "match_over", None),
    (BASE, deal(["9-9"] * 7, HAND_B), "bad_event", None),
    ([], deal(["9-9"], HAND_A, HAND_B), "unknown_tile", None),
    ([], deal(HAND_A, HAND_B, None), "bad_event", None),
    ([], deal(HAND_A), "bad_event", None),
    ([], deal(HAND_A[:6], HAND_B), "bad_event", None),
    ([], deal(HAND_A, HAND_A), "bad_event", None),
    ([], deal(HAND_A[:6] + ["4-6"], HAND_B), "bad_event", None),  # 6-4 and 4-6 in one hand
])
def test_check_order(prefix, event, code, seat):
    assert last_code(prefix + [event]) == (code, seat)


def test_draw_under_draw_none_with_the_tile_on_the_line_is_illegal_draw():
    spec = {"preset": "mano-a-mano", "draw": "none"}
    events = [deal("6-6 0-0", "2-2 1-1"), play(0, "6-6"), draw(1, "6-6")]
    assert last_code(events, {**spec, "hand_size": 2}) == ("illegal_draw", 1)


def test_renege_before_must_draw():
    # seat 1 holds 4-2 and the boneyard is full: passing is renege, not must_draw
    assert last_code(BASE + [pass_(1)]) == ("renege", 1)


def test_a_violation_is_not_applied():
    result = judge(BASE + [play(1, "6-1"), play(1, "2-2"), play(0, "2-0")])
    assert codes(result) == [(5, "no_match", 1)]
    match = result.match
    assert (match.left, match.right) == (4, 0)
    assert match.count == [4, 5]


# ---------------------------------------------------------------------------- turns and placing


def test_draw_does_not_end_the_turn():
    spec = {"preset": "mano-a-mano", "hand_size": 2}
    events = [deal("6-6 0-0", "2-2 1-1"), play(0, "6-6"), draw(1, "5-0"), draw(1, "6-5")]
    assert last_code(events + [play(0, "0-0")], spec) == ("out_of_turn", 0)
    match = legal(events + [play(1, "6-5")], spec).match
    assert match.turn == 0 and match.count == [1, 3] and match.boneyard == 22


def test_the_lead_lies_as_written_and_end_is_ignored():
    match = legal([deal(HAND_A, HAND_B), play(0, "6-6", 3)]).match
    assert (match.left, match.right) == (6, 6)
    spec = {"preset": "mano-a-mano", "first_opener": "free"}
    match = legal([deal(HAND_A, HAND_B), play(1, "2-6")], spec).match
    assert (match.left, match.right) == (2, 6)
    # left and right stay with those physical ends
    match = legal([deal(HAND_A, HAND_B), play(1, "2-6"), play(0, "2-0", "left"),
                   play(1, "6-3", "right")], spec).match
    assert (match.left, match.right) == (0, 3)
    assert [p[0] for p in match.placed] == ["lead", "L", "R"]


def test_equal_ends_go_on_the_right():
    match = legal(BASE[:2] + [play(1, "6-3")]).match
    assert (match.left, match.right) == (6, 3)


# ---------------------------------------------------------------------------- blocks


def test_locked_line_blocks_at_once():
    result = legal([deal(LOCK_A, LOCK_B)] + LOCK_PLAYS, LOCK_SPEC)
    r = result.rounds[0]
    assert (r.outcome, r.blocked_by, r.winner, r.points, r.pips) == ("blocked", 0, 0, 10, (4, 10))
    # nothing may be played any more
    assert last_code([deal(LOCK_A, LOCK_B)] + LOCK_PLAYS + [pass_(1)], LOCK_SPEC) == (
        "round_over", 1)


def test_domino_takes_precedence_over_the_lock():
    hand_b = [t for t in LOCK_B if t != "0-0"]
    result = legal([deal(LOCK_A[:-1], hand_b)] + LOCK_PLAYS, {**LOCK_SPEC, "hand_size": 6})
    assert round_tuple(result) == ("domino", 0, 10)
    assert result.rounds[0].blocked_by is None


def test_equal_ends_without_every_tile_do_not_block():
    result = legal([deal(LOCK_A, LOCK_B)] + LOCK_PLAYS[:1], LOCK_SPEC)
    assert result.match.playing and result.rounds[0].outcome == "in_progress"


def test_block_by_passes_needs_every_seat_to_pass():
    spec = {"preset": "mano-a-mano", "draw": "none", "hand_size": 2}
    events = [deal("6-6 0-0", "2-2 1-1"), play(0, "6-6"), pass_(1)]
    assert legal(events, spec).match.playing
    result = legal(events + [pass_(0)], spec)
    r = result.rounds[0]
    assert (r.outcome, r.blocked_by, r.pips, r.winner, r.points) == ("blocked", 0, (0, 6), 0, 6)


def test_passes_do_not_block_while_a_draw_remains_under_draw_one():
    spec = {"preset": "veracruz", "hand_size": 2}
    events = [deal("6-6 0-0", "2-2 1-1"), play(0, "6-6"), draw(1, "1-0"), pass_(1),
              draw(0, "2-0"), pass_(0), draw(1, "3-0"), pass_(1)]
    result = legal(events, spec, 2)
    assert result.match.playing and result.match.passes == 3


# ---------------------------------------------------------------------------- draw and reserve

MINI = deal("6-6 0-0", "2-2 1-1")  # seat 0 leads 6-6; seat 1 has no 6


def _mini(spec, *events):
    return [MINI, play(0, "6-6"), *events], {**spec, "hand_size": 2}


@pytest.mark.parametrize("spec, events, code, seat", [
    # draw: none
    ({"preset": "mano-a-mano", "draw": "none"}, [draw(1)], "illegal_draw", 1),
    # draw: until_playable
    ({"preset": "mano-a-mano"}, [pass_(1)], "must_draw", 1),
    ({"preset": "mano-a-mano"}, [draw(1, "6-5"), pass_(1)], "renege", 1),
    ({"preset": "mano-a-mano"}, [draw(1, "6-5"), draw(1)], "illegal_draw", 1),
    ({"preset": "mano-a-mano"}, [draw(1, "5-0"), pass_(1)], "must_draw", 1),
    ({"preset": "mano-a-mano"}, [draw(1, "6-6")], "tile_already_played", 1),
    ({"preset": "mano-a-mano"}, [draw(1, "0-0")], "not_in_hand", 1),
    ({"preset": "mano-a-mano"}, [draw(1, "1-1")], "not_in_hand", 1),
    ({"preset": "mano-a-mano"}, [draw(1, "5-0"), play(1, "5-0")], "no_match", 1),
    # draw: one
    ({"preset": "veracruz"}, [draw(1, "5-0"), draw(1, "4-0")], "illegal_draw", 1),
    ({"preset": "veracruz"}, [draw(1, "6-5"), pass_(1)], "renege", 1),
    ({"preset": "veracruz"}, [pass_(1)], "must_draw", 1),
    ({"preset": "veracruz"}, [draw(1, "5-0"), pass_(1), pass_(0)], "must_draw", 0),
    # reserve: 23 of the 24 undealt tiles must stay
    ({"preset": "sircle", "reserve": 23}, [pass_(1)], "must_draw", 1),
    ({"preset": "sircle", "reserve": 23}, [draw(1, "5-0"), draw(1)], "illegal_draw", 1),
    ({"preset": "sircle", "reserve": 23}, [draw(1), draw(1)], "illegal_draw", 1),
])
def test_draw_rules(spec, events, code, seat):
    log, spec = _mini(spec, *events)
    assert last_code(log, spec) == (code, seat)


@pytest.mark.parametrize("spec, events", [
    ({"preset": "mano-a-mano", "draw": "none"}, [pass_(1)]),
    ({"preset": "mano-a-mano"}, [draw(1, "5-0"), draw(1, "4-0"), draw(1, "6-5"), play(1, "6-5")]),
    ({"preset": "mano-a-mano"}, [draw(1), draw(1)]),  # unseen draws: the hand is no longer known
    ({"preset": "veracruz"}, [draw(1, "5-0"), pass_(1)]),
    ({"preset": "veracruz"}, [draw(1, "6-5"), play(1, "6-5")]),
    ({"preset": "sircle", "reserve": 23}, [draw(1, "5-0"), pass_(1)]),
])
def test_draw_rules_allow(spec, events):
    log, spec = _mini(spec, *events)
    legal(log, spec)


def test_reserve_stops_drawing_and_lets_the_round_block():
    log, spec = _mini({"preset": "sircle", "reserve": 23}, draw(1, "5-0"), pass_(1), pass_(0))
    result = legal(log, spec)
    assert result.match.boneyard == 23
    r = result.rounds[0]
    assert (r.outcome, r.blocked_by, r.pips) == ("blocked", 0, (0, 11))


# ---------------------------------------------------------------------------- first opener


def _opening(match):
    """The seats that may lead the round, and the tile the lead must be (None: any)."""
    seats = list(position(match).may_lead)  # as the match's state shows them
    return seats, match.tiles.names[match.lead_tile] if match.lead_tile is not None else None


def _leads(spec, hands, players=2):
    return _opening(legal([deal(*hands)], spec, players).match)


def test_double_six_with_every_tile_dealt():
    assert _leads("parejas", PAIRS_DEAL, 4) == ([2], "6-6")
    d = deal(*PAIRS_DEAL)
    assert last_code([d, play(0, "6-5")], "parejas", 4) == ("wrong_opener", 0)
    assert last_code([d, play(2, "4-4")], "parejas", 4) == ("wrong_opening_tile", 2)
    assert legal([d, play(2, "6-6")], "parejas", 4).rounds[0].opener == 2


def test_double_six_when_nobody_holds_it_is_highest_double():
    spec = {"preset": "veracruz", "first_opener": "double_six"}
    assert _leads(spec, [PAIRS_DEAL[0], PAIRS_DEAL[1]]) == ([1], "5-5")
    assert _leads(spec, [PAIRS_DEAL[2], PAIRS_DEAL[1]]) == ([0], "6-6")


def test_highest_double():
    assert _leads("mano-a-mano", [HAND_B, HAND_A]) == ([1], "6-6")
    assert _leads("veracruz", [PAIRS_DEAL[1], PAIRS_DEAL[3], "6-5 6-4 6-3 6-2 6-1 6-0 4-0"], 3) == (
        [0], "5-5")


def test_no_double_dealt_leads_the_heaviest_tile():
    spec = {"preset": "mano-a-mano", "hand_size": 2}
    assert _leads(spec, ["5-4 1-0", "6-3 2-1"]) == ([1], "6-3")  # 6-3 beats 5-4
    assert _leads(spec, ["5-4 1-0", "6-2 2-1"]) == ([0], "5-4")
    assert last_code([deal("5-4 1-0", "6-3 2-1"), play(0, "5-4")], spec) == ("wrong_opener", 0)


def test_free_opener():
    spec = {"preset": "mano-a-mano", "first_opener": "free"}
    assert _leads(spec, [HAND_A, HAND_B]) == ([0, 1], None)
    result = legal([deal(HAND_A, HAND_B), play(1, "1-0")], spec)
    assert result.rounds[0].opener == 1 and result.match.turn == 0


# ---------------------------------------------------------------------------- later openers

QUICK = {"hand_size": 2, "draw": "none"}
# round 1: seat 0 leads 6-6, seat 1 passes, seat 0 goes out with 6-5 (a domino)
DOMINO_0 = [deal("6-6 6-5", "1-1 2-2"), play(0, "6-6"), pass_(1), play(0, "6-5")]
# round 1: seat 0 leads 6-6, both pass: blocked by seat 0, who wins (0 pips against 6)
BLOCK_0_WINS = [deal("6-6 0-0", "1-1 2-2"), play(0, "6-6"), pass_(1), pass_(0)]
# the same but seat 1 wins the block (2 pips against 10)
BLOCK_1_WINS = [deal("6-6 5-5", "1-1 0-0"), play(0, "6-6"), pass_(1), pass_(0)]
HIGH_1 = ("4-4 3-0", "5-5 2-1")  # round 2 deals: seat 1 holds the highest double
HIGH_0 = ("5-5 2-1", "4-4 3-0")  # ... seat 0 does


@pytest.mark.parametrize("later, round_1, hands_2, opener", [
    ("first_rule", DOMINO_0, HIGH_1, 1),
    ("first_rule", DOMINO_0, HIGH_0, 0),
    ("next", DOMINO_0, HIGH_0, 1),
    ("next", BLOCK_1_WINS, HIGH_0, 1),
    ("winner", DOMINO_0, HIGH_1, 0),
    ("winner", BLOCK_0_WINS, HIGH_1, 0),
    ("winner", BLOCK_1_WINS, HIGH_0, 1),
    ("puerto_rico", DOMINO_0, HIGH_1, 0),
    ("puerto_rico", BLOCK_0_WINS, HIGH_1, 0),
    ("puerto_rico", BLOCK_1_WINS, HIGH_0, 1),  # the blocker's side lost: the seat after him
])
def test_later_opener_two_seats(later, round_1, hands_2, opener):
    spec = {"preset": "mano-a-mano", **QUICK, "later_opener": later}
    events = round_1 + [deal(*hands_2)]
    assert _opening(legal(events, spec).match)[0] == [opener]
    other = 1 - opener
    assert last_code(events + [play(other, hands_2[other][:3])], spec) == ("wrong_opener", other)


PR_ROUND_2 = deal("0-0 1-0", "2-0 2-1", "3-0 3-1", "4-0 4-1")


def _pr(hands, later, tie="none", opener=0):
    """Four seats in partnerships: ``opener`` leads 6-6, the next seat plays 6-5 and everyone
    passes (no 6 or 5 is left in any hand): blocked by the seat after the opener. Returns round
    1's winning side and who may open round 2."""
    spec = {"preset": "puerto-rico", **QUICK, "later_opener": later, "blocked_tie": tie}
    seats = [(opener + i) % 4 for i in range(6)]
    events = [deal(*hands), play(seats[0], "6-6"), play(seats[1], "6-5")]
    events += [pass_(seats[(2 + i) % 4]) for i in range(4)]
    match = legal(events + [PR_ROUND_2], spec, 4).match
    return match.rounds[0].winner, _opening(match)[0]


@pytest.mark.parametrize("hands, later, opener, expected", [
    # the blocker's side (1) wins: the blocker opens; under winner, its partner with fewer pips
    (["6-6 4-4", "6-5 3-2", "4-3 3-3", "1-0 0-0"], "puerto_rico", 0, (1, [1])),
    (["6-6 4-4", "6-5 3-2", "4-3 3-3", "1-0 0-0"], "winner", 0, (1, [3])),
    # the blocker's side loses: the seat after the blocker; under winner the partner with fewer
    (["6-6 0-0", "6-5 4-4", "1-0 2-0", "3-3 4-3"], "puerto_rico", 0, (0, [2])),
    (["6-6 0-0", "6-5 4-4", "1-0 2-0", "3-3 4-3"], "winner", 0, (0, [0])),
    (["6-6 2-0", "6-5 4-4", "1-0 0-0", "3-3 4-3"], "winner", 0, (0, [2])),
    # equal pips within the winning side: the one first in turn order from the previous opener
    (["1-1 0-0", "6-6 4-4", "6-5 2-0", "3-3 4-3"], "winner", 1, (0, [2])),
    # side totals 8 and 8 under blocked_tie none: nobody won, the previous opener opens again
    (["6-6 4-0", "6-5 2-0", "2-2 0-0", "3-2 1-0"], "winner", 0, (None, [0])),
    (["6-6 4-0", "6-5 2-0", "2-2 0-0", "3-2 1-0"], "puerto_rico", 0, (None, [0])),
])
def test_later_opener_partnerships(hands, later, opener, expected):
    assert _pr(hands, later, opener=opener) == expected


def test_tie_settled_by_blocked_tie_counts_as_won():
    # blocker_loses: the blocker (seat 1, side 1) loses the tie; side 0 won: seat after the blocker
    assert _pr(["6-6 4-0", "6-5 2-0", "2-2 0-0", "3-2 1-0"], "puerto_rico",
               tie="blocker_loses") == (0, [2])


# ---------------------------------------------------------------------------- opening tile


@pytest.mark.parametrize("first, hand_1, forced_tile", [
    ("highest_double", "5-5 6-4", "5-5"),
    ("highest_double", "6-3 5-4", "6-3"),   # no double: the heaviest tile
    ("double_six", "6-6 5-5", "6-6"),
    ("double_six", "1-1 6-5", "1-1"),       # no 6-6: the highest double, not the heaviest tile
    ("free", "6-3 5-4", None),              # round 1's rule names no tile
])
def test_forced_opening_tile_with_next(first, hand_1, forced_tile):
    spec = {"preset": "mano-a-mano", **QUICK, "later_opener": "next",
            "later_opening_tile": "forced", "first_opener": first}
    events = DOMINO_0 + [deal("0-0 1-0", hand_1)]
    match = legal(events, spec).match
    assert _opening(match) == ([1], forced_tile)
    other = next(t for t in hand_1.split() if t != forced_tile)
    if forced_tile is None:
        legal(events + [play(1, other)], spec)
    else:
        assert last_code(events + [play(1, other)], spec) == ("wrong_opening_tile", 1)
        legal(events + [play(1, forced_tile)], spec)


def test_free_later_opening_tile():
    spec = {"preset": "mano-a-mano", **QUICK}
    legal(DOMINO_0 + [deal(*HIGH_1), play(1, "2-1")], spec)


PAREJAS_1 = [deal("6-6 6-5", "1-1 2-2", "3-3 4-4", "0-0 1-0"), play(0, "6-6"), pass_(1),
             pass_(2), pass_(3), play(0, "6-5")]
PAREJAS_2 = deal("1-1 2-2", "3-3 4-4", "0-0 1-0", "6-6 6-5")


@pytest.mark.parametrize("tile_rule, lead_tile", [("forced", "6-6"), ("free", None)])
def test_first_rule_every_round(tile_rule, lead_tile):
    spec = {"preset": "parejas", "hand_size": 2, "later_opening_tile": tile_rule}
    events = PAREJAS_1 + [PAREJAS_2]
    match = legal(events, spec, 4).match
    assert match.rounds[0].outcome == "domino"
    assert _opening(match) == ([3], lead_tile)
    assert last_code(events + [play(2, "1-0")], spec, 4) == ("wrong_opener", 2)


# ---------------------------------------------------------------------------- bigger sets


@pytest.mark.parametrize("max_pip, top, unknown, boneyard", [
    (6, "6-6", "7-0", 14), (9, "9-9", "10-0", 41), (12, "12-12", "13-1", 77),
])
def test_max_pip(max_pip, top, unknown, boneyard):
    spec = {"preset": "mano-a-mano", "max_pip": max_pip}
    hand_a = [top] + HAND_A[1:]
    d = deal(hand_a, HAND_B)
    match = legal([d], spec).match
    assert match.boneyard == boneyard and match.tiles.size == boneyard + 14
    assert match.tiles.names[match.lead_tile] == top
    assert last_code([d, play(0, unknown)], spec) == ("unknown_tile", 0)
    legal([d, play(0, top)], spec)
    if max_pip > 6:  # seat 1 holds no tile that fits the lead: it draws a 7, a tile of this set
        assert legal([d, play(0, top), draw(1, "7-0")], spec).match.count == [6, 8]
