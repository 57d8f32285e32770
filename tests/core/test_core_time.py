"""The ``time`` event and the ``time_limit`` rule (docs/rules.md, "Time"): once
time is called, the round in play (or, between rounds, the next one) is the last; when it ends
the match ends, the highest total winning even short of the target; while the highest total
is shared, further rounds are dealt until one side leads alone.

Properties over random timed matches (referee.core.simulate with ``time_at``), open and closed,
against a model of the rule written here from the design's words; then the edges by hand."""

from __future__ import annotations

import random
from typing import Any

import pytest
from core_helpers import (
    LOCK_A,
    LOCK_B,
    LOCK_PLAYS,
    LOCK_SPEC,
    NAMES,
    annul,
    codes,
    deal,
    judge,
    note,
    penalty,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.core.log import make_log, read_log, write_log
from referee.core.replay import replay
from referee.core.report import build_report
from referee.core.rules import RulesError, resolve_rules
from referee.core.simulate import random_match

CASES = [("mano-a-mano", 2), ("parejas", 4), ("veracruz", 3), ("sircle", 2), ("puerto-rico", 4)]
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MOVES = {"play", "draw", "pass"}


def timed(preset: str) -> dict[str, Any]:
    return {"preset": preset, "time_limit": 30}


def last_round_of(events: list[dict[str, Any]]) -> int:
    """The round the ``time`` event makes the last, read from the record alone: the round dealt
    before it if its play goes on after it (a move comes next), else the next one."""
    at = next(i for i, e in enumerate(events) if e["type"] == "time")
    dealt = sum(1 for e in events[:at] if e["type"] == "deal")
    after = next((e["type"] for e in events[at + 1:] if e["type"] != "note"), None)
    return dealt if after in MOVES else dealt + 1


def model_end(rounds: list[dict[str, Any]], sides: int, target: int,
              last: int | None) -> tuple[int, list[int], int | None] | None:
    """(rounds played, totals, winner) where the design's words end the match, from the
    scored rounds in order; None if they never end it."""
    totals = [0] * sides
    for r in rounds:
        if r["winner"] is not None:
            totals[r["winner"]] += r["points"]
        best = max(totals)
        alone = totals.count(best) == 1
        if best >= target or (last is not None and r["round"] >= last and alone):
            return r["round"], totals, totals.index(best) if alone else None
    return None


@SETTINGS
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**32 - 1),
       time_at=st.integers(1, 160), closed=st.booleans())
def test_a_timed_match_ends_as_the_design_says(case: tuple[str, int], seed: int, time_at: int,
                                               closed: bool) -> None:
    preset, seats = case
    players = NAMES[:seats]
    rules = resolve_rules(timed(preset), seats)
    hidden = tuple(range(seats)) if closed else ()
    header, events = random_match(timed(preset), players, random.Random(seed), hidden=hidden,
                                  time_at=time_at)
    report = build_report(replay(rules, players, events))
    assert report["valid"], report["violations"]
    assert report["rules"]["time_limit"] == 30
    called = any(e["type"] == "time" for e in events)
    last = last_round_of(events) if called else None
    end = model_end(report["rounds"], rules.sides, rules.target, last)
    assert end is not None and report["finished"]
    played, totals, winner = end
    assert len(report["rounds"]) == played
    assert report["totals"] == totals and report["winner"] == winner
    if called and max(totals) < rules.target:  # ended by time, short of the target
        assert winner is not None and totals.count(max(totals)) == 1
        assert played >= last


@SETTINGS
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**32 - 1), time_at=st.integers(1, 160))
def test_a_closed_recording_of_a_timed_match_scores_as_the_open_one(
        case: tuple[str, int], seed: int, time_at: int) -> None:
    preset, seats = case
    players = NAMES[:seats]
    rules = resolve_rules(timed(preset), seats)
    reports = []
    for hidden in ((), tuple(range(seats)), (0,)):
        _, events = random_match(timed(preset), players, random.Random(seed), hidden=hidden,
                                 time_at=time_at)
        reports.append(build_report(replay(rules, players, events)))
    shown = [(r["valid"], r["totals"], r["finished"], r["winner"],
              [(x["winner"], x["points"]) for x in r["rounds"]]) for r in reports]
    assert shown[0] == shown[1] == shown[2]


# ------------------------------------------------------------------ by hand

SPEC = {**LOCK_SPEC, "time_limit": 30}  # mano-a-mano to 50, a locked line a round
ROUND_0 = [deal(LOCK_A, LOCK_B)] + LOCK_PLAYS  # side 0 wins 10 (seat 0 opens)
ROUND_1 = [deal(LOCK_B, LOCK_A)] + [dict(e, seat=1 - e["seat"]) for e in LOCK_PLAYS]  # side 1, 10
TIME = {"type": "time"}


def test_time_in_a_round_makes_it_the_last() -> None:
    result = judge(ROUND_0 + [ROUND_1[0], TIME] + ROUND_1[1:] + [ROUND_0[0], TIME, note()], SPEC)
    # round 2 ended 10-10: shared, so a third round is dealt; its deal is accepted, the second
    # time is a bad_event, the note stands
    assert codes(result)[0][1] == "bad_event" and len(codes(result)) == 1
    assert not result.match.finished and [r.winner for r in result.rounds] == [0, 1, None]


def test_while_the_highest_total_is_shared_the_first_to_lead_alone_wins() -> None:
    events = ROUND_0 + [ROUND_1[0], TIME] + ROUND_1[1:] + ROUND_0
    result = judge(events, SPEC)
    assert result.valid and result.match.finished and result.match.winner == 0
    assert result.match.totals == [20, 10]  # short of 50
    assert codes(judge(events + [ROUND_1[0]], SPEC)) == [(len(events) + 1, "match_over", None)]


def test_time_between_rounds_makes_the_next_one_the_last() -> None:
    result = judge(ROUND_0 + [TIME] + ROUND_1 + ROUND_0, SPEC)
    # the next round (2) is the last: it leaves 10-10, so round 3 decides
    assert result.valid and result.match.finished and result.match.winner == 0
    assert len(result.rounds) == 3
    before = judge([TIME] + ROUND_0, SPEC)  # before the first deal: round 1 is the last
    assert before.valid and before.match.finished and before.match.winner == 0


def test_an_annulled_last_round_is_dealt_again_and_the_redeal_is_the_last() -> None:
    result = judge([ROUND_0[0], TIME, annul()] + ROUND_0, SPEC)
    assert result.valid and result.match.finished and result.match.winner == 0
    assert [r.outcome for r in result.rounds] == ["annulled", "blocked"]


def test_time_after_the_match_is_match_over_and_without_a_limit_is_bad_event() -> None:
    won = judge([TIME] + ROUND_0 + [TIME], SPEC)
    assert codes(won) == [(len(ROUND_0) + 2, "match_over", None)]
    untimed = judge([ROUND_0[0], TIME], LOCK_SPEC)
    assert codes(untimed) == [(2, "bad_event", None)]
    assert "no time limit" in untimed.violations[0].message and untimed.match.timed is None


def test_the_time_events_shape() -> None:
    assert judge([{"type": "time", "reason": "the clock"}], SPEC).valid
    assert codes(judge([{"type": "time", "reason": 30}], SPEC)) == [(1, "bad_event", None)]


def test_a_ruling_that_shares_the_lead_again_brings_the_match_back_into_play() -> None:
    events = [TIME] + ROUND_0
    assert judge(events, SPEC).match.finished
    tied = judge(events + [dict(penalty(1, 10), target=2)], SPEC)
    assert tied.valid and not tied.match.finished and tied.match.winner is None
    after = judge(events + [dict(penalty(1, 10), target=2)] + ROUND_1, SPEC)
    assert after.match.finished and after.match.winner == 1  # 10-30: side 1 alone


def test_reaching_the_target_still_ends_a_timed_match() -> None:
    rounds = ROUND_0 + ROUND_1[:1] + [TIME] + ROUND_1[1:]
    result = judge([penalty(0, 45)] + rounds, SPEC)
    assert result.match.finished and result.match.winner == 0 and len(result.rounds) == 1


def test_time_limit_is_a_rule_parameter() -> None:
    assert resolve_rules("parejas", 4).time_limit is None
    assert resolve_rules({"preset": "parejas", "time_limit": 45}, 4).time_limit == 45
    for bad in (0, -5, 1.5, "30", True):
        with pytest.raises(RulesError, match="time_limit"):
            resolve_rules({"preset": "parejas", "time_limit": bad}, 4)
    header = {"format": "domino-log/1", "rules": SPEC, "players": ["Ana", "Beto"]}
    text = write_log(make_log(header, [TIME] + ROUND_0))
    log = read_log(text)
    assert log.header.rules.time_limit == 30 and log.events[0] == TIME


def test_with_more_sides_a_side_behind_scoring_does_not_end_it() -> None:
    spec = {"preset": "veracruz", "target": 500, "time_limit": 30}
    rules = resolve_rules(spec, 3)
    # one round of a random three-player match, with time called before its deal
    _, events = random_match(spec, NAMES[:3], random.Random(5), max_rounds=1)
    first = replay(rules, NAMES[:3], events).rounds[0]
    assert first.winner is not None and first.points < 100
    leaders = [side for side in range(3) if side != first.winner]
    ahead = [penalty(side, 100) for side in leaders]
    result = replay(rules, NAMES[:3], [*ahead, TIME, *events])
    assert result.valid and not result.match.finished  # the lead is still shared: play on
    alone = replay(rules, NAMES[:3], [penalty(leaders[0], 100), TIME, *events])
    assert alone.match.finished and alone.match.winner == leaders[0]
