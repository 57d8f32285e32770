"""Reading and writing domino-log/1 (design: The match log; Edge cases, Reading a log)."""

import json
import random

import pytest
from core_helpers import HAND_A, HAND_B, deal, play

from referee.core.log import FORMAT, LogError, make_log, parse_header, read_log, write_log
from referee.core.rules import resolve_rules
from referee.core.simulate import random_match

HEADER = {"format": "domino-log/1", "rules": "mano-a-mano", "players": ["Ana", "Beto"]}
EVENTS = [deal(HAND_A, HAND_B), play(0, "6-6"), play(1, "6-2"), {"type": "note", "text": "¡olé!"}]


def text_of(header=HEADER, events=EVENTS):
    return "".join(json.dumps(v, ensure_ascii=False) + "\n" for v in [header, *events])


def error_line(data):
    with pytest.raises(LogError) as caught:
        read_log(data)
    assert caught.value.message and str(caught.value).startswith(f"line {caught.value.line}: ")
    return caught.value.line


def test_reads_a_log():
    log = read_log(text_of())
    assert log.header.players == ("Ana", "Beto")
    assert log.header.rules == resolve_rules("mano-a-mano", 2)
    assert log.header.fields["rules"] == "mano-a-mano"
    assert list(log.events) == EVENTS
    assert read_log(text_of().encode("utf-8")) == log


def test_header_with_an_override_object_and_optional_fields():
    header = {"format": FORMAT, "rules": {"preset": "parejas", "target": 100},
              "players": ["A", "B", "C", "D"], "match": "final", "club": "casino",
              "table": 3, "date": "2024-05-01T20:30:00", "event": "Liga"}
    log = read_log(text_of(header, []))
    assert log.header.rules.target == 100 and log.header.rules.partnerships
    assert log.events == ()
    assert log.header.fields == header


def test_not_utf8_names_the_line():
    data = text_of().encode("utf-8").replace("olé".encode("utf-8"), b"ol\xe9")
    assert error_line(data) == 5
    assert error_line(b"\xff" + text_of().encode()) == 1


@pytest.mark.parametrize("lines, line", [
    (["{not json"], 2),
    (['{"type": "note", "text": "a"}', "{'type': 'note'}"], 3),
    (['{"type": "note", "text": "a"} {"type": "note", "text": "b"}'], 2),  # two values, one line
    (['{"type": "note", "text": "a"},'], 2),
    (['[1,', '2]'], 2),
    (['{"type": "penalty", "side": 0, "points": NaN, "reason": "x"}'], 2),
    (['{"type": "note", "text": "a"}', '', '{"type": "note", "text": "b"}'], 3),  # blank line
    (['', '{"type": "note", "text": "b"}'], 2),
    (['{"type": "note", "text": "a"}', '   ', '{"type": "note", "text": "b"}'], 3),
    (['{"type": "note", "text": "a"}', '{"type": "note", "text": "a", "text": "b"}'], 3),  # a key twice
    (['{"type": "deal", "hands": [null, {"x": 1, "x": 1}]}'], 2),
])
def test_unreadable_event_lines(lines, line):
    assert error_line(json.dumps(HEADER) + "\n" + "\n".join(lines) + "\n") == line


@pytest.mark.parametrize("lines, line", [
    # a value split over two lines, made up for by a line holding two values
    (['[1', '2]', '3, 4'], 2),
    (['{"type": "note"', '"text": "x"}', '{"type": "note", "text": "a"}, 5'], 2),
    (['{"type": "note", "text": "a', 'b"}', '5, 6'], 2),
    (['5, 9007199254740993', '[1', '2]'], 2),
    (['1, 9.007199254740992e15, 2', '[1', '2]'], 2),
])
def test_every_line_must_be_one_value(lines, line):
    assert error_line(json.dumps(HEADER) + "\n" + "\n".join(lines) + "\n") == line


def test_numbers_in_events_survive_the_fast_reading():
    events = [{"type": "note", "text": "9007199254740993", "n": 9007199254740993}, 2**53 + 1]
    assert read_log(text_of(events=events)).events == tuple(events)


@pytest.mark.parametrize("tail", ["", "\n", "\n\n\n", "\n  \n\t\n"])
def test_trailing_blank_lines_are_fine(tail):
    assert read_log(text_of() + tail).events == tuple(EVENTS)
    assert read_log(text_of().rstrip("\n") + tail).events == tuple(EVENTS)


def test_json_that_is_no_event_is_still_readable():
    # the referee reports these as bad_event; they do not make the log unreadable
    log = read_log(text_of(events=[[1, 2], "deal", 7, None, {"type": "shuffle"}]))
    assert log.events == ([1, 2], "deal", 7, None, {"type": "shuffle"})


def test_empty_and_headerless():
    assert error_line("") == 1
    assert error_line("\n\n") == 1
    assert error_line(json.dumps(EVENTS[0]) + "\n") == 1


@pytest.mark.parametrize("change", [
    {"format": "domino-log/2"},
    {"format": None},
    {"players": "Ana, Beto"},
    {"players": ["Ana", 7]},
    {"players": ["Ana", ""]},
    {"players": ["Ana"]},                                         # mano-a-mano is for 2
    {"players": ["Ana", "Beto", "Carla"]},
    {"rules": "chinchon"},                                        # unknown preset
    {"rules": {"preset": "mano-a-mano", "colour": "red"}},       # unknown parameter
    {"rules": {"preset": "mano-a-mano", "draw": "sometimes"}},   # unknown value
    {"rules": {"preset": "mano-a-mano", "target": "50"}},
    {"rules": {"preset": "mano-a-mano", "hand_size": 15}},       # the hands do not fit
    {"rules": {"preset": "mano-a-mano", "seats": 3}},
    {"rules": {"preset": "mano-a-mano", "partnerships": True}},
    {"rules": 7},
    {"date": "yesterday"},
    {"date": 20240501},
])
def test_bad_header(change):
    assert error_line(text_of({**HEADER, **change})) == 1


@pytest.mark.parametrize("header", [None, [], "domino-log/1", {"format": FORMAT, "players": []}])
def test_header_not_an_object_or_incomplete(header):
    with pytest.raises(LogError) as caught:
        parse_header(header)
    assert caught.value.line == 1
    assert error_line(json.dumps(header) + "\n") == 1


def test_rules_missing():
    header = {k: v for k, v in HEADER.items() if k != "rules"}
    assert error_line(text_of(header)) == 1


def test_byte_order_mark_is_ignored():
    assert read_log("\ufeff" + text_of()).events == tuple(EVENTS)


def test_round_trip():
    log = read_log(text_of())
    written = write_log(log)
    again = read_log(written)
    assert again.events == log.events and again.header.fields == log.header.fields
    assert written.endswith("\n") and written.count("\n") == 1 + len(EVENTS)
    assert "¡olé!" in written  # UTF-8, not \\u escapes
    assert write_log(again) == written


@pytest.mark.parametrize("seed", range(3))
def test_round_trip_of_whole_matches(seed):
    header, events = random_match("veracruz", ["Ana", "Beto", "Carla"], random.Random(seed),
                                  hidden=[1])
    log = make_log(header, events)
    again = read_log(write_log(log))
    assert again.events == tuple(events) and again.header == log.header


def test_round_trip_keeps_unknown_fields_and_odd_events():
    events = [{"type": "play", "seat": 0, "tile": "6-6", "disputed": True, "seq": 1},
              [1, 2], {"type": "note", "text": "x", "n": 1.5}]
    header = {**HEADER, "venue": "El Patio"}
    log = read_log(text_of(header, events))
    assert read_log(write_log(log)).events == tuple(events)
    assert read_log(write_log(log)).header.fields["venue"] == "El Patio"


def test_make_log_checks_the_header():
    with pytest.raises(LogError):
        make_log({**HEADER, "format": "pgn"}, [])


def test_deeply_nested_json_is_unreadable_not_a_crash():
    from referee import LogError, read_log
    header = '{"format": "domino-log/1", "rules": "mano-a-mano", "players": ["a", "b"]}\n'
    with pytest.raises(LogError) as caught:
        read_log(header + "[" * 100_000 + "]" * 100_000 + "\n")
    assert caught.value.line == 2


def test_iso_date_reads_dates_and_date_times():
    import datetime as dt

    from referee.core.log import iso_date
    assert iso_date("2026-11-27") == dt.date(2026, 11, 27)
    assert iso_date("2026-11-27T20:30:00+01:00") == dt.date(2026, 11, 27)
    assert iso_date("27/11/2026") is None


# The reader keeps lines it has read (most of a log is the same few hundred short lines) and
# reads them again as copies: what it hands out must never be shared.

def test_a_line_read_again_is_a_new_object_each_time():
    text = text_of(events=[play(0, "6-6"), play(0, "6-6"), {"type": "pass", "seat": 1}])
    first = read_log(text)
    second = read_log(text)
    assert first.events[0] == first.events[1] == second.events[0] == play(0, "6-6")
    assert len({id(e) for e in first.events + second.events}) == 6
    first.events[0]["tile"] = "0-0"
    first.events[1].clear()
    assert read_log(text).events == second.events == (play(0, "6-6"), play(0, "6-6"),
                                                       {"type": "pass", "seat": 1})


def test_a_reader_that_only_reads_may_take_a_line_read_before_as_it_was():
    # read_log's ``shared`` (domino validate's): no copy of a line read before, in this log or
    # an earlier one; any other reading still gets new objects
    events = [play(0, "6-6"), play(0, "6-6"), {"type": "pass", "seat": 1}]
    text = text_of(events=events)
    first, second = read_log(text, shared=True), read_log(text, shared=True)
    assert first.events == second.events == tuple(events)
    assert first.events[0] is first.events[1] is second.events[0]
    assert first.events[2] is second.events[2]
    copied = read_log(text)
    assert copied.events == tuple(events)
    assert not {id(e) for e in copied.events} & {id(e) for e in first.events}


def test_objects_with_lists_inside_are_not_shared():
    event = {"type": "note", "text": "x", "tags": ["a"]}
    text = text_of(events=[event])
    read_log(text).events[0]["tags"].append("b")
    assert read_log(text).events == (event,)


def test_a_line_read_before_still_counts_in_the_line_numbers_of_errors():
    seen = json.dumps(play(0, "6-6"))
    read_log(text_of(events=[play(0, "6-6")]))
    def log_of(*lines):
        return "".join(line + "\n" for line in (json.dumps(HEADER), *lines))

    assert error_line(log_of(seen, "[1", seen, "2]")) == 3  # a value split around a kept line
    assert error_line(log_of(seen, seen, "", seen)) == 4
    assert error_line(log_of(seen, "{bad", seen)) == 3


def test_many_different_lines_read_the_same():
    from referee.core import log as log_module
    events = [{"type": "note", "text": f"note {i}"} for i in range(log_module._SEEN_MAX + 10)]
    for _ in range(2):
        assert read_log(text_of(events=events)).events == tuple(events)
    assert len(log_module._SEEN) <= log_module._SEEN_MAX


@pytest.mark.parametrize("seed", range(3))
def test_reading_equals_decoding_every_line(seed):
    rng = random.Random(seed)
    header, events = random_match("parejas", ["A", "B", "C", "D"], rng, hidden=[3])
    text = text_of(header, events)
    for _ in range(2):  # the second time, most lines are ones read before
        log = read_log(text)
        assert list(log.events) == [json.loads(line) for line in text.splitlines()[1:]]


def test_a_kept_line_holds_the_referees_own_strings():
    # Its keys and the referee's words interned (log._interned), the tile's text the tile
    # set's own key (referee.core.tiles): the replay finds them by identity, shared or copied,
    # first read or not. Any other string (a note's) is not: on Python 3.12 an interned string
    # lives as long as the process.
    import sys

    from referee.core.tiles import tile_set

    tiles = {text: text for text in tile_set(6).parts}
    note = sys.intern("".join(["a note ", str(len(tiles))]))  # (made, not a constant)
    text = text_of(events=[play(0, "6-6"), play(1, "3-6"), {"type": "pass", "seat": 1},
                           {"type": "note", "text": note}])
    for log in (read_log(text, shared=True), read_log(text), read_log(text, shared=True)):
        for event in log.events:
            for key, value in event.items():
                assert key is sys.intern(key)
                if key == "type":
                    assert value is sys.intern(value)
            if "tile" in event:
                assert event["tile"] is tiles[event["tile"]]
        assert log.events[3]["text"] == note and log.events[3]["text"] is not note
