"""The CLI on the points family (Fives and Threes, All Fives, Muggins): ``domino table`` takes
the spinner's arms (``u``/``d``), ``domino show`` draws the layout with the spinner's arms, and
``domino validate`` reports each round's ``scores`` and the plays that scored (``scored``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import Cli
from click.testing import CliRunner
from test_cli_table import at_table, prompt_lines, report_of

from cli.main import main
from cli.table_input import InputError, parse_end, parse_entry

EXAMPLES = Path(__file__).parents[2] / "examples"
ALL_FIVES = EXAMPLES / "all-fives.jsonl"
FIVES_AND_THREES = EXAMPLES / "fives-and-threes-pairs.jsonl"


def read(path: Path) -> tuple[dict, list[dict]]:
    header, *events = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return header, events


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


# ---------------------------------------------------------------- the prompt's input: the arms

@pytest.mark.parametrize("text, end", [("u", "up"), ("UP", "up"), ("d", "down"), ("down", "down"),
                                       ("l", "left"), ("r", "right"), ("5", 5)])
def test_an_end_may_be_the_spinners_arm(text: str, end: int | str) -> None:
    assert parse_end(text) == end


@pytest.mark.parametrize("text, tile, end", [("6-5 u", "6-5", "up"), ("65 on d", "6-5", "down"),
                                             ("5-5 on up", "5-5", "up"), ("55 down", "5-5", "down")])
def test_a_play_on_an_arm(text: str, tile: str, end: str) -> None:
    entry = parse_entry(text)
    assert entry.action == "play" and entry.event == {"type": "play", "tile": tile, "end": end}


def test_u_and_d_alone_are_still_undo_and_draw() -> None:
    assert parse_entry("u").action == "undo"
    assert parse_entry("d").event == {"type": "draw"}
    assert parse_entry("d 3-2").event == {"type": "draw", "tile": "3-2"}
    with pytest.raises(InputError, match="up or down"):
        parse_end("middle")


# ---------------------------------------------------------------- domino table, whole matches

@pytest.mark.parametrize("example", [ALL_FIVES, FIVES_AND_THREES], ids=lambda p: p.stem)
def test_the_examples_played_through_at_the_prompt(cli: Cli, example: Path) -> None:
    """Every play typed as a scorekeeper would (the arms as "on up"/"on down"): the stored
    match's report is the log's, round by round, scores and scoring plays included."""
    header, events = read(example)
    match_id = cli.new_match(header["rules"], tuple(header["players"]))
    output = at_table(cli, match_id, prompt_lines(events, name_leads=True) + ["q"])
    expected = report_of(header, events)
    got = cli.service.reading.report(match_id)
    assert got["rounds"] == expected["rounds"] and got["totals"] == expected["totals"]
    assert got["winner"] == expected["winner"] and got["valid"]
    assert any(r["scored"] for r in got["rounds"])
    assert "count " in output  # the prompt says the open ends' count after each play
    assert "Match over: " in output


def test_a_play_on_the_up_arm_is_recorded_with_its_side(cli: Cli) -> None:
    """All Fives: the spinner (5-5) covered on both sides opens its arms; "5-1 u" goes up."""
    match_id = cli.new_match("all-fives", ("Ana", "Beto"))
    hands = ["5-5 5-4 1-1 2-2 3-3 4-4 0-0", "5-3 5-1 6-0 6-1 6-2 6-3 6-4"]
    output = at_table(cli, match_id, [f"deal {hands[0]} / {hands[1]}", "0: 55", "53 on 5",
                                      "54", "51 u", "q"])
    plays = [e for e in cli.events(match_id) if e["type"] == "play"]
    assert plays[-1] == {"type": "play", "seat": 1, "tile": "5-1", "end": "up"}, output
    assert "up 1" in output and "down 5" in output


# ---------------------------------------------------------------- domino validate

def test_validate_reports_the_rounds_scores_and_each_scoring_play(runner: CliRunner) -> None:
    result = runner.invoke(main, ["validate", str(ALL_FIVES)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    report = json.loads(runner.invoke(main, ["validate", "--json", str(ALL_FIVES)]).output)
    assert "scores" in result.output
    text = result.output.split("Scoring plays")
    assert len(text) == 2, result.output
    rounds, plays = text
    cells = [[cell.strip() for cell in line.split("│")[1:-1]] for line in rounds.splitlines()
             if line.startswith("│")]
    # the rounds' table: each side's points in the round, in the sides' order (last column)
    assert [row[-1] for row in cells] == [" ".join(map(str, r["scores"])) for r in report["rounds"]]
    plays = plays.split("Totals")[0]
    rows = [[cell.strip() for cell in line.split("│")[1:-1]] for line in plays.splitlines()
            if line.startswith("│")]
    header, events = read(ALL_FIVES)
    players = header["players"]
    # the tile each scoring play placed, from the record (the report's scored leaves it out)
    expected = [[str(r["round"]), str(e["seq"]), players[e["seat"]],
                 "[{}|{}]".format(*events[e["seq"] - 1]["tile"].split("-")), str(e["count"]),
                 str(e["points"]), "-"] for r in report["rounds"] for e in r["scored"]]
    assert expected and rows == expected
    assert "│ tile " in result.output or "┃ tile " in result.output
    es = runner.invoke(main, ["--lang", "es", "validate", str(ALL_FIVES)], env={"COLUMNS": "200"})
    it = runner.invoke(main, ["--lang", "it", "validate", str(ALL_FIVES)], env={"COLUMNS": "200"})
    assert "┃ ficha " in es.output and "┃ tessera " in it.output


def test_validate_json_carries_scores_and_scored(runner: CliRunner) -> None:
    result = runner.invoke(main, ["validate", "--json", str(FIVES_AND_THREES)])
    report = json.loads(result.output)
    assert result.exit_code == 0
    for r in report["rounds"]:
        assert len(r["scores"]) == 2 and isinstance(r["scored"], list)
    assert [sum(r["scores"][s] for r in report["rounds"]) for s in (0, 1)] == report["totals"]
    assert report["rounds"][-1]["outcome"] == "target"


def test_validate_says_a_bust(runner: CliRunner, tmp_path: Path) -> None:
    """Fives and Threes to an exact target of 4: 6-6 then 6-3 makes 15 (8 points), past 4: a
    bust, listed and not added."""
    header = {"format": "domino-log/1", "rules": {"preset": "fives-and-threes", "target": 4},
              "players": ["Ana", "Beto"]}
    hands = [["6-6", "5-5", "4-4", "3-3", "2-2", "1-1", "0-0", "5-0", "4-0"],
             ["6-3", "6-5", "6-4", "5-4", "5-3", "4-3", "2-1", "1-0", "3-0"]]
    lines = [header, {"type": "deal", "hands": hands}, {"type": "play", "seat": 0, "tile": "6-6"},
             {"type": "play", "seat": 1, "tile": "6-3"}]
    log = tmp_path / "bust.jsonl"
    log.write_text("".join(json.dumps(x) + "\n" for x in lines))
    report = json.loads(runner.invoke(main, ["validate", "--json", str(log)]).output)
    assert report["rounds"][0]["scored"] == [{"seq": 3, "seat": 1, "count": 15, "points": 8,
                                              "bust": True}]
    text = runner.invoke(main, ["validate", str(log)], env={"COLUMNS": "200"}).output
    assert "bust: past 4, not added" in text
    es = runner.invoke(main, ["--lang", "es", "validate", str(log)], env={"COLUMNS": "200"}).output
    assert "Jugadas que puntúan" in es and "se pasa de 4: no cuenta" in es


def test_a_game_scored_from_hands_keeps_its_report_as_it_was(runner: CliRunner) -> None:
    text = runner.invoke(main, ["validate", str(EXAMPLES / "parejas.jsonl")],
                         env={"COLUMNS": "200"}).output
    assert "Scoring plays" not in text and "scores" not in text
# ---------------------------------------------------------------- domino show: the spinner

def _arms_open_at(events: list[dict]) -> int:
    """The first event after which the example's spinner has a tile on an arm."""
    return next(seq for seq, e in enumerate(events, start=1) if e.get("end") in ("up", "down"))


def test_show_draws_the_spinners_arms_in_its_column(runner: CliRunner) -> None:
    header, events = read(ALL_FIVES)
    at = _arms_open_at(events)
    result = runner.invoke(main, ["show", str(ALL_FIVES), "--at", str(at)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    line = next(n for n, text in enumerate(lines) if text.startswith("Line: "))
    spinner = lines[line].index("[5|5]")
    above, below = lines[line - 1], lines[line + 1]
    # the tile on the arm lies in the spinner's column, above or below the line
    assert (above[spinner:spinner + 5].startswith("[") or below[spinner:spinner + 5].startswith("["))
    assert "count " in result.output and "up " in result.output and "down " in result.output


def test_show_on_a_narrow_terminal_lists_the_arms(runner: CliRunner) -> None:
    header, events = read(ALL_FIVES)
    at = _arms_open_at(events) + 6
    result = runner.invoke(main, ["show", str(ALL_FIVES), "--at", str(at)], env={"COLUMNS": "30"})
    assert result.exit_code == 0, result.output
    assert "Up arm: " in result.output and "Down arm: " in result.output
    es = runner.invoke(main, ["--lang", "es", "show", str(ALL_FIVES), "--at", str(at)],
                       env={"COLUMNS": "30"}).output
    assert "Brazo de arriba: " in es and "Brazo de abajo: " in es and "cuenta" in es


def test_the_prompt_says_what_each_play_scored_and_a_bust(cli: Cli) -> None:
    """All Fives: the 5-5 led scores its 10 for Ana. Fives and Threes to an exact 4: the 6-6
    led is kept from winning on the down (not said), the 6-3 makes 15, 8 points past 4: a bust."""
    match_id = cli.new_match("all-fives", ("Ana", "Beto"))
    output = at_table(cli, match_id, ["deal 5-5 5-4 1-1 2-2 3-3 4-4 0-0 / 5-3 5-1 6-0 6-1 6-2 "
                                      "6-3 6-4", "0: 55", "q"])
    assert "count 10: 10 points to Ana" in output
    match_id = cli.new_match(json.dumps({"preset": "fives-and-threes", "target": 4}), ("Ana", "Beto"))
    output = at_table(cli, match_id, ["deal 6-6 5-5 4-4 3-3 2-2 1-1 0-0 5-0 4-0 / 6-3 6-5 6-4 5-4 "
                                      "5-3 4-3 2-1 1-0 3-0", "0: 66", "63", "q"])
    assert "count 12:" not in output  # the lead kept from winning on the down scores nothing
    assert "count 15: 8 points, a bust (past 4): not added" in output
    match_id = cli.new_match("all-fives", ("Ana", "Beto"))
    es = cli.run("--lang", "es", "table", match_id, input="deal 5-5 5-4 1-1 2-2 3-3 4-4 0-0 / "
                 "5-3 5-1 6-0 6-1 6-2 6-3 6-4\n0: 55\nq\n").output
    assert "cuenta 10: 10 puntos para Ana" in es


# ---------------------------------------------------------------- a pass is a knock

def test_show_and_the_prompt_offer_a_knock(runner: CliRunner, cli: Cli) -> None:
    """The shipped Fives and Threes example: after event 2 Olga has nothing to play, and the
    table is told she may knock (p), in en, es and it; the seeds' games still pass."""
    header, events = read(FIVES_AND_THREES)
    assert events[2] == {"type": "pass", "seat": 1}
    said = {lang: runner.invoke(main, ["--lang", lang, "show", str(FIVES_AND_THREES), "--at", "2"],
                                env={"COLUMNS": "200"}).output for lang in ("en", "es", "it")}
    assert "legal: p (knock)" in said["en"] and "p (pass)" not in said["en"]
    assert "p (tocar)" in said["es"] and "p (bussare)" in said["it"]
    # nobody draws Fives and Threes' undealt tiles: they sleep (docs/glossary.md)
    assert "Sleeping tiles: 4" in said["en"] and "Boneyard" not in said["en"]
    assert "Fichas dormidas: 4" in said["es"] and "Tessere dormienti: 4" in said["it"]
    fives = runner.invoke(main, ["show", str(ALL_FIVES), "--at", "3"], env={"COLUMNS": "200"})
    assert "Boneyard: 13" in fives.output and "Sleeping" not in fives.output
    parejas = runner.invoke(main, ["show", str(EXAMPLES / "parejas-renege.jsonl"), "--at", "2"],
                            env={"COLUMNS": "200"}).output
    assert "knock" not in parejas
    match_id = cli.new_match(header["rules"], tuple(header["players"]))
    output = at_table(cli, match_id, prompt_lines(events[:3], name_leads=True) + ["u", "?", "q"])
    assert "legal: p (knock)" in output and "· sleeping 4" in output
    assert "knock (say you cannot play)" in output  # the prompt's help, p's line
    assert "event 3: Olga knocked" in output and "Olga passed" not in output
    match_id = cli.new_match(header["rules"], tuple(header["players"]))
    es = cli.run("--lang", "es", "table", match_id,
                 input="\n".join(prompt_lines(events[:3], name_leads=True) + ["q"]) + "\n").output
    assert "evento 3: Olga tocó" in es


KNOCK_LOG = [{"format": "domino-log/1", "rules": "fives-and-threes", "players": ["Ana", "Beto"]},
             {"type": "deal", "hands": [["6-6", "5-5", "4-4", "3-3", "2-2", "1-1", "0-0", "5-0", "4-0"],
                                        ["6-3", "6-5", "6-4", "5-4", "5-3", "4-3", "2-1", "1-0", "3-0"]]},
             {"type": "play", "seat": 0, "tile": "6-6"}, {"type": "pass", "seat": 1}]


def test_validate_says_a_knock_while_able_is_a_renege(runner: CliRunner, tmp_path: Path) -> None:
    """Beto knocks holding three sixes: the renege is said as the knock it was, in en, es, it."""
    log = tmp_path / "knock.jsonl"
    log.write_text("".join(json.dumps(x) + "\n" for x in KNOCK_LOG))
    said = {lang: runner.invoke(main, ["--lang", lang, "validate", str(log)],
                                env={"COLUMNS": "200"}) for lang in ("en", "es", "it")}
    assert said["en"].exit_code == 1
    assert "renege — Beto knocked holding 6-3, 6-4 and 6-5, which fit" in said["en"].output
    assert "Beto tocó teniendo 6-3" in said["es"].output
    assert "Beto ha bussato avendo 6-3" in said["it"].output
    report = json.loads(runner.invoke(main, ["validate", "--json", str(log)]).output)
    assert report["violations"][0]["message"].startswith("Beto knocked holding")


def test_validate_names_the_tile_an_amend_placed(runner: CliRunner, tmp_path: Path) -> None:
    """A scoring play amended (6-4 typed, 6-3 played): the table of scoring plays names the
    tile the record now says, 6-3 (count 15)."""
    lines = [*KNOCK_LOG[:3], {"type": "play", "seat": 1, "tile": "6-4"},
             {"type": "amend", "target": 3, "event": {"type": "play", "seat": 1, "tile": "6-3"},
              "reason": "typo"}]
    log = tmp_path / "amended.jsonl"
    log.write_text("".join(json.dumps(x) + "\n" for x in lines))
    text = runner.invoke(main, ["validate", str(log)], env={"COLUMNS": "200"}).output
    row = next(line for line in text.splitlines() if line.startswith("│") and "Beto" in line
               and "[6|" in line)
    assert "[6|3]" in row and "15" in row, text


def test_validate_says_a_knock_proven_in_hindsight(runner: CliRunner, tmp_path: Path) -> None:
    """Closed: Beto knocks on the 6-6 led, then plays the 6-3 (nobody draws in Fives and
    Threes): the proof and its facts say the knock, in en, es and it."""
    lines = [{**KNOCK_LOG[0], "rules": {"preset": "fives-and-threes", "hand_size": 3}},
             {"type": "deal"}, {"type": "play", "seat": 0, "tile": "6-6"},
             {"type": "pass", "seat": 1}, {"type": "play", "seat": 0, "tile": "6-1"},
             {"type": "play", "seat": 1, "tile": "6-3"}]
    log = tmp_path / "closed-knock.jsonl"
    log.write_text("".join(json.dumps(x) + "\n" for x in lines))
    said = {lang: runner.invoke(main, ["--lang", lang, "validate", str(log)],
                                env={"COLUMNS": "200"}).output for lang in ("en", "es", "it")}
    assert "Beto knocked holding a tile that fits 6" in said["en"]
    assert "event 3: Beto knocked with the ends at 6 and 6" in said["en"]
    assert "passed" not in said["en"]
    assert "Beto tocó teniendo una ficha" in said["es"] and "Beto tocó con los extremos" in said["es"]
    assert "Beto ha bussato avendo una tessera" in said["it"]


def test_the_dispute_sheet_says_every_open_end_and_the_knock(cli: Cli) -> None:
    """All Fives, the spinner's arms open: Ana knocks holding the 2-2, which fits the arm
    showing 2. The sheet's moment gives every open end by side and the count; the event is a
    knock."""
    rules = json.dumps({"preset": "all-fives", "hand_size": 4, "draw": "none",
                        "first_opener": "free"})
    match_id = cli.new_match(rules, ("Ana", "Beto"))
    record = cli.service.recording.record_event
    for event in [{"type": "deal", "hands": [["5-5", "5-3", "2-2", "6-6"], ["5-0", "5-2", "3-0", "6-5"]]},
                  {"type": "play", "seat": 0, "tile": "5-5"}, {"type": "play", "seat": 1, "tile": "5-0"},
                  {"type": "play", "seat": 0, "tile": "5-3"}, {"type": "play", "seat": 1, "tile": "5-2"},
                  {"type": "pass", "seat": 0, "disputed": True}]:
        record(match_id, event, expected_seq=None)
    moment = cli.service.disputes.sheet(match_id, 6)["moment"]
    ends = ", ".join(f"{e['side']} {e['pip']}" for e in moment["open_ends"])
    out = cli.run("dispute-sheet", match_id, 6).output
    assert f"Open ends: {ends} · count {moment['count']}" in out and "up " in ends
    assert "Ana knocked" in out and "Ana knocked holding 2-2" in out
