"""Round scores, match totals and the winner: every value of domino_points, blocked_compare,
blocked_points and blocked_tie; target; partnerships (design: Rules, Ending and scoring).

Rounds are recorded closed (hands unseen) and end with pip reveals, so each test names the pips
left in every hand directly. ``draw: none`` and 2-tile hands keep the rounds short.
"""

import pytest
from core_helpers import (
    closed_block,
    closed_domino,
    deal,
    forfeit,
    last_code,
    legal,
    pass_,
    penalty,
    play,
    reveal,
    round_tuple,
)

from referee.core.scoring import forfeit_winner, match_winner

QUICK = {"hand_size": 2, "draw": "none"}
PAIRS = {"preset": "parejas", **QUICK}                      # 4 seats, 2 sides
SOLO3 = {"preset": "veracruz", **QUICK}                     # 3 seats, 3 sides; points: all
SOLO2 = {"preset": "mano-a-mano", **QUICK}                  # 2 seats, 2 sides

# seat 0 leads, 1, 2 and 3 follow, seat 0 plays its last tile: a domino by seat 0 (side 0)
FOUR_PLAYS = [(0, "6-6"), (1, "6-5"), (2, "5-4"), (3, "4-3"), (0, "6-2")]


def block(spec, players, pips, plays=((0, "6-6"),)):
    return round_tuple(closed_block(spec, players, list(plays), pips))


# ---------------------------------------------------------------------------- domino_points


@pytest.mark.parametrize("points_rule, points", [("opponents", 3 + 5), ("all", 3 + 4 + 5)])
def test_domino_points_in_partnerships(points_rule, points):
    result = closed_domino({**PAIRS, "domino_points": points_rule}, 4, FOUR_PLAYS, [0, 3, 4, 5])
    assert round_tuple(result) == ("domino", 0, points)
    assert result.rounds[0].pips == (0, 3, 4, 5)
    assert result.match.totals == [points, 0]


@pytest.mark.parametrize("points_rule", ["opponents", "all"])
def test_domino_points_without_partnerships_are_the_same(points_rule):
    plays = [(0, "6-6"), (1, "6-5"), (2, "5-4"), (0, "6-2")]
    result = closed_domino({**SOLO3, "domino_points": points_rule}, 3, plays, [0, 7, 9])
    assert round_tuple(result) == ("domino", 0, 16)
    assert result.match.totals == [16, 0, 0]


# ---------------------------------------------------------------------------- blocked_compare


@pytest.mark.parametrize("compare, winner, points", [
    ("side_total", 0, 1 + 30),     # side 0 holds 20 in all, side 1 holds 31
    ("lowest_hand", 1, 10 + 10),   # seat 1 holds the single lowest hand (1)
])
def test_blocked_compare(compare, winner, points):
    spec = {**PAIRS, "blocked_compare": compare}
    assert block(spec, 4, [10, 1, 10, 30]) == ("blocked", winner, points)


def test_lowest_hand_shared_within_one_side_is_no_tie():
    spec = {**PAIRS, "blocked_compare": "lowest_hand", "blocked_tie": "none"}
    assert block(spec, 4, [2, 5, 2, 5]) == ("blocked", 0, 10)
    assert block(spec, 4, [2, 2, 9, 9]) == ("blocked", None, 0)  # one seat each side: a tie


# ---------------------------------------------------------------------------- blocked_points


@pytest.mark.parametrize("spec, players, pips, points", [
    ({**SOLO2, "blocked_points": "opponents"}, 2, [3, 10], 10),
    ({**SOLO2, "blocked_points": "all"}, 2, [3, 10], 13),
    ({**SOLO2, "blocked_points": "difference"}, 2, [3, 10], 7),
    ({**SOLO3, "blocked_points": "opponents"}, 3, [3, 10, 6], 16),
    ({**SOLO3, "blocked_points": "all"}, 3, [3, 10, 6], 19),
    ({**SOLO3, "blocked_points": "difference"}, 3, [3, 10, 6], (10 - 3) + (6 - 3)),
    ({**PAIRS, "blocked_points": "opponents"}, 4, [3, 10, 2, 6], 16),
    ({**PAIRS, "blocked_points": "all"}, 4, [3, 10, 2, 6], 21),
    ({**PAIRS, "blocked_points": "difference"}, 4, [3, 10, 2, 6], 16 - 5),
])
def test_blocked_points(spec, players, pips, points):
    assert block(spec, players, pips) == ("blocked", 0, points)


def test_difference_never_below_zero():
    # lowest_hand gives side 1 the win (seat 1 holds 1) though it holds more pips in all
    spec = {**PAIRS, "blocked_compare": "lowest_hand", "blocked_points": "difference"}
    assert block(spec, 4, [10, 1, 10, 30]) == ("blocked", 1, 0)


# ---------------------------------------------------------------------------- blocked_tie

BLOCKED_BY_1 = [(0, "6-6"), (1, "6-5")]  # opened by seat 0, blocked by seat 1


@pytest.mark.parametrize("spec, players, pips, plays, result", [
    # blocker_loses, two sides: the side that did not block wins
    ({**SOLO2, "blocked_tie": "blocker_loses"}, 2, [5, 5], [(0, "6-6")], ("blocked", 1, 5)),
    ({**SOLO2, "blocked_tie": "blocker_loses"}, 2, [5, 5], BLOCKED_BY_1, ("blocked", 0, 5)),
    ({**PAIRS, "blocked_tie": "blocker_loses"}, 4, [1, 2, 3, 2], BLOCKED_BY_1, ("blocked", 0, 4)),
    # blocker_loses with more than two tied sides: a winner only if one side remains
    ({**SOLO3, "blocked_tie": "blocker_loses"}, 3, [4, 4, 4], [(0, "6-6")], ("blocked", None, 0)),
    ({**SOLO3, "blocked_tie": "blocker_loses"}, 3, [4, 4, 9], [(0, "6-6")], ("blocked", 1, 17)),
    # mano: the tied side whose seat comes first in turn order from the opener
    ({**SOLO2, "blocked_tie": "mano"}, 2, [5, 5], [(0, "6-6")], ("blocked", 0, 5)),
    ({**SOLO2, "blocked_tie": "mano"}, 2, [5, 5], [(1, "6-6")], ("blocked", 1, 5)),
    ({**SOLO3, "blocked_tie": "mano"}, 3, [4, 9, 4], [(1, "6-6")], ("blocked", 2, 17)),
    ({**SOLO3, "blocked_tie": "mano"}, 3, [4, 9, 4], [(2, "6-6")], ("blocked", 2, 17)),
    ({**SOLO3, "blocked_tie": "mano"}, 3, [4, 9, 4], [(0, "6-6")], ("blocked", 0, 17)),
    ({**PAIRS, "blocked_tie": "mano"}, 4, [1, 2, 3, 2], [(3, "6-6")], ("blocked", 1, 4)),
    ({**PAIRS, "blocked_tie": "mano"}, 4, [1, 2, 3, 2], [(2, "6-6")], ("blocked", 0, 4)),
    # none: a tie nobody wins, no points
    ({**SOLO2, "blocked_tie": "none"}, 2, [5, 5], [(0, "6-6")], ("blocked", None, 0)),
    ({**PAIRS, "blocked_tie": "none"}, 4, [1, 2, 3, 2], BLOCKED_BY_1, ("blocked", None, 0)),
])
def test_blocked_tie(spec, players, pips, plays, result):
    replayed = closed_block(spec, players, plays, pips)
    assert round_tuple(replayed) == result
    r = replayed.rounds[0]
    assert r.opener == plays[0][0] and r.blocked_by == plays[-1][0]
    assert r.pips == tuple(pips)


# ---------------------------------------------------------------------------- target and totals


def _round(players, pips):
    """A closed block opened and blocked by seat 0, as a list of events (the rules must let seat
    0 open every round)."""
    events = [deal(), play(0, "6-6")] + [pass_((i + 1) % players) for i in range(players)]
    return events + [reveal(s, pips=p) for s, p in enumerate(pips)]


EVERY_ROUND = {"later_opener": "first_rule"}  # closed hands: anyone may open under highest_double


def test_target_ends_the_match_and_the_highest_total_wins():
    spec = {**SOLO2, **EVERY_ROUND, "target": 20}
    events = _round(2, [1, 12]) + _round(2, [15, 2])
    result = legal(events, spec)
    assert result.match.totals == [12, 15] and not result.match.finished
    result = legal(events + _round(2, [0, 9]), spec)
    assert result.match.totals == [21, 15]
    assert result.match.finished and result.match.winner == 0
    assert last_code(events + _round(2, [0, 9]) + [deal()], spec) == ("match_over", None)


def test_penalty_can_end_the_match_mid_round():
    spec = {**SOLO2, **EVERY_ROUND, "target": 20}
    events = _round(2, [1, 12]) + [deal(), play(0, "6-6"), penalty(1, 8)]
    result = legal(events, spec)
    assert result.match.totals == [12, 8] and not result.match.finished
    events.append(penalty(0, 8))
    result = legal(events, spec)
    assert result.match.finished and result.match.winner == 0 and result.match.totals == [20, 8]
    assert result.rounds[-1].outcome == "in_progress"
    assert last_code(events + [pass_(1)], spec) == ("match_over", 1)


def test_negative_penalties():
    spec = {**SOLO2, "target": 10}
    result = legal([penalty(0, -5), penalty(1, 9)], spec)
    assert result.match.totals == [-5, 9] and not result.match.finished
    result = legal([penalty(0, 9), penalty(1, 9), penalty(1, -2), penalty(0, 1)], spec)
    assert result.match.finished and result.match.winner == 0 and result.match.totals == [10, 7]


def test_partnerships_score_by_side():
    spec = {**PAIRS, "target": 500}
    events = _round(4, [3, 10, 2, 6]) + [penalty(1, 4)]
    result = legal(events, spec, 4)
    assert result.match.totals == [16, 4]
    assert last_code(events + [penalty(2, 1)], spec, 4) == ("bad_event", None)


def test_match_winner_and_forfeit_winner():
    assert match_winner([10, 50, 3]) == 1
    assert match_winner([50, 50]) is None
    assert forfeit_winner([80, 0], 1) == 0
    assert forfeit_winner([80, 0], 0) == 1           # two sides: the other side, whatever totals
    assert forfeit_winner([80, 10, 30], 0) == 2      # more: the remaining side with the most
    assert forfeit_winner([80, 30, 30], 0) is None   # ... none on a tie


@pytest.mark.parametrize("players, spec, side, totals, winner", [
    (2, SOLO2, 0, [40, 0], 1),
    (3, SOLO3, 1, [10, 40, 20], 2),
    (3, SOLO3, 0, [40, 20, 20], None),
    (4, PAIRS, 1, [0, 30], 0),
])
def test_forfeit(players, spec, side, totals, winner):
    events = [penalty(s, t) for s, t in enumerate(totals) if t] + [deal(), play(0, "6-6"),
                                                                   forfeit(side)]
    result = legal(events, {**spec, "target": 100}, players)
    assert result.match.finished and result.match.winner == winner
    assert result.match.totals == totals
    assert result.rounds[-1].outcome == "in_progress"
    assert last_code(events + [pass_(1)], {**spec, "target": 100}, players) == ("match_over", 1)
