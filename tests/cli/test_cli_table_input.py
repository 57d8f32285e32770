"""The table prompt's input reader (cli/table_input.py), on its own: text in, event or error out."""

from __future__ import annotations

import pytest

from cli.table_input import Entry, InputError, parse_end, parse_entry, parse_hand, parse_tile


@pytest.mark.parametrize("text, tile", [
    ("6-5", "6-5"), ("5-6", "5-6"), ("65", "6-5"), ("56", "5-6"), ("6/5", "6-5"),
    ("[6|5]", "6-5"), (" 0-0 ", "0-0"), ("12-11", "12-11"), ("9-12", "9-12"),
])
def test_tiles(text: str, tile: str) -> None:
    assert parse_tile(text) == tile


@pytest.mark.parametrize("text", ["", "6", "655", "6-", "a-b", "6x5", "1211", "6--5"])
def test_not_tiles(text: str) -> None:
    with pytest.raises(InputError, match="not a tile"):
        parse_tile(text)


def test_ends_and_hands() -> None:
    assert [parse_end(t) for t in ("5", "left", "L", "r", "RIGHT", "0")] == [5, "left", "left", "right", "right", 0]
    with pytest.raises(InputError, match="not an end"):
        parse_end("middle")  # "up" and "down" are the spinner's arms (test_cli_points)
    assert parse_hand("6-6 65, 5-5") == ["6-6", "6-5", "5-5"]
    assert parse_hand("-") is None and parse_hand("  ") is None


@pytest.mark.parametrize("text, event", [
    ("6-5", {"type": "play", "tile": "6-5"}),
    ("65", {"type": "play", "tile": "6-5"}),
    ("65 on 5", {"type": "play", "tile": "6-5", "end": 5}),
    ("6-5 5", {"type": "play", "tile": "6-5", "end": 5}),
    ("6-5 left", {"type": "play", "tile": "6-5", "end": "left"}),
    ("65 ON r", {"type": "play", "tile": "6-5", "end": "right"}),
    ("p", {"type": "pass"}),
    ("PASS", {"type": "pass"}),
    ("d", {"type": "draw"}),
    ("d 3-2", {"type": "draw", "tile": "3-2"}),
    ("draw 32", {"type": "draw", "tile": "3-2"}),
    ("r 6-5 4-4", {"type": "reveal", "tiles": ["6-5", "4-4"]}),
    ("r 65 44", {"type": "reveal", "tiles": ["6-5", "4-4"]}),
    ("r 6-5", {"type": "reveal", "tiles": ["6-5"]}),
    ("r 12", {"type": "reveal", "pips": 12}),
    ("n Beto  asked: a ruling?", {"type": "note", "text": "Beto  asked: a ruling?"}),
    ("deal", {"type": "deal"}),
    ("deal 6-6 6-5 / - ", {"type": "deal", "hands": [["6-6", "6-5"], None]}),
])
def test_events(text: str, event: dict) -> None:
    entry = parse_entry(text)
    assert entry.event == event and entry.seat is None and entry.action == event["type"]


@pytest.mark.parametrize("text, action", [
    ("u", "undo"), ("undo", "undo"), ("!", "insist"), ("?", "help"), ("h", "help"),
    ("s", "show"), ("q", "quit"), ("quit", "quit"), ("exit", "quit"),
])
def test_commands(text: str, action: str) -> None:
    assert parse_entry(text) == Entry(action)


def test_seat_prefix_and_event_for() -> None:
    entry = parse_entry("2: r 6-5")
    assert entry.seat == 2 and entry.event_for(2) == {"type": "reveal", "seat": 2, "tiles": ["6-5"]}
    entry = parse_entry("1:65 on 5")
    assert entry.seat == 1
    assert list(entry.event_for(1)) == ["type", "seat", "tile", "end"]  # logs read type, seat first
    assert parse_entry("p").event_for(3) == {"type": "pass", "seat": 3}
    assert parse_entry("n hi").event_for(None) == {"type": "note", "text": "hi"}


@pytest.mark.parametrize("text, message", [
    ("", "say what happened"),
    ("   ", "say what happened"),
    ("x", "neither a tile nor a command"),
    ("6-5 on", "a play is a tile"),
    ("6-5 on 5 now", "a play is a tile"),
    ("6-5 across", "not an end"),
    ("p 3", "takes nothing"),
    ("d 3-2 4-4", "draws one tile"),
    ("d x", "not a tile"),
    ("r", "needs the tiles"),
    ("r 6-5 x", "not a tile"),
    ("n", "needs the text"),
    ("2: q", "takes no seat"),
    ("deal 6-6 x", "not a tile"),
])
def test_parse_errors(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        parse_entry(text)


@pytest.mark.parametrize("text, what", [
    ("n hi\x1b[A", "an escape sequence"),   # an arrow key, without line editing
    ("\x1b[D6-5", "an escape sequence"),
    ("6-5\x00", "a control character"),
    ("n a\rb", "a control character"),
])
def test_control_characters_are_refused_whole(text: str, what: str) -> None:
    with pytest.raises(InputError, match=f"the line holds {what}.*nothing recorded"):
        parse_entry(text)


def test_a_tab_is_white_space() -> None:
    assert parse_entry("65\ton 5").event == {"type": "play", "tile": "6-5", "end": 5}
