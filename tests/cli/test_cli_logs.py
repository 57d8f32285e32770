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



# JSON's "\ud800" is a lone surrogate: a log may hold one (docs/log.md), UTF-8 output may not.
# A player called so, found by fuzzing the logs, was a UnicodeEncodeError traceback from rich
# in validate's and show's text, by click and by the fast path alike; it is printed escaped.
SURROGATE_LOG = ('{"format": "domino-log/1", "rules": "mano-a-mano", "players": ["A\\ud800", "Beto"]}\n'
                 '{"type": "deal", "hands": [["6-6", "6-5", "5-5", "4-4", "3-3", "2-2", "1-1"], '
                 '["6-4", "6-3", "5-4", "5-3", "4-3", "2-1", "1-0"]]}\n'
                 '{"type": "play", "seat": 1, "tile": "6-4"}\n')


def test_a_name_holding_a_lone_surrogate_is_printed_escaped(runner: CliRunner, tmp_path: Path) -> None:
    log = tmp_path / "x.jsonl"
    log.write_text(SURROGATE_LOG, encoding="utf-8")
    for command, code in ((["validate", str(log)], 1), (["show", str(log)], 0)):
        result = runner.invoke(main, command)
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        assert result.exit_code == code, result.output
        assert "A\\ud800" in result.output
    assert "Beto may not open this round; A\\ud800 opens" in runner.invoke(main, ["validate", str(log)]).output


def test_the_fast_path_prints_a_lone_surrogate_escaped(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    log = tmp_path / "x.jsonl"
    log.write_text(SURROGATE_LOG, encoding="utf-8")
    root = Path(__file__).resolve().parents[2]
    for command, code in ((["validate", str(log)], 1), (["show", str(log)], 0)):
        done = subprocess.run([sys.executable, "-c", "from cli.entry import main; main()", *command],
                              capture_output=True, check=False, timeout=60,
                              env={**os.environ, "PYTHONPATH": str(root), "PYTHONIOENCODING": "utf-8"})
        assert b"Traceback" not in done.stderr, done.stderr.decode()
        assert done.returncode == code and b"A\\ud800" in done.stdout


def test_penalties_past_a_scores_limit_are_bad_events(runner: CliRunner, tmp_path: Path) -> None:
    """Two penalties of 4,300 nines (the most digits JSON is read with) made a total Python
    would not write as text: a traceback of validate, text and --json. A penalty's points are
    from -100,000 to 100,000 (docs/readings.md); these are bad_event, the totals untouched."""
    big = "-" + "9" * 4300
    log = tmp_path / "big.jsonl"
    log.write_text(json.dumps(HEADER) + "\n" + ''.join(
        '{"type": "penalty", "side": 0, "points": %s, "reason": "r"}\n' % big for _ in range(2)))
    result = runner.invoke(main, ["validate", "--json", str(log)])
    assert result.exit_code == 1, result.output
    report = json.loads(result.output)
    assert report["totals"] == [0, 0]
    assert [(v["seq"], v["code"], v["message"]) for v in report["violations"]] == [
        (seq, "bad_event", "points must be from -100000 to 100000") for seq in (1, 2)]
    result = runner.invoke(main, ["validate", str(log)])
    assert result.exit_code == 1 and "points must be from -100000 to 100000" in result.output


# `domino validate` reads its logs with read_log's ``shared``: a line read before is handed to
# the replay as the very object the reader keeps for it, not a copy. That holds only while
# validating changes no event; this validates records of every kind (both families, closed
# hands, mutated, disputed, with rulings: examples/) in every output and language, then reads
# each again by copy: an event changed anywhere on the way would come back changed.
def test_validating_changes_no_event_it_reads(runner: CliRunner, tmp_path: Path) -> None:
    import random

    from core_helpers import mutate

    from cli.logfiles import report_json
    from referee.core import build_report, read_log
    from referee.core.replay import replay
    from referee.core.simulate import random_match

    rng = random.Random(7)
    paths = [str(p) for p in sorted(EXAMPLES.glob("*.jsonl"))]
    specs = [("mano-a-mano", 2), ("parejas", 4), ("veracruz", 3), ("puerto-rico", 4),
             ("fives-and-threes", 2), ("all-fives", 3), ("muggins", 4)]
    for i in range(28):
        spec, players = specs[i % len(specs)]
        names = ["Ana", "Beto", "Cruz", "Dani"][:players]
        header, events = random_match(spec, names, rng, hidden=(0,) if i % 2 else (),
                                      max_rounds=4)
        if i % 4 == 3:
            events = mutate(events, rng)
        elif i % 4 == 2:  # disputed passes, ruled on: voided, standing, a penalty, an amend
            events = [{**e, "disputed": True} if type(e) is dict and e.get("type") == "pass"
                      else e for e in events]
            passes = [seq for seq, e in enumerate(events, start=1) if e.get("type") == "pass"]
            events += [{"type": "void", "target": passes[0], "reason": "r"} if passes else
                       {"type": "note", "text": "no pass"},
                       {"type": "stands", "target": passes[-1], "reason": "r"} if passes else
                       {"type": "note", "text": "no pass"},
                       {"type": "penalty", "seat": 0, "points": 5, "reason": "r"},
                       {"type": "amend", "target": 2, "event": events[1], "reason": "r"}]
        paths.append(write(tmp_path, f"{i:02d}.jsonl", [header, *events]))
    texts = {path: Path(path).read_text(encoding="utf-8") for path in paths}
    runs = [["validate", "--json"], ["validate", "--suspicions"], ["--lang", "es", "validate", "--json"]]
    outputs = [runner.invoke(main, [*run, *paths]).output for run in runs]
    for path, text in texts.items():
        lines = [line for line in text.split("\n") if line.strip()]
        assert read_log(text).events == tuple(json.loads(line) for line in lines[1:]), path
    # and what it printed is the report of each log read by copy
    reports = [report_json(build_report(replay(log.header.rules, log.header.players, log.events)))
               for log in map(read_log, texts.values())]
    assert outputs[0].splitlines() == reports
