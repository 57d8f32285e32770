"""The position's layout as a screen draws it (referee.core.position): each open end with its
side and kind, the spinner's arms once open, the tiles on them, and the count, replayed from the
shipped All Fives and Fives and Threes examples."""

from __future__ import annotations

from pathlib import Path

from referee.core.log import read_log
from referee.core.match import Match
from referee.core.position import position
from referee.core.replay import positions
from referee.core.rules import resolve_rules

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _positions(name: str) -> dict[int, dict]:
    log = read_log((EXAMPLES / name).read_text())
    return {seq: position(match).as_dict()
            for seq, match, _ in positions(log.header.rules, log.header.players, log.events)}


def test_all_fives_spinner_arms_open_and_grow() -> None:
    shown = _positions("all-fives.jsonl")
    assert shown[1]["open_ends"] == [] and shown[1]["count"] == 0 and shown[1]["arms"] is None
    # The 5-5 led: the spinner, counted once as a lone lead.
    assert shown[2]["spinner"] == "5-5" and shown[2]["count"] == 10
    assert shown[2]["open_ends"] == [{"side": "left", "pip": 5, "kind": "double"},
                                     {"side": "right", "pip": 5, "kind": "double"}]
    # Both its sides covered (event 11): the arms open, each showing 5, counted nothing yet.
    assert shown[10]["arms"] is None
    assert shown[11]["open_ends"] == [{"side": "left", "pip": 2, "kind": "plain"},
                                      {"side": "right", "pip": 1, "kind": "plain"},
                                      {"side": "up", "pip": 5, "kind": "empty_arm"},
                                      {"side": "down", "pip": 5, "kind": "empty_arm"}]
    assert shown[11]["count"] == 3 and shown[11]["arms"] == {"up": [], "down": []}
    # 6-5 down, then 6-3 and the 3-3 on it: the tiles outward, the spinner's side first.
    assert shown[23]["arms"] == {"up": [], "down": ["5-6"]} and shown[23]["count"] == 2 + 4 + 6
    assert shown[27]["arms"]["down"] == ["5-6", "6-3", "3-3"]
    assert shown[27]["open_ends"][3] == {"side": "down", "pip": 3, "kind": "double"}
    assert shown[27]["count"] == 5 + 4 + 6  # the double down counts both halves
    assert "5-6" not in shown[27]["line"] and shown[27]["line"].count("5-5") == 1
    assert shown[27]["ends"] == [5, 4]  # the line's two ends, as every family has them


def test_every_position_counts_its_open_ends_as_the_family_does() -> None:
    for name in ("all-fives.jsonl", "fives-and-threes-pairs.jsonl"):
        for seq, shown in _positions(name).items():
            ends = shown["open_ends"]
            if not ends:
                continue
            if len(shown["line"]) == 1 and not shown["arms"]:
                continue  # the lone lead: its pips once
            total = sum(2 * e["pip"] if e["kind"] == "double" else e["pip"]
                        for e in ends if e["kind"] != "empty_arm")
            assert shown["count"] == total, (name, seq)


def test_a_line_family_has_no_count_and_no_arms() -> None:
    match = Match(resolve_rules("mano-a-mano", 2), ["Ana", "Beto"])
    match.push({"type": "deal", "hands": [["6-6", "6-5", "5-5", "4-4", "3-3", "2-2", "1-1"],
                                          ["6-4", "6-3", "5-4", "5-3", "4-3", "2-1", "1-0"]]})
    match.push({"type": "play", "seat": 0, "tile": "6-6"})
    assert position(match).as_dict()["open_ends"] == [{"side": "left", "pip": 6, "kind": "plain"},
                                                      {"side": "right", "pip": 6, "kind": "plain"}]
    match.push({"type": "play", "seat": 1, "tile": "6-4"})
    shown = position(match).as_dict()
    assert shown["count"] is None and shown["spinner"] is None and shown["arms"] is None
    assert shown["open_ends"] == [{"side": "left", "pip": 6, "kind": "double"},
                                  {"side": "right", "pip": 4, "kind": "plain"}]
