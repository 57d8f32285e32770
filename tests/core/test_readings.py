"""The readings of docs/readings.md, one test each: where the design is silent, what we chose."""

from __future__ import annotations

import json

import pytest

from referee import LogError, build_report, read_log, replay, resolve_rules
from referee.core.rules import RulesError
from referee.core.scoring import score_block

TWO = ["Ana", "Beto"]
HANDS = [["6-6", "6-5", "5-5", "4-4", "3-3", "2-2", "1-1"],
         ["6-4", "6-3", "5-4", "5-3", "4-3", "2-1", "1-0"]]


def judge(rules, players, events):
    header = {"format": "domino-log/1", "rules": rules, "players": players}
    text = "".join(json.dumps(v) + "\n" for v in (header, *events))
    log = read_log(text)
    return build_report(replay(log.header.rules, log.header.players, log.events))


def codes(report):
    return [(v["seq"], v["code"]) for v in report["violations"]]


def test_rules_object_without_preset_names_every_parameter() -> None:
    with pytest.raises(RulesError, match="missing"):
        resolve_rules({"max_pip": 6}, 2)
    full = {**resolve_rules("sircle", 2).as_dict()}
    del full["seats"]
    assert resolve_rules(full, 2) == resolve_rules("sircle", 2)


def test_seat_limits_by_set() -> None:
    with pytest.raises(RulesError):
        resolve_rules({"preset": "veracruz", "seats": 5, "hand_size": 5}, 5)
    assert resolve_rules({"preset": "veracruz", "seats": 6, "max_pip": 9}, 6).seats == 6
    with pytest.raises(RulesError, match="need"):
        resolve_rules({"preset": "veracruz", "seats": 8, "max_pip": 9}, 8)


def test_players_names_and_header_fields() -> None:
    with pytest.raises(LogError):
        read_log('{"format": "domino-log/1", "rules": "parejas", "players": ["a", "", "c", "d"]}\n')
    log = read_log('\ufeff{"format": "domino-log/1", "rules": "mano-a-mano", "players": ["a", "a"],'
                   ' "venue": "club", "date": "2026-11-27T20:00:00"}\n')
    assert log.header.fields["venue"] == "club"
    with pytest.raises(LogError, match="date"):
        read_log('{"format": "domino-log/1", "rules": "mano-a-mano", "players": ["a", "b"], "date": "27/11"}\n')


def test_leading_zeros_and_extra_fields() -> None:
    report = judge("mano-a-mano", TWO, [{"type": "deal", "hands": HANDS},
                                        {"type": "play", "seat": 0, "tile": "06-06", "disputed": False}])
    assert report["valid"]


def test_reveal_with_tiles_and_pips_checks_both() -> None:
    events = [{"type": "deal", "hands": HANDS}, {"type": "reveal", "seat": 1, "tiles": HANDS[1], "pips": 1}]
    assert codes(judge("mano-a-mano", TWO, events)) == [(2, "reveal_mismatch")]
    events[1]["pips"] = 47
    assert judge("mano-a-mano", TWO, events)["valid"]


def test_pass_and_draw_before_the_lead() -> None:
    deal = {"type": "deal", "hands": HANDS}
    assert codes(judge("mano-a-mano", TWO, [deal, {"type": "pass", "seat": 0}])) == [(2, "renege")]
    assert codes(judge("mano-a-mano", TWO, [deal, {"type": "pass", "seat": 1}])) == [(2, "out_of_turn")]
    assert codes(judge("mano-a-mano", TWO, [deal, {"type": "draw", "seat": 0}])) == [(2, "illegal_draw")]
    assert codes(judge("mano-a-mano", TWO, [deal, {"type": "draw", "seat": 1}])) == [(2, "out_of_turn")]


def test_equal_ends_take_the_tile_on_the_right() -> None:
    events = [{"type": "deal", "hands": HANDS}, {"type": "play", "seat": 0, "tile": "6-6"},
              {"type": "play", "seat": 1, "tile": "6-4", "end": 6}]
    header = {"format": "domino-log/1", "rules": "mano-a-mano", "players": TWO}
    log = read_log("".join(json.dumps(v) + "\n" for v in (header, *events)))
    match = replay(log.header.rules, log.header.players, log.events).match
    assert (match.left, match.right) == (6, 4)


def test_draw_one_blocks_only_once_the_boneyard_is_spent() -> None:
    events = [{"type": "deal"}, {"type": "play", "seat": 0, "tile": "6-6"}]
    # a pass with tiles in the boneyard and no draw first
    assert codes(judge("veracruz", TWO, [*events, {"type": "pass", "seat": 1}])) == [(3, "must_draw")]
    # two passes (as many as seats) with 12 tiles left do not block: play goes on
    events += [{"type": "draw", "seat": 1}, {"type": "pass", "seat": 1},
               {"type": "draw", "seat": 0}, {"type": "pass", "seat": 0}, {"type": "draw", "seat": 1}]
    report = judge("veracruz", TWO, events)
    assert report["valid"] and report["rounds"][0]["outcome"] == "in_progress"


def test_reveal_during_a_round_makes_the_hand_known() -> None:
    events = [{"type": "deal", "hands": [HANDS[0], None]}, {"type": "play", "seat": 0, "tile": "6-6"},
              {"type": "reveal", "seat": 1, "tiles": HANDS[1]}, {"type": "pass", "seat": 1}]
    assert codes(judge("mano-a-mano", TWO, events)) == [(4, "renege")]


def test_difference_is_floored_at_zero() -> None:
    rules = resolve_rules({"preset": "parejas", "blocked_compare": "lowest_hand",
                           "blocked_points": "difference"}, 4)
    # side 0 holds the lowest hand (1) but more pips in all (31) than side 1 (20)
    assert score_block(rules, [1, 10, 30, 10], blocker=0, opener=0) == (0, 0)


def test_equal_leading_totals_finish_without_a_winner() -> None:
    events = [{"type": "penalty", "side": 0, "points": 50, "reason": "x"}]
    report = judge("mano-a-mano", TWO, events)
    assert report["finished"] and report["winner"] == 0
    events = [{"type": "penalty", "side": 0, "points": 49, "reason": "x"},
              {"type": "penalty", "side": 1, "points": 49, "reason": "x"},
              {"type": "deal", "hands": HANDS}, {"type": "play", "seat": 0, "tile": "6-6"}]
    report = judge({"preset": "mano-a-mano", "target": 49}, TWO, events[:2])
    assert report["finished"] and report["winner"] == 0  # side 0 reached it first, alone
    report = judge({"preset": "mano-a-mano", "target": 49}, TWO,
                   [{"type": "penalty", "side": 0, "points": 48, "reason": "x"},
                    {"type": "penalty", "side": 1, "points": 48, "reason": "x"},
                    {"type": "penalty", "side": 0, "points": 1, "reason": "x"}])
    assert report["finished"] and report["winner"] == 0


def test_report_opener_before_the_lead() -> None:
    report = judge("mano-a-mano", TWO, [{"type": "deal", "hands": HANDS}])
    assert report["rounds"][0]["opener"] == 0
    report = judge("mano-a-mano", TWO, [{"type": "deal"}])
    assert report["rounds"][0]["opener"] is None


def test_crlf_line_endings_read_like_lf() -> None:
    header = {"format": "domino-log/1", "rules": "mano-a-mano", "players": TWO}
    text = "\r\n".join(json.dumps(v) for v in (header, {"type": "deal", "hands": HANDS})) + "\r\n"
    assert len(read_log(text).events) == 1


def test_blocker_loses_with_a_tie_the_blocker_is_not_in() -> None:
    rules = resolve_rules({"preset": "veracruz", "seats": 3, "blocked_tie": "blocker_loses"}, 3)
    assert score_block(rules, [5, 5, 9], blocker=2, opener=0) == (None, 0)
    assert score_block(rules, [5, 5, 9], blocker=1, opener=0)[0] == 0


def test_bad_event_names_a_usable_acting_seat() -> None:
    events = [{"type": "deal", "hands": HANDS}, {"type": "play", "seat": 0, "tile": 66},
              {"type": "pass", "seat": 9}]
    report = judge("mano-a-mano", TWO, events)
    assert [(v["code"], v["seat"]) for v in report["violations"]] == [("bad_event", 0), ("bad_event", None)]


def test_null_in_an_optional_field_is_leaving_it_out() -> None:
    events = [{"type": "deal", "hands": HANDS}, {"type": "play", "seat": 0, "tile": "6-6", "end": None},
              {"type": "play", "seat": 1, "tile": "6-4", "end": None}]
    assert judge("mano-a-mano", TWO, events)["valid"]
    closed = [{"type": "deal", "hands": None}, {"type": "play", "seat": 0, "tile": "6-6"},
              {"type": "draw", "seat": 1, "tile": None}]
    assert judge("mano-a-mano", TWO, closed)["valid"]
    assert codes(judge("mano-a-mano", TWO, [{"type": "note", "text": "x", "seq": None}])) == [(1, "bad_event")]


def test_pips_only_reveal_is_held_to_the_known_tiles() -> None:
    events = [{"type": "deal", "hands": [HANDS[0], None]}, {"type": "reveal", "seat": 1, "pips": 999}]
    assert judge("mano-a-mano", TWO, events)["valid"]
    events[1] = {"type": "reveal", "seat": 0, "pips": 999}
    assert codes(judge("mano-a-mano", TWO, events)) == [(2, "reveal_mismatch")]
