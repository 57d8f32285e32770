"""``domino match new/list/show/report/export/import``, ``domino standings`` and ``domino show``
of a stored match, through click's runner, each test on its own SQLite file."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from cli_helpers import CLUB, OPEN_HANDS, Cli, legal_match

from referee.core.log import make_log, write_log


def log_text(header: dict[str, Any], events: list[Any]) -> str:
    return write_log(make_log(header, events))


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_match_new_prints_the_id(cli: Cli) -> None:
    result = cli.run("match", "new", "--club", CLUB, "--rules", "parejas", "--player", "Ana",
                     "--player", "Beto", "--player", "Carla", "--player", "Dani",
                     "--table", "3", "--date", "2026-03-01", "--event", "spring")
    assert result.stdout == "1\n"
    summary = cli.service.reading.get_match(1)
    assert summary["players"] == ["Ana", "Beto", "Carla", "Dani"]
    assert (summary["table"], summary["date"], summary["event"]) == ("3", "2026-03-01", "spring")
    match_id = cli.new_match({"preset": "mano-a-mano", "target": 100})
    assert cli.service.reading.get_match(match_id)["rules"]["target"] == 100
    for rules, players, message in (
            ("nope", ("Ana", "Beto"), "unknown preset"),
            ("parejas", ("Ana", "Beto"), "parejas"),
            ('{"preset": "parejas", "target": }', ("Ana",), "not JSON"),
            ('{"preset": "mano-a-mano", "target": "x"}', ("Ana", "Beto"), "target")):
        args = ["match", "new", "--club", CLUB, "--rules", rules]
        for name in players:
            args += ["--player", name]
        result = cli.run(*args, code=None)
        assert result.exit_code in (1, 2) and message in result.output, result.output
    assert "no club 'x'" in cli.run("match", "new", "--club", "x", "--rules", "sircle",
                                    "--player", "A", "--player", "B", code=1).output


def test_match_list_filters(cli: Cli) -> None:
    header, events = legal_match("mano-a-mano", seed=1)
    cli.service.recording.import_log(CLUB, log_text({**header, "date": "2026-01-10"}, events))
    cli.new_match("mano-a-mano", ("Carla", "Dani"), "--date", "2026-02-01")
    result = cli.run("match", "list", "--club", CLUB)
    assert "2 of 2 matches" in result.output and "Carla, Dani" in result.output
    assert "1 of 2" in cli.run("match", "list", "--club", CLUB, "--limit", 1).output
    result = cli.run("match", "list", "--club", CLUB, "--status", "finished")
    assert "1 of 1" in result.output and "Ana, Beto" in result.output
    result = cli.run("match", "list", "--club", CLUB, "--player", "Dani")
    assert "1 of 1" in result.output and "Carla, Dani" in result.output
    assert "0 of 0" in cli.run("match", "list", "--club", CLUB, "--player", "Nobody").output
    result = cli.run("match", "list", "--club", CLUB, "--from", "2026-01-15", "--to", "2026-12-31")
    assert "1 of 1" in result.output and "2026-02-01" in result.output
    result = cli.run("match", "list", "--club", CLUB, "--from", "soon", code=2)
    assert "Invalid value for '--from': 'soon' is not a day" in result.output
    cli.run("match", "list", "--club", CLUB, "--status", "lost", code=2)


def test_match_show_report_and_show_from_the_database(cli: Cli) -> None:
    match_id = cli.new_match()
    svc = cli.service
    svc.recording.record_event(match_id, {"type": "deal", "hands": OPEN_HANDS}, expected_seq=None)
    svc.recording.record_event(match_id, {"type": "play", "seat": 0, "tile": "6-6"}, expected_seq=None)
    svc.recording.record_event(match_id, {"type": "pass", "seat": 1, "disputed": True}, expected_seq=None)
    svc.recording.record_event(match_id, {"type": "play", "seat": 0, "tile": "6-5"}, expected_seq=None)
    for args in (["match", "show", match_id, "--at", 2], ["show", match_id, "--at", 2]):
        result = cli.run(*args)
        assert "After event 2" in result.output and "Open ends: 6 and 6" in result.output
        assert "Beto ◀ to play" in result.output
    result = cli.run("show", match_id, "--at", 3)
    assert "That event was refused: Beto passed holding" in result.output
    assert "[6|6] [6|5]" in cli.run("match", "show", match_id).output
    assert "After event 0" in cli.run("show", match_id, "--at", 0).output
    assert "Invalid value for '--at': match 1 has 4 events; there is no event 9" \
        in cli.run("show", match_id, "--at", 9, code=2).output
    assert "no match '42'" in cli.run("show", "42", code=1).output
    assert "no match '42'" in cli.run("match", "show", "42", code=1).output
    assert "neither a log file nor a match id" in cli.run("show", "nope.jsonl", code=1).output

    result = cli.run("match", "report", match_id)
    assert "Match not finished. 1 violation" in result.output
    assert "event 3: renege" in result.output
    report = json.loads(cli.run("match", "report", match_id, "--json").stdout)
    assert report["format"] == "domino-report/1" and report["violations"][0]["code"] == "renege"
    assert "no match '42'" in cli.run("match", "report", 42, code=1).output


def test_export_and_import_round_trip(cli: Cli, tmp_path: Path) -> None:
    header, events = legal_match("veracruz", ("Ana", "Beto", "Carla"), seed=8)
    text = log_text(header, events)
    first = cli.service.recording.import_log(CLUB, text)["id"]
    exported = cli.run("match", "export", first).stdout
    assert exported.splitlines()[1:] == text.splitlines()[1:]
    out = tmp_path / "out.jsonl"
    assert f"wrote match {first}" in cli.run("match", "export", first, "-o", out).output
    assert out.read_text() == exported
    result = cli.run("match", "import", "--club", CLUB, out)
    assert "Imported 1 of 1 log\n" in result.output and "Stored" in result.output
    second = first + 1
    assert cli.service.reading.report(second) == cli.service.reading.report(first)
    assert "no match '42'" in cli.run("match", "export", 42, code=1).output
    assert "cannot write" in cli.run("match", "export", first, "-o", tmp_path / "no" / "x",
                                     code=None).output


def test_import_many_files_with_a_summary_of_what_was_refused(cli: Cli, tmp_path: Path) -> None:
    header, events = legal_match("mano-a-mano", seed=6)
    good = write(tmp_path, "good.jsonl", log_text(header, events))
    illegal_events = [{"type": "deal", "hands": OPEN_HANDS}, {"type": "play", "seat": 0, "tile": "6-6"},
                      {"type": "pass", "seat": 1}]
    illegal = write(tmp_path, "renege.jsonl", log_text(header, illegal_events))
    disputed_events = illegal_events[:2] + [{"type": "pass", "seat": 1, "disputed": True}]
    disputed = write(tmp_path, "disputed.jsonl", log_text(header, disputed_events))
    broken = write(tmp_path, "broken.jsonl", json.dumps(header) + "\n{not json\n")
    missing = str(tmp_path / "missing.jsonl")
    result = cli.run("match", "import", "--club", CLUB, good, illegal, disputed, broken, missing,
                     code=1)
    out = result.stdout
    assert "Imported 2 of 5 logs" in out
    assert "event 3" in out and "renege" in out
    assert "line 2" in out
    assert "cannot read the file" in out
    found, total = cli.service.reading.list_matches(CLUB)
    assert total == 2
    by_events = sorted(m["last_seq"] for m in found)
    assert by_events == sorted([len(events), 3])
    assert all(str(m["last_seq"]) in out for m in found)
    assert "finished" in out and "in progress" in out
    assert cli.run("match", "import", "--club", CLUB, good).exit_code == 0
    result = cli.run("match", "import", "--club", "nope", good, code=1)
    assert "no club 'nope'" in result.output


def test_match_new_seats_a_close_name_only_with_new(cli: Cli) -> None:
    cli.run("player", "add", "Ana Pérez", "--club", CLUB)
    args = ("match", "new", "--club", CLUB, "--rules", "mano-a-mano", "--player", "Ana Perez",
            "--player", "Beto")
    result = cli.run(*args, code=1)
    assert "did you mean Ana Pérez?" in result.output and "--new" in result.output
    assert cli.service.reading.list_matches(CLUB)[1] == 0  # nothing stored, Beto not added
    assert [p["name"] for p in cli.service.players.list(CLUB)[0]] == ["Ana Pérez"]
    match_id = int(cli.run(*args, "--new").stdout)
    assert cli.service.reading.get_match(match_id)["players"] == ["Ana Perez", "Beto"]
    assert sorted(p["name"] for p in cli.service.players.list(CLUB)[0]) == [
        "Ana Perez", "Ana Pérez", "Beto"]
    # --new is no licence to split a player: the same key still sits the player it names
    again = int(cli.run("match", "new", "--club", CLUB, "--rules", "mano-a-mano", "--player",
                        "ana pérez", "--player", "beto", "--new").stdout)
    assert cli.service.reading.list_matches(CLUB, player="Ana Pérez")[1] == 1
    assert cli.service.reading.list_matches(CLUB, player="Beto")[1] == 2
    assert again == match_id + 1


def test_import_seats_a_close_name_only_with_new(cli: Cli, tmp_path: Path) -> None:
    cli.run("player", "add", "Ana Pérez", "--club", CLUB)
    header, events = legal_match("mano-a-mano", ("Ana Perez", "Beto"), seed=6)
    close = write(tmp_path, "close.jsonl", log_text(header, events))
    known_header, known_events = legal_match("mano-a-mano", ("ana pérez", "Carla"), seed=7)
    known = write(tmp_path, "known.jsonl", log_text(known_header, known_events))
    result = cli.run("match", "import", "--club", CLUB, close, known, code=1)
    assert "Imported 1 of 2 logs" in result.stdout
    assert "line 1" in result.stdout and "did you mean Ana Pérez?" in result.stdout
    assert "--new" in result.stdout
    result = cli.run("match", "import", "--club", CLUB, "--new", close)
    assert "Imported 1 of 1 log\n" in result.stdout
    found, total = cli.service.reading.list_matches(CLUB, player="Ana Perez")
    assert total == 1 and found[0]["players"] == ["Ana Perez", "Beto"]
    assert cli.service.reading.list_matches(CLUB, player="Ana Pérez")[1] == 1


def test_standings_table_and_csv(cli: Cli) -> None:
    for seed in (1, 2, 3):
        header, events = legal_match("mano-a-mano", seed=seed)
        cli.service.recording.import_log(CLUB, log_text(header, events))
    cli.run("player", "add", "Carla", "--club", CLUB)
    expected = cli.service.standings.table(CLUB)
    result = cli.run("standings", "--club", CLUB)
    assert "standings" in result.output and "Carla" in result.output
    rows = list(csv.DictReader(io.StringIO(cli.run("standings", "--club", CLUB, "--csv").stdout)))
    assert [r["player"] for r in rows] == [e["player"] for e in expected]
    assert [int(r["won"]) for r in rows] == [e["won"] for e in expected]
    assert sum(int(r["played"]) for r in rows) == 6
    assert "no club 'x'" in cli.run("standings", "--club", "x", code=1).output
