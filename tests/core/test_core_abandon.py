"""The ``abandon`` event: a match started by mistake, withdrawn while no deal stands in its
record; it ends with no result (finished, no winner, status ``abandoned``) and afterwards
nothing but a note is accepted. Rulings cannot reach back past an abandon that stood, nor make
one stand that was refused."""

from __future__ import annotations

import pytest
from core_helpers import HAND_A, HAND_B, NAMES, codes, deal, judge, note, penalty, play, void

from referee.core.replay import positions
from referee.core.report import build_report
from referee.core.rules import resolve_rules
from referee.core.vocab import ABANDONED, IN_PROGRESS

ABANDON = {"type": "abandon", "reason": "the wrong player was seated"}
DEAL = deal(HAND_A, HAND_B)


def test_a_match_with_no_deal_is_withdrawn_with_no_result() -> None:
    result = judge([note(), ABANDON])
    match = result.match
    assert result.valid and match.finished and match.winner is None
    assert match.abandoned == 2 and match.status == ABANDONED
    report = build_report(result)
    assert (report["finished"], report["winner"], report["rounds"], report["totals"]) == \
        (True, None, [], [0, 0])
    assert judge([]).match.status == IN_PROGRESS


@pytest.mark.parametrize("after", [DEAL, play(0, "6-6"), {"type": "reveal", "seat": 0, "pips": 3},
                                   penalty(0, 5), dict(penalty(0, 5), target=1), void(1),
                                   {"type": "annul", "reason": "r"}, {"type": "time"},
                                   {"type": "forfeit", "side": 0, "reason": "r"},
                                   {"type": "stands", "target": 1, "reason": "r"}, ABANDON])
def test_afterwards_nothing_but_a_note_is_accepted(after: dict) -> None:
    spec = {"preset": "mano-a-mano", "time_limit": 30}
    result = judge([ABANDON, after, note()], spec)
    assert [c[:2] for c in codes(result)] == [(2, "match_over")]
    assert result.match.status == ABANDONED


def test_a_match_that_was_dealt_cannot_be_abandoned() -> None:
    result = judge([DEAL, play(0, "6-6"), ABANDON])
    assert codes(result) == [(3, "bad_event", None)]
    assert not result.match.finished and result.match.abandoned is None
    assert codes(judge([deal(), ABANDON])) == [(2, "bad_event", None)]  # a closed deal stands too


def test_a_deal_that_does_not_stand_does_not_prevent_it() -> None:
    voided = judge([DEAL, void(1), ABANDON])
    assert voided.valid and voided.match.status == ABANDONED
    refused = judge([deal(HAND_A, HAND_A), ABANDON])  # a tile dealt twice: refused
    assert [c[:2] for c in codes(refused)] == [(1, "bad_event")]
    assert refused.match.status == ABANDONED


def test_a_ruling_after_an_abandon_that_stood_changes_nothing() -> None:
    # the void at 4 would restore the deal the void at 2 struck; recorded after the abandon
    # it is match_over and strikes nothing
    result = judge([DEAL, void(1), ABANDON, void(2)])
    assert codes(result) == [(4, "match_over", None)]
    assert result.match.status == ABANDONED and result.rounds == []


def test_a_ruling_after_a_refused_abandon_does_not_make_it_stand() -> None:
    # refused when recorded (a deal stood); the later void strikes the deal, and the abandon
    # stays refused: the match is still in play, with no deal
    result = judge([DEAL, ABANDON, void(1)])
    assert codes(result) == [(2, "bad_event", None)]
    assert result.match.status == IN_PROGRESS and result.rounds == []
    assert judge([DEAL, ABANDON, void(1), DEAL]).match.round.number == 1


def test_the_shape_and_an_amend_into_an_abandon() -> None:
    assert codes(judge([{"type": "abandon"}])) == [(1, "bad_event", None)]
    amend = {"type": "amend", "target": 1, "event": ABANDON, "reason": "r"}
    result = judge([note(), amend])
    assert codes(result) == [(2, "bad_event", None)] and result.match.status == IN_PROGRESS


def test_positions_follow_the_record_as_it_stood() -> None:
    events = [DEAL, void(1), ABANDON, void(2), note()]
    rules = resolve_rules("mano-a-mano", 2)
    seen = [(seq, match.status, v.code if v else None)
            for seq, match, v in positions(rules, NAMES[:2], events)]
    assert seen == [(1, IN_PROGRESS, None), (2, IN_PROGRESS, None), (3, ABANDONED, None),
                    (4, ABANDONED, "match_over"), (5, ABANDONED, None)]
