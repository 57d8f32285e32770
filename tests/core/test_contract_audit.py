"""An audit of the referee's contracts (the rules, the match log, the report and their edge cases:
docs/rules.md, docs/log.md, docs/report.md), sentence by sentence: each test quotes the sentence
of the design it holds the referee to.

Each test builds a small hand-written ``domino-log/1`` (explicit hands, so the truth is known),
runs it through the same path as ``domino validate`` (read_log, replay, build_report) and checks
the report against what the quoted sentence demands. Expected values are worked out by hand in
the comments, not taken from the implementation.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from core_helpers import POINTS_DEFAULTS
from core_helpers import deal as D
from core_helpers import draw as DR
from core_helpers import pass_ as PS
from core_helpers import penalty as PEN
from core_helpers import play as P
from core_helpers import reveal as RV
from core_helpers import void as VOID

from referee import LogError, build_report, read_log, replay
from referee.core.simulate import random_match

NAMES = ["Ana", "Beto", "Carla", "Dani", "Eva"]
DOMINO = str(Path(sys.executable).with_name("domino"))


# ---------------------------------------------------------------- builders


def header(rules: Any, players: int = 2, **extra: Any) -> dict[str, Any]:
    return {"format": "domino-log/1", "rules": rules, "players": NAMES[:players], **extra}


def text_of(rules: Any, players: int, events: list[Any]) -> str:
    return "".join(json.dumps(v) + "\n" for v in (header(rules, players), *events))


def report(rules: Any, events: list[Any], players: int = 2) -> dict[str, Any]:
    log = read_log(text_of(rules, players, events).encode())
    return build_report(replay(log.header.rules, log.header.players, log.events))


def match_of(rules: Any, events: list[Any], players: int = 2):
    log = read_log(text_of(rules, players, events))
    return replay(log.header.rules, log.header.players, log.events).match


def viol(rep: dict[str, Any]) -> list[tuple[int, str, int | None]]:
    return [(v["seq"], v["code"], v["seat"]) for v in rep["violations"]]


def rnd(rep: dict[str, Any], i: int = -1) -> tuple[str, int | None, int]:
    r = rep["rounds"][i]
    return r["outcome"], r["winner"], r["points"]


def last(rules: Any, events: list[Any], players: int = 2) -> tuple[str, int | None]:
    """(code, seat) of the last event's violation; every earlier event must be legal."""
    found = viol(report(rules, events, players))
    assert len(found) == 1 and found[0][0] == len(events), found
    return found[0][1], found[0][2]


def ok(rules: Any, events: list[Any], players: int = 2) -> dict[str, Any]:
    rep = report(rules, events, players)
    assert rep["valid"], viol(rep)
    return rep


ANNUL = {"type": "annul", "reason": "misdeal"}
NOTE = {"type": "note", "text": "tea"}


def FORFEIT(side: int) -> dict[str, Any]:
    return {"type": "forfeit", "side": side, "reason": "left"}


# Two seats, three tiles each, no drawing (mano-a-mano otherwise: highest_double, later next/free,
# domino opponents, blocked side_total/opponents, blocker_loses, target 50).
SMALL = {"preset": "mano-a-mano", "hand_size": 3, "draw": "none"}

# BLOCK: 6-6 (6|6), 6-4 right (6|4), 6-5 left (5|4), 5-3 left (3|4); seat 0 holds 1-1 (2), seat 1
# holds 2-2 (4): both pass, blocked by seat 1 (last to play); seat 0 wins 4 (opponents).
BLOCK_HANDS = ("6-6 6-5 1-1", "6-4 5-3 2-2")
BLOCK = [D(*BLOCK_HANDS), P(0, "6-6"), P(1, "6-4"), P(0, "6-5"), P(1, "5-3"), PS(0), PS(1)]
# DOMINO_0: seat 0 goes out at seq 6; seat 1 keeps 2-2 (4).
DOMINO_0 = [D("6-6 6-5 5-1", "6-4 4-3 2-2"), P(0, "6-6"), P(1, "6-4"), P(0, "6-5"), P(1, "4-3"),
            P(0, "5-1")]
# DOMINO_1: seat 1 goes out at seq 7; seat 0 keeps 1-1 and 2-2 (6).
DOMINO_1 = [D("6-6 1-1 2-2", "6-4 4-3 3-0"), P(0, "6-6"), P(1, "6-4"), PS(0), P(1, "4-3"), PS(0),
            P(1, "3-0")]


# ================================================================ Rules


PRESET_TABLE = {
    "mano-a-mano": {"max_pip": 6, "seats": 2, "partnerships": False, "hand_size": 7, "draw": "until_playable",
                        "reserve": 0, "first_opener": "highest_double", "later_opener": "next",
                        "later_opening_tile": "free", "domino_points": "opponents",
                        "blocked_compare": "side_total", "blocked_points": "opponents",
                        "blocked_tie": "blocker_loses", "target": 50},
    "parejas": {"max_pip": 6, "seats": 4, "partnerships": True, "hand_size": 7, "draw": "none", "reserve": 0,
                    "first_opener": "double_six", "later_opener": "first_rule",
                    "later_opening_tile": "forced", "domino_points": "opponents",
                    "blocked_compare": "side_total", "blocked_points": "opponents",
                    "blocked_tie": "blocker_loses", "target": 50},
    "veracruz": {"max_pip": 6, "seats": 3, "partnerships": False, "hand_size": 7, "draw": "one", "reserve": 0,
                     "first_opener": "highest_double", "later_opener": "next", "later_opening_tile": "free",
                     "domino_points": "all", "blocked_compare": "side_total", "blocked_points": "all",
                     "blocked_tie": "mano", "target": 100},
    "sircle": {"max_pip": 6, "seats": 2, "partnerships": False, "hand_size": 7, "draw": "until_playable",
                   "reserve": 2, "first_opener": "highest_double", "later_opener": "next",
                   "later_opening_tile": "free", "domino_points": "opponents",
                   "blocked_compare": "side_total", "blocked_points": "difference", "blocked_tie": "none",
                   "target": 100},
    "puerto-rico": {"max_pip": 6, "seats": 4, "partnerships": True, "hand_size": 7, "draw": "none", "reserve": 0,
                        "first_opener": "double_six", "later_opener": "puerto_rico",
                        "later_opening_tile": "free", "domino_points": "all",
                        "blocked_compare": "side_total", "blocked_points": "all", "blocked_tie": "none",
                        "target": 200},
}


@pytest.mark.parametrize("preset", PRESET_TABLE)
def test_presets_fill_every_parameter(preset: str) -> None:
    """"A preset fills them all" / the preset table; "The report's `rules` lists every parameter
    by name, resolved (no preset name)." """
    expected = PRESET_TABLE[preset]
    rep = ok(preset, [], expected["seats"])
    # the standard penalties (an extension: optional, none unless the match names them), and
    # the time limit (null in every preset)
    assert rep["rules"] == {**expected, "foul_points": None, "foul_share": None,
                            "time_limit": None, **POINTS_DEFAULTS}
    assert rep["rounds"] == [] and rep["finished"] is False and rep["winner"] is None
    assert rep["totals"] == [0] * (2 if expected["partnerships"] else expected["seats"])


def test_a_match_may_override_any_parameter() -> None:
    """"A preset fills them all; a match may override any." """
    rep = ok({"preset": "parejas", "target": 100, "draw": "until_playable", "reserve": 3,
              "hand_size": 5, "later_opening_tile": "free"}, [], 4)
    assert rep["rules"] == {**PRESET_TABLE["parejas"], "target": 100, "draw": "until_playable",
                            "reserve": 3, "hand_size": 5, "later_opening_tile": "free",
                            "foul_points": None, "foul_share": None, "time_limit": None,
                            **POINTS_DEFAULTS}


@pytest.mark.parametrize("preset, players, readable", [
    ("mano-a-mano", 2, True), ("mano-a-mano", 3, False), ("parejas", 4, True), ("parejas", 2, False),
    ("veracruz", 2, True), ("veracruz", 3, True), ("veracruz", 4, True), ("veracruz", 5, False),
    ("sircle", 2, True), ("sircle", 4, False), ("puerto-rico", 4, True), ("puerto-rico", 3, False),
])
def test_preset_seat_counts(preset: str, players: int, readable: bool) -> None:
    """"a preset's seat count (mano-a-mano 2, parejas 4, veracruz 2-4, sircle 2, puerto-rico 4)
    holds unless the match's rules name another" """
    if readable:
        assert read_log(text_of(preset, players, [])).header.rules.seats == players
    else:
        with pytest.raises(LogError) as error:
            read_log(text_of(preset, players, []))
        assert error.value.line == 1


def test_seats_named_by_the_match_and_partnerships_need_four() -> None:
    """"`seats` is always the number of players; ... holds unless the match's rules name another;
    partnerships need exactly 4 seats; the hands and the reserve must fit in the set." """
    assert read_log(text_of({"preset": "mano-a-mano", "seats": 3}, 3, [])).header.rules.seats == 3
    for rules, players in [({"preset": "mano-a-mano", "seats": 3}, 2),             # not the players
                           ({"preset": "veracruz", "partnerships": True}, 3),       # partnerships, 3
                           ({"preset": "mano-a-mano", "hand_size": 14, "reserve": 1}, 2),  # 29 > 28
                           ({"preset": "veracruz", "hand_size": 10}, 3)]:           # 30 > 28
        with pytest.raises(LogError):
            read_log(text_of(rules, players, []))
    assert read_log(text_of({"preset": "mano-a-mano", "hand_size": 14}, 2, [])).header.rules.hand_size == 14
    assert read_log(text_of({"preset": "veracruz", "partnerships": True}, 4, [])).header.rules.partnerships


def test_bigger_sets() -> None:
    """"`max_pip` | 6, 9, 12 | the set: double-six (28 tiles), double-nine (55), double-twelve (91)";
    "`seats` | 2, 3, 4 (more with bigger sets)" """
    # double-nine: 9-9 exists, 10-0 does not; 2 hands of 27 fit 55 (1 left), 2 of 28 do not
    rules = {"preset": "mano-a-mano", "max_pip": 9, "hand_size": 27, "draw": "none",
             "first_opener": "free"}
    assert read_log(text_of(rules, 2, [])).header.rules.max_pip == 9
    with pytest.raises(LogError):
        read_log(text_of({**rules, "hand_size": 28}, 2, []))
    assert last({"preset": "mano-a-mano", "max_pip": 9}, [D(), P(0, "10-0")]) == ("unknown_tile", 0)
    ok({"preset": "mano-a-mano", "max_pip": 9}, [D(), P(0, "9-9")])
    ok({"preset": "mano-a-mano", "max_pip": 12}, [D(), P(0, "12-11")])
    # double-twelve: 91 tiles seat 6 players of 15
    assert read_log(text_of({"preset": "veracruz", "max_pip": 12, "hand_size": 15, "seats": 5}, 5, [])).header.rules.seats == 5


def test_a_side_is_a_partnership_or_a_seat() -> None:
    """"A *side* is a partnership in partnership play and a seat otherwise." """
    assert ok("parejas", [PEN(1, 3)], 4)["totals"] == [0, 3]
    assert ok({"preset": "veracruz", "partnerships": True}, [PEN(1, 3)], 4)["totals"] == [0, 3]
    assert ok("veracruz", [PEN(2, 3)], 4)["totals"] == [0, 0, 3, 0]
    assert last("parejas", [PEN(2, 3)], 4) == ("bad_event", None)  # side 2 does not exist


def test_turn_passes_to_the_next_seat() -> None:
    """"Turn passes from seat `i` to seat `i+1` (mod seats)" """
    rules = {"preset": "veracruz", "hand_size": 2, "draw": "none", "first_opener": "free"}
    # seat 2 leads; seat 0 is next (mod 3), then seat 1
    ok(rules, [D(), P(2, "6-6"), P(0, "6-5"), P(1, "5-5")], 3)
    assert last(rules, [D(), P(2, "6-6"), P(1, "6-5")], 3) == ("out_of_turn", 1)


def test_a_round_ends_by_domino_or_block() -> None:
    """"A round ends by **domino** (a seat plays its last tile) or **block** (no seat can play and no
    legal draw remains ...). The blocker is the seat that played last." """
    rep = ok(SMALL, DOMINO_0)
    assert rep["rounds"] == [{"round": 1, "opener": 0, "outcome": "domino", "winner": 0,
                              "points": 4, "pips": [0, 4], "blocked_by": None, "scores": [4, 0]}]
    rep = ok(SMALL, BLOCK)
    assert rep["rounds"] == [{"round": 1, "opener": 0, "outcome": "blocked", "winner": 0,
                              "points": 4, "pips": [2, 4], "blocked_by": 1, "scores": [4, 0]}]
    assert rep["totals"] == [4, 0]
    # the round is over: any further play or pass is round_over
    assert last(SMALL, [*BLOCK, PS(0)]) == ("round_over", 0)
    assert last(SMALL, [*DOMINO_0, P(1, "2-2")]) == ("round_over", 1)


# ================================================================ The match log


def test_rules_object_overrides_and_optional_header_fields() -> None:
    """"`rules` is a preset name, or an object `{"preset": "parejas", "target": 100, ...}` that
    overrides parameters. Optional header fields: `match`, `club`, `table`, `date` (ISO 8601),
    `event`." """
    text = json.dumps(header({"preset": "parejas", "target": 100}, 4, match="m1", club="c",
                             table="3", date="2026-03-01", event="cup")) + "\n"
    log = read_log(text)
    assert log.header.rules.target == 100 and log.header.rules.partnerships
    with pytest.raises(LogError):
        read_log(json.dumps(header("parejas", 4, date="yesterday")) + "\n")


def test_seq_field_must_equal_the_position() -> None:
    """"Its position is its sequence number (the header is 0, the first event 1); an optional `seq`
    field must equal it." """
    ok(SMALL, [{**D(*BLOCK_HANDS), "seq": 1}, {**P(0, "6-6"), "seq": 2}])
    assert last(SMALL, [D(*BLOCK_HANDS), {**P(0, "6-6"), "seq": 3}]) == ("bad_event", 0)
    assert last(SMALL, [D(*BLOCK_HANDS), {**P(0, "6-6"), "seq": "2"}]) == ("bad_event", 0)
    assert last(SMALL, [{**D(*BLOCK_HANDS), "seq": 0}]) == ("bad_event", None)


def test_a_tile_reads_either_way_round() -> None:
    """"Tiles are strings `"6-5"`; `"5-6"` is the same tile." """
    rep = ok(SMALL, [D("6-6 5-6 1-1", "4-6 5-3 2-2"), P(0, "6-6"), P(1, "6-4"), P(0, "5-6"),
                     P(1, "3-5"), PS(0), PS(1)])
    assert rnd(rep) == ("blocked", 0, 4)
    # the same tile twice in a deal, once each way round, is a tile dealt twice
    assert last(SMALL, [D("6-6 6-5 5-6", "6-4 5-3 2-2")]) == ("bad_event", None)


@pytest.mark.parametrize("event", [
    {"type": "deal", "hands": [["6-6", "6-5", "1-1"], ["6-4", "5-3", "2-2"]]},
    {"type": "play", "seat": 0, "tile": "6-6", "end": 6}, {"type": "draw", "seat": 0},
    {"type": "draw", "seat": 0, "tile": "3-3"}, {"type": "pass", "seat": 0},
    {"type": "reveal", "seat": 0, "tiles": ["1-1"]}, {"type": "reveal", "seat": 0, "pips": 2},
    {"type": "penalty", "side": 0, "points": 2, "reason": "r"},
    {"type": "void", "target": 1, "reason": "r"}, {"type": "annul", "reason": "r"},
    {"type": "forfeit", "side": 0, "reason": "r"}, {"type": "note", "text": "t"},
])
def test_every_event_type_is_usable(event: dict[str, Any]) -> None:
    """The event table: `deal`, `play`, `draw`, `pass`, `reveal`, `penalty`, `void`, `annul`,
    `forfeit`, `note` with their fields (`?` optional). None of these is a bad_event."""
    rep = report({"preset": "mano-a-mano", "hand_size": 3}, [NOTE, event])
    assert all(v["code"] != "bad_event" for v in rep["violations"]), viol(rep)


# ================================================================ The report


def test_report_shape() -> None:
    """The `domino-report/1` document: format, rules, valid, violations (seq, code, certainty,
    seat, message), rounds (round, opener, outcome, winner, points, pips, blocked_by), totals,
    finished, winner."""
    rep = report(SMALL, [*BLOCK, PS(0)])
    assert list(rep) == ["format", "rules", "valid", "violations", "rounds", "totals", "finished",
                         "winner", "suspicions", "disputes"]  # "always present (possibly empty)"
    assert rep["format"] == "domino-report/1" and rep["valid"] is False
    (v,) = rep["violations"]
    assert set(v) == {"seq", "code", "certainty", "seat", "message"}
    assert (v["seq"], v["code"], v["certainty"], v["seat"]) == (8, "round_over", "proven", 0)
    assert isinstance(v["message"], str) and v["message"]
    assert set(rep["rounds"][0]) == {"round", "opener", "outcome", "winner", "points", "pips",
                                     "blocked_by", "scores"}
    json.dumps(rep)


def _validate(tmp_path: Path, *texts: bytes | str, as_json: bool = True):
    paths = []
    for i, text in enumerate(texts):
        path = tmp_path / f"log{i}.jsonl"
        path.write_bytes(text.encode() if isinstance(text, str) else text)
        paths.append(str(path))
    args = [DOMINO, "validate", *paths] + (["--json"] if as_json else [])
    done = subprocess.run(args, capture_output=True, timeout=60, check=False)
    lines = [json.loads(line) for line in done.stdout.decode().splitlines()] if as_json else []
    return done.returncode, lines, paths


@pytest.mark.slow  # starts a process
@pytest.mark.skipif(not Path(DOMINO).exists(), reason="the domino script is not installed")
def test_validate_exit_codes_and_json_lines(tmp_path: Path) -> None:
    """"`domino validate LOG...` takes one or more logs (with `--json`, one report per line, in
    order). It exits 0 when every log is valid, 1 when any holds violations, 2 when one cannot be
    read (with the file, the line number and what is wrong). An unreadable log does not stop the
    others: in its place `--json` prints `{"format": "domino-report/1", "file": F, "error":
    {"line": N, "message": M}}`." """
    good = text_of(SMALL, 2, BLOCK)
    bad = text_of(SMALL, 2, [*BLOCK, PS(0)])
    unreadable = text_of(SMALL, 2, BLOCK[:3]) + "{not json\n" + json.dumps(PS(0)) + "\n"
    assert _validate(tmp_path, good)[0] == 0
    code, lines, _ = _validate(tmp_path, good, bad)
    assert code == 1 and [r["valid"] for r in lines] == [True, False]
    code, lines, paths = _validate(tmp_path, good, unreadable, bad)
    assert code == 2 and len(lines) == 3
    assert lines[1] == {"format": "domino-report/1", "file": paths[1],
                        "error": {"line": 5, "message": lines[1]["error"]["message"]}}
    assert lines[1]["error"]["message"]
    assert lines[0]["valid"] is True and lines[2]["valid"] is False
    assert _validate(tmp_path, unreadable, good)[0] == 2
    code, _, _ = _validate(tmp_path, bad, unreadable, as_json=False)
    assert code == 2


# ================================================================ Edge cases: reading a log


@pytest.mark.parametrize("data, line", [
    (text_of(SMALL, 2, BLOCK[:2]).encode() + b'{"type": "note", "text": "\xff"}\n', 4),
    (text_of(SMALL, 2, BLOCK[:2]) + "{'type': 'pass'}\n", 4),
    (text_of(SMALL, 2, BLOCK[:2]) + "\n" + json.dumps(PS(1)) + "\n", 4),
    (text_of(SMALL, 2, BLOCK[:2]) + "   \n" + json.dumps(PS(1)) + "\n", 4),
    (json.dumps({**header(SMALL), "format": "domino-log/2"}) + "\n", 1),
    (json.dumps({**header(SMALL), "players": "Ana, Beto"}) + "\n", 1),
    (json.dumps({**header(SMALL), "players": ["Ana"]}) + "\n", 1),
    (json.dumps(header({"preset": "mano-a-mano", "colour": "red"})) + "\n", 1),
    (json.dumps(header({"preset": "mano-a-mano", "draw": "two"})) + "\n", 1),
    (json.dumps(header("dominoes")) + "\n", 1),
    (json.dumps(header({"preset": "mano-a-mano", "hand_size": 15})) + "\n", 1),
    (json.dumps(header({"preset": "sircle", "hand_size": 14})) + "\n", 1),  # 28 + reserve 2
    ("[1, 2]\n", 1),
])
def test_unreadable_logs(data: bytes | str, line: int) -> None:
    """"Unreadable (exit 2): text that is not UTF-8, a line that is not JSON, a blank line before
    the last event, a bad header (format, players, an unknown rule parameter or value, hands that
    do not fit the set)." """
    with pytest.raises(LogError) as error:
        read_log(data)
    assert error.value.line == line


def test_blank_lines_after_the_last_event_are_not_an_error() -> None:
    """"a blank line before the last event" is unreadable; after it, nothing is wrong."""
    log = read_log(text_of(SMALL, 2, BLOCK) + "\n\n  \n")
    assert len(log.events) == len(BLOCK)


@pytest.mark.parametrize("event, seat", [
    (["play", 0, "6-6"], None),                       # not an object
    ("pass", None),
    ({"seat": 0, "tile": "6-6"}, None),               # missing type
    ({"type": "slam", "seat": 0}, None),              # unknown type
    ({"type": "play", "tile": "6-6"}, None),          # missing seat
    ({"type": "play", "seat": 0}, 0),                 # missing tile
    ({"type": "play", "seat": "0", "tile": "6-6"}, None),  # ill-typed seat
    ({"type": "play", "seat": 1.0, "tile": "6-6"}, None),
    ({"type": "play", "seat": True, "tile": "6-6"}, None),
    ({"type": "play", "seat": 2, "tile": "6-6"}, None),    # seat out of range
    ({"type": "play", "seat": -1, "tile": "6-6"}, None),
    ({"type": "pass"}, None),
    ({"type": "draw", "seat": 5}, None),
    ({"type": "reveal", "seat": 0}, 0),               # neither tiles nor pips
    ({"type": "reveal", "seat": 0, "tiles": "1-1"}, 0),
    ({"type": "reveal", "seat": 0, "pips": "2"}, 0),
    ({"type": "penalty", "side": 0, "points": 2}, None),          # reason is required
    ({"type": "penalty", "side": 2, "points": 2, "reason": "r"}, None),  # side out of range
    ({"type": "penalty", "side": 0, "points": 2.5, "reason": "r"}, None),
    ({"type": "penalty", "side": 0, "reason": "r"}, None),
    ({"type": "void", "target": 1}, None),
    ({"type": "annul"}, None),
    ({"type": "annul", "reason": 3}, None),
    ({"type": "forfeit", "side": 0}, None),
    ({"type": "forfeit", "reason": "r"}, None),
    ({"type": "note"}, None),
    ({"type": "note", "text": None}, None),
])
def test_bad_event_shapes(event: Any, seat: int | None) -> None:
    """"`bad_event` (reported; the event is ignored): a line that is JSON but not a usable event
    (not an object, unknown or missing `type`, a missing or ill-typed field, a seat or side out of
    range, ...). Every field without `?` in the event table is required (`reason` and `text`
    too)." and "A violation's `seat` is the acting seat for play, draw, pass and reveal, otherwise
    `null`." """
    events = [D(*BLOCK_HANDS), event, P(0, "6-6")]
    assert viol(report(SMALL, events)) == [(2, "bad_event", seat)]  # ignored: 6-6 still leads


@pytest.mark.parametrize("events, code", [
    ([D(*BLOCK_HANDS), D(*BLOCK_HANDS)], "bad_event"),                  # round in progress
    ([D("6-6 6-5 1-1")], "bad_event"),                                  # one hand for two seats
    ([D("6-6 6-5 1-1", "6-4 5-3 2-2", None)], "bad_event"),             # three hands
    ([D("6-6 6-5 1-1", "6-4 5-3")], "bad_event"),                       # a hand of 2
    ([D("6-6 6-5 1-1 0-0", None)], "bad_event"),                        # a hand of 4
    ([D("6-6 6-5 1-1", "6-4 6-5 2-2")], "bad_event"),                   # 6-5 dealt twice
    ([D("6-6 6-6 1-1", "6-4 5-3 2-2")], "bad_event"),                   # twice in one hand
    ([NOTE, VOID(3)], "bad_event"),                                     # void of a later event
    ([NOTE, VOID(2)], "bad_event"),                                     # void of itself
    ([NOTE, VOID(0)], "bad_event"),                                     # void of the header
])
def test_bad_event_deals_and_voids(events: list[Any], code: str) -> None:
    """"a `deal` while a round is in progress, or one with the wrong number of hands, a hand of the
    wrong size or a tile dealt twice; a `void` whose target is not an earlier event." """
    assert last(SMALL, events) == (code, None)


@pytest.mark.parametrize("tile, code", [
    (66, "bad_event"), (None, "bad_event"), (["6", "6"], "bad_event"), ({"a": 6}, "bad_event"),
    ("6-7", "unknown_tile"), ("7-7", "unknown_tile"), ("66", "unknown_tile"), ("6:6", "unknown_tile"),
    ("6-6 ", "unknown_tile"), (" 6-6", "unknown_tile"), ("\uff16-6", "unknown_tile"),
    ("\u0666-6", "unknown_tile"), ("-6-6", "unknown_tile"), ("6--6", "unknown_tile"), ("", "unknown_tile"),
    ("6-6-6", "unknown_tile"), ("a-b", "unknown_tile"),
])
def test_tile_not_a_string_vs_unknown_tile(tile: Any, code: str) -> None:
    """"A tile that is not a string is `bad_event`; a string that is not `a-b` (ASCII digits) or
    names a pip above `max_pip` is `unknown_tile`." """
    assert last(SMALL, [D(*BLOCK_HANDS), {"type": "play", "seat": 0, "tile": tile}]) == (code, 0)
    # the same for a drawn tile, a revealed tile and a dealt tile
    until = {"preset": "mano-a-mano", "hand_size": 3}
    if tile is not None:
        assert last(until, [D(*BLOCK_HANDS), P(0, "6-6"), P(1, "6-4"), P(0, "6-5"), P(1, "5-3"),
                            DR(0, tile)]) == (code, 0)
        assert last(until, [D(*BLOCK_HANDS), RV(0, [tile, "6-5", "1-1"])]) == (code, 0)
        assert last(until, [D([tile, "6-5", "1-1"], "6-4 5-3 2-2")]) == (code, None)


def test_end_values() -> None:
    """"`end` is an integer or one of `"left"`, `"right"`, `"up"`, `"down"` (anything else is
    `bad_event`) and is ignored on a lead; an integer that is not an open end the tile fits, or an
    arm that is not open, is `no_match`." """
    base = [D(*BLOCK_HANDS), P(0, "6-6"), P(1, "6-4")]  # ends 6|4, seat 0 holds 6-5 1-1
    for end in ("6", "LEFT", 6.0, True, [6], {"end": 6}, "middle"):
        assert last(SMALL, [*base, P(0, "6-5", end)]) == ("bad_event", 0), end
    assert last(SMALL, [*base, P(0, "6-5", 4)]) == ("no_match", 0)   # an open end it does not fit
    assert last(SMALL, [*base, P(0, "6-5", 5)]) == ("no_match", 0)   # not an open end
    assert last(SMALL, [*base, P(0, "6-5", -1)]) == ("no_match", 0)
    assert last(SMALL, [*base, P(0, "6-5", "right")]) == ("no_match", 0)
    ok(SMALL, [*base, P(0, "6-5", 6)])
    ok(SMALL, [*base, P(0, "6-5", "left")])
    # on a lead any usable end is ignored, even one no tile could fit
    for end in (9, -3, 0, "right", "left"):
        rep = ok(SMALL, [D(*BLOCK_HANDS), P(0, "6-6", end), P(1, "6-4")])
        assert rep["valid"]
    assert ok(SMALL, [D(*BLOCK_HANDS), P(0, "6-6", "up")])["valid"]  # ignored on a lead
    for arm in ("up", "down"):  # no spinner in these rules: no arm is ever open
        assert last(SMALL, [*base, P(0, "6-5", arm)]) == ("no_match", 0)


def test_reveal_before_the_first_deal_and_during_a_round() -> None:
    """"A `reveal` before the first deal is `round_over`; during a round it is checked against the
    current hand like any other." """
    assert last(SMALL, [RV(0, "6-6 6-5 1-1")]) == ("round_over", 0)
    assert last(SMALL, [RV(1, pips=0)]) == ("round_over", 1)
    ok(SMALL, [D(*BLOCK_HANDS), RV(1, "2-2 5-3 6-4"), RV(0, pips=25)])
    assert last(SMALL, [D(*BLOCK_HANDS), RV(1, "2-2 5-3 6-3")]) == ("reveal_mismatch", 1)
    assert last(SMALL, [D(*BLOCK_HANDS), P(0, "6-6"), RV(0, "6-6 6-5 1-1")]) == ("reveal_mismatch", 0)
    assert last(SMALL, [D(*BLOCK_HANDS), P(0, "6-6"), RV(0, pips=25)]) == ("reveal_mismatch", 0)
    ok(SMALL, [D(*BLOCK_HANDS), P(0, "6-6"), RV(0, pips=13)])


# ================================================================ Edge cases: violations

UNTIL3 = {"preset": "mano-a-mano", "hand_size": 3}  # until_playable, 22 tiles in the boneyard
OVER = [PEN(0, 50)]  # the match is over before any deal (target 50)
MID = [D(*BLOCK_HANDS), P(0, "6-6"), PEN(1, 50)]  # over in the middle of round 1
# after AFTER_LEAD, ends are 6|4 and seat 0 (holding 6-5 1-1) is to play
AFTER_LEAD = [D(*BLOCK_HANDS), P(0, "6-6"), P(1, "6-4")]


@pytest.mark.parametrize("events, expected", [
    # shape before match_over
    ([*OVER, P(7, "6-6")], ("bad_event", None)),
    ([*MID, {"type": "play", "seat": 0}], ("bad_event", 0)),
    # match_over before round_over (no round dealt, or the round over)
    ([*OVER, P(0, "6-6")], ("match_over", 0)),
    ([*BLOCK, PEN(0, 50), P(0, "1-1")], ("match_over", 0)),
    # round_over before unknown_tile: before the first deal and after the round ended
    ([P(0, "9-9")], ("round_over", 0)),
    ([*BLOCK, P(0, "9-9")], ("round_over", 0)),
    ([*BLOCK, P(0, "1-1")], ("round_over", 0)),
    # unknown_tile before whose turn
    ([*AFTER_LEAD, P(1, "7-7")], ("unknown_tile", 1)),
    ([D(*BLOCK_HANDS), P(1, "7-7")], ("unknown_tile", 1)),
    # whose turn before the tile's place: wrong_opener for another seat's lead, else out_of_turn
    ([D(*BLOCK_HANDS), P(1, "6-6")], ("wrong_opener", 1)),
    ([D(*BLOCK_HANDS), P(1, "6-4")], ("wrong_opener", 1)),
    ([*AFTER_LEAD, P(1, "6-6")], ("out_of_turn", 1)),
    ([*AFTER_LEAD, P(1, "5-3")], ("out_of_turn", 1)),
    # tile_already_played before not_in_hand
    ([*AFTER_LEAD, P(0, "6-4")], ("tile_already_played", 0)),
    ([*AFTER_LEAD, P(0, "5-3")], ("not_in_hand", 0)),
    ([*AFTER_LEAD, P(0, "4-4")], ("not_in_hand", 0)),  # in the boneyard
    # not_in_hand before wrong_opening_tile (the lead must be the 6-6) and before no_match
    ([D(*BLOCK_HANDS), P(0, "5-3")], ("not_in_hand", 0)),
    ([D(*BLOCK_HANDS), P(0, "6-5")], ("wrong_opening_tile", 0)),
    ([*AFTER_LEAD, P(0, "2-2")], ("not_in_hand", 0)),
    # no_match, then ambiguous_end
    ([*AFTER_LEAD, P(0, "1-1")], ("no_match", 0)),
    ([*AFTER_LEAD, P(0, "1-1", 6)], ("no_match", 0)),
])
def test_check_order_for_a_play(events: list[Any], expected: tuple[str, int | None]) -> None:
    """"One violation per event: the first failing check in this order: the event's shape
    (`bad_event`); `match_over`; `round_over` (also a play, draw or pass before the first deal or
    after the round ended ...); the tiles named (`unknown_tile`); whose turn (`wrong_opener` for
    another seat's lead, else `out_of_turn`); then by type. A play: `tile_already_played` (the tile
    is on the line), `not_in_hand` (elsewhere), `wrong_opening_tile`, `no_match`,
    `ambiguous_end`." """
    assert last(SMALL, events) == expected


def test_no_match_comes_before_ambiguous_end() -> None:
    """"A play: ... `no_match`, `ambiguous_end`." and "`end` is required only when the tile fits
    both ends and the two ends differ." """
    # 6-6 (6|6), 6-5 right (6|5), 6-3 left (3|5): seat 1's 5-3 fits both ends, which differ
    events = [D("6-6 6-3 1-1", "6-5 5-3 2-2"), P(0, "6-6"), P(1, "6-5"), P(0, "6-3")]
    assert last(SMALL, [*events, P(1, "5-3")]) == ("ambiguous_end", 1)
    assert last(SMALL, [*events, P(1, "5-3", 4)]) == ("no_match", 1)
    assert last(SMALL, [*events, P(1, "5-3", 6)]) == ("no_match", 1)
    assert (match_of(SMALL, [*events, P(1, "5-3", 3)]).left, match_of(SMALL, [*events, P(1, "5-3", 3)]).right) == (5, 5)
    assert (match_of(SMALL, [*events, P(1, "5-3", 5)]).left, match_of(SMALL, [*events, P(1, "5-3", 5)]).right) == (3, 3)
    m = match_of(SMALL, [*events, P(1, "5-3", "right")])
    assert (m.left, m.right) == (3, 3)
    m = match_of(SMALL, [*events, P(1, "5-3", "left")])
    assert (m.left, m.right) == (5, 5)


# UNTIL3 after these: ends 3|4, seat 0 (holding 1-1) to play, 22 tiles in the boneyard
U_BLOCK = [D(*BLOCK_HANDS), P(0, "6-6"), P(1, "6-4"), P(0, "6-5"), P(1, "5-3")]


@pytest.mark.parametrize("rules, events, expected", [
    (UNTIL3, [*OVER, DR(9)], ("bad_event", None)),
    (UNTIL3, [*OVER, DR(0)], ("match_over", 0)),
    (UNTIL3, [*OVER, DR(0, "9-9")], ("match_over", 0)),
    (UNTIL3, [DR(0)], ("round_over", 0)),
    (UNTIL3, [DR(0, "9-9")], ("round_over", 0)),
    (SMALL, [*BLOCK, DR(0)], ("round_over", 0)),
    (UNTIL3, [*U_BLOCK, DR(1, "9-9")], ("unknown_tile", 1)),        # unknown_tile before turn
    (UNTIL3, [*U_BLOCK, DR(1)], ("out_of_turn", 1)),
    (SMALL, [*U_BLOCK, DR(1)], ("out_of_turn", 1)),                 # turn before illegal_draw
    (SMALL, [*U_BLOCK, DR(0)], ("illegal_draw", 0)),                # no drawing in these rules
    (SMALL, [*U_BLOCK, DR(0, "6-6")], ("illegal_draw", 0)),         # illegal_draw before place
    (UNTIL3, [*U_BLOCK, DR(0, "6-6")], ("tile_already_played", 0)),
    (UNTIL3, [*U_BLOCK, DR(0, "2-2")], ("not_in_hand", 0)),         # in seat 1's hand
    (UNTIL3, [*U_BLOCK, DR(0, "1-1")], ("not_in_hand", 0)),         # in his own hand
    (UNTIL3, [*AFTER_LEAD, DR(0, "6-6")], ("illegal_draw", 0)),     # holds 6-5, which fits
    (UNTIL3, [*AFTER_LEAD, DR(0, "0-0")], ("illegal_draw", 0)),
])
def test_check_order_for_a_draw(rules: Any, events: list[Any], expected: Any) -> None:
    """"A draw: `illegal_draw` (no drawing in these rules, the boneyard at or below the reserve, a
    playable tile held, a second draw under `one`), then the drawn tile's place
    (`tile_already_played` or `not_in_hand`)." after shape, match_over, round_over, unknown_tile,
    whose turn."""
    assert last(rules, events) == expected


@pytest.mark.parametrize("rules, events, expected", [
    (UNTIL3, [*OVER, PS(0)], ("match_over", 0)),
    (UNTIL3, [PS(0)], ("round_over", 0)),
    (UNTIL3, [*AFTER_LEAD, PS(1)], ("out_of_turn", 1)),         # turn before renege
    (UNTIL3, [*AFTER_LEAD, PS(0)], ("renege", 0)),              # renege before must_draw
    (UNTIL3, [*U_BLOCK, PS(0)], ("must_draw", 0)),
    (SMALL, [*AFTER_LEAD, PS(0)], ("renege", 0)),
])
def test_check_order_for_a_pass(rules: Any, events: list[Any], expected: Any) -> None:
    """"A pass: `renege`, then `must_draw`." after match_over, round_over and whose turn."""
    assert last(rules, events) == expected


@pytest.mark.parametrize("events, expected", [
    ([*OVER, {"type": "deal", "hands": "all"}], ("bad_event", None)),       # its shape
    ([*OVER, D(*BLOCK_HANDS)], ("match_over", None)),                       # match_over
    ([*MID, D("6-6 6-5 9-9", "6-4")], ("match_over", None)),
    ([D(*BLOCK_HANDS), D("6-6 6-5 9-9", "6-4")], ("bad_event", None)),      # in progress
    ([D("6-6 6-5 9-9")], ("unknown_tile", None)),                           # unknown_tile ...
    ([D("6-6 6-5 1-1", "6-4 5-3 2-2", "3-3 0-0 7-0")], ("unknown_tile", None)),  # over all tiles
    ([D("6-6 6-5", "6-4 5-3 2-2 4-4 0-0 1-0 x")], ("unknown_tile", None)),
    ([D("6-6 6-6 6-6", "6-4 5-3 2-2", None)], ("bad_event", None)),        # then number ...
])
def test_check_order_for_a_deal(events: list[Any], expected: Any) -> None:
    """"A deal: its shape; `match_over`; a round still in progress (`bad_event`); `unknown_tile`
    over all its tiles; then the number and size of the hands and any tile dealt twice
    (`bad_event`)." """
    assert last(SMALL, events) == expected


@pytest.mark.parametrize("events, expected", [
    ([ANNUL], ("round_over", None)),                         # no round dealt yet
    ([*BLOCK, ANNUL], ("round_over", None)),                 # the round is over
    ([D(*BLOCK_HANDS), ANNUL, ANNUL], ("round_over", None)),  # already annulled
    ([*OVER, ANNUL], ("match_over", None)),
    ([*MID, ANNUL], ("match_over", None)),                   # a round in progress, but over
    ([*MID, {"type": "annul"}], ("bad_event", None)),
    ([*MID, PEN(0, 1)], ("match_over", None)),
    ([*MID, FORFEIT(0)], ("match_over", None)),
    ([*MID, {"type": "forfeit", "side": 3, "reason": "r"}], ("bad_event", None)),
])
def test_check_order_for_rulings(events: list[Any], expected: Any) -> None:
    """"`round_over` (... and an `annul` with no round in progress)"; match_over for `penalty`,
    `annul`, `forfeit` after the match; shape first; the seat of these is `null`."""
    assert last(SMALL, events) == expected


@pytest.mark.parametrize("events, expected", [
    ([*OVER, RV(5, pips=1)], ("bad_event", None)),
    ([*OVER, RV(0, ["9-9"])], ("round_over", 0)),            # before the first deal
    ([D(*BLOCK_HANDS), RV(0, ["9-9", "6-6", "1-1"])], ("unknown_tile", 0)),
    ([D(*BLOCK_HANDS), RV(0, ["6-6", "1-1"])], ("reveal_mismatch", 0)),
])
def test_check_order_for_a_reveal(events: list[Any], expected: Any) -> None:
    """A reveal: shape; `round_over` before the first deal; `unknown_tile`; `reveal_mismatch` (and
    never `match_over`: "`note`, `reveal` and `void` are still accepted")."""
    assert last(SMALL, events) == expected


def test_one_violation_per_event_and_not_applied() -> None:
    """"One violation per event" and "An event with a violation is reported and **not applied**:
    the state stays as it was, and later events are judged against that state." """
    # each bad event once; the good ones after it are judged as if it were not there
    events = [D(*BLOCK_HANDS), P(1, "7-7"), P(0, "6-5"), P(0, "6-6"), P(0, "6-5"), P(1, "6-4"),
              PS(0), P(0, "6-5"), P(1, "5-3"), PS(0), PS(1)]
    rep = report(SMALL, events)
    assert viol(rep) == [(2, "unknown_tile", 1), (3, "wrong_opening_tile", 0), (5, "out_of_turn", 0),
                         (7, "renege", 0)]
    assert rep["rounds"][0] == {"round": 1, "opener": 0, "outcome": "blocked", "winner": 0,
                                "points": 4, "pips": [2, 4], "blocked_by": 1, "scores": [4, 0]}
    # a refused deal deals nothing; a refused penalty scores nothing; a refused draw draws nothing
    assert viol(report(SMALL, [D("6-6 6-5"), P(0, "6-6")])) == [(1, "bad_event", None), (2, "round_over", 0)]
    rep = report(SMALL, [*MID, PEN(0, 10)])
    assert rep["totals"] == [0, 50]
    # the refused draw of 2-2 does not put it in seat 0's hand: playing it is still not_in_hand
    rep = report(UNTIL3, [*U_BLOCK, DR(0, "2-2"), DR(0, "4-2"), P(0, "2-2")])
    assert viol(rep) == [(6, "not_in_hand", 0), (8, "not_in_hand", 0)]
    # a refused reveal does not make the hand known (a pips reveal)
    rep = report(SMALL, [D(None, None), P(0, "6-6"), P(1, "6-4"), P(0, "6-5"), P(1, "5-3"), PS(0),
                         PS(1), RV(0, pips=1), RV(0, ["6-6", "1-1"]), RV(1, pips=4)])
    assert viol(rep) == [(9, "reveal_mismatch", 0)]
    assert rnd(rep) == ("blocked", 0, 4)  # pips 1 vs 4: seat 0 wins, the bad reveal changed nothing


def test_proven_and_the_violation_seat() -> None:
    """"In open recording every violation is `"certainty": "proven"`. A violation's `seat` is the
    acting seat for play, draw, pass and reveal, otherwise `null`." """
    events = [D(*BLOCK_HANDS), PS(1), DR(1), P(1, "6-4"), RV(1, pips=3), ANNUL, P(0, "6-6"),
              D(*BLOCK_HANDS), NOTE, PEN(0, 50), PEN(0, 1), FORFEIT(1), D(*BLOCK_HANDS),
              {"type": "note"}]
    rep = report(UNTIL3, events)
    assert viol(rep) == [(2, "out_of_turn", 1), (3, "out_of_turn", 1), (4, "wrong_opener", 1),
                         (5, "reveal_mismatch", 1), (7, "round_over", 0),
                         (11, "match_over", None), (12, "match_over", None),
                         (13, "match_over", None), (14, "bad_event", None)]
    assert {v["certainty"] for v in rep["violations"]} == {"proven"}


# ================================================================ Edge cases: turns and openers


def test_a_draw_does_not_end_a_turn() -> None:
    """"A draw does not end a turn: the seat goes on until it plays or passes; then seat+1 acts." """
    rules = {"preset": "veracruz", "hand_size": 2}   # draw: one; 22 tiles in the boneyard
    # 6-6 (6|6), 6-5 (6|5); seat 2 (3-3 2-1) draws 5-4 and plays it (6|4); then seat 0 acts
    base = [D("6-6 1-0", "6-5 2-0", "3-3 2-1"), P(0, "6-6"), P(1, "6-5"), DR(2, "5-4")]
    assert last(rules, [*base, P(0, "6-4")], 3) == ("out_of_turn", 0)
    assert last(rules, [*base, PS(0)], 3) == ("out_of_turn", 0)
    ok(rules, [*base, P(2, "5-4"), DR(0, "4-3"), P(0, "4-3")], 3)
    assert last(rules, [*base, P(2, "5-4"), P(1, "2-0")], 3) == ("out_of_turn", 1)
    # until_playable: several draws, still the same seat's turn; after its pass, seat+1
    until = {"preset": "veracruz", "hand_size": 2, "draw": "until_playable"}
    events = [D("6-6 1-0", "6-5 2-0", "3-3 2-1"), P(0, "6-6"), P(1, "6-5"), DR(2, "4-4"),
              DR(2, "0-0"), DR(2, "5-2"), P(2, "5-2"), DR(0, "4-2"), P(0, "4-2", 2)]
    ok(until, events, 3)


@pytest.mark.parametrize("rules, events, expected", [
    (UNTIL3, [D(*BLOCK_HANDS), PS(0)], ("renege", 0)),
    (UNTIL3, [D(*BLOCK_HANDS), DR(0)], ("illegal_draw", 0)),
    (UNTIL3, [D(*BLOCK_HANDS), DR(0, "3-3")], ("illegal_draw", 0)),
    ({**UNTIL3, "first_opener": "free"}, [D(*BLOCK_HANDS), PS(1)], ("renege", 1)),
    ({**UNTIL3, "first_opener": "free"}, [D(*BLOCK_HANDS), DR(1)], ("illegal_draw", 1)),
    ({**UNTIL3, "first_opener": "free"}, [D(), PS(0)], ("renege", 0)),
])
def test_before_the_lead(rules: Any, events: list[Any], expected: Any) -> None:
    """"Before the lead, the opener's pass is `renege` and his draw `illegal_draw` (he holds a tile
    he may lead)." """
    assert last(rules, events) == expected


def test_free_opener() -> None:
    """"With `first_opener: free` any seat may lead round 1 with any tile." """
    free = {**SMALL, "first_opener": "free"}
    for seat, tile in [(0, "1-1"), (0, "6-5"), (1, "2-2"), (1, "5-3")]:
        rep = ok(free, [D(*BLOCK_HANDS), P(seat, tile)])
        assert rep["rounds"][0]["opener"] == seat
    assert last(free, [D(*BLOCK_HANDS), P(1, "1-1")]) == ("not_in_hand", 1)
    assert ok(free, [D(*BLOCK_HANDS)])["rounds"][0]["opener"] is None


@pytest.mark.parametrize("hands, seat, tile", [
    # the 6-6 dealt: its holder with it
    (("6-6 1-0", "6-3 2-1", "5-5 3-0", "4-4 2-0"), 0, "6-6"),
    # nobody holds the 6-6 (not every tile dealt): the highest double (5-5), played first
    (("5-4 1-0", "6-3 2-1", "5-5 3-0", "4-4 2-0"), 2, "5-5"),
    # no double: the heaviest tile; 6-3 and 5-4 both 9, 6-3 has the higher top pip
    (("5-4 1-0", "6-3 2-1", "5-3 3-0", "4-2 2-0"), 1, "6-3"),
    (("5-4 1-0", "6-2 2-1", "5-3 3-0", "4-2 2-0"), 0, "5-4"),
])
def test_double_six_when_nobody_holds_it(hands: tuple[str, ...], seat: int, tile: str) -> None:
    """"`double_six` when nobody holds the 6-6 (not every tile dealt): as `highest_double`. The
    heaviest tile is the one with most pips; equal pips go to the higher top pip (6-3 beats
    5-4)." """
    rules = {"preset": "parejas", "hand_size": 2}
    rep = ok(rules, [D(*hands), P(seat, tile)], 4)
    assert rep["rounds"][0]["opener"] == seat
    for other in range(4):
        if other != seat:
            assert last(rules, [D(*hands), P(other, hands[other].split()[0])], 4) == ("wrong_opener", other)
    other_tile = hands[seat].split()[1]
    assert last(rules, [D(*hands), P(seat, other_tile)], 4) == ("wrong_opening_tile", seat)
    # highest_double names the same seat and tile
    assert ok({**rules, "first_opener": "highest_double"}, [D(*hands), P(seat, tile)], 4)["valid"]


LATER = {"preset": "mano-a-mano", "hand_size": 3, "draw": "none", "target": 500}
ROUND2 = D("5-5 4-4 0-0", "3-3 2-2 1-0")  # a round-2 deal: 5-5 (seat 0) is its highest double
# TIE_1: seat 1 opens 6-6; 6-4 (6|4), 6-5 (5|4), 5-5 (5|4); both hold 4 pips; blocked by seat 0
TIE_1 = [D("6-4 5-5 3-1", "6-6 6-5 2-2"), P(1, "6-6"), P(0, "6-4"), P(1, "6-5"), P(0, "5-5"),
         PS(1), PS(0)]


@pytest.mark.parametrize("later, tie, round_1, opener", [
    ("next", "blocker_loses", BLOCK, 1), ("next", "blocker_loses", DOMINO_1, 1),
    ("next", "none", TIE_1, 0),
    ("first_rule", "blocker_loses", BLOCK, 0), ("first_rule", "none", TIE_1, 0),
    ("winner", "blocker_loses", BLOCK, 0),        # seat 0 won the block
    ("winner", "blocker_loses", DOMINO_1, 1),     # seat 1 went out
    ("winner", "blocker_loses", DOMINO_0, 0),
    ("winner", "none", TIE_1, 1),                 # nobody won: the previous opener again
    ("winner", "blocker_loses", TIE_1, 1),        # blocker seat 0 loses the tie: seat 1 won
    ("winner", "mano", TIE_1, 1),                 # the opener's side wins the tie
    ("puerto_rico", "none", TIE_1, 1),            # a tied block: same opener
    ("puerto_rico", "blocker_loses", DOMINO_1, 1),
    ("puerto_rico", "blocker_loses", BLOCK, 0),   # blocker seat 1 lost: the seat after him
])
def test_later_openers_two_seats(later: str, tie: str, round_1: list[Any], opener: int) -> None:
    """"`later_opener` | `first_rule`, `next`, `winner`, `puerto_rico` | rounds 2+: as round 1; the
    seat after the previous opener; the seat that won the previous round (the one who went out);
    domino winner / blocker if his side won / same opener on a tied block / seat after the blocker
    if his side lost" """
    rules = {**LATER, "later_opener": later, "blocked_tie": tie}
    rep = ok(rules, [*round_1, ROUND2])
    assert rep["rounds"][1]["opener"] == opener
    lead = "5-5" if opener == 0 else "3-3"
    ok(rules, [*round_1, ROUND2, P(opener, lead)])
    other = 1 - opener
    assert last(rules, [*round_1, ROUND2, P(other, "5-5" if other == 0 else "3-3")]) == ("wrong_opener", other)


# three seats, no drawing: seat 0 opens 6-6, seat 1 plays 6-5 (6|5), then all pass; blocked by 1
def _three(hands: tuple[str, str, str]) -> list[Any]:
    return [D(*hands), P(0, "6-6"), P(1, "6-5"), PS(2), PS(0), PS(1)]


@pytest.mark.parametrize("later, hands, winner, opener", [
    # seat 0 wins (1 pip against 4 and 4): winner -> 0; puerto_rico: blocker 1 lost -> seat 2
    ("winner", ("6-6 1-0", "6-5 3-1", "2-0 1-1"), 0, 0),
    ("puerto_rico", ("6-6 1-0", "6-5 3-1", "2-0 1-1"), 0, 2),
    ("next", ("6-6 1-0", "6-5 3-1", "2-0 1-1"), 0, 1),
    # blocker seat 1 wins (1 pip): puerto_rico -> the blocker
    ("puerto_rico", ("6-6 3-1", "6-5 1-0", "2-0 1-1"), 1, 1),
    ("winner", ("6-6 3-1", "6-5 1-0", "2-0 1-1"), 1, 1),
])
def test_later_openers_three_seats(later: str, hands: tuple[str, str, str], winner: int,
                                   opener: int) -> None:
    """"puerto_rico ... blocker if his side won / ... / seat after the blocker if his side lost";
    "`winner`: the seat that won the previous round" """
    rules = {"preset": "veracruz", "hand_size": 2, "draw": "none", "later_opener": later,
             "target": 500}
    rep = ok(rules, [*_three(hands), D()], 3)
    assert rep["rounds"][0]["winner"] == winner and rep["rounds"][0]["blocked_by"] == 1
    assert rep["rounds"][1]["opener"] == opener
    for seat in range(3):
        if seat != opener:
            assert last(rules, [*_three(hands), D(), P(seat, "0-0")], 3) == ("wrong_opener", seat)


# partnerships, 2 tiles a hand, no drawing; every block below: one lead, then four passes
P_SIDE1 = ("6-6 1-0", "3-1 3-0", "5-5 4-4", "2-1 2-0")   # blocker 0; side 1 wins (12 vs 19)
P_SIDE0 = ("6-6 4-1", "5-5 4-4", "1-0 2-0", "3-1 3-0")   # blocker 0; side 0 wins (8 vs 25)
P_EQUAL = ("2-0 1-0", "6-6 5-5", "2-1 0-0", "4-4 3-3")   # seat 1 opens and blocks; side 0 wins,
                                                          # seats 0 and 2 both hold 3 pips


def _pblock(hands: tuple[str, ...]) -> list[Any]:
    opener = next(s for s, h in enumerate(hands) if "6-6" in h.split())
    return [D(*hands), P(opener, "6-6")] + [PS((opener + i) % 4) for i in range(1, 5)]


@pytest.mark.parametrize("later, hands, opener", [
    ("winner", P_SIDE1, 3),       # the winning partner with fewer pips: seat 3 (5) not seat 1 (7)
    ("winner", P_SIDE0, 2),       # seat 2 (3) not seat 0 (5)
    ("winner", P_EQUAL, 2),       # equal pips: first in turn order from the previous opener (1)
    ("puerto_rico", P_SIDE1, 1),  # the blocker's side lost: the seat after the blocker
    ("puerto_rico", P_SIDE0, 0),  # the blocker's side won: the blocker
    ("next", P_EQUAL, 2),
    ("first_rule", P_SIDE1, None),  # closed deal of 8 of 28 tiles: the 6-6 may be undealt
])
def test_later_openers_partnerships(later: str, hands: tuple[str, ...], opener: int | None) -> None:
    """"`later_opener: winner` after a block: the winning seat; in partnerships the winning partner
    with fewer pips (on equal pips the one first in turn order from the previous opener)" and the
    puerto_rico rule."""
    rules = {"preset": "parejas", "hand_size": 2, "later_opener": later, "target": 500}
    rep = ok(rules, [*_pblock(hands), D()], 4)
    assert rep["rounds"][1]["opener"] == opener
    if opener is not None:
        for seat in range(4):
            if seat != opener:
                assert last(rules, [*_pblock(hands), D(), P(seat, "0-0")], 4) == ("wrong_opener", seat)


# seat 0 opens 6-6, seat 1 passes, seat 2 plays 6-5 (6|5), then four passes: blocked by seat 2.
# Side 0 holds 1-1 and 4-0 (6), side 1 holds 0-0 1-0 2-0 3-0 (6): a tie.
P_TIE = [D("6-6 1-1", "0-0 1-0", "6-5 4-0", "2-0 3-0"), P(0, "6-6"), PS(1), P(2, "6-5"), PS(3),
         PS(0), PS(1), PS(2)]


@pytest.mark.parametrize("tie, winner, points, opener", [
    ("none", None, 0, 0),            # a tied block: same opener
    ("mano", 0, 12, 2),              # settled for the opener's side, the blocker's: the blocker
    ("blocker_loses", 1, 12, 3),     # settled against the blocker's side: the seat after him
])
def test_puerto_rico_tie_settled_by_blocked_tie(tie: str, winner: int | None, points: int,
                                                opener: int) -> None:
    """"`puerto_rico`: a "tied block" is a block nobody won; a tie settled by `blocked_tie` counts
    as won or lost by that side." """
    rules = {"preset": "puerto-rico", "hand_size": 2, "blocked_tie": tie}
    rep = ok(rules, [*P_TIE, D()], 4)
    assert rep["rounds"][0]["pips"] == [2, 1, 4, 5] and rep["rounds"][0]["blocked_by"] == 2
    assert rnd(rep, 0) == ("blocked", winner, points)
    assert rep["rounds"][1]["opener"] == opener


@pytest.mark.parametrize("first, hand_1, forced", [
    ("highest_double", "6-4 5-5 3-3", "5-5"),   # his highest double (the 6-6 is seat 0's)
    ("highest_double", "6-3 5-4 2-1", "6-3"),   # no double: his heaviest; 6-3 beats 5-4
    ("highest_double", "5-4 4-1 2-1", "5-4"),
    ("double_six", "6-6 5-5 0-1", "6-6"),
    ("double_six", "5-5 3-3 0-1", "5-5"),
    ("double_six", "6-2 5-3 4-1", "6-2"),       # 8 pips each: the higher top pip
])
def test_later_opening_tile_forced(first: str, hand_1: str, forced: str) -> None:
    """"`later_opening_tile: forced` with a later opener other than `first_rule`: the opener leads,
    from his own hand, what round 1's rule would name there (the 6-6 if he holds it, else his
    highest double, else his heaviest tile)." """
    rules = {**LATER, "first_opener": first, "later_opening_tile": "forced"}
    hand_0 = "6-6 2-2 0-0" if "6-6" not in hand_1 else "4-4 2-2 0-0"
    base = [*BLOCK, D(hand_0, hand_1)]   # next: seat 1 opens round 2
    ok(rules, [*base, P(1, forced)])
    for tile in hand_1.split():
        if tile != forced:
            assert last(rules, [*base, P(1, tile)]) == ("wrong_opening_tile", 1)
    # with a free later tile, any tile of his
    for tile in hand_1.split():
        ok({**rules, "later_opening_tile": "free"}, [*base, P(1, tile)])


def test_later_opening_tile_forced_names_the_six_six_in_a_bigger_set() -> None:
    """"(the 6-6 if he holds it, else his highest double, else his heaviest tile)" under
    `double_six` even when he also holds the 9-9 (readings: double_six with a bigger set)."""
    rules = {"preset": "mano-a-mano", "max_pip": 9, "hand_size": 3, "draw": "none",
             "first_opener": "double_six", "later_opening_tile": "forced", "target": 500}
    round_1 = [D("6-6 6-5 1-1", "6-4 5-3 2-2"), P(0, "6-6"), P(1, "6-4"), P(0, "6-5"), P(1, "5-3"),
               PS(0), PS(1)]
    ok(rules, [*round_1, D("8-8 2-2 0-0", "9-9 6-6 9-0"), P(1, "6-6")])
    assert last(rules, [*round_1, D("8-8 2-2 0-0", "9-9 6-6 9-0"), P(1, "9-9")]) == ("wrong_opening_tile", 1)
    ok(rules, [*round_1, D("8-8 2-2 0-0", "9-9 7-7 9-0"), P(1, "9-9")])


@pytest.mark.parametrize("tile_rule", ["forced", "free"])
def test_first_rule_every_round(tile_rule: str) -> None:
    """"`later_opener` ... `first_rule`: as round 1" and "`later_opening_tile` | `forced`, `free` |
    rounds 2+: the opener must lead the tile round 1's rule names, or any tile" (parejas: "the 6-6
    leads every round")."""
    rules = {"preset": "parejas", "hand_size": 2, "later_opening_tile": tile_rule, "target": 500}
    round_2 = D("5-5 1-0", "4-4 3-1", "3-3 2-0", "6-6 2-1")
    base = [*_pblock(P_SIDE1), round_2]
    assert ok(rules, base, 4)["rounds"][1]["opener"] == 3
    ok(rules, [*base, P(3, "6-6")], 4)
    if tile_rule == "forced":
        assert last(rules, [*base, P(3, "2-1")], 4) == ("wrong_opening_tile", 3)
    else:
        ok(rules, [*base, P(3, "2-1")], 4)
    assert last(rules, [*base, P(0, "5-5")], 4) == ("wrong_opener", 0)
    # round 2 with the 6-6 undealt: the highest double (5-5, seat 0)
    base = [*_pblock(P_SIDE1), D("5-5 1-0", "4-4 3-1", "3-3 2-0", "6-5 2-1")]
    ok(rules, [*base, P(0, "5-5")], 4)
    if tile_rule == "forced":
        assert last(rules, [*base, P(0, "1-0")], 4) == ("wrong_opening_tile", 0)
    assert last(rules, [*base, P(3, "6-5")], 4) == ("wrong_opener", 3)


def test_an_annulled_round_keeps_its_number_and_the_redeal_is_round_one() -> None:
    """"An annulled round keeps its place and number in the report; the redeal is the next round,
    and its opener is chosen as if the annulled round had never been dealt ("round 1" is the first
    round not annulled)." and "`annul` only cancels a round in progress: outcome `annulled`,
    `winner` null, `points` 0." """
    rules = {**LATER, "later_opener": "next"}        # later_opening_tile free
    # round 1 annulled after a lead: round 2 is "round 1": the highest double, and only it, leads
    base = [D("6-6 6-5 1-1", "6-4 5-3 2-2"), P(0, "6-6"), ANNUL, D("5-5 6-1 0-0", "6-4 5-3 2-2")]
    rep = ok(rules, base)
    assert [r["round"] for r in rep["rounds"]] == [1, 2]
    assert rep["rounds"][0] == {"round": 1, "opener": 0, "outcome": "annulled", "winner": None,
                                "points": 0, "pips": None, "blocked_by": None, "scores": [0, 0]}
    assert rep["rounds"][1]["opener"] == 0 and rep["rounds"][1]["outcome"] == "in_progress"
    assert last(rules, [*base, P(0, "6-1")]) == ("wrong_opening_tile", 0)
    assert last(rules, [*base, P(1, "6-4")]) == ("wrong_opener", 1)
    ok(rules, [*base, P(0, "5-5")])
    # round 1 played (opener 0), round 2 annulled after seat 1 led: round 3 follows round 1
    base = [*BLOCK, D("6-6 6-5 1-1", "6-4 5-3 2-2"), P(1, "6-4"), ANNUL, ROUND2]
    rep = ok(rules, base)
    assert [r["outcome"] for r in rep["rounds"]] == ["blocked", "annulled", "in_progress"]
    assert rep["rounds"][2]["opener"] == 1 and rep["totals"] == [4, 0]
    assert last(rules, [*base, P(0, "5-5")]) == ("wrong_opener", 0)
    # winner: round 1 won by seat 1 (domino); round 2 (seat 1 led) annulled; round 3: seat 1
    rules = {**LATER, "later_opener": "winner"}
    rep = ok(rules, [*DOMINO_1, D("6-6 6-5 1-1", "6-4 5-3 2-2"), P(1, "6-4"), P(0, "6-6"), ANNUL,
                     ROUND2])
    assert rep["rounds"][2]["opener"] == 1
    # two annulled rounds first: the third deal is "round 1", with the first rule's tile forced
    rules = {**LATER, "later_opener": "puerto_rico"}
    base = [D(), ANNUL, D(), ANNUL, D("6-6 6-5 1-1", "6-4 5-3 2-2")]
    assert ok(rules, base)["rounds"][2]["opener"] == 0
    assert last(rules, [*base, P(0, "1-1")]) == ("wrong_opening_tile", 0)


def test_annul_scores_nothing_and_the_match_goes_on() -> None:
    """"`annul` only cancels a round in progress: outcome `annulled`, `winner` null, `points` 0"
    and "`pips` ... `null` while in progress or annulled." """
    rep = ok(SMALL, [D(*BLOCK_HANDS), P(0, "6-6"), P(1, "6-4"), P(0, "6-5"), P(1, "5-3"), PS(0),
                     ANNUL, D(*BLOCK_HANDS)])
    assert rep["rounds"][0]["outcome"] == "annulled" and rep["rounds"][0]["pips"] is None
    assert rep["rounds"][1]["outcome"] == "in_progress" and rep["rounds"][1]["pips"] is None
    assert rep["totals"] == [0, 0]


# ================================================================ Edge cases: placing and drawing


def test_the_lead_lies_as_written_and_the_ends_stay_physical() -> None:
    """"With both ends equal and no `end`, the tile goes on the right. The lead lies as written
    (`"5-6"`: 5 on the left), and left and right stay with those physical ends for the round." """
    free = {**SMALL, "hand_size": 5, "first_opener": "free"}
    hands = ("5-6 6-6 5-1 1-1 0-0", "6-2 2-2 3-1 4-4 4-3")
    m = match_of(free, [D(*hands), P(0, "5-6")])
    assert (m.left, m.right) == (5, 6)
    m = match_of(free, [D(*hands), P(0, "6-5")])
    assert (m.left, m.right) == (6, 5)
    base = [D(*hands), P(0, "5-6"), P(1, "6-2")]                      # 5|2
    m = match_of(free, [*base, P(0, "5-1")])                          # 1|2
    assert (m.left, m.right) == (1, 2)
    assert last(free, [*base, P(0, "5-1", "right")]) == ("no_match", 0)
    assert last(free, [*base, P(0, "5-1", 2)]) == ("no_match", 0)
    m = match_of(free, [*base, P(0, "5-1", "left"), P(1, "2-2", "right"), P(0, "1-1", "left")])
    assert (m.left, m.right) == (1, 2)
    # equal ends, no end: the right; with end "left" the left
    m = match_of(free, [D(*hands), P(0, "6-6"), P(1, "6-2")])
    assert (m.left, m.right) == (6, 2)
    m = match_of(free, [D(*hands), P(0, "6-6"), P(1, "6-2", "left")])
    assert (m.left, m.right) == (2, 6)
    m = match_of(free, [D(*hands), P(0, "6-6"), P(1, "6-2", 6)])
    assert (m.left, m.right) == (6, 2)


@pytest.mark.parametrize("events, expected", [
    # draw: one. Seat 2 (3-3 2-1) with ends 6|5: must draw first
    ([PS(2)], ("must_draw", 2)),
    ([DR(2, "5-4"), PS(2)], ("renege", 2)),          # a drawn tile that fits must be played
    ([DR(2, "4-4"), DR(2, "5-4")], ("illegal_draw", 2)),  # a second draw
    ([DR(2), DR(2)], ("illegal_draw", 2)),
    ([DR(2, "5-4"), DR(2)], ("illegal_draw", 2)),
])
def test_draw_one(events: list[Any], expected: Any) -> None:
    """"`draw: one`: after one draw, a drawn tile that fits must be played (passing is `renege`); one
    that does not fit means a pass; a second draw is `illegal_draw`." """
    rules = {"preset": "veracruz", "hand_size": 2}
    base = [D("6-6 1-0", "6-5 2-0", "3-3 2-1"), P(0, "6-6"), P(1, "6-5")]
    assert last(rules, [*base, *events], 3) == expected


def test_draw_one_a_tile_that_does_not_fit_means_a_pass() -> None:
    """"one that does not fit means a pass" """
    rules = {"preset": "veracruz", "hand_size": 2}
    base = [D("6-6 1-0", "6-5 2-0", "3-3 2-1"), P(0, "6-6"), P(1, "6-5")]
    rep = ok(rules, [*base, DR(2, "4-4"), PS(2), DR(0, "4-0"), PS(0), DR(1)], 3)
    assert rep["rounds"][0]["outcome"] == "in_progress"
    ok(rules, [*base, DR(2), PS(2)], 3)        # unseen: nothing to prove


@pytest.mark.parametrize("events, expected", [
    # until_playable, reserve 20: 22 in the boneyard, so two draws are allowed this round
    ([PS(2)], ("must_draw", 2)),
    ([DR(2, "4-4"), PS(2)], ("must_draw", 2)),                 # still a tile above the reserve
    ([DR(2, "4-4"), DR(2, "4-0"), DR(2, "4-2")], ("illegal_draw", 2)),  # at the reserve
    ([DR(2, "5-4"), DR(2, "4-0")], ("illegal_draw", 2)),       # holding the drawn 5-4
    ([DR(2, "5-4"), PS(2)], ("renege", 2)),
])
def test_until_playable_with_reserve(events: list[Any], expected: Any) -> None:
    """"`until_playable`: a seat with nothing to play must draw while the boneyard holds more than
    `reserve` tiles, and may pass only when it does not; drawing while holding a playable tile is
    `illegal_draw`. A pass while a legal draw was available is `must_draw`." """
    rules = {"preset": "veracruz", "hand_size": 2, "draw": "until_playable", "reserve": 20}
    base = [D("6-6 1-0", "6-5 2-0", "3-3 2-1"), P(0, "6-6"), P(1, "6-5")]
    assert last(rules, [*base, *events], 3) == expected


def test_until_playable_blocks_at_the_reserve() -> None:
    """"may pass only when it does not" [hold more than reserve]; "Block by passes: at the pass
    that makes the consecutive passes since the last play reach the number of seats, provided no
    legal draw remains." """
    rules = {"preset": "veracruz", "hand_size": 2, "draw": "until_playable", "reserve": 20}
    base = [D("6-6 1-0", "6-5 2-0", "3-3 2-1"), P(0, "6-6"), P(1, "6-5")]
    # seat 2 draws the two tiles allowed (4-4, 4-0), passes; seats 0 and 1 cannot draw: pass
    rep = ok(rules, [*base, DR(2, "4-4"), DR(2, "4-0"), PS(2), PS(0)], 3)
    assert rep["rounds"][0]["outcome"] == "in_progress"
    rep = ok(rules, [*base, DR(2, "4-4"), DR(2, "4-0"), PS(2), PS(0), PS(1)], 3)
    # pips: seat 0 1-0 (1), seat 1 2-0 (2), seat 2 3-3 2-1 4-4 4-0 (21); blocked by seat 1
    assert rep["rounds"][0] == {"round": 1, "opener": 0, "outcome": "blocked", "winner": 0,
                                "points": 24, "pips": [1, 2, 21], "blocked_by": 1, "scores": [24, 0, 0]}
    assert last(rules, [*base, DR(2, "4-4"), DR(2, "4-0"), PS(2), DR(0)], 3) == ("illegal_draw", 0)


# ================================================================ Edge cases: ending and scoring


def test_block_by_passes_needs_as_many_passes_as_seats() -> None:
    """"Block by passes: at the pass that makes the consecutive passes since the last play reach the
    number of seats, provided no legal draw remains." """
    rules = {"preset": "veracruz", "hand_size": 2, "draw": "none"}
    hands = ("6-6 4-0", "6-5 3-1", "2-0 1-1")
    rep = ok(rules, _three(hands)[:-1], 3)
    assert rep["rounds"][0]["outcome"] == "in_progress"
    rep = ok(rules, _three(hands), 3)
    assert rep["rounds"][0]["outcome"] == "blocked" and rep["rounds"][0]["blocked_by"] == 1
    # a play between the passes starts the count again
    hands = ("6-6 4-0", "6-5 3-1", "5-2 1-1")
    events = [D(*hands), P(0, "6-6"), P(1, "6-5"), P(2, "5-2"), PS(0), PS(1)]
    assert ok(rules, events, 3)["rounds"][0]["outcome"] == "in_progress"
    rep = ok(rules, [*events, PS(2)], 3)
    assert rep["rounds"][0]["outcome"] == "blocked" and rep["rounds"][0]["blocked_by"] == 2


LOCK_A = "6-6 6-0 1-0 1-1 6-1 6-5 2-2"
LOCK_B = "6-2 3-2 6-3 6-4 5-4 0-0 5-5"
LOCK_PLAYS = [P(0, "6-6"), P(1, "6-2"), P(0, "6-0"), P(1, "3-2"), P(0, "1-0"), P(1, "6-3"),
              P(0, "1-1"), P(1, "6-4"), P(0, "6-1"), P(1, "5-4"), P(0, "6-5", 5)]


@pytest.mark.parametrize("draw", ["none", "until_playable", "one"])
def test_locked_line_blocks_at_once(draw: str) -> None:
    """"Locked line: right after a play, when both ends show v and every tile bearing v is on the
    line ...; a domino on the same play takes precedence. The blocker is the seat that played last
    in the round." and "a line whose two ends show the same pip with every tile of that pip on the
    table is blocked at once, with no passes needed" """
    rules = {"preset": "mano-a-mano", "draw": draw, "first_opener": "free"}
    rep = ok(rules, [D(LOCK_A, LOCK_B), *LOCK_PLAYS])
    # seat 0 keeps 2-2 (4), seat 1 0-0 5-5 (10): seat 0 wins 10
    assert rep["rounds"][0] == {"round": 1, "opener": 0, "outcome": "blocked", "winner": 0,
                                "points": 10, "pips": [4, 10], "blocked_by": 0, "scores": [10, 0]}
    assert last(rules, [D(LOCK_A, LOCK_B), *LOCK_PLAYS, PS(1)]) == ("round_over", 1)
    assert last(rules, [D(LOCK_A, LOCK_B), *LOCK_PLAYS, DR(1)]) == ("round_over", 1)


def test_domino_takes_precedence_over_a_locked_line() -> None:
    """"a domino on the same play takes precedence." """
    rules = {"preset": "mano-a-mano", "hand_size": 6, "draw": "none", "first_opener": "free"}
    a = LOCK_A.replace(" 2-2", "")
    b = LOCK_B.replace(" 0-0", "")
    rep = ok(rules, [D(a, b), *LOCK_PLAYS])
    assert rep["rounds"][0] == {"round": 1, "opener": 0, "outcome": "domino", "winner": 0,
                                "points": 10, "pips": [0, 10], "blocked_by": None, "scores": [10, 0]}


@pytest.mark.parametrize("draw", ["none", "until_playable"])
def test_a_tile_of_v_undealt_or_in_the_boneyard_prevents_the_lock(draw: str) -> None:
    """"(a tile of v in the boneyard or never dealt prevents it)" """
    rules = {"preset": "mano-a-mano", "hand_size": 4, "draw": draw, "first_opener": "free"}
    # 1-6 (1|6), 6-2 (1|2), 2-3 (1|3), 3-6 (1|6), 0-1 (0|6), 6-0 on the 0 (6|6): four 6s out of
    # seven on the line (6-6, 6-5, 6-4 undealt)
    events = [D("1-6 2-3 0-1 5-5", "6-2 3-6 6-0 4-4"), P(0, "1-6"), P(1, "6-2"), P(0, "2-3"),
              P(1, "3-6"), P(0, "0-1"), P(1, "6-0", 0)]
    m = match_of(rules, events)
    assert (m.left, m.right) == (6, 6)
    rep = ok(rules, events)
    assert rep["rounds"][0]["outcome"] == "in_progress"
    if draw == "none":
        rep = ok(rules, [*events, PS(0), PS(1)])
        assert rep["rounds"][0] == {"round": 1, "opener": 0, "outcome": "blocked", "winner": 1,
                                    "points": 10, "pips": [10, 8], "blocked_by": 1, "scores": [0, 10]}
    else:
        assert last(rules, [*events, PS(0)]) == ("must_draw", 0)
        ok(rules, [*events, DR(0, "6-4"), P(0, "6-4")])


def test_pips_count_both_halves() -> None:
    """"A tile's pips are both halves (a double counts twice). `pips` in the report are per seat at
    the end of the round; `null` while in progress or annulled." """
    rep = ok(SMALL, BLOCK)
    assert rep["rounds"][0]["pips"] == [2, 4]           # 1-1 and 2-2
    assert ok(SMALL, BLOCK[:-1])["rounds"][0]["pips"] is None


THREE = {"preset": "veracruz", "hand_size": 2, "draw": "none"}


@pytest.mark.parametrize("tie, points, hands, winner, expected", [
    # all three sides tied at 4; blocker seat 1
    ("blocker_loses", "all", ("6-6 4-0", "6-5 3-1", "2-0 1-1"), None, 0),
    ("none", "all", ("6-6 4-0", "6-5 3-1", "2-0 1-1"), None, 0),
    ("mano", "all", ("6-6 4-0", "6-5 3-1", "2-0 1-1"), 0, 12),
    ("mano", "opponents", ("6-6 4-0", "6-5 3-1", "2-0 1-1"), 0, 8),
    ("mano", "difference", ("6-6 4-0", "6-5 3-1", "2-0 1-1"), 0, 0),
    # seats 1 and 2 tied at 4, seat 0 holds 5; blocker seat 1
    ("blocker_loses", "opponents", ("6-6 3-2", "6-5 3-1", "2-0 1-1"), 2, 9),
    ("blocker_loses", "all", ("6-6 3-2", "6-5 3-1", "2-0 1-1"), 2, 13),
    ("blocker_loses", "difference", ("6-6 3-2", "6-5 3-1", "2-0 1-1"), 2, 1),
    ("mano", "opponents", ("6-6 3-2", "6-5 3-1", "2-0 1-1"), 1, 9),   # seat 1 is nearer seat 0
    ("none", "opponents", ("6-6 3-2", "6-5 3-1", "2-0 1-1"), None, 0),
    # seats 0 and 1 tied at 4, seat 2 holds 5: blocker seat 1's side loses
    ("blocker_loses", "difference", ("6-6 4-0", "6-5 3-1", "3-0 2-0"), 0, 1),
    # a single lowest side: no tie (seat 2: 1), difference = (4-1) + (4-1)
    ("none", "difference", ("6-6 4-0", "6-5 3-1", "1-0 0-0"), 2, 6),
])
def test_blocked_scoring_three_sides(tie: str, points: str, hands: tuple[str, str, str],
                                     winner: int | None, expected: int) -> None:
    """"`blocker_loses` with more than two tied sides removes the blocker's side and has a winner
    only if one side remains; `mano` picks the tied side whose seat comes first in turn order from
    the round's opener. `difference` is the sum over opponent sides of (their total minus the
    winner's), never below 0. ... A tie nobody wins gives `winner: null`, `points: 0`." """
    rules = {**THREE, "blocked_tie": tie, "blocked_points": points}
    rep = ok(rules, _three(hands), 3)
    assert rnd(rep, 0) == ("blocked", winner, expected)
    assert rep["totals"] == [expected if s == winner else 0 for s in range(3)]


@pytest.mark.parametrize("compare, points, tie, hands, winner, expected", [
    # side_total: side 0 holds 19 (1 + 18), side 1 12 (7 + 5)
    ("side_total", "opponents", "none", P_SIDE1, 1, 19),
    ("side_total", "all", "none", P_SIDE1, 1, 31),
    ("side_total", "difference", "none", P_SIDE1, 1, 7),
    # lowest_hand: side 0's lowest hand is 1, side 1's 5
    ("lowest_hand", "opponents", "none", P_SIDE1, 0, 12),
    ("lowest_hand", "all", "none", P_SIDE1, 0, 31),
    ("lowest_hand", "difference", "none", P_SIDE1, 0, 0),      # 12 - 19, never below 0
    # two seats of one side share the lowest hand (2 and 2): no tie
    ("lowest_hand", "opponents", "none", ("6-6 2-0", "3-1 3-0", "0-0 1-1", "4-1 2-1"), 0, 15),
    # lowest hands tied across the sides (2 and 2), blocker seat 0
    ("lowest_hand", "opponents", "none", ("6-6 2-0", "0-0 1-1", "5-5 4-4", "3-1 3-0"), None, 0),
    ("lowest_hand", "opponents", "blocker_loses", ("6-6 2-0", "0-0 1-1", "5-5 4-4", "3-1 3-0"), 1, 20),
    ("lowest_hand", "opponents", "mano", ("6-6 2-0", "0-0 1-1", "5-5 4-4", "3-1 3-0"), 0, 9),
    # side totals tied (10 and 10), blocker seat 0: blocker_loses gives side 1
    ("side_total", "all", "blocker_loses", ("6-6 2-0", "3-1 3-0", "4-4 0-0", "1-0 1-1"), 1, 20),
    ("side_total", "opponents", "mano", ("6-6 2-0", "3-1 3-0", "4-4 0-0", "1-0 1-1"), 0, 10),
    ("side_total", "difference", "mano", ("6-6 2-0", "3-1 3-0", "4-4 0-0", "1-0 1-1"), 0, 0),
    ("side_total", "all", "none", ("6-6 2-0", "3-1 3-0", "4-4 0-0", "1-0 1-1"), None, 0),
])
def test_blocked_scoring_partnerships(compare: str, points: str, tie: str, hands: tuple[str, ...],
                                      winner: int | None, expected: int) -> None:
    """"`side_total` with several equal lowest sides is a tie; `lowest_hand` compares each side's
    single lowest hand, and two seats of one side sharing the lowest hand are no tie." and the
    `blocked_points` table: "the opponents' pips; every pip left (its own too); the opponents' pips
    minus its own" """
    rules = {"preset": "parejas", "hand_size": 2, "blocked_compare": compare,
             "blocked_points": points, "blocked_tie": tie}
    rep = ok(rules, _pblock(hands), 4)
    assert rnd(rep, 0) == ("blocked", winner, expected)


def test_blocked_two_sides() -> None:
    """blocked_points on two sides, and the tie rules with two sides: "`blocked_tie` |
    `blocker_loses`, `mano`, `none` | equal counts: the side that blocked loses; the opener's side
    ... wins; nobody scores" """
    # BLOCK: seat 0 holds 2, seat 1 4: seat 0 wins
    for points, expected in [("opponents", 4), ("all", 6), ("difference", 2)]:
        assert rnd(ok({**SMALL, "blocked_points": points}, BLOCK), 0) == ("blocked", 0, expected)
    # TIE_1: 4 and 4, seat 1 opened, seat 0 blocked
    for tie, winner, points in [("blocker_loses", 1, 4), ("mano", 1, 4), ("none", None, 0)]:
        rep = ok({**SMALL, "blocked_tie": tie}, TIE_1)
        assert rnd(rep, 0) == ("blocked", winner, points)
        assert rep["rounds"][0]["blocked_by"] == 0 and rep["rounds"][0]["opener"] == 1


def test_domino_points() -> None:
    """"`domino_points` | `opponents`, `all` | on a domino the winning side scores the pips left in
    the opponents' hands, or in all hands (partner's too)" and "Without partnerships
    `domino_points: opponents` equals `all`." """
    # partnerships: 6-6 (6|6), 6-4 (6|4), two passes, 6-5 (5|4): seat 0 out
    hands = ("6-6 6-5", "6-4 3-0", "2-1 1-0", "5-5 2-2")
    events = [D(*hands), P(0, "6-6"), P(1, "6-4"), PS(2), PS(3), P(0, "6-5")]
    for points, expected in [("opponents", 17), ("all", 21)]:
        rep = ok({"preset": "parejas", "hand_size": 2, "domino_points": points}, events, 4)
        assert rep["rounds"][0] == {"round": 1, "opener": 0, "outcome": "domino", "winner": 0,
                                    "points": expected, "pips": [0, 3, 4, 14], "blocked_by": None,
                                    "scores": [expected, 0]}
    # no partnerships (three seats): the same either way
    events = [D("6-6 6-4", "6-5 3-0", "2-1 1-0"), P(0, "6-6"), P(1, "6-5"), PS(2), P(0, "6-4")]
    for points in ("opponents", "all"):
        rep = ok({**THREE, "domino_points": points}, events, 3)
        assert rnd(rep, 0) == ("domino", 0, 7) and rep["rounds"][0]["pips"] == [0, 3, 4]


# ================================================================ Edge cases: closed recording

CLOSED_BLOCK = [D(), *BLOCK[1:]]          # the BLOCK round, no hands shown
CLOSED_DOMINO = [D(), *DOMINO_0[1:]]      # seat 0 goes out; seat 1 (2-2) owes a reveal


def test_closed_hands_keep_counts() -> None:
    """"A seat's hand is closed when its `deal` entry is `null` (or `hands` is absent); a `draw`
    without `tile` is unseen. The replay then keeps counts: a closed hand starts with `hand_size`
    tiles, gains one per draw and loses one per play; the boneyard starts with the tiles not
    dealt." and "A closed seat whose count reaches 0 has played out: domino." """
    rep = ok(SMALL, CLOSED_DOMINO)
    assert rep["rounds"][0] == {"round": 1, "opener": 0, "outcome": "awaiting_reveal",
                                "winner": None, "points": 0, "pips": None, "blocked_by": None, "scores": [0, 0]}
    # with a draw, seat 0 needs a fourth play to go out
    rules = {**UNTIL3, "first_opener": "free"}
    events = [D(None, None), P(0, "6-6"), P(1, "6-4"), DR(0), P(0, "6-5"), P(1, "4-3"), P(0, "5-1")]
    assert ok(rules, events)["rounds"][0]["outcome"] == "in_progress"
    rep = ok(rules, [*events, DR(1), P(1, "3-3")])
    assert rep["rounds"][0]["outcome"] == "in_progress"      # seat 1 drew too: one tile left
    rep = ok(rules, [*events, DR(1), P(1, "3-3"), P(0, "3-0")])
    assert rnd(rep) == ("awaiting_reveal", None, 0)           # seat 0 went out on its fourth play
    # the boneyard starts with the 22 tiles not dealt: a reserve of 21 allows exactly one draw
    rules = {**UNTIL3, "reserve": 21}
    base = [D(), P(0, "6-6"), P(1, "6-4")]
    ok(rules, [*base, DR(0)])
    assert last(rules, [*base, DR(0), DR(0)]) == ("illegal_draw", 0)
    assert last(rules, [*base, DR(0), PS(0), DR(1)]) == ("illegal_draw", 1)
    assert last({**UNTIL3, "reserve": 22}, [*base, DR(0)]) == ("illegal_draw", 0)


@pytest.mark.parametrize("rules, events, expected", [
    (SMALL, [D(), P(0, "6-6"), P(0, "6-5")], ("out_of_turn", 0)),
    (SMALL, [D(), P(0, "6-6"), P(1, "6-7")], ("unknown_tile", 1)),
    (SMALL, [D(), P(0, "6-6"), P(1, "6-6")], ("tile_already_played", 1)),
    # in a known hand of another seat
    (SMALL, [D("6-6 6-5 1-1", None), P(0, "6-6"), P(1, "6-5")], ("not_in_hand", 1)),
    (SMALL, [D(None, "6-4 5-3 2-2"), P(0, "6-4")], ("not_in_hand", 0)),
    # seen going elsewhere: drawn in sight by seat 1
    # (seat 1 then draws the 6-0 it plays: drawing 0-0 while holding it would be a foul that
    # hindsight proves)
    (UNTIL3, [D(), P(0, "6-6"), DR(1, "0-0"), DR(1, "6-0"), P(1, "6-0"), P(0, "0-0")],
     ("not_in_hand", 0)),
    (SMALL, [D(), P(0, "6-6"), P(1, "6-4"), P(0, "5-3")], ("no_match", 0)),
    (SMALL, [D(), P(0, "6-6"), P(1, "6-4"), P(0, "6-4")], ("tile_already_played", 0)),
    (SMALL, [D(), P(0, "6-6"), P(1, "6-4"), P(0, "6-5"), P(1, "4-5")], ("ambiguous_end", 1)),
    # illegal_draw: no drawing in these rules; at the reserve
    (SMALL, [D(), P(0, "6-6"), DR(1)], ("illegal_draw", 1)),
    ({**UNTIL3, "reserve": 22}, [D(), P(0, "6-6"), DR(1)], ("illegal_draw", 1)),
    # must_draw: a pass while a legal draw was available, whatever the hand held
    (UNTIL3, [D(), P(0, "6-6"), PS(1)], ("must_draw", 1)),
    ({"preset": "veracruz", "hand_size": 2}, [D(), P(0, "6-6"), PS(1)], ("must_draw", 1)),
    # a second draw under one
    ({"preset": "veracruz", "hand_size": 2}, [D(), P(0, "6-6"), DR(1), DR(1)], ("illegal_draw", 1)),
])
def test_closed_recording_checks_what_the_table_saw(rules: Any, events: list[Any], expected: Any) -> None:
    """"What the table saw is checked as in open recording: the shape, whose turn, `unknown_tile`,
    `tile_already_played`, `not_in_hand` (the tile is in a known hand of another seat or was seen
    going elsewhere), `no_match`, `ambiguous_end`, ... `illegal_draw` when the rules allow no draw
    or the boneyard is at or below the reserve, and `must_draw` for a pass while a legal draw was
    available (under `until_playable` such a pass is illegal whatever the hand held)." """
    assert last(rules, events) == expected


@pytest.mark.parametrize("rules, events", [
    # a pass under draw none (seat 1 may well hold a six)
    (SMALL, [D(), P(0, "6-6"), PS(1)]),
    # a draw while (perhaps) holding a playable tile
    (UNTIL3, [D(), P(0, "6-6"), DR(1), P(1, "6-4")]),
    # under one: an unseen drawn tile, then a pass
    ({"preset": "veracruz", "hand_size": 2}, [D(), P(0, "6-6"), DR(1), PS(1)]),
    # the highest_double opener: anyone, any tile
    (SMALL, [D(), P(1, "1-0")]),
    (SMALL, [D("6-6 6-5 1-1", None), P(1, "1-0")]),
    (SMALL, [D(None, "6-4 5-3 2-2"), P(0, "1-0")]),
])
def test_closed_recording_does_not_report_what_depends_on_unseen_tiles(rules: Any, events: list[Any]) -> None:
    """"What depends on unseen tiles (a renege, a draw while holding a playable tile, the opener under
    `highest_double`) is not reported in this pass" and "the `highest_double` opener is not checked
    while any hand is closed." """
    ok(rules, events)


def test_known_tiles_still_prove_a_renege_or_an_illegal_draw() -> None:
    """"A renege or a draw while holding a playable tile is still reported when known tiles prove it
    (an open hand, a tile drawn in sight)" """
    base = [D(), P(0, "6-6"), P(1, "6-4"), DR(0, "4-0")]      # 4-0 fits the 4
    assert last(UNTIL3, [*base, PS(0)]) == ("renege", 0)
    assert last(UNTIL3, [*base, DR(0)]) == ("illegal_draw", 0)
    ok(UNTIL3, [*base, P(0, "4-0")])
    # an open hand in a mixed recording
    base = [D("6-6 6-5 1-1", None), P(0, "6-6"), P(1, "6-4")]
    assert last(UNTIL3, [*base, PS(0)]) == ("renege", 0)
    assert last(UNTIL3, [*base, DR(0)]) == ("illegal_draw", 0)
    # under one, a drawn tile seen to fit must be played
    rules = {"preset": "veracruz", "hand_size": 2}
    assert last(rules, [D(), P(0, "6-6"), P(1, "6-5"), DR(2, "5-4"), PS(2)], 3) == ("renege", 2)


def test_closed_locked_line_and_block_by_passes() -> None:
    """"Locked lines and blocks by passes are found as in open recording." and "An
    `awaiting_reveal` round has `pips` null and `blocked_by` set if it was blocked." """
    rules = {"preset": "mano-a-mano", "draw": "none", "first_opener": "free"}
    rep = ok(rules, [D(), *LOCK_PLAYS])
    assert rep["rounds"][0] == {"round": 1, "opener": 0, "outcome": "awaiting_reveal",
                                "winner": None, "points": 0, "pips": None, "blocked_by": 0, "scores": [0, 0]}
    rep = ok(rules, [D(), *LOCK_PLAYS, RV(1, "0-0 5-5"), RV(0, pips=4)])
    assert rep["rounds"][0] == {"round": 1, "opener": 0, "outcome": "blocked", "winner": 0,
                                "points": 10, "pips": [4, 10], "blocked_by": 0, "scores": [10, 0]}
    rep = ok(SMALL, CLOSED_BLOCK)
    assert rep["rounds"][0] == {"round": 1, "opener": 0, "outcome": "awaiting_reveal",
                                "winner": None, "points": 0, "pips": None, "blocked_by": 1, "scores": [0, 0]}
    assert last(SMALL, [*CLOSED_BLOCK, PS(0)]) == ("round_over", 0)


def test_awaiting_reveal_until_the_last_needed_reveal() -> None:
    """"After a round ends, every seat that still holds tiles and whose hand is not known shows them
    with `reveal` (tiles, or only `pips`); until then the round's outcome is `awaiting_reveal` with
    `winner` null and `points` 0, and its winner and points come once the last needed reveal is
    in." """
    rep = ok(SMALL, [*CLOSED_BLOCK, RV(0, "1-1")])
    assert rnd(rep) == ("awaiting_reveal", None, 0) and rep["totals"] == [0, 0]
    rep = ok(SMALL, [*CLOSED_BLOCK, RV(0, "1-1"), RV(1, pips=4)])
    assert rep["rounds"][0] == {"round": 1, "opener": 0, "outcome": "blocked", "winner": 0,
                                "points": 4, "pips": [2, 4], "blocked_by": 1, "scores": [4, 0]}
    assert rep["totals"] == [4, 0]
    # the seat that went out owes nothing
    rep = ok(SMALL, [*CLOSED_DOMINO, RV(1, "2-2")])
    assert rep["rounds"][0] == {"round": 1, "opener": 0, "outcome": "domino", "winner": 0,
                                "points": 4, "pips": [0, 4], "blocked_by": None, "scores": [4, 0]}
    # a mixed deal: only the closed seat reveals
    rep = ok(SMALL, [D("6-6 6-5 1-1", None), *BLOCK[1:], RV(1, pips=4)])
    assert rnd(rep) == ("blocked", 0, 4)
    rep = ok(SMALL, [D(None, "6-4 5-3 2-2"), *BLOCK[1:]])
    assert rnd(rep) == ("awaiting_reveal", None, 0)
    # partnerships, domino opponents: the partner of the seat that went out reveals too
    # (hands behind the closed record: 6-6 6-5 / 6-4 3-0 / 2-1 1-0 / 5-5 2-2)
    events = [D(), P(0, "6-6"), P(1, "6-4"), PS(2), PS(3), P(0, "6-5"), RV(1, "3-0"), RV(3, pips=14)]
    rep = ok({"preset": "parejas", "hand_size": 2}, events, 4)
    assert rnd(rep) == ("awaiting_reveal", None, 0)
    rep = ok({"preset": "parejas", "hand_size": 2}, [*events, RV(2, "2-1 1-0")], 4)
    assert rep["rounds"][0]["pips"] == [0, 3, 4, 14] and rnd(rep) == ("domino", 0, 17)


@pytest.mark.parametrize("reveal", [
    RV(1, "2-2 3-3"),        # two tiles for one
    RV(1, []),
    RV(1, "6-4"),            # on the line
    RV(1, "1-1"),            # known in seat 0's open hand
    RV(1, "2-2 2-2"),
    RV(1, "2-2", pips=5),
])
def test_reveal_mismatch(reveal: dict[str, Any]) -> None:
    """"A revealed set must have the seat's count of tiles, none of them played or known elsewhere;
    otherwise `reveal_mismatch` (and the reveal is not applied)." """
    base = [D("6-6 6-5 1-1", None), *BLOCK[1:]]
    rep = report(SMALL, [*base, reveal, RV(1, "2-2")])
    assert viol(rep) == [(len(base) + 1, "reveal_mismatch", 1)]
    assert rnd(rep) == ("blocked", 0, 4)


def test_seen_elsewhere_in_a_reveal() -> None:
    """"none of them played or known elsewhere" -- a tile seen drawn by another seat."""
    rules = {**UNTIL3, "reserve": 21, "first_opener": "free"}
    # seat 1 draws 0-0 in sight and still holds it when the round blocks
    base = [D(), P(0, "6-6"), DR(1, "0-0"), PS(1), PS(0)]
    rep = ok(rules, base)
    assert rnd(rep) == ("awaiting_reveal", None, 0) and rep["rounds"][0]["blocked_by"] == 0
    assert last(rules, [*base, RV(0, "0-0 1-1")]) == ("reveal_mismatch", 0)
    assert last(rules, [*base, RV(1, "1-1 2-2 3-3")]) == ("reveal_mismatch", 1)  # leaves out 0-0
    rep = ok(rules, [*base, RV(0, "1-1 2-2"), RV(1, "0-0 3-3 4-4 5-5")])
    assert rnd(rep) == ("blocked", 0, 24)


def test_a_deal_while_awaiting_reveals() -> None:
    """"A `deal` for the next round while a round awaits reveals is accepted: that round stays
    `awaiting_reveal` and scores nothing." and "once the next round is dealt, the previous round's
    reveals can no longer come, and it stays `awaiting_reveal`" """
    rep = ok(SMALL, [*CLOSED_BLOCK, RV(0, "1-1"), D()])
    assert [r["outcome"] for r in rep["rounds"]] == ["awaiting_reveal", "in_progress"]
    assert rep["totals"] == [0, 0] and rep["rounds"][0]["points"] == 0
    assert rep["rounds"][0]["pips"] is None and rep["rounds"][0]["blocked_by"] == 1
    # seat 1's late reveal of 2-2 speaks of the new hand (three tiles): a mismatch
    assert last(SMALL, [*CLOSED_BLOCK, D(), RV(1, "2-2")]) == ("reveal_mismatch", 1)
    # a reveal that fits the new hand is accepted, and round 1 still scores nothing
    rep = ok(SMALL, [*CLOSED_BLOCK, D(), RV(1, "2-2 3-3 4-4"), RV(0, pips=2)])
    assert rnd(rep, 0) == ("awaiting_reveal", None, 0) and rep["totals"] == [0, 0]


def test_a_round_whose_match_ended_stays_awaiting() -> None:
    """"so does a round whose match a penalty or forfeit ended." """
    for ruling in (PEN(1, 50), FORFEIT(1)):
        rep = ok(SMALL, [*CLOSED_BLOCK, ruling, RV(0, "1-1"), RV(1, "2-2")])
        assert rnd(rep, 0) == ("awaiting_reveal", None, 0)
        assert rep["finished"] is True


def test_annul_of_a_round_awaiting_reveals() -> None:
    """"`annul` of a round awaiting reveals is `round_over`." """
    assert last(SMALL, [*CLOSED_BLOCK, ANNUL]) == ("round_over", None)


def test_hands_null_is_no_hands() -> None:
    """"`"hands": null` is the same as no `hands`." """
    a = report(SMALL, [{"type": "deal", "hands": None}, *BLOCK[1:], RV(0, "1-1"), RV(1, pips=4)])
    b = report(SMALL, [D(), *BLOCK[1:], RV(0, "1-1"), RV(1, pips=4)])
    assert a == b and a["valid"]


def test_an_open_hand_that_draws_unseen_owes_a_reveal() -> None:
    """"An open hand that draws an unseen tile is no longer known and owes a reveal." """
    rules = {**UNTIL3, "reserve": 21}
    events = [*U_BLOCK, DR(0), PS(0), PS(1)]
    rep = ok(rules, events)
    assert rnd(rep) == ("awaiting_reveal", None, 0) and rep["rounds"][0]["blocked_by"] == 1
    assert last(rules, [*events, RV(0, "6-0 0-0")]) == ("reveal_mismatch", 0)   # leaves out 1-1
    assert last(rules, [*events, RV(0, pips=1)]) == ("reveal_mismatch", 0)      # below 1-1's 2
    rep = ok(rules, [*events, RV(0, "1-1 6-0")])
    assert rep["rounds"][0] == {"round": 1, "opener": 0, "outcome": "blocked", "winner": 1,
                                "points": 8, "pips": [8, 4], "blocked_by": 1, "scores": [0, 8]}


def test_pips_only_reveal_at_least_the_known_tiles() -> None:
    """"A `pips`-only reveal must be at least the pips of the seat's known tiles." and "`reveal` is
    checked against the seat's current hand (tiles as a set, or the pip total)" """
    rules = {**UNTIL3, "reserve": 21}
    # seat 0 (closed) draws 6-0 in sight; at the block it holds 1-1 and 6-0
    events = [D(), *U_BLOCK[1:], DR(0, "6-0"), PS(0), PS(1)]
    assert last(rules, [*events, RV(0, pips=5)]) == ("reveal_mismatch", 0)
    rep = ok(rules, [*events, RV(0, pips=8), RV(1, pips=4)])
    assert rnd(rep) == ("blocked", 1, 8)
    # a known hand: the pip total must be its own
    assert last(SMALL, [*BLOCK, RV(0, pips=3)]) == ("reveal_mismatch", 0)
    ok(SMALL, [*BLOCK, RV(0, pips=2), RV(1, "2-2")])


@pytest.mark.parametrize("hands, seat, tile, expected", [
    ((None, None, None, None), 0, "6-6", None),
    ((None, None, None, None), 3, "6-6", None),
    ((None, None, None, None), 1, "5-5", ("wrong_opening_tile", 1)),
    # seat 0's open hand lacks the 6-6: he may not lead at all
    (("6-5 6-4 6-3 6-2 6-1 6-0 5-4", None, None, None), 0, "6-5", ("wrong_opener", 0)),
    (("6-5 6-4 6-3 6-2 6-1 6-0 5-4", None, None, None), 2, "6-6", None),
    (("6-5 6-4 6-3 6-2 6-1 6-0 5-4", None, None, None), 2, "5-5", ("wrong_opening_tile", 2)),
    # seat 2's open hand holds it: only he, only with it
    ((None, None, "6-6 4-4 4-1 4-0 3-3 3-2 3-1", None), 1, "6-6", ("wrong_opener", 1)),
    ((None, None, "6-6 4-4 4-1 4-0 3-3 3-2 3-1", None), 1, "5-5", ("wrong_opener", 1)),
    ((None, None, "6-6 4-4 4-1 4-0 3-3 3-2 3-1", None), 2, "4-4", ("wrong_opening_tile", 2)),
    ((None, None, "6-6 4-4 4-1 4-0 3-3 3-2 3-1", None), 2, "6-6", None),
])
def test_double_six_with_every_tile_dealt(hands: tuple[Any, ...], seat: int, tile: str,
                                          expected: Any) -> None:
    """"Under `double_six` with every tile dealt, only a seat that may hold the 6-6 may lead, and
    only with it (another seat's lead is `wrong_opener`)" and "`wrong_opening_tile` when the rules
    force a named tile (`double_six`: a lead other than the 6-6 is wrong wherever the 6-6 is)" """
    events = [{"type": "deal", "hands": [h.split() if h else None for h in hands]}, P(seat, tile)]
    if expected is None:
        ok("parejas", events, 4)
    else:
        assert last("parejas", events, 4) == expected


@pytest.mark.parametrize("hands, seat, tile", [
    ((None, None, None, None), 1, "1-0"),
    ((None, None, None, None), 3, "5-5"),
    (("6-5 5-5 4-4 3-3 2-2 1-1", None, None, None), 1, "1-0"),
])
def test_double_six_lead_not_checked_with_tiles_undealt(hands: tuple[Any, ...], seat: int,
                                                        tile: str) -> None:
    """"with tiles left undealt the lead is not checked" -- while no known hand holds the 6-6."""
    events = [{"type": "deal", "hands": [h.split() if h else None for h in hands]}, P(seat, tile)]
    ok({"preset": "parejas", "hand_size": 6}, events, 4)


@pytest.mark.parametrize("seat, tile, expected", [
    (1, "1-0", ("wrong_opener", 1)), (0, "5-5", ("wrong_opening_tile", 0)), (0, "6-6", None)])
def test_double_six_with_tiles_undealt_and_a_known_six_six(seat: int, tile: str,
                                                           expected: Any) -> None:
    """"`double_six` with tiles left undealt: when a known hand holds the 6-6 (an open hand, a
    tile drawn in sight), that seat must lead with it (another seat's lead is `wrong_opener`,
    another tile `wrong_opening_tile`)" """
    hands = [["6-6", "5-5", "4-4", "3-3", "2-2", "1-1"], None, None, None]
    events = [{"type": "deal", "hands": hands}, P(seat, tile)]
    rules = {"preset": "parejas", "hand_size": 6}
    if expected is None:
        ok(rules, events, 4)
    else:
        assert last(rules, events, 4) == expected


PRESET_SEATS = [("mano-a-mano", 2), ("parejas", 4), ("veracruz", 2), ("veracruz", 3),
                ("veracruz", 4), ("sircle", 2), ("puerto-rico", 4),
                ({"preset": "veracruz", "partnerships": True}, 4),
                ({"preset": "parejas", "later_opener": "winner", "blocked_compare": "lowest_hand"}, 4),
                ({"preset": "puerto-rico", "blocked_tie": "blocker_loses", "hand_size": 5,
                  "draw": "until_playable", "reserve": 3}, 4),
                ({"preset": "mano-a-mano", "later_opener": "puerto_rico", "later_opening_tile": "forced",
                  "blocked_tie": "mano", "blocked_points": "difference"}, 2)]


@pytest.mark.parametrize("rules, players", PRESET_SEATS)
@pytest.mark.parametrize("pips_only", [False, True])
def test_closed_recording_gives_the_open_result(rules: Any, players: int, pips_only: bool) -> None:
    """"A closed recording of a legal match, with its reveals, gives the same rounds, points, totals
    and winner as the open recording of the same match." (random legal matches, each recorded open
    and with some or all seats closed)"""
    import random
    for n in range(6):
        seed = f"{rules}-{players}-{n}"
        _, open_events = random_match(rules, NAMES[:players], random.Random(seed))
        ro = report(rules, open_events, players)
        assert ro["valid"], viol(ro)
        for hidden in ([0], [players - 1], list(range(players))):
            _, closed = random_match(rules, NAMES[:players], random.Random(seed), hidden=hidden,
                                     pips_only=pips_only)
            rc = report(rules, closed, players)
            assert rc["valid"], viol(rc)
            assert rc["rounds"] == ro["rounds"]
            assert (rc["totals"], rc["finished"], rc["winner"]) == (ro["totals"], ro["finished"], ro["winner"])


# ================================================================ Edge cases: the match and rulings


def test_the_target_is_checked_after_every_scored_round_and_penalty() -> None:
    """"The match ends as soon as a side's total reaches the target, checked after every scored
    round and every `penalty` (so a penalty can end it mid-round). The winner is the side with the
    highest total." """
    rep = ok({**SMALL, "target": 4}, BLOCK)
    assert (rep["totals"], rep["finished"], rep["winner"]) == ([4, 0], True, 0)
    rep = ok({**SMALL, "target": 5}, BLOCK)
    assert (rep["finished"], rep["winner"]) == (False, None)
    rep = ok({**SMALL, "target": 5}, [*BLOCK, PEN(0, 1)])
    assert (rep["totals"], rep["finished"], rep["winner"]) == ([5, 0], True, 0)
    rep = ok({**SMALL, "target": 5}, [*BLOCK, PEN(0, -4), PEN(1, 4)])
    assert (rep["totals"], rep["finished"]) == ([0, 4], False)
    # mid-round: the round stays in progress
    rep = ok(SMALL, MID)
    assert (rep["totals"], rep["finished"], rep["winner"]) == ([0, 50], True, 1)
    assert rnd(rep) == ("in_progress", None, 0)
    # a closed round: scored (and the target checked) at the last reveal
    rep = ok({**SMALL, "target": 4}, [*CLOSED_BLOCK, RV(0, "1-1")])
    assert rep["finished"] is False
    rep = ok({**SMALL, "target": 4}, [*CLOSED_BLOCK, RV(0, "1-1"), RV(1, "2-2")])
    assert (rep["finished"], rep["winner"]) == (True, 0)
    assert last({**SMALL, "target": 4}, [*CLOSED_BLOCK, RV(0, "1-1"), RV(1, "2-2"), D()]) == ("match_over", None)
    # a round with no winner scores nothing and does not end the match
    rep = ok({**SMALL, "blocked_tie": "none", "target": 1}, TIE_1)
    assert rep["finished"] is False and rnd(rep) == ("blocked", None, 0)


@pytest.mark.parametrize("event, code", [
    (D(*BLOCK_HANDS), "match_over"), (P(0, "1-1"), "match_over"), (DR(0), "match_over"),
    (PS(0), "match_over"), (PEN(1, 1), "match_over"), (ANNUL, "match_over"),
    (FORFEIT(1), "match_over"), (NOTE, None), (RV(0, "1-1"), None), (RV(1, pips=4), None),
    (VOID(1), None),
])
def test_after_the_match(event: dict[str, Any], code: str | None) -> None:
    """"Afterwards `deal`, `play`, `draw`, `pass`, `penalty`, `annul` and `forfeit` are
    `match_over`; `note`, `reveal` and `void` are still accepted." """
    events = [*BLOCK, event]
    rules = {**UNTIL3, "draw": "none", "target": 4}
    rep = report(rules, events)
    if code is None:
        assert all(v[0] != 8 for v in viol(rep)), viol(rep)
    else:
        seat = event.get("seat")
        assert viol(rep) == [(8, code, seat)]
        assert rep["totals"] == [4, 0] and rep["winner"] == 0


def test_void_strikes_its_target() -> None:
    """"`void` strikes its target: the replay runs as if that line were not there (its violations
    vanish)." """
    # the violation of the struck line vanishes
    rep = ok(SMALL, [D(*BLOCK_HANDS), P(1, "6-4"), VOID(2), *BLOCK[1:]])
    assert rnd(rep) == ("blocked", 0, 4)
    # a struck legal line: what followed is judged without it
    events = [D(*BLOCK_HANDS), P(0, "6-6"), P(1, "6-4"), VOID(3), P(0, "6-5")]
    assert viol(report(SMALL, events)) == [(5, "out_of_turn", 0)]
    ok(SMALL, [*events[:4], P(1, "6-4"), P(0, "6-5")])
    # a struck deal: nothing was dealt
    assert viol(report(SMALL, [D(*BLOCK_HANDS), VOID(1), P(0, "6-6")])) == [(3, "round_over", 0)]
    # a struck penalty
    assert ok(SMALL, [PEN(0, 5), VOID(1)])["totals"] == [0, 0]


def test_voids_latest_first() -> None:
    """"Voids are resolved latest first, so a void of a void restores its target." """
    rep = ok(SMALL, [*BLOCK, VOID(7), VOID(8)])                   # 8 struck: 7 stands
    assert rnd(rep) == ("blocked", 0, 4)
    rep = ok(SMALL, [*BLOCK, VOID(7)])
    assert rnd(rep) == ("in_progress", None, 0)
    rep = ok(SMALL, [*BLOCK, VOID(7), VOID(8), VOID(9)])          # 9 struck: 8 acts, 7 struck
    assert rnd(rep) == ("in_progress", None, 0)
    rep = ok(SMALL, [*BLOCK, VOID(7), VOID(8), VOID(9), VOID(10)])
    assert rnd(rep) == ("blocked", 0, 4)
    # an earlier void of a later void does not exist (the target must be earlier): bad_event
    assert viol(report(SMALL, [*BLOCK, VOID(9), VOID(7)])) == [(8, "bad_event", None)]
    # a bad void strikes nothing
    rep = report(SMALL, [*BLOCK, {"type": "void", "target": 7}])
    assert viol(rep) == [(8, "bad_event", None)] and rnd(rep) == ("blocked", 0, 4)


def test_a_void_can_reopen_a_finished_match() -> None:
    """"`void` ... still accepted" after the match, and "the replay runs as if that line were not
    there": striking what ended the match un-finishes it."""
    rules = {**SMALL, "target": 4}
    rep = report(rules, [*BLOCK, D(*BLOCK_HANDS), VOID(7)])
    # with line 7 struck, the round is in progress and the deal at 8 is a deal during a round
    assert viol(rep) == [(8, "bad_event", None)]
    assert (rep["finished"], rep["winner"], rep["totals"]) == (False, None, [0, 0])
    rep = ok(rules, [*BLOCK, VOID(7), PS(1)])
    assert (rep["finished"], rep["winner"]) == (True, 0)
    rep = ok(SMALL, [*MID, VOID(3), P(1, "6-4")])
    assert (rep["finished"], rep["totals"]) == (False, [0, 0])


@pytest.mark.parametrize("rules, players, penalties, side, winner", [
    (SMALL, 2, [(1, 30)], 1, 0),                  # the other side wins whatever the totals
    (SMALL, 2, [(1, 30)], 0, 1),
    (SMALL, 2, [], 0, 1),
    ({"preset": "parejas", "hand_size": 2}, 4, [(0, 40)], 0, 1),
    (THREE, 3, [(0, 10), (1, 20), (2, 5)], 1, 0),   # the remaining side with the highest total
    (THREE, 3, [(0, 10), (1, 20), (2, 20)], 0, None),   # none on a tie
    (THREE, 3, [(0, 20), (1, 20), (2, 5)], 2, None),
    (THREE, 3, [(0, 30), (1, 10), (2, 20)], 0, 2),
    (THREE, 3, [], 1, None),
    ({"preset": "veracruz", "hand_size": 2, "draw": "none"}, 4, [(3, 1)], 0, 3),
])
def test_forfeit(rules: Any, players: int, penalties: list[tuple[int, int]], side: int,
                 winner: int | None) -> None:
    """"`forfeit`: with two sides the other side wins whatever the totals; with more, the remaining
    side with the highest total (none on a tie). The round in progress stays `in_progress`." """
    events = [PEN(s, p) for s, p in penalties] + [D(), P(0, "6-6"), FORFEIT(side)]
    rep = ok(rules, events, players)
    assert (rep["finished"], rep["winner"]) == (True, winner)
    assert rnd(rep) == ("in_progress", None, 0) and rep["rounds"][0]["pips"] is None


def test_penalties() -> None:
    """"`penalty`: `points` is an integer from -100,000 to 100,000 (negative deducts); between
    or during rounds." (The design said any integer: docs/readings.md says why a score has a
    limit.)"""
    rep = ok(SMALL, [PEN(1, -7), D(*BLOCK_HANDS), P(0, "6-6"), PEN(0, 0), PEN(1, 3), *BLOCK[2:],
                     PEN(0, -10)])
    assert rep["totals"] == [4 - 10, -7 + 3]
    assert rnd(rep) == ("blocked", 0, 4)
    assert ok(SMALL, [PEN(0, 100_000)])["winner"] == 0
    assert last(SMALL, [PEN(0, 10**12)]) == ("bad_event", None)


# ================================================================ robustness found by the audit


def test_tile_strings_with_thousands_of_digits() -> None:
    """"a string that is not `a-b` (ASCII digits) or names a pip above `max_pip` is
    `unknown_tile`" -- whatever its length (Python's int() refuses more than 4300 digits); leading
    zeros still name the tile (readings)."""
    assert last(SMALL, [D(*BLOCK_HANDS), P(0, "1" * 5000 + "-1")]) == ("unknown_tile", 0)
    assert last(SMALL, [D(*BLOCK_HANDS), P(0, "6-1" + "0" * 5000)]) == ("unknown_tile", 0)
    ok(SMALL, [D(*BLOCK_HANDS), P(0, "0" * 5000 + "6-0" + "0" * 4999 + "6")])
    free = {**SMALL, "first_opener": "free"}
    m = match_of(free, [D(*BLOCK_HANDS), P(0, "0" * 5000 + "5-6")])
    assert (m.left, m.right) == (5, 6)


@pytest.mark.parametrize("value", [6.0, 9.0, True, "6", [6]])
def test_a_rule_value_of_the_wrong_type_is_a_bad_header(value: Any) -> None:
    """"Unreadable (exit 2): ... a bad header (... an unknown rule parameter or value ...)" --
    `max_pip: 6.0` is not one of 6, 9, 12 (and must not crash the reader)."""
    with pytest.raises(LogError) as error:
        read_log(json.dumps(header({"preset": "mano-a-mano", "max_pip": value})) + "\n")
    assert error.value.line == 1


def test_draw_one_with_a_reserve_blocks_at_the_reserve() -> None:
    """"`reserve` | tiles that must stay in the boneyard (drawing stops there)"; under `draw: one`
    a pass with a draw available is `must_draw`; "Block by passes ... provided no legal draw
    remains." """
    rules = {"preset": "veracruz", "hand_size": 2, "reserve": 20}   # 22 in the boneyard
    base = [D("6-6 1-0", "6-5 2-0", "3-3 2-1"), P(0, "6-6"), P(1, "6-5"), DR(2, "4-4"), PS(2)]
    assert last(rules, [*base, PS(0)], 3) == ("must_draw", 0)       # 21 > 20: seat 0 must draw
    events = [*base, DR(0, "4-0"), PS(0)]
    assert last(rules, [*events, DR(1)], 3) == ("illegal_draw", 1)  # 20: at the reserve
    rep = ok(rules, [*events, PS(1)], 3)
    # seat 0: 1-0 4-0 (5), seat 1: 2-0 (2), seat 2: 3-3 2-1 4-4 (17); all 24 to seat 1
    assert rep["rounds"][0] == {"round": 1, "opener": 0, "outcome": "blocked", "winner": 1,
                                "points": 24, "pips": [5, 2, 17], "blocked_by": 1, "scores": [0, 24, 0]}


def test_two_voids_of_one_target() -> None:
    """"Voids are resolved latest first, so a void of a void restores its target." -- restoring
    one of two voids of the same line leaves the line struck."""
    rep = ok(SMALL, [*BLOCK, VOID(7), VOID(7), VOID(8)])
    assert rnd(rep) == ("in_progress", None, 0)
    rep = ok(SMALL, [*BLOCK, VOID(7), VOID(7), VOID(8), VOID(9)])
    assert rnd(rep) == ("blocked", 0, 4)


@pytest.mark.parametrize("later, round_1, opener", [
    # a block awaiting reveals: nobody known to have won, so the opener is not checked and the
    # round's opener is the seat that leads (ROUND2's seat 1 here, below)
    ("winner", CLOSED_BLOCK, None),
    ("puerto_rico", CLOSED_BLOCK, None),
    ("winner", [D(), *DOMINO_1[1:]], 1),  # a domino awaiting reveals: the seat that went out
    ("puerto_rico", [D(), *DOMINO_1[1:]], 1),
    ("next", CLOSED_BLOCK, 1),
])
def test_later_opener_after_a_round_awaiting_reveals(later: str, round_1: list[Any], opener: int) -> None:
    """"A `deal` for the next round while a round awaits reveals is accepted" (readings: who opens
    after it)."""
    rules = {**LATER, "later_opener": later}
    rep = ok(rules, [*round_1, ROUND2])
    assert rnd(rep, 0)[0] == "awaiting_reveal"
    assert rep["rounds"][1]["opener"] == opener
    if opener is None:  # "the next round's opener is not checked": either seat may lead
        for seat, tile in ((0, "4-4"), (1, "1-0")):
            assert ok(rules, [*round_1, ROUND2, P(seat, tile)])["rounds"][1]["opener"] == seat


@pytest.mark.parametrize("tail", ["\u00a0\n", "\x0c\n", "\u2028\n", "\x1c\n"])
def test_a_last_line_of_non_json_white_space_is_not_json(tail: str) -> None:
    """"Unreadable (exit 2): ... a line that is not JSON" -- a line holding only a no-break space
    (or another character str.strip() drops but JSON does not count as white space) is not a blank
    line; blank lines (spaces, tabs, a carriage return) after the last event are still fine."""
    with pytest.raises(LogError) as error:
        read_log(text_of(SMALL, 2, BLOCK) + tail)
    assert error.value.line == len(BLOCK) + 2
    assert len(read_log(text_of(SMALL, 2, BLOCK) + " \t\r\n\n").events) == len(BLOCK)
