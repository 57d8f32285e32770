"""An audit of the points family's contract (docs/rules.md "Points during play", docs/log.md
"Placing a tile", docs/report.md's rounds), sentence by sentence, as tests/core/
test_contract_audit.py does for the seeds' family: each test quotes the sentence it holds the
referee to, on a small hand-written record whose truth is worked out by hand in the comments.
What tests/core/test_core_points.py holds already (the count, what it is worth, placing, busts
of a play, the chip-out point, partners both out, closed recording scored at once) is not
repeated here."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from core_helpers import NAMES, deal, penalty, play, reveal
from core_helpers import pass_ as knock

from referee.core.outcomes import ANNULLED, AWAITING, BLOCKED, DOMINO, IN_PROGRESS, TARGET
from referee.core.replay import replay
from referee.core.report import build_report
from referee.core.rules import resolve_rules

ROOT = Path(__file__).resolve().parents[2]
# All Fives and Muggins with small hands and no boneyard, anyone leading; Fives and Threes with
# three tiles each: records short enough to work by hand.
FIVES = {"preset": "all-fives", "hand_size": 4, "draw": "none", "first_opener": "free"}
MUGGINS = {**FIVES, "spinner": "none"}
THREES = {"preset": "fives-and-threes", "hand_size": 3}
# Muggins: Ana leads 5-5 (10), Beto 5-0 (10 + 0: 10), then Beto goes out by himself while Ana
# knocks; Ana keeps 6-6 1-1 2-2, 18 pips: the domino scores 18, rounded to 20.
MUGGINS_ROUND = [deal("5-5 6-6 1-1 2-2", "5-0 0-3 3-3 3-4"), play(0, "5-5"), play(1, "5-0"),
                 knock(0), play(1, "0-3"), knock(0), play(1, "3-3"), knock(0), play(1, "3-4")]
# Muggins blocked: after 5-5, 5-0 and 0-4 the ends are 5 and 4; Ana (6-6 1-1 2-2: 18) and
# Beto (3-3 3-1: 10) both knock. Beto's side has fewer pips: it wins 18, rounded to 20.
MUGGINS_BLOCK = [deal("5-5 6-6 1-1 2-2", "5-0 0-4 3-3 3-1"), play(0, "5-5"), play(1, "5-0"),
                 knock(0), play(1, "0-4"), knock(0), knock(1)]


def report(spec: Any, events: list[Any], players: int = 2) -> dict[str, Any]:
    return build_report(replay(resolve_rules(spec, players), NAMES[:players], events))


def codes(rep: dict[str, Any]) -> list[tuple[int, str, int | None]]:
    return [(v["seq"], v["code"], v["seat"]) for v in rep["violations"]]


def outcome(rep: dict[str, Any], i: int = -1) -> tuple[str, int | None, int]:
    r = rep["rounds"][i]
    return r["outcome"], r["winner"], r["points"]


# ---------------------------------------------------------------- the target, penalties, busts

def test_a_penalty_never_busts_and_ends_the_match_mid_round() -> None:
    """rules.md: "A penalty never busts." The design: "Penalties always count", "one that
    reaches the target ends the match, its round staying in_progress"."""
    head = [deal("6-3 6-6 1-1", "3-3 3-0 0-0"), play(0, "6-3")]  # 9: 3 to Ana
    rep = report(THREES, [*head, penalty(1, 70), play(1, "3-3")])  # past 61 exactly: counted
    assert rep["totals"] == [3, 70] and rep["finished"] and rep["winner"] == 1
    assert outcome(rep) == (IN_PROGRESS, None, 0) and codes(rep) == [(4, "match_over", 1)]
    rep = report(THREES, [*head, penalty(1, 61)])
    assert rep["finished"] and rep["rounds"][0]["outcome"] == IN_PROGRESS
    assert rep["rounds"][0]["scores"] == [3, 0]  # "penalties are not part of a round's scores"


def test_pips_are_a_score_of_their_own_under_an_exact_target() -> None:
    """rules.md: "The points from pips are a score of their own (a bust of their own)." Muggins
    to an exact target: the plays make 10 each, the domino's 20 takes Beto to 30."""
    exact = {**MUGGINS, "exact_target": True}
    rep = report({**exact, "target": 29}, MUGGINS_ROUND)  # 30 is past 29: the pips bust
    assert outcome(rep) == (DOMINO, 1, 0) and rep["totals"] == [10, 10] and not rep["finished"]
    assert rep["rounds"][0]["scores"] == [10, 10]
    rep = report({**exact, "target": 30}, MUGGINS_ROUND)  # exactly 30: the match is won
    assert outcome(rep) == (DOMINO, 1, 20) and rep["totals"] == [10, 30] and rep["winner"] == 1


def test_end_scores_that_reach_the_target_leave_the_round_a_domino() -> None:
    """rules.md: "End scores that reach the target (the bonus without exact_target, the pips)
    leave the round domino or blocked, and the match ends with it." Muggins to 25: the pips'
    20 take Beto from 10 to 30."""
    rep = report({**MUGGINS, "target": 25}, MUGGINS_ROUND)
    assert outcome(rep) == (DOMINO, 1, 20) and rep["finished"] and rep["winner"] == 1
    rep = report({**MUGGINS, "target": 25}, MUGGINS_BLOCK)  # the block's 20 likewise
    assert outcome(rep) == (BLOCKED, 1, 20) and rep["finished"] and rep["totals"] == [10, 30]


def test_after_the_target_every_later_event_is_match_over() -> None:
    """rules.md: "nothing more is scored, later events are match_over". Fives and Threes to 4,
    not exact: Beto's 3-3 makes 12, 4 points, the target."""
    events = [deal("6-3 6-6 1-1", "3-3 3-0 0-0"), play(0, "6-3"), play(1, "3-3"),
              play(0, "6-6"), deal("1-1 2-2 3-3", "4-4 5-5 6-6")]
    rep = report({**THREES, "target": 4, "exact_target": False}, events)
    assert outcome(rep) == (TARGET, 1, 0) and rep["totals"] == [3, 4]
    assert codes(rep) == [(4, "match_over", 0), (5, "match_over", None)]
    assert len(rep["rounds"]) == 1


# ---------------------------------------------------------------- the lead, the bonus, rounding

def test_no_winning_on_the_down_reaching_the_target_exactly() -> None:
    """rules.md: "`not_to_win`: unless it would reach or pass the target ("no winning on the
    down"; no bust either)". From 58, the 6-3 led makes 9, 3 points: exactly 61."""
    events = [penalty(0, 58), deal("6-3 6-6 1-0", "3-3 4-1 2-0"), play(0, "6-3")]
    rep = report(THREES, events)
    assert rep["rounds"][0]["scored"] == [] and rep["totals"] == [58, 0] and not rep["finished"]
    assert report({**THREES, "lead_scores": "always"}, events)["finished"]


def test_the_bonus_never_on_a_block_and_a_block_of_none_has_a_winner() -> None:
    """The design: `out_bonus` "never on a block"; "a block with blocked_points: none still has
    a winner, who scores 0". Muggins blocked with a bonus of 5 and nothing from hands."""
    rules = {**MUGGINS, "out_bonus": 5, "blocked_points": "none"}
    rep = report(rules, MUGGINS_BLOCK)
    assert outcome(rep) == (BLOCKED, 1, 0) and rep["totals"] == [10, 10]


def test_pips_rounded_and_the_bonus_not() -> None:
    """rules.md: `pips_round` "round-end points from pips rounded to the nearest multiple ...;
    `out_bonus` is not rounded"; a block's points "rounded" too."""
    rep = report({**MUGGINS, "out_bonus": 1}, MUGGINS_ROUND)  # 1 + 18 rounded to 20
    assert outcome(rep) == (DOMINO, 1, 21) and rep["rounds"][0]["scores"] == [10, 31]
    assert outcome(report(MUGGINS, MUGGINS_BLOCK)) == (BLOCKED, 1, 20)  # 18 rounded to 20
    assert outcome(report({**MUGGINS, "pips_round": 1}, MUGGINS_BLOCK)) == (BLOCKED, 1, 18)


# ---------------------------------------------------------------- placing

def test_end_is_ignored_on_a_lead_and_an_arm_without_a_spinner_is_no_match() -> None:
    """log.md: "`end` is ignored on a lead"; "`"up"` and `"down"` name the spinner's arms
    (rules with `spinner: first_double`); one that is not open ... is `no_match`". Without a
    spinner there is none to open, and the finding says so."""
    head = [deal("5-5 6-6 1-1 2-2", "5-0 5-1 3-3 3-4"), {**play(0, "5-5"), "end": "up"}]
    assert report(FIVES, head)["valid"]
    rep = report(MUGGINS, [*head, play(1, "5-0", "up")])
    assert codes(rep) == [(3, "no_match", 1)]
    assert rep["violations"][0]["message"] == ("5-0 cannot go on the up arm: these rules have "
                                               "no spinner")
    rep = report(FIVES, [*head, play(1, "5-0", "down")])  # a spinner whose arms are shut
    assert codes(rep) == [(3, "no_match", 1)] and "arms are not open" in rep["violations"][0]["message"]


# ---------------------------------------------------------------- the report

def test_scores_in_every_family() -> None:
    """report.md: `scores` "(every family) ... In the seeds' family the winner's points at its
    side, 0 elsewhere; an annulled round's are 0"."""
    from referee.core import read_log

    log = read_log((ROOT / "examples" / "parejas.jsonl").read_bytes())
    rep = build_report(replay(log.header.rules, log.header.players, log.events))
    for r in rep["rounds"]:
        expected = [0, 0]
        if r["winner"] is not None:
            expected[r["winner"]] = r["points"]
        assert r["scores"] == expected and "scored" not in r, r
    assert [sum(r["scores"][s] for r in rep["rounds"]) for s in (0, 1)] == rep["totals"]
    rep = report("parejas", [deal("6-6 0-1 0-2 0-3 0-4 0-5 0-6", "1-1 1-2 1-3 1-4 1-5 1-6 0-0",
                                  "2-2 2-3 2-4 2-5 2-6 3-3 3-4", "3-5 3-6 4-4 4-5 4-6 5-5 5-6"),
                             {"type": "annul", "reason": "misdeal"}], 4)
    assert rep["rounds"][0]["outcome"] == ANNULLED and rep["rounds"][0]["scores"] == [0, 0]


def test_the_reports_round_entries_name_every_outcome() -> None:
    """docs/report.md's list of a round's fields and of the outcomes names each outcome the
    referee gives, `target` (the points family's) among them."""
    text = (ROOT / "docs" / "report.md").read_text(encoding="utf-8")
    entry = text[text.index("Each entry of `rounds`:"):text.index("How a round is scored")]
    named = set(re.findall(r"`([a-z_]+)`", entry))
    for code in (DOMINO, BLOCKED, ANNULLED, IN_PROGRESS, AWAITING, TARGET):
        assert code in named, code
    assert "`scores`" in entry and "`scored`" in entry


def test_a_closed_block_scored_at_once_fills_its_pips_with_the_reveals() -> None:
    """rules.md: a round whose end score needs no hand "is scored at once ...; the reveals are
    still accepted and checked, fill in the round's `pips`, and give such a block its `winner`
    (null until then)". Muggins blocked, nothing from hands, recorded closed."""
    rules = {**MUGGINS, "blocked_points": "none"}
    closed = [deal(None, None), *MUGGINS_BLOCK[1:]]
    r = report(rules, closed)["rounds"][0]
    assert (r["outcome"], r["winner"], r["points"], r["pips"]) == (BLOCKED, None, 0, None)
    shown = report(rules, [*closed, reveal(0, ["6-6", "1-1", "2-2"]), reveal(1, ["3-3", "3-1"])])
    r = shown["rounds"][0]
    assert (r["outcome"], r["winner"], r["points"], r["pips"]) == (BLOCKED, 1, 0, [18, 10])
    assert shown["valid"] and shown["totals"] == [10, 10]


# ---------------------------------------------------------------- knocks

def test_a_knock_while_able_proven_in_hindsight_is_said_as_a_knock() -> None:
    """rules.md: "Knocking is a `pass`: knocking while able to play is a `renege`, judged at
    once in the open and proven in hindsight in a closed record"; docs/glossary.md: the points
    family's players knock, so its findings say so. Closed Fives and Threes: Beto knocks on the
    6-6 led and later plays the 6-3 (nobody draws): proven at event 5. A knock that nothing
    proves is a suspicion, its facts said as a knock too. The seeds' games still pass."""
    proven = report(THREES, [deal(None, None), play(0, "6-6"), knock(1), play(0, "6-1"),
                             play(1, "6-3")])
    [foul] = proven["violations"]
    assert (foul["seq"], foul["code"], foul["found_at"]) == (3, "renege", 5)
    assert foul["message"] == ("Beto knocked holding a tile that fits 6, as its plays and "
                               "reveals up to event 5 prove")
    assert foul["evidence"][0] == {"seq": 3, "fact": "Beto knocked with the ends at 6 and 6"}
    # the dispute sheet's finding (violations_of without the report's findings) likewise
    from referee.core.disputes import violations_of

    events = [deal(None, None), play(0, "6-6"), knock(1), play(0, "6-1"), play(1, "6-3")]
    [sheet] = violations_of(replay(resolve_rules(THREES, 2), NAMES[:2], events))
    assert sheet.message == foul["message"]
    suspected = report(THREES, [deal(None, None), play(0, "6-6"), knock(1), play(0, "6-1")])
    [maybe] = suspected["suspicions"]
    assert maybe["evidence"][0]["fact"].startswith("Beto knocked with the ends at 6 and 6; ")
    seeds = report("parejas", [deal(None, None, None, None), play(0, "6-6"), knock(1),
                               play(2, "6-1"), play(3, "1-1"), play(0, "1-2"), play(1, "6-3")], 4)
    assert [v["message"] for v in seeds["violations"]] == [
        "Beto passed holding a tile that fits 6, as its plays and reveals up to event 7 prove"]


# ---------------------------------------------------------------- how a round ends

def test_a_locked_line_counts_the_spinners_arms() -> None:
    """The edge cases: "Locked line: right after a play, when every open end shows v (an empty
    arm shows the spinner's pip) and every tile bearing v is on the line". All Fives: the 6-6
    spins; its left runs 6-0 0-1 1-6, its right 6-2 2-3 3-6, its up arm 6-4 4-5 5-6, its down
    arm is empty (it shows 6). Beto's 5-6 lays the last six: locked at once."""
    rules = {**FIVES, "hand_size": 7}
    events = [deal("6-6 0-1 6-2 3-6 4-5 0-0 1-1", "6-0 1-6 2-3 6-4 5-6 2-2 3-3"),
              play(0, "6-6"), play(1, "6-0", "left"), play(0, "0-1"), play(1, "1-6", "left"),
              play(0, "6-2", "right"), play(1, "2-3"), play(0, "3-6", "right"),
              play(1, "6-4", "up"), play(0, "4-5"), play(1, "5-6", "up")]
    rep = report(rules, events)
    r = rep["rounds"][0]
    # Ana holds 0-0 1-1 (2), Beto 2-2 3-3 (10): Ana's side wins Beto's 10 (rounded to 5s: 10)
    assert (r["outcome"], r["winner"], r["points"], r["blocked_by"], r["pips"]) == (
        BLOCKED, 0, 10, 1, [2, 10])
    assert codes(report(rules, [*events, knock(0)])) == [(12, "round_over", 0)]
    # one six short (the 5-6 still in hand, the up arm showing 5): no lock, Ana plays on
    assert report(rules, events[:-1])["rounds"][0]["outcome"] == IN_PROGRESS


def test_the_rules_say_how_a_points_round_ends() -> None:
    """docs/rules.md's "How a round ends" states the edge cases as the points family reads them
    (the design's edge cases name the arms and the seats still holding tiles), as the two tests
    above and tests/core/test_core_points.py's partners hold the referee to."""
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    ends = " ".join(text[text.index("## How a round ends"):text.index("## Scoring a round")].split())
    assert "an arm with no tile yet shows the spinner's pip" in ends
    assert "as many as the seats still holding tiles" in ends
    assert "`partners_out: both`, the second seat of a partnership to go out" in ends


def test_the_rules_table_names_every_parameter_and_value() -> None:
    """docs/rules.md's table of parameters names every parameter the rules take and every value
    of each that has a list of values (`none` for `domino_points` and `blocked_points` among
    them, the points family's parameters by name), as `referee.core.rules` takes them."""
    from referee.core.rules import CHOICES, PARAMETERS

    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    table = text[text.index("## The parameters"):text.index("What each value means")]
    rows = {}
    for line in table.splitlines():
        cells = line.split("|")
        if len(cells) > 3:
            for name in re.findall(r"`([a-z_]+)`", cells[1]):
                rows[name] = set(re.findall(r"`([a-z_0-9]+)`", cells[2]))
    assert set(PARAMETERS) <= set(rows), set(PARAMETERS) - set(rows)
    points = set(DEFAULTS_OF_POINTS)
    for name, values in CHOICES.items():
        if name not in points:
            assert {str(v) for v in values} <= rows[name], (name, values, rows[name])


DEFAULTS_OF_POINTS = ("scoring", "count", "spinner", "exact_target", "out_bonus", "partners_out",
                      "lead_scores", "pips_round")
