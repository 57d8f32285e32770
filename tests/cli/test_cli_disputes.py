"""Disputes at the command line: ``domino disputes`` (a club's, a match's), the rulings that
settle them (``stands``, ``amend``, ``penalty --dispute``), ``--preview`` on every ruling, the
dispute sheet, the proofs ``validate`` prints with their evidence, and the table prompt telling
the open disputes when a round ends."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import click
import pytest
from cli_helpers import CLUB, OPEN_HANDS, Cli, legal_match

from cli.disputes import sheet_lines
from cli.rulings import CorrectedEvent, corrected_event
from cli.table_input import parse_entry
from referee import build_report, read_log, replay
from words.terms import term

EXAMPLES = Path(__file__).parents[2] / "examples"
SMALL = {"preset": "mano-a-mano", "hand_size": 3, "draw": "none", "target": 5}
FOUL = {**SMALL, "foul_points": 10}
# Closed: Beto passes at 3 on the 6s, then plays the 6-4 at 5 (a renege the record proves at
# event 5); Ana goes out at 6 and wins the match (9 to 0); Beto shows his last two at 7.
RENEGE = [{"type": "deal"}, {"type": "play", "seat": 0, "tile": "6-6"},
          {"type": "pass", "seat": 1}, {"type": "play", "seat": 0, "tile": "6-5"},
          {"type": "play", "seat": 1, "tile": "6-4"}, {"type": "play", "seat": 0, "tile": "5-5"},
          {"type": "reveal", "seat": 1, "tiles": ["3-3", "2-1"]}]
PROOF = "event 3: renege (proven at event 5) — Beto passed holding a tile that fits 6"


def recorded(cli: Cli, events: list[dict[str, Any]], rules: Any = FOUL,
             players: tuple[str, ...] = ("Ana", "Beto")) -> int:
    match_id = cli.new_match(rules, players)
    for event in events:
        cli.service.recording.record_event(match_id, event, expected_seq=None)
    return match_id


def last_seq(cli: Cli, match_id: int) -> int:
    return cli.service.reading.get_match(match_id)["last_seq"]


def open_deal(cli: Cli, *events: dict[str, Any]) -> int:
    """Mano a mano dealt open (OPEN_HANDS), Ana leads the 6-6, then ``events``."""
    return recorded(cli, [{"type": "deal", "hands": OPEN_HANDS},
                          {"type": "play", "seat": 0, "tile": "6-6"}, *events], "mano-a-mano")


# ------------------------------------------------------------------------------ domino disputes

def test_the_clubs_open_disputes_as_a_table(cli: Cli) -> None:
    renege = recorded(cli, RENEGE)
    refused = open_deal(cli, {"type": "pass", "seat": 1, "disputed": True})
    recorded(cli, [{"type": "deal", "hands": OPEN_HANDS}], "mano-a-mano")  # no dispute
    out = cli.run("disputes", "--club", CLUB).output
    assert f"{CLUB}: open disputes, 2 of 2" in out
    for column in ("match", "seq", "foul", "seat", "certainty", "found at", "ruling"):
        assert column in out
    lines = [line for line in out.splitlines() if "renege" in line]
    assert len(lines) == 2
    assert [c.strip() for c in lines[0].split("│")[1:-1]] == [
        str(renege), "3", "renege", "Beto (1)", "proven", "5", "open"]
    assert [c.strip() for c in lines[1].split("│")[1:-1]] == [
        str(refused), "3", "renege", "Beto (1)", "proven", "3", "open"]


def test_status_open_ruled_and_all(cli: Cli) -> None:
    match_id = recorded(cli, RENEGE)
    cli.run("stands", match_id, 3, "--reason", "both agreed")
    assert cli.run("disputes", "--club", CLUB).output.strip() == f"{CLUB}: no open disputes"
    for status in ("ruled", "all"):
        out = cli.run("disputes", "--club", CLUB, "--status", status).output
        assert "stands (event 8): both agreed" in out and "renege" in out
    assert "Invalid value for '--status'" in cli.run("disputes", "--club", CLUB, "--status",
                                                     "closed", code=2).output


def test_one_matchs_disputes_json_and_csv(cli: Cli) -> None:
    match_id = recorded(cli, RENEGE)
    other = open_deal(cli, {"type": "pass", "seat": 1, "disputed": True})
    out = cli.run("disputes", "--match", match_id).output
    assert f"match {match_id}: open disputes, 1 of 1" in out and "Beto (1)" in out
    rows = json.loads(cli.run("disputes", "--match", match_id, "--json").stdout)
    assert rows == [{"match": match_id, "seq": 3, "code": "renege", "seat": 1, "seat_name": "Beto",
                     "certainty": "proven", "found_at": 5, "ruling": None}]
    cli.run("penalty", match_id, "--dispute", 3)
    rows = json.loads(cli.run("disputes", "--club", CLUB, "--status", "all", "--json").stdout)
    assert [(r["match"], r["ruling"] and r["ruling"]["type"]) for r in rows] == [
        (other, None), (match_id, "penalty")]  # open first
    text = cli.run("disputes", "--match", match_id, "--status", "ruled", "--csv").stdout
    [row] = list(csv.DictReader(io.StringIO(text)))
    assert row == {"match": str(match_id), "seq": "3", "code": "renege", "seat": "1",
                   "seat_name": "Beto", "certainty": "proven", "found_at": "5",
                   "ruling": "penalty", "ruling_seq": "8", "ruling_type": "penalty",
                   "ruling_reason": "the rules' penalty for renege at event 3",
                   "ruling_points": "10"}


def test_disputes_pages_and_refuses_bad_input(cli: Cli) -> None:
    first = recorded(cli, RENEGE)
    second = recorded(cli, RENEGE)
    result = cli.run("disputes", "--club", CLUB, "--limit", 1, "--json")
    assert [r["match"] for r in json.loads(result.stdout)] == [first]
    assert "showing 1–1 of 2; --offset 1 for more" in result.stderr
    result = cli.run("disputes", "--club", CLUB, "--offset", 1, "--json")
    assert [r["match"] for r in json.loads(result.stdout)] == [second]
    assert "give --club or --match" in cli.run("disputes", code=2).output
    assert "give --club or --match" in cli.run("disputes", "--club", CLUB, "--match", first,
                                               code=2).output
    assert "not both" in cli.run("disputes", "--club", CLUB, "--json", "--csv", code=2).output
    assert "Error: no club 'nope'" in cli.run("disputes", "--club", "nope", code=1).output
    assert "Error: no match '99'" in cli.run("disputes", "--match", 99, code=1).output


# ------------------------------------------------------------------------------ stands, amend

def test_stands_settles_a_dispute_and_names_only_a_dispute(cli: Cli) -> None:
    match_id = recorded(cli, RENEGE)
    out = cli.run("stands", match_id, 3, "--reason", "both sides agreed").output
    assert "event 8: event 3 stands (both sides agreed)" in out
    assert cli.events(match_id)[-1] == {"type": "stands", "target": 3,
                                        "reason": "both sides agreed"}
    assert cli.service.reading.report(match_id)["valid"]
    out = cli.run("stands", match_id, 2, "--reason", "x", code=1).output
    assert f"Error: event 2 of match {match_id} is not a dispute" in out
    assert last_seq(cli, match_id) == 8
    cli.run("stands", match_id, 3, code=2)  # --reason is required


def test_amend_reads_the_event_as_the_table_prompt_writes_it(cli: Cli) -> None:
    # Beto played the 6-4; the scorekeeper typed 6-3 (legal too, so no dispute)
    match_id = open_deal(cli, {"type": "play", "seat": 1, "tile": "6-3"})
    out = cli.run("amend", match_id, 3, "64", "--reason", "it was the 6-4").output
    assert "event 4: amended event 3 to: Beto played 6-4 (it was the 6-4)" in out
    assert cli.events(match_id)[-1] == {
        "type": "amend", "target": 3, "event": {"type": "play", "seat": 1, "tile": "6-4"},
        "reason": "it was the 6-4"}  # the seat: the amended event's
    assert cli.service.reading.state(match_id).line == ("6-6", "6-4")
    cli.run("amend", match_id, 3, "1: 6-3 on 6", "--reason", "no, the 6-3")
    assert cli.events(match_id)[-1]["event"] == {"type": "play", "seat": 1, "tile": "6-3",
                                                 "end": 6}
    cli.run("amend", match_id, 3, '{"type": "play", "tile": "6-4"}', "--reason", "json")
    assert cli.events(match_id)[-1]["event"] == {"type": "play", "seat": 1, "tile": "6-4"}
    assert cli.service.reading.state(match_id).line == ("6-6", "6-4")


def test_amend_a_deal_typed_wrong(cli: Cli) -> None:
    typo = {"type": "deal", "hands": [["6-6", "6-5", "5-5"], ["6-4", "3-3", "6-5"]],
            "disputed": True}
    match_id = recorded(cli, [typo], SMALL)
    out = cli.run("disputes", "--match", match_id).output
    assert "unusable event" in out and "bad_event" not in out and "open" in out
    cli.run("amend", match_id, 1, "deal 6-6 6-5 5-5 / 6-4 3-3 2-1", "--reason", "2-1 typed as 6-5")
    assert cli.events(match_id)[-1]["event"] == {
        "type": "deal", "hands": [["6-6", "6-5", "5-5"], ["6-4", "3-3", "2-1"]]}
    assert cli.service.reading.report(match_id)["valid"]
    assert "amend (event 2): 2-1 typed as 6-5" in cli.run("disputes", "--match", match_id,
                                                          "--status", "ruled").output
    # a deal names no seat: a play in its place must say whose
    out = cli.run("amend", match_id, 1, "6-6", "--reason", "x", code=2).output
    assert "event 1 names no seat: put N: before EVENT" in out


@pytest.mark.parametrize("text, message", [
    ("zz", "'zz' is neither a tile nor a command"),
    ("u", "'u' is a command of the table prompt (undo), not an event"),
    ("{not json", "not JSON"),
    ("[1, 2]", "neither a tile nor a command"),
    ('{"type": "play"', "not JSON"),
])
def test_amend_refuses_text_that_is_no_event(cli: Cli, text: str, message: str) -> None:
    out = cli.run("amend", 1, 1, text, "--reason", "x", code=2).output
    assert "Invalid value for 'EVENT'" in out and message in out


def test_amend_of_an_event_not_recorded(cli: Cli) -> None:
    match_id = open_deal(cli)
    out = cli.run("amend", match_id, 9, "p", "--reason", "x", code=2).output
    assert f"Invalid value for 'SEQ': match {match_id} has 2 events; there is no event 9" in out
    out = cli.run("amend", match_id, 2, '{"type": "void", "target": 1, "reason": "x"}',
                  "--reason", "x", code=1).output
    assert "Error: refused (unusable event): an amend corrects a recorded event, not another ruling" \
        in out
    assert last_seq(cli, match_id) == 2


def test_the_corrected_event_takes_the_amended_events_seat() -> None:
    play = {"type": "play", "seat": 2, "tile": "6-3"}
    assert corrected_event(parse_entry("d 3-2"), play, 5) == {"type": "draw", "seat": 2,
                                                              "tile": "3-2"}
    assert corrected_event(parse_entry("3: p"), play, 5) == {"type": "pass", "seat": 3}
    assert corrected_event(parse_entry("r 12"), play, 5) == {"type": "reveal", "seat": 2,
                                                             "pips": 12}
    assert corrected_event(parse_entry("n typo"), play, 5) == {"type": "note", "text": "typo"}
    assert corrected_event({"type": "pass", "seat": 0}, play, 5) == {"type": "pass", "seat": 0}
    assert corrected_event({"type": "pass"}, play, 5) == {"type": "pass", "seat": 2}
    with pytest.raises(click.UsageError):
        corrected_event(parse_entry("p"), {"type": "deal"}, 1)
    assert CorrectedEvent().convert('{"type": "pass"}', None, None) == {"type": "pass"}


# ------------------------------------------------------------------------------ penalty --dispute

def test_penalty_dispute_alone_is_the_rules_standard_penalty(cli: Cli) -> None:
    match_id = recorded(cli, RENEGE)
    expected = cli.service.disputes.standard_penalty(match_id, 3)
    out = cli.run("penalty", match_id, "--dispute", 3).output
    assert "event 8: penalty: 10 points to Ana for event 3 (the rules' penalty for renege" in out
    assert "Totals: Ana 19, Beto 0" in out
    assert cli.events(match_id)[7:] == expected
    assert cli.service.disputes.for_match(match_id)[0]["ruling"]["type"] == "penalty"
    cli.run("penalty", match_id, "--dispute", 3, "--reason", "again, said so")
    assert cli.events(match_id)[-1]["reason"] == "again, said so"


def test_a_standard_penalty_to_each_opposing_side(cli: Cli) -> None:
    rules = {"preset": "veracruz", "hand_size": 3, "foul_points": 5}
    hands = [["6-6", "1-1", "2-2"], ["6-4", "3-3", "0-0"], ["5-5", "4-4", "3-1"]]
    match_id = recorded(cli, [{"type": "deal", "hands": hands},
                              {"type": "play", "seat": 0, "tile": "6-6"},
                              {"type": "pass", "seat": 1, "disputed": True}],
                        rules, ("Ana", "Beto", "Carla"))
    out = cli.run("penalty", match_id, "--dispute", 3).output
    assert "event 4: penalty: 5 points to Ana for event 3" in out
    assert "event 5: penalty: 5 points to Carla for event 3" in out
    assert cli.service.reading.report(match_id)["totals"] == [5, 0, 5]


def test_penalty_dispute_errors(cli: Cli) -> None:
    plain = recorded(cli, RENEGE, SMALL)  # rules with no standard penalty
    out = cli.run("penalty", plain, "--dispute", 3, code=1).output
    assert out.strip() == (f"Error: the rules of match {plain} name no standard penalty "
                           "(foul_points, foul_share): give --side and --points")
    out = cli.run("penalty", plain, "--dispute", 3, "--preview", code=1).output
    assert "name no standard penalty" in out
    match_id = recorded(cli, RENEGE)
    assert "is not a dispute" in cli.run("penalty", match_id, "--dispute", 2, code=1).output
    assert "is not a dispute" in cli.run("penalty", match_id, "--dispute", 2, "--side", 0,
                                         "--points", 5, "--reason", "x", code=1).output
    out = cli.run("penalty", match_id, "--dispute", 3, "--side", 0, code=2).output
    assert "give both --side and --points (or --dispute SEQ alone" in out
    assert "give both --side and --points" in cli.run("penalty", match_id, "--points", 3,
                                                      "--reason", "x", code=2).output
    assert last_seq(cli, match_id) == last_seq(cli, plain) == 7


def test_penalty_dispute_with_side_and_points_names_the_dispute(cli: Cli) -> None:
    match_id = recorded(cli, RENEGE, SMALL)
    out = cli.run("penalty", match_id, "--dispute", 3, "--side", 0, "--points", 25,
                  "--reason", "renege").output
    assert "penalty: 25 points to Ana for event 3 (renege)" in out
    assert cli.events(match_id)[-1] == {"type": "penalty", "side": 0, "points": 25, "target": 3,
                                        "reason": "renege"}
    assert cli.service.reading.report(match_id)["valid"]


# ------------------------------------------------------------------------------ --preview

def ruling_commands(match_id: int) -> dict[str, list[Any]]:
    return {
        "penalty": ["penalty", match_id, "--side", 1, "--points", 50, "--reason", "award"],
        "penalty --dispute": ["penalty", match_id, "--dispute", 3],
        "void": ["void", match_id, 3, "--reason", "typed by mistake"],
        "stands": ["stands", match_id, 3, "--reason", "agreed"],
        "amend": ["amend", match_id, 3, "6-4", "--reason", "it was a play"],
        "annul": ["annul", match_id, "--reason", "misdeal"],
        "forfeit": ["forfeit", match_id, "--side", 0, "--reason", "left"],
    }


@pytest.mark.parametrize("name", list(ruling_commands(0)))
def test_every_ruling_previews_and_stores_nothing(cli: Cli, name: str) -> None:
    finished = recorded(cli, RENEGE)
    # annul, forfeit and a penalty naming no dispute need a match in play: the renege, before
    # the round ends
    match_id = recorded(cli, RENEGE[:5]) if name in ("annul", "forfeit", "penalty") else finished
    args = ruling_commands(match_id)[name]
    expected = json.loads(json.dumps(cli.service.disputes.preview(
        match_id, cli.service.disputes.standard_penalty(match_id, 3)
        if name == "penalty --dispute" else [preview_event(name)])))
    before = cli.service.reading.report(match_id)
    out = cli.run(*args, "--preview").output
    assert last_seq(cli, match_id) == (len(RENEGE) if match_id == finished else 5)
    assert cli.service.reading.report(match_id) == before
    assert out.startswith("Preview: nothing is stored.\n")
    assert f"It would record event {last_seq(cli, match_id) + 1}: " in out
    totals = expected["changes"]["totals"]
    if totals["before"] == totals["after"]:
        assert "(unchanged)" in out.split("Totals: ")[1].splitlines()[0]
    else:
        assert f"Totals: Ana {totals['before'][0]}, Beto {totals['before'][1]} → " \
               f"Ana {totals['after'][0]}, Beto {totals['after'][1]}" in out
    assert "Winner: " in out
    if expected["changes"]["violations_vanish"]:
        assert "Violations that would vanish:\n  " + PROOF in out
    if name in ("void", "amend"):
        assert "Violations that would appear:" in out


def preview_event(name: str) -> dict[str, Any]:
    return {"penalty": {"type": "penalty", "side": 1, "points": 50, "reason": "award"},
            "void": {"type": "void", "target": 3, "reason": "typed by mistake"},
            "stands": {"type": "stands", "target": 3, "reason": "agreed"},
            "amend": {"type": "amend", "target": 3, "event": {"type": "play", "seat": 1,
                                                              "tile": "6-4"},
                      "reason": "it was a play"},
            "annul": {"type": "annul", "reason": "misdeal"},
            "forfeit": {"type": "forfeit", "side": 0, "reason": "left"}}[name]


def test_a_preview_names_sides_and_winners(cli: Cli) -> None:
    match_id = recorded(cli, RENEGE)
    out = cli.run("penalty", match_id, "--side", 1, "--points", 50, "--reason", "award",
                  "--dispute", 3, "--preview").output
    assert "It would record event 8: penalty: 50 points to Beto for event 3 (award)" in out
    assert "Totals: Ana 9, Beto 0 → Ana 9, Beto 50" in out
    assert "Winner: Ana → Beto" in out
    assert "Violations that would vanish:\n  " + PROOF in out
    out = cli.run("void", match_id, 6, "--reason", "not out", "--preview").output
    assert "Round 1: domino, 9 points to Ana → in progress" in out
    assert "Winner: Ana → none yet (not finished)" in out
    playing = recorded(cli, RENEGE[:5])
    out = cli.run("forfeit", playing, "--side", 0, "--reason", "left", "--preview").output
    assert "Winner: none yet (not finished) → Beto" in out
    out = cli.run("stands", match_id, 3, "--reason", "agreed", "--preview").output
    assert "Totals: Ana 9, Beto 0 (unchanged)" in out and "Winner: Ana (unchanged)" in out
    partners = recorded(cli, [{"type": "deal"}], "parejas", ("Ana", "Beto", "Carla", "Dani"))
    out = cli.run("penalty", partners, "--side", 1, "--points", 5, "--reason", "x",
                  "--preview").output
    assert "Totals: Ana & Carla 0, Beto & Dani 0 → Ana & Carla 0, Beto & Dani 5" in out
    assert last_seq(cli, partners) == 1 and last_seq(cli, match_id) == 7


def test_a_preview_of_a_ruling_the_referee_would_refuse(cli: Cli) -> None:
    match_id = recorded(cli, RENEGE)
    out = cli.run("annul", match_id, "--reason", "misdeal", "--preview", code=1).output
    assert "Event 8 would be refused (match over): the match is already over" in out
    assert "Violations that would appear" not in out  # the refusal is said once
    assert last_seq(cli, match_id) == 7


# ------------------------------------------------------------------------------ the sheet

def test_the_dispute_sheet_of_an_open_dispute(cli: Cli) -> None:
    match_id = recorded(cli, RENEGE)
    out = cli.run("dispute-sheet", match_id, 3).output
    lines = out.splitlines()
    assert lines[0] == f"Dispute sheet: match {match_id}, event 3"
    assert lines[2].startswith("club Casino Domino Club, played ")  # its name, not its slug
    assert "Players: Ana (seat 1), Beto (seat 2)" in lines  # a sheet counts seats from 1
    moment = lines[lines.index("The moment (after event 2, round 1)"):][:4]
    assert moment[1:] == ["  Line: [6|6]", "  Open ends: 6 and 6", "  Turn: Beto (seat 2)"]
    assert "  " + PROOF + ", as its plays and reveals up to event 5 prove" in lines
    assert '  event 3 as recorded: Beto passed   {"type": "pass", "seat": 1}' in lines
    evidence = lines[lines.index("Evidence") + 1:lines.index("The ruling") - 1]
    assert evidence == [
        "  event 3: Beto passed with the ends at 6 and 6",
        '    recorded: Beto passed   {"type": "pass", "seat": 1}',
        "  event 5: Beto played 6-4, which fits 6",
        '    recorded: Beto played 6-4   {"type": "play", "seat": 1, "tile": "6-4"}',
        "  event 5: Beto drew nothing since: it held a tile that fits at event 3",
        '    recorded: Beto played 6-4   {"type": "play", "seat": 1, "tile": "6-4"}',
    ]
    assert "  none yet: the dispute is open" in lines
    assert "  now: Ana 9, Beto 0" in lines


def test_the_dispute_sheet_after_the_ruling_and_its_json(cli: Cli) -> None:
    match_id = recorded(cli, RENEGE)
    cli.run("penalty", match_id, "--dispute", 3)
    out = cli.run("dispute-sheet", match_id, 3).output
    assert "  event 8: penalty: 10 points to Ana for event 3 (the rules' penalty for renege at " \
           "event 3)" in out
    assert "  before the ruling (after event 7): Ana 9, Beto 0" in out
    assert "  after the ruling (after event 8): Ana 19, Beto 0" in out
    sheet = json.loads(cli.run("dispute-sheet", match_id, 3, "--json").stdout)
    assert sheet == json.loads(json.dumps(cli.service.disputes.sheet(match_id, 3)))
    assert sheet["score"] == {"before": [9, 0], "after": [19, 0]}
    out = cli.run("dispute-sheet", match_id, 2, code=1).output
    assert f"Error: event 2 of match {match_id} is not a dispute" in out
    assert "no match '99'" in cli.run("dispute-sheet", 99, 1, code=1).output


def test_the_sheet_of_a_refused_event_between_partners(cli: Cli) -> None:
    hands = [["6-6", "6-5", "5-5", "4-4", "3-3", "2-2", "1-1"],
             ["6-4", "6-3", "5-4", "5-3", "4-3", "2-1", "1-0"],
             ["6-2", "6-1", "6-0", "5-2", "5-1", "5-0", "4-2"],
             ["4-1", "4-0", "3-2", "3-1", "3-0", "2-0", "0-0"]]
    match_id = recorded(cli, [{"type": "deal", "hands": hands},
                              {"type": "play", "seat": 0, "tile": "6-6"},
                              {"type": "pass", "seat": 1, "disputed": True}],
                        "parejas", ("Ana", "Beto", "Carla", "Dani"))
    cli.service.recording.record_event(match_id, {"type": "void", "target": 3, "reason": "wrong"},
                                       expected_seq=3)
    lines = cli.run("dispute-sheet", match_id, 3).output.splitlines()
    # counted from 1; a partnership each, in every language (es/it said "team" for any side,
    # and the inner words were never extracted: "(side 1)" in Spanish too)
    assert "Partnerships: Ana & Carla (partnership 1), Beto & Dani (partnership 2)" in lines
    for lang, said in (("es", "Parejas: Ana & Carla (pareja 1), Beto & Dani (pareja 2)"),
                       ("it", "Coppie: Ana & Carla (coppia 1), Beto & Dani (coppia 2)")):
        assert said in cli.run("--lang", lang, "dispute-sheet", match_id, 3).output.splitlines()
    assert "  the referee refused event 3 when it was recorded" in lines
    assert "  event 4: voided event 3 (wrong)" in lines
    assert "  before the ruling (after event 3): Ana & Carla 0, Beto & Dani 0" in lines
    assert '  event 3 as recorded: Beto passed   ' \
           '{"type": "pass", "seat": 1, "disputed": true}' in lines


def test_sheet_lines_without_a_deal() -> None:
    sheet = {"match": {"id": 1, "club": "c", "players": ["A", "B"],
                       "rules": {"partnerships": False}, "table": "3"},
             "dispute": {"seq": 1, "code": "bad_event", "certainty": "proven", "seat": None,
                         "message": "bad", "found_at": 1},
             "event": {"type": "deal", "hands": [["6-6"]]},
             "moment": {"seq": 0, "round": None, "line": [], "ends": None, "turn": None,
                        "turn_name": None},
             "evidence": [], "ruling": None, "score": {"before": [0, 0], "after": None}}
    lines = sheet_lines(sheet)
    assert "club c, table 3" in lines and "The moment (after event 0, before any deal)" in lines
    assert "  Line: (empty)" in lines and "  Turn: nobody's" in lines
    assert "  certainty: proven; at fault: no seat" in lines


# ------------------------------------------------------------------------------ validate

def write_log(tmp_path: Path, rules: Any, events: list[dict[str, Any]]) -> str:
    path = tmp_path / "log.jsonl"
    header = {"format": "domino-log/1", "rules": rules, "players": ["Ana", "Beto"]}
    path.write_text("".join(json.dumps(x) + "\n" for x in [header, *events]))
    return str(path)


def test_validate_prints_the_proof_and_its_evidence(cli: Cli, tmp_path: Path) -> None:
    log = write_log(tmp_path, SMALL, RENEGE)
    out = cli.run("validate", log, code=1).output
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("  " + PROOF))
    assert lines[at + 1:at + 4] == [
        "      event 3: Beto passed with the ends at 6 and 6",
        "      event 5: Beto played 6-4, which fits 6",
        "      event 5: Beto drew nothing since: it held a tile that fits at event 3"]
    assert "No suspicions." in lines


def test_validate_counts_suspicions_and_lists_them_when_asked(cli: Cli) -> None:
    log = str(EXAMPLES / "veracruz-closed.jsonl")
    parsed = read_log(Path(log).read_bytes())
    report = build_report(replay(parsed.header.rules, parsed.header.players, parsed.events))
    count = len(report["suspicions"])
    assert count > 1
    out = cli.run("validate", log).output
    assert f"{count} suspicions (possible, not proven); --suspicions lists them." in out
    assert "(possible)" not in out
    out = cli.run("validate", "--suspicions", log).output
    assert f"{count} suspicions (possible, not proven):" in out
    first = report["suspicions"][0]
    assert f"  event {first['seq']}: {term('violation', first['code'])} (possible) — " in out
    assert out.count("(possible) — ") == count
    # --json is the report, unchanged (--suspicions or not)
    for extra in ([], ["--suspicions"]):
        assert json.loads(cli.run("validate", "--json", *extra, log).stdout) == \
            json.loads(json.dumps(report))


def test_an_event_refused_as_it_came_has_no_found_at(cli: Cli, tmp_path: Path) -> None:
    log = write_log(tmp_path, "mano-a-mano", [{"type": "deal", "hands": OPEN_HANDS},
                                               {"type": "play", "seat": 0, "tile": "6-6"},
                                               {"type": "pass", "seat": 1}])
    out = cli.run("validate", log, code=1).output
    assert "  event 3: renege — Beto passed holding" in out and "proven at" not in out


def test_match_report_shows_the_evidence_too(cli: Cli) -> None:
    match_id = recorded(cli, RENEGE)
    out = cli.run("match", "report", match_id).output
    assert PROOF in out and "      event 5: Beto played 6-4, which fits 6" in out
    assert "No suspicions." in out


# ------------------------------------------------------------------------------ the table prompt

def test_the_table_prompt_tells_the_open_disputes_when_a_round_ends(cli: Cli) -> None:
    match_id = cli.new_match(FOUL)
    script = ["deal", "0: 66", "p", "65", "64", "55", "r 3-3 2-1", "q"]
    out = cli.run("table", match_id, input="\n".join(script) + "\n").output
    ends = out.index("Round 1: awaiting reveal")
    told = out[ends:]
    assert told.index("1 open dispute:") < told.index("match 1>")
    assert "  " + PROOF in told
    assert f"domino dispute-sheet {match_id} SEQ" in told
    # the reveal that scores the round proves nothing new: the same dispute is not listed
    # again, and how a referee rules is said once a session
    scored = out.index("Round 1: domino")
    assert "open dispute" not in out[scored:]
    assert out.count("open dispute") == 1 and out.count("dispute-sheet") == 1
    assert "open dispute" not in out[:ends]  # not before the round ended


def test_the_table_prompt_says_how_to_rule_once(cli: Cli) -> None:
    # two rounds, each ending with a renege proven: the list each time it changes, how a
    # referee rules on them once (it was repeated after every round)
    match_id = cli.new_match({**FOUL, "target": 100})
    first = ["deal", "0: 66", "p", "65", "64", "55", "r 3-3 2-1"]
    second = ["deal", "1: 66", "p", "65", "64", "55", "r 3-3 2-1"]  # Ana's pass, this time
    out = cli.run("table", match_id, input="\n".join(first + second + ["q"]) + "\n").output
    assert out.count("Round 1: domino") == 1 and out.count("Round 2: domino") == 1, out
    assert out.count("1 open dispute:") == 1 and out.count("2 open disputes:") == 1, out
    assert out.count("A referee rules on them") == 1, out


def test_a_round_without_disputes_tells_none(cli: Cli) -> None:
    header, events = legal_match("mano-a-mano", seed=3)
    match_id = cli.new_match()
    from test_cli_table import prompt_lines

    out = cli.run("table", match_id, input="\n".join(prompt_lines(events) + ["q"]) + "\n").output
    assert "Round 1:" in out and "open dispute" not in out
