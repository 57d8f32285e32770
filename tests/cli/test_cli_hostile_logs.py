"""``domino validate`` on hostile logs, property-based: legal records of both families from the
simulator (open, closed with tile or pip reveals), changed the ways a malformed or hostile log
can be (a field given every JSON type, huge numbers, nulls, lone surrogates and bidi controls,
fields dropped or added, events duplicated, dropped, swapped, rulings and deals inserted, the
rules or the players changed, a whole line replaced), then written as text the ways a file can
be (BOM, CRLF, a line cut short, a blank line, NaN, a key twice, a byte changed).

Whatever the file, validate answers: never a traceback; exit 0, 1 or 2 as its report says; an
unreadable log named with its line and why; a report true to its contract (docs/report.md); the
same report from the run of moves and from the slow path; the text report writable on a UTF-8
terminal. A legal record, open or closed, is never accused. Found so: a player named with a
lone surrogate (a traceback of the text report), penalties past a score's limit (a traceback,
and an HTTP 500 on import), a null target or time reason (bad_event)."""

from __future__ import annotations

import copy
import io
import json
import random
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli.logfiles import validate_logs
from referee.core import read_log
from referee.core.events import VIOLATION_CODES
from referee.core.family import Family, family_of
from referee.core.replay import replay
from referee.core.report import build_report
from referee.core.simulate import random_match

NAMES = ["Ana", "Beto", "Carla", "Dani"]
CASES = [("mano-a-mano", 2), ("parejas", 4), ("veracruz", 3), ("sircle", 2), ("puerto-rico", 4),
         ("fives-and-threes", 2), ("all-fives", 3), ("muggins", 4),
         ({"preset": "fives-and-threes", "spinner": "first_double", "target": 31}, 2),
         ({"preset": "parejas", "time_limit": 30}, 4)]
ODD = [None, True, False, 0, -1, 1, 7, 2**31, 2**63, -2**63, 10**30, 100_001, 1.5, 1e308, "",
       "x", "0", "6-6", "7-7", "06-5", "left", "up", "\ud800", "\u202e", "\u200b", [], [1], {},
       {"a": 1}, [[[[[]]]]]]
FIELDS = ["type", "seat", "tile", "end", "hands", "tiles", "pips", "side", "points", "reason",
          "target", "event", "text", "seq", "disputed", "unsighted"]


def simulated(rng: random.Random) -> tuple[dict[str, Any], list[Any]]:
    """A legal match of a random case, open or closed (every hand, one, all but one)."""
    spec, players = rng.choice(CASES)
    every = list(range(players))
    hidden = rng.choice([(), every, every[:1], every[1:]])
    return random_match(spec, NAMES[:players], rng, hidden=hidden, pips_only=rng.random() < 0.3,
                        max_rounds=rng.randint(1, 4))


def inserted(rng: random.Random, i: int) -> Any:
    return rng.choice([
        {"type": "pass", "seat": rng.randrange(4)},
        {"type": "reveal", "seat": rng.randrange(4), "tiles": ["6-6", "0-0"]},
        {"type": "reveal", "seat": rng.randrange(4), "pips": rng.choice([0, 5, 99, 10**30])},
        {"type": "void", "target": rng.randrange(0, i + 3), "reason": "r"},
        {"type": "amend", "target": rng.randrange(0, i + 3), "reason": "r",
         "event": rng.choice([{"type": "pass", "seat": 0}, {"type": "amend"}, {}, 3,
                              {"type": "play", "seat": 1, "tile": "6-6"}])},
        {"type": "stands", "target": rng.randrange(0, i + 3), "reason": "r"},
        {"type": "penalty", "side": rng.randrange(3), "points": rng.choice([1, -5, 10**20]),
         "reason": "r", "target": rng.choice([None, i, 10**20])},
        {"type": "annul", "reason": "r"}, {"type": "forfeit", "side": 0, "reason": "r"},
        {"type": "time"}, {"type": "abandon", "reason": "r"}, {"type": "deal"},
        {"type": "deal", "hands": [None] * rng.randint(0, 5)},
        {"format": "domino-log/1", "rules": "parejas", "players": NAMES}])


def changed(header: dict[str, Any], events: list[Any], rng: random.Random) -> tuple[dict[str, Any], list[Any]]:
    """The record with one to three changes of a hostile or careless writer."""
    header, events = copy.deepcopy(header), copy.deepcopy(events)
    for _ in range(rng.randint(1, 3)):
        if not events:
            events.append({"type": "note", "text": "x"})
        i, r = rng.randrange(len(events)), rng.random()
        event = events[i]
        if r < 0.25 and type(event) is dict:
            event[rng.choice(FIELDS)] = rng.choice(ODD)
        elif r < 0.32 and type(event) is dict and len(event) > 1:
            del event[rng.choice([k for k in event if k != "type"] or ["type"])]
        elif r < 0.4:  # the same event twice: a tile played twice, a repeat
            events.insert(rng.randrange(len(events)), copy.deepcopy(event))
        elif r < 0.47:
            j = rng.randrange(len(events))
            events[i], events[j] = events[j], events[i]
        elif r < 0.52:
            del events[i]
        elif r < 0.6:
            events.insert(i, inserted(rng, i))
        elif r < 0.65:  # the rules changed, or made unusable
            header["rules"] = rng.choice([
                "parejas", "muggins", {"preset": "muggins", "target": rng.choice([0, 1, 10**30])},
                {"preset": "mano-a-mano", "hand_size": rng.choice([0, 1, 14, 30])},
                {"preset": "x"}, {}, None, 5])
        elif r < 0.7:
            seats = len(header["players"])
            header["players"] = rng.choice([NAMES[:seats][::-1], ["A\ud800"] * seats,
                                            ["[/]", ":smile:", "\u202eDani", "x"][:seats],
                                            [""] * seats, "Ana"])
        elif r < 0.75 and type(event) is dict and event.get("type") == "play":
            event["disputed"] = True
        elif r < 0.8 and type(event) is dict and i:
            events[i] = {"type": "amend", "target": i, "event": event, "reason": "r"}
        elif r < 0.85:
            header[rng.choice(["date", "match", "club", "format"])] = rng.choice(ODD)
        else:
            events[i] = rng.choice(ODD)
    return header, events


def written(header: dict[str, Any], events: list[Any], rng: random.Random) -> bytes:
    """The lines as a file may hold them."""
    lines = [json.dumps(v, ensure_ascii=rng.random() < 0.5) for v in (header, *events)]
    r = rng.random()
    if r < 0.1:  # a line cut short
        lines[rng.randrange(len(lines))] = lines[rng.randrange(len(lines))][:rng.randint(0, 30)]
    elif r < 0.15:  # a key twice
        i = rng.randrange(len(lines))
        lines[i] = lines[i].replace("{", '{"type": "note", ', 1)
    elif r < 0.2:
        lines.insert(rng.randrange(1, len(lines) + 1), rng.choice(["", " \t", "\r"]))
    elif r < 0.25:
        i = rng.randrange(len(lines))
        lines[i] = lines[i].replace("1", rng.choice(["NaN", "Infinity", "1" * 5000]), 1)
    newline = "\r\n" if rng.random() < 0.2 else "\n"
    data = (newline.join(lines) + (newline if rng.random() < 0.8 else "")).encode(
        "utf-8", "surrogatepass")  # (a lone surrogate written raw: not UTF-8)
    if rng.random() < 0.1:
        data = b"\xef\xbb\xbf" + data
    if rng.random() < 0.05:
        k = rng.randrange(len(data))
        data = data[:k] + bytes([rng.randrange(256)]) + data[k + 1:]
    return data


def validated(path: Path, as_json: bool) -> tuple[int, str]:
    """validate's exit status and output, through a strict UTF-8 stdout as a terminal's."""
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="\n")
    lines: list[str] = []
    with redirect_stdout(out):
        status = validate_logs([str(path)], as_json=as_json, list_suspicions=True,
                               echo=lines.append, echo_problem=lines.append)
        out.flush()
    return status, "\n".join(lines) + out.buffer.getvalue().decode("utf-8")  # type: ignore[attr-defined]


def check_report(report: dict[str, Any], events: int) -> None:
    """docs/report.md's contract, the parts any report must keep."""
    assert report["format"] == "domino-report/1"
    assert report["valid"] is (not report["violations"])
    assert type(report["finished"]) is bool and report["winner"] in (None, *range(len(report["totals"])))
    seqs = [v["seq"] for v in report["violations"]]
    assert seqs == sorted(seqs)
    for v in report["violations"]:
        assert 1 <= v["seq"] <= events and v["code"] in VIOLATION_CODES, v
        assert v["certainty"] in ("proven", "possible") and v["message"]
        if "found_at" in v:  # a foul proven in hindsight: the event that completed the proof
            assert v["seq"] <= v["found_at"] <= events and v["evidence"], v
            assert all(1 <= fact["seq"] <= v["found_at"] for fact in v["evidence"]), v
    for suspicion in report["suspicions"]:
        assert suspicion["certainty"] == "possible"
    assert all(type(t) is int for t in report["totals"])


def check_log(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "hostile.jsonl"
    path.write_bytes(data)
    status, out = validated(path, as_json=True)
    answer = json.loads(out)
    if status == 2:
        error = answer["error"]
        assert answer["file"] == str(path) and type(error["line"]) is int and error["message"]
        text_status, text = validated(path, as_json=False)
        assert text_status == 2 and f"{path}: cannot read line {error['line']}: " in text
        return
    log = read_log(data)
    check_report(answer, len(log.events))
    assert status == (0 if answer["valid"] else 1)
    # the run of moves (referee.core.fastpath) and the slow path: one verdict
    family = family_of(log.header.rules)
    slow = Family(family.name, family.layout, family.scoring, fast=False)
    fast = build_report(replay(log.header.rules, log.header.players, log.events))
    assert build_report(replay(log.header.rules, log.header.players, log.events,
                               family=slow)) == fast
    text_status, text = validated(path, as_json=False)
    assert text_status == status and "Traceback" not in text


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_a_hostile_log_gets_a_verdict_never_a_traceback(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    header, events = changed(*simulated(rng), rng)
    check_log(tmp_path, written(header, events, rng))


@pytest.mark.slow
@settings(max_examples=1500, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_many_hostile_logs_get_a_verdict(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    header, events = simulated(rng)
    if rng.random() < 0.9:
        header, events = changed(header, events, rng)
    check_log(tmp_path, written(header, events, rng))


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_a_legal_record_open_or_closed_is_never_accused(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    header, events = simulated(rng)
    path = tmp_path / "legal.jsonl"
    path.write_text("".join(json.dumps(v) + "\n" for v in (header, *events)), encoding="utf-8")
    status, out = validated(path, as_json=True)
    report = json.loads(out)
    assert status == 0 and report["violations"] == [] and report["disputes"] == [], report
