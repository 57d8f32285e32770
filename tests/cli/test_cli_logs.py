"""``domino validate`` and ``domino show`` on log files, through click's runner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main

EXAMPLES = Path(__file__).parents[2] / "examples"


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def write(tmp_path: Path, name: str, lines: list) -> str:
    path = tmp_path / name
    path.write_text("".join((json.dumps(x) if not isinstance(x, str) else x) + "\n" for x in lines))
    return str(path)


HEADER = {"format": "domino-log/1", "rules": "mano-a-mano", "players": ["Ana", "Beto"]}
HANDS = [["6-6", "6-5", "5-5", "4-4", "3-3", "2-2", "1-1"],
         ["6-4", "6-3", "5-4", "5-3", "4-3", "2-1", "1-0"]]


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.jsonl")))
def test_examples_validate_as_named(runner: CliRunner, example: str) -> None:
    result = runner.invoke(main, ["validate", "--json", str(EXAMPLES / example)])
    report = json.loads(result.output)
    assert report["format"] == "domino-report/1"
    if "renege" in example:
        assert result.exit_code == 1
        assert [v["code"] for v in report["violations"]] == ["renege"]
    else:
        assert result.exit_code == 0, report["violations"]
        assert report["valid"] and report["finished"] and report["winner"] is not None


def test_exit_codes_and_one_report_per_line(runner: CliRunner, tmp_path: Path) -> None:
    good = write(tmp_path, "good.jsonl", [HEADER, {"type": "deal", "hands": HANDS},
                                          {"type": "play", "seat": 0, "tile": "6-6"}])
    bad = write(tmp_path, "bad.jsonl", [HEADER, {"type": "deal", "hands": HANDS},
                                        {"type": "play", "seat": 1, "tile": "6-4"}])
    broken = write(tmp_path, "broken.jsonl", [HEADER, {"type": "deal"}, "{not json"])
    assert runner.invoke(main, ["validate", good]).exit_code == 0
    assert runner.invoke(main, ["validate", good, bad]).exit_code == 1
    result = runner.invoke(main, ["validate", "--json", good, broken, bad])
    assert result.exit_code == 2
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert [line.get("valid") for line in lines] == [True, None, False]
    assert lines[1] == {"format": "domino-report/1", "file": broken,
                        "error": {"line": 3, "message": lines[1]["error"]["message"]}}
    assert lines[2]["violations"][0]["code"] == "wrong_opener"


def test_readable_summary_names_the_violation(runner: CliRunner, tmp_path: Path) -> None:
    bad = write(tmp_path, "bad.jsonl", [HEADER, {"type": "deal", "hands": HANDS},
                                        {"type": "play", "seat": 0, "tile": "6-6"},
                                        {"type": "pass", "seat": 1}])
    result = runner.invoke(main, ["validate", bad])
    assert result.exit_code == 1
    assert "event 3: renege" in result.output
    assert "Beto passed holding" in result.output


def test_unreadable_file_says_file_line_and_what(runner: CliRunner, tmp_path: Path) -> None:
    missing = str(tmp_path / "nope.jsonl")
    result = runner.invoke(main, ["validate", missing])
    assert result.exit_code == 2 and "nope.jsonl" in result.output
    blank = write(tmp_path, "blank.jsonl", [HEADER, "", {"type": "deal"}])
    result = runner.invoke(main, ["validate", blank])
    assert result.exit_code == 2 and "line 2" in result.output and "blank" in result.output


def test_show_draws_the_table_at_a_seq(runner: CliRunner, tmp_path: Path) -> None:
    log = write(tmp_path, "m.jsonl", [HEADER, {"type": "deal", "hands": HANDS},
                                      {"type": "play", "seat": 0, "tile": "6-6"},
                                      {"type": "play", "seat": 1, "tile": "6-4"}])
    result = runner.invoke(main, ["show", log, "--at", "2"])
    assert result.exit_code == 0, result.output
    assert "[6|6]" in result.output and "Open ends: 6 and 6" in result.output
    assert "Beto ◀ to play" in result.output
    result = runner.invoke(main, ["show", log])
    assert "[4|6] [6|6]" in result.output or "[6|6] [6|4]" in result.output
    result = runner.invoke(main, ["show", log, "--at", "9"])
    assert result.exit_code == 2
    assert f"Invalid value for '--at': {log} has 3 events; there is no event 9" in result.output


def test_help_has_examples(runner: CliRunner) -> None:
    for command in ("validate", "show"):
        result = runner.invoke(main, [command, "--help"])
        assert result.exit_code == 0 and "Example" in result.output


def test_a_name_that_looks_like_markup_is_printed_as_it_is(tmp_path) -> None:
    from click.testing import CliRunner

    from cli.main import main

    log = tmp_path / "x.jsonl"
    log.write_text('{"format": "domino-log/1", "rules": "veracruz", "players": ["[/]", '
                   '"[bold red]Ana", ":smile:"]}\n', encoding="utf-8")
    for command in (["validate", str(log)], ["show", str(log)]):
        result = CliRunner().invoke(main, command)
        assert result.exit_code == 0, result.output
        assert "[/]" in result.output and "[bold red]Ana" in result.output
        assert ":smile:" in result.output and "\N{SMILING FACE WITH OPEN MOUTH AND SMILING EYES}" not in result.output
