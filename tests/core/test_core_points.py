"""The points family (docs/rules.md, "Points during play"), rule by rule, on hand-worked records:
the count, what it is worth, where a tile goes (doubles, the spinner's arms), busts under an
exact target, the chip-out point, the target reached mid-round, the lead's count, partners both
going out, knocks, closed recording scored at once, an annulled round, and the report's
``scores`` and ``scored``."""

from __future__ import annotations

import pytest
from core_helpers import NAMES, deal, play, reveal
from core_helpers import pass_ as knock

from referee.core.counting import COUNTED, SPINNER, worth
from referee.core.family import POINTS, POINTS_SPINNER, family_of
from referee.core.points import rounded
from referee.core.replay import replay
from referee.core.report import build_report
from referee.core.rules import resolve_rules
from referee.core.tiles import tile_set

TILES = tile_set(6)
# All Fives with small hands and no boneyard, anyone leading: records short enough to work by hand.
FIVES = {"preset": "all-fives", "hand_size": 4, "draw": "none", "first_opener": "free"}
MUGGINS = {**FIVES, "spinner": "none"}
THREES = {"preset": "fives-and-threes", "hand_size": 3}


def report(spec, events, players=2):
    return build_report(replay(resolve_rules(spec, players), NAMES[:players], events))


def rnd(rep):
    round_ = rep["rounds"][-1]
    return round_["outcome"], round_["winner"], round_["points"]


def codes(rep):
    return [(v["seq"], v["code"], v["seat"]) for v in rep["violations"]]


def laid(layout, *plays):
    """A layout after the lead and plays given as (tile, side)."""
    first, *rest = plays
    a, b = map(int, first.split("-"))
    layout = layout.lead(TILES.index_of(a, b), (a, b))
    for text, side in rest:
        tile = TILES.by_text[text]
        layout = layout.placed(side, tile, TILES.pips[tile])
    return layout


@pytest.mark.parametrize("count, fives, threes", [
    (3, 0, 1), (5, 5, 1), (6, 0, 2), (9, 0, 3), (10, 10, 2), (12, 0, 4), (15, 15, 8),
    (18, 0, 6), (20, 20, 4), (7, 0, 0), (0, 0, 0), (30, 30, 16)])
def test_what_a_count_is_worth(count, fives, threes):
    assert worth(count, "fives") == fives and worth(count, "fives_and_threes") == threes


def test_the_rules_choose_the_family():
    assert family_of(resolve_rules("muggins", 2)) is POINTS
    assert family_of(resolve_rules("fives-and-threes", 4)) is POINTS
    assert family_of(resolve_rules("all-fives", 3)) is POINTS_SPINNER
    assert POINTS.fast and POINTS_SPINNER.fast  # their run of moves: fastpath.run_counted


def test_the_count():
    assert laid(COUNTED, "5-5").count() == 10  # the 5-5 led alone is 10
    assert laid(COUNTED, "6-4").count() == 10  # a lone lead counts its pips once
    assert laid(COUNTED, "6-4", ("4-4", "R")).count() == 14  # a double at an end: both halves
    assert laid(COUNTED, "6-4", ("4-4", "R"), ("6-1", "L")).count() == 9
    # the spinner: led alone both halves; one side open, it counts both halves
    assert laid(SPINNER, "5-5").count() == 10
    assert laid(SPINNER, "5-5", ("5-0", "R")).count() == 10
    # both sides covered: it counts no more, and the arms nothing until a tile lies there
    both = laid(SPINNER, "5-5", ("5-0", "R"), ("5-3", "L"))
    assert both.count() == 3 and both.ends == (3, 0, 5, 5)
    assert laid(SPINNER, "5-5", ("5-0", "R"), ("5-3", "L"), ("5-2", "U")).count() == 5
    # a double on an arm counts both halves
    assert laid(SPINNER, "5-5", ("5-0", "R"), ("5-3", "L"), ("5-2", "U"), ("2-2", "U")).count() == 7
    # a spinner laid off the lead: the first double, not the lead
    off = laid(SPINNER, "6-4", ("4-4", "R"))
    assert off.spinner == TILES.by_text["4-4"] and not off.arms and off.count() == 14
    opened = laid(SPINNER, "6-4", ("4-4", "R"), ("4-1", "R"))
    assert opened.ends == (6, 1, 4, 4) and opened.count() == 7
    # Muggins: no spinner, a later double is a double at an end
    assert laid(COUNTED, "5-5", ("5-0", "R"), ("5-3", "L")).arms == ()


def test_where_a_tile_goes_depends_on_the_open_ends_it_leaves():
    # a double at one end and a plain end of the same pip: different results, so say which
    line = laid(COUNTED, "5-5", ("5-3", "R"), ("3-5", "R"))  # ends 5 (the 5-5) and 5 (plain)
    high, low = 5, 1  # the 5-1
    assert line.place(high, low, None) == "ambiguous_end"
    assert line.place(high, low, 5) == "ambiguous_end"  # the pip names both ends
    assert line.place(high, low, "left") == "L" and line.place(high, low, "right") == "R"
    # two plain ends alike: the same result, it goes on the right
    plain = laid(COUNTED, "6-4", ("4-2", "R"), ("6-2", "L"))
    assert plain.ends == (2, 2) and plain.place(2, 1, None) == "R" and plain.place(2, 1, 2) == "R"
    # the spinner's two empty arms are alike: "up" (the first of right, left, up, down)
    arms = laid(SPINNER, "5-5", ("5-0", "R"), ("5-3", "L"))
    assert arms.place(5, 2, None) == "U" and arms.place(5, 2, 5) == "U"
    assert arms.place(5, 2, "down") == "D" and arms.place(5, 2, "up") == "U"
    assert arms.place(3, 1, "up") == "no_match"  # the arm shows 5
    # an arm named before the arms open
    assert laid(SPINNER, "5-5", ("5-0", "R")).place(5, 2, "up") == "no_match"
    # an empty arm and a plain end of the same pip are different kinds
    mixed = laid(SPINNER, "5-5", ("5-0", "R"), ("5-3", "L"), ("0-5", "R"))
    assert mixed.place(5, 4, None) == "ambiguous_end" and mixed.place(5, 4, "up") == "U"


def test_all_fives_scores_each_play_and_the_domino():
    events = [deal("5-5 5-3 2-2 6-6", "5-0 5-2 3-0 6-5"),
              play(0, "5-5"),                # lead alone: 10
              play(1, "5-0"),                # 10 + 0: 10
              play(0, "5-3"),                # 3 + 0, the arms open: 3, nothing
              play(1, "5-2"),                # on an arm: 3 + 0 + 2 = 5
              play(0, "2-2"),                # a double on the arm: 3 + 0 + 4 = 7, nothing
              play(1, "3-0"),                # fits the 3 and the 0 ends: which?
              play(1, "3-0", "right"),       # 3 + 3 + 4 = 10
              knock(0),                      # 6-6 fits nothing: a knock
              play(1, "6-5", "down"),        # 3 + 3 + 4 + 6 = 16; out: 6-6 left, 12 -> 10
              ]
    rep = report(FIVES, events)
    assert codes(rep) == [(7, "ambiguous_end", 1)]
    (round_,) = rep["rounds"]
    assert round_["scored"] == [{"seq": 2, "seat": 0, "count": 10, "points": 10},
                                {"seq": 3, "seat": 1, "count": 10, "points": 10},
                                {"seq": 5, "seat": 1, "count": 5, "points": 5},
                                {"seq": 8, "seat": 1, "count": 10, "points": 10}]
    assert (round_["outcome"], round_["winner"], round_["points"], round_["pips"]) == (
        "domino", 1, 10, [12, 0])
    assert round_["scores"] == [10, 35] and rep["totals"] == [10, 35]


def test_the_reports_scored_entries_are_copies():
    """A report's ``scored`` entries are its own (rounds._report_line copies each): changing
    one changes neither the round's bookkeeping nor the next report of the same match."""
    events = [deal("5-5 5-3 2-2 6-6", "5-0 5-2 3-0 6-5"), play(0, "5-5"), play(1, "5-0")]
    result = replay(resolve_rules(FIVES, 2), NAMES[:2], events)
    first = build_report(result)
    entry = first["rounds"][0]["scored"][0]
    assert entry == {"seq": 2, "seat": 0, "count": 10, "points": 10}
    entry["points"] = 99
    first["rounds"][0]["scored"].clear()
    assert build_report(result)["rounds"][0]["scored"] == [
        {"seq": 2, "seat": 0, "count": 10, "points": 10},
        {"seq": 3, "seat": 1, "count": 10, "points": 10}]


def test_a_knock_while_able_is_a_renege_with_the_arms_counted():
    events = [deal("5-5 5-3 2-2 6-6", "5-0 5-2 3-0 6-5"), play(0, "5-5"), play(1, "5-0"),
              play(0, "5-3"), play(1, "5-2"), knock(0)]  # 2-2 fits the arm showing 2
    rep = report(FIVES, events)
    assert codes(rep) == [(6, "renege", 0)]
    assert "2-2" in rep["violations"][0]["message"]
    # closed: proven in hindsight when the 2-2 comes out of that hand without a draw
    closed = [deal(None, None), *events[1:5], {**knock(0), "disputed": True}, play(1, "3-0", 3),
              play(0, "2-2")]
    rep = report(FIVES, closed)
    (foul,) = [v for v in rep["violations"] if v["code"] == "renege"]
    assert (foul["seq"], foul["found_at"], foul["certainty"]) == (6, 8, "proven")


def test_fives_and_threes_counts_fives_and_threes():
    # 6-3 led: 9 is 3 (the lead scores: it cannot reach 61), 3-3 laid: 6 + 6 = 12 is 4 ...
    events = [deal("6-3 6-6 1-0", "3-3 4-1 2-0"), play(0, "6-3"), play(1, "3-3"),
              play(0, "6-6"), play(1, "4-1")]
    rep = report(THREES, events)
    assert [(e["count"], e["points"]) for e in rep["rounds"][0]["scored"]] == [
        (9, 3), (12, 4), (18, 6)]  # 6-6 and 3-3 at the ends: 12 + 6; the 4-1 fits nothing
    assert codes(rep) == [(5, "no_match", 1)] and rep["totals"] == [9, 4]


def test_no_winning_on_the_down():
    # 9 would take side 0 from 59 to 61 with the lead: it scores nothing, no bust, not listed
    events = [{"type": "penalty", "side": 0, "points": 59, "reason": "carried over"},
              deal("6-3 6-6 1-0", "3-3 4-1 2-0"), play(0, "6-3")]
    rep = report(THREES, events)
    assert rep["rounds"][0]["scored"] == [] and rep["totals"] == [59, 0]
    assert rep["rounds"][0]["scores"] == [0, 0]  # penalties are not a round's
    assert report({**THREES, "lead_scores": "never"}, events[1:])["totals"] == [0, 0]
    always = report({**THREES, "lead_scores": "always"}, events)  # 62: past 61, a bust
    assert always["rounds"][0]["scored"] == [{"seq": 3, "seat": 0, "count": 9, "points": 3,
                                              "bust": True}]
    loose = report({**THREES, "lead_scores": "always", "exact_target": False}, events)
    assert loose["rounds"][0]["outcome"] == "target" and loose["totals"] == [62, 0]


def test_a_bust_scores_nothing_and_the_exact_score_wins_mid_round():
    head = [{"type": "penalty", "side": 1, "points": 57, "reason": "carried over"},
            deal("6-3 6-6 1-0", "3-3 4-1 2-0"), play(0, "6-3")]
    # 3-3: 12 is 4, 57 + 4 = 61 exactly: the match ends there, mid-round
    rep = report(THREES, [*head, play(1, "3-3"), play(0, "6-6")])
    round_ = rep["rounds"][0]
    assert (round_["outcome"], round_["winner"], round_["points"], round_["pips"],
            round_["blocked_by"]) == ("target", 1, 0, None, None)
    assert rep["finished"] and rep["winner"] == 1 and rep["totals"] == [3, 61]
    assert codes(rep) == [(5, "match_over", 0)]
    # from 58, 4 is past 61: a bust, listed, nothing scored, play goes on
    head[0] = {**head[0], "points": 58}
    rep = report(THREES, [*head, play(1, "3-3"), play(0, "6-6")])
    assert rep["rounds"][0]["scored"][1] == {"seq": 4, "seat": 1, "count": 12, "points": 4,
                                             "bust": True}
    assert rep["totals"] == [3 + 6, 58] and rep["rounds"][0]["outcome"] == "in_progress"
    # without exact_target the same play passes 61 and wins
    rep = report({**THREES, "exact_target": False}, [*head, play(1, "3-3")])
    assert rep["rounds"][0]["outcome"] == "target" and rep["totals"] == [3, 62]


CHIP_OUT = [deal("6-3 6-6 1-1", "3-3 3-0 0-0"),
            play(0, "6-3"),   # 9: 3
            play(1, "3-3"),   # 6 + 6 = 12: 4
            play(0, "6-6"),   # 12 + 6 = 18: 6
            play(1, "3-0"),   # 12 + 0: 4
            knock(0),         # 1-1 fits neither the 6 nor the 0
            play(1, "0-0")]   # 12 + 0: 4, and out: the chip-out point with it, 5


def test_the_chip_out_point_is_one_score_with_the_last_play():
    rep = report(THREES, CHIP_OUT)
    assert codes(rep) == []
    (round_,) = rep["rounds"]
    assert (round_["outcome"], round_["winner"], round_["points"], round_["pips"]) == (
        "domino", 1, 1, [2, 0])
    assert round_["scores"] == [9, 13] and rep["totals"] == [9, 13]
    assert round_["scored"][-1] == {"seq": 7, "seat": 1, "count": 12, "points": 4}
    # 49 + 8 = 57, then 4 + 1 = 5 is past 61: neither counts, the round is a domino
    carried = [{"type": "penalty", "side": 1, "points": 49, "reason": "carried over"}]
    rep = report(THREES, [*carried, *CHIP_OUT])
    round_ = rep["rounds"][0]
    assert (round_["outcome"], round_["winner"], round_["points"]) == ("domino", 1, 0)
    assert round_["scored"][-1] == {"seq": 8, "seat": 1, "count": 12, "points": 4, "bust": True}
    assert rep["totals"] == [9, 57] and not rep["finished"]
    # from 48 they make 61 together: the play and its point end the match, outcome target
    carried[0]["points"] = 48
    rep = report(THREES, [*carried, *CHIP_OUT])
    round_ = rep["rounds"][0]
    assert (round_["outcome"], round_["winner"], round_["points"], round_["pips"]) == (
        "target", 1, 0, None)
    assert rep["totals"] == [9, 61] and rep["finished"] and rep["winner"] == 1
    # without exact_target the point is an end score: 56 + 4 = 60 by the play, then 61 with
    # the point: a domino, the match ended with it
    loose = {**THREES, "exact_target": False}
    rep = report(loose, [*carried, *CHIP_OUT])
    assert (rep["rounds"][0]["outcome"], rep["rounds"][0]["points"]) == ("domino", 1)
    assert rep["totals"] == [9, 61] and rep["finished"] and rep["winner"] == 1
    # ... and 57 + 4 = 61 by the play itself: target, the point never scored
    carried[0]["points"] = 49
    rep = report(loose, [*carried, *CHIP_OUT])
    assert rnd(rep) == ("target", 1, 0) and rep["totals"] == [9, 61]


PARTNERS = [deal("6-3 1-1", "3-2 4-4", "2-0 0-4", "5-5 6-6"),
            play(0, "6-3"),   # 9: 3
            play(1, "3-2"),   # 6 + 2 = 8
            play(2, "2-0"),   # 6 + 0 = 6: 2
            play(3, "6-6"),   # 12 + 0: 4
            knock(0), knock(1),
            play(2, "0-4"),   # 12 + 4 = 16; seat 2 is out, its partner holds 1-1: play goes on
            knock(3), knock(0),
            play(1, "4-4"),   # 12 + 8 = 20: 4; seat 1 out, its partner holds 5-5; seat 2 skipped
            knock(3), knock(0)]  # the two seats still holding tiles knocked: blocked


def test_partners_both_go_out_and_a_seat_out_is_skipped():
    rules = {"preset": "fives-and-threes", "hand_size": 2}
    rep = report(rules, PARTNERS, 4)
    assert codes(rep) == []
    round_ = rep["rounds"][0]
    assert (round_["outcome"], round_["winner"], round_["points"], round_["pips"],
            round_["blocked_by"]) == ("blocked", 0, 0, [2, 0, 0, 10], 1)
    assert [(e["seat"], e["count"], e["points"]) for e in round_["scored"]] == [
        (0, 9, 3), (2, 6, 2), (3, 12, 4), (1, 20, 4)]
    assert round_["scores"] == [5, 8] and rep["totals"] == [5, 8]
    # after seat 1's play the turn is seat 3's: seat 2 holds nothing
    assert codes(report(rules, [*PARTNERS[:11], knock(2)], 4)) == [(12, "out_of_turn", 2)]
    # partners_out: one: seat 2 going out ends the round
    rep = report({**rules, "partners_out": "one"}, PARTNERS[:8], 4)
    assert (rep["rounds"][0]["outcome"], rep["rounds"][0]["winner"]) == ("domino", 0)


def test_closed_recording_scores_at_once_what_needs_no_hand():
    open_rep = report(THREES, CHIP_OUT)
    closed = report(THREES, [deal(None, None), *CHIP_OUT[1:]])
    assert codes(closed) == []
    round_ = closed["rounds"][0]
    assert (round_["outcome"], round_["winner"], round_["points"], round_["pips"]) == (
        "domino", 1, 1, None)  # scored at once; the pips come with the reveal
    assert closed["totals"] == open_rep["totals"]
    revealed = report(THREES, [deal(None, None), *CHIP_OUT[1:], reveal(0, ["1-1"])])
    assert revealed["rounds"] == open_rep["rounds"] and revealed["valid"]
    # a block with blocked_points none: blocked at once, its winner once the hands are shown
    rules = {"preset": "fives-and-threes", "hand_size": 2}
    closed = report(rules, [deal(None, None, None, None), *PARTNERS[1:]], 4)
    round_ = closed["rounds"][0]
    assert (round_["outcome"], round_["winner"], round_["points"]) == ("blocked", None, 0)
    shown = report(rules, [deal(None, None, None, None), *PARTNERS[1:], reveal(0, ["1-1"]),
                           reveal(3, ["5-5"])], 4)
    assert shown["rounds"] == report(rules, PARTNERS, 4)["rounds"]
    # All Fives scores the pips: the round waits for the reveals
    rep = report(MUGGINS, [deal(None, None), *MUGGINS_ROUND[1:]])
    assert rep["rounds"][0]["outcome"] == "awaiting_reveal" and rep["totals"] == [10, 10]


def test_an_annulled_round_takes_its_play_points_back():
    events = [deal("6-3 6-6 1-1", "3-3 3-0 2-2"), play(0, "6-3"), play(1, "3-3"),
              {"type": "annul", "reason": "misdeal"}]
    rep = report(THREES, events)
    assert rep["totals"] == [0, 0] and rep["rounds"][0]["scores"] == [0, 0]
    assert rep["rounds"][0]["outcome"] == "annulled"


MUGGINS_ROUND = [deal("5-5 6-6 1-1 2-2", "5-0 0-3 3-3 3-4"),
                 play(0, "5-5"),   # 10
                 play(1, "5-0"),   # 10 + 0: 10
                 knock(0),
                 play(1, "0-3"),   # 10 + 3
                 knock(0),
                 play(1, "3-3"),   # 10 + 6
                 knock(0),
                 play(1, "3-4")]   # 10 + 4; out: 6-6 1-1 2-2 left, 18 pips: 20


def test_pips_rounded_to_five():
    rep = report(MUGGINS, MUGGINS_ROUND)
    assert codes(rep) == []
    (round_,) = rep["rounds"]
    assert (round_["outcome"], round_["winner"], round_["points"], round_["pips"]) == (
        "domino", 1, 20, [18, 0])
    assert round_["scores"] == [10, 30] and rep["totals"] == [10, 30]
    assert report({**MUGGINS, "pips_round": 1}, MUGGINS_ROUND)["totals"] == [10, 28]
    assert [rounded(n, 5) for n in (10, 12, 13, 15, 17, 18)] == [10, 10, 15, 15, 15, 20]


def test_the_points_examples_are_refereed_as_shipped():
    """examples/fives-and-threes-pairs.jsonl and all-fives.jsonl: legal, finished, the pairs
    match won at 61 exactly, the All Fives match with tiles laid on the spinner's arms."""
    from pathlib import Path

    from referee.core.log import read_log
    from referee.core.match import Match

    root = Path(__file__).resolve().parents[2] / "examples"
    for name, rules, players in (("fives-and-threes-pairs", "fives-and-threes", 4),
                                 ("all-fives", "all-fives", 2)):
        log = read_log((root / f"{name}.jsonl").read_text(encoding="utf-8"))
        assert log.header.rules == resolve_rules(rules, players)
        rep = build_report(replay(log.header.rules, log.header.players, log.events))
        assert rep["valid"] and rep["finished"] and sum(rep["totals"]) > 0
        assert all("scored" in r and len(r["scores"]) == log.header.rules.sides
                   for r in rep["rounds"])
        if name == "fives-and-threes-pairs":
            assert log.header.rules.partnerships and max(rep["totals"]) == 61
        else:
            match = Match(log.header.rules, log.header.players)
            match.push_all(log.events)
            arms = [entry for round_ in match.rounds for entry in round_.trail
                    if entry[1] == "play" and entry[4] in ("U", "D")]
            assert arms  # tiles went on the spinner's arms


def test_a_block_whose_winner_awaits_the_reveals_leaves_the_next_opener_unchecked():
    rules = {"preset": "fives-and-threes", "hand_size": 2, "later_opener": "winner"}
    closed = [deal(None, None, None, None), *PARTNERS[1:], deal(None, None, None, None),
              play(2, "5-5")]
    assert codes(report(rules, closed, 4)) == []
    # shown, the block's winner is side 0, whose seat with fewer pips leads: seat 2 (out, 0)
    shown = [*closed[:-2], reveal(0, ["1-1"]), reveal(3, ["5-5"]), deal(None, None, None, None),
             play(0, "5-5")]
    assert codes(report(rules, shown, 4)) == [(17, "wrong_opener", 0)]
    assert codes(report(rules, [*shown[:-1], play(2, "5-5")], 4)) == []


def test_the_legal_plays_offer_the_arms_and_say_which_end():
    from referee.core.match import Match
    from referee.core.position import position

    match = Match(resolve_rules(FIVES, 2), NAMES[:2])
    # the arms open (5 and 5), the line's ends 3 and 0; seat 1 holds 5-2 and 6-5 (either arm:
    # alike, the pip says it) and 3-0 (the 3 or the 0 end, each its pip)
    assert match.push_all([deal("5-5 5-3 2-2 6-6", "5-0 5-2 3-0 6-5"), play(0, "5-5"),
                           play(1, "5-0"), play(0, "5-3")]) == []
    legal = position(match).legal
    assert legal["seat"] == 1 and legal["plays"] == [
        {"tile": "3-0", "end": 0}, {"tile": "3-0", "end": 3}, {"tile": "5-2", "end": 5},
        {"tile": "6-5", "end": 5}]
    # a 5-5 at one end and a plain 5 at the other: the pip would not say which, the side does
    muggins = Match(resolve_rules(MUGGINS, 2), NAMES[:2])
    assert muggins.push_all([deal("5-5 2-6 5-1 1-1", "5-2 6-5 3-3 4-4"), play(0, "5-5"),
                             play(1, "5-2"), play(0, "2-6"), play(1, "6-5", 6)]) == []
    assert position(muggins).legal["plays"] == [{"tile": "5-1", "end": "right"},
                                                {"tile": "5-1", "end": "left"}]
    for offered in legal["plays"]:  # each offered play is legal as written
        trial = Match(resolve_rules(FIVES, 2), NAMES[:2])
        trial.push_all([deal("5-5 5-3 2-2 6-6", "5-0 5-2 3-0 6-5"), play(0, "5-5"),
                        play(1, "5-0"), play(0, "5-3")])
        assert trial.push(play(1, offered["tile"], offered["end"])) is None
