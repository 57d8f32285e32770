"""What a new user tripped over: match new's date, match list's pages and formats, errors that
name the option typed (``--from``, never ``date_from``) and say a thing once, and --json (and
--csv) on every listing."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from pathlib import Path
from typing import Any

import click
import pytest
from cli_helpers import CLUB, Cli, legal_match

from cli.main import main
from cli.options import NAME_LENGTH
from referee.core.log import make_log, read_log, write_log

LIST_HEADER = "id,date,table,event,players,status,round,totals,winner"


def utc_today() -> str:
    return dt.datetime.now(dt.timezone.utc).date().isoformat()


def error_line(output: str) -> str:
    """The one line that says what went wrong."""
    lines = [line for line in output.splitlines() if line.startswith("Error: ")]
    assert len(lines) == 1, output
    return lines[0]


# ------------------------------------------------------------------------------ match new --date

def test_match_new_dates_the_match_today_by_default(cli: Cli) -> None:
    before = utc_today()
    match_id = cli.new_match()
    after = utc_today()
    header = read_log(cli.run("match", "export", match_id).stdout).header.fields
    assert header["date"] in (before, after)
    assert cli.service.reading.get_match(match_id)["date"] == header["date"]
    listed = json.loads(cli.run("match", "list", "--club", CLUB, "--json").stdout)
    assert listed[0]["date"] == header["date"]
    dated = cli.new_match("mano-a-mano", ("Ana", "Beto"), "--date", "2026-03-01")
    assert read_log(cli.run("match", "export", dated).stdout).header.fields["date"] == "2026-03-01"
    assert "default today (UTC)" in cli.run("match", "new", "--help").output


# ------------------------------------------------------------------------- match list: pages, formats

def add_matches(cli: Cli, count: int) -> None:
    for n in range(count):
        cli.service.recording.create_match(CLUB, "mano-a-mano", ["Ana", "Beto"], table=str(n))


def test_match_list_shows_fifty_and_says_how_to_see_more(cli: Cli) -> None:
    add_matches(cli, 53)
    result = cli.run("match", "list", "--club", CLUB)
    assert "50 of 53 matches" in result.stdout
    assert result.stderr == "showing 1–50 of 53; --offset 50 for more\n"
    result = cli.run("match", "list", "--club", CLUB, "--offset", 50)
    assert "3 of 53 matches" in result.stdout and result.stderr == "showing 51–53 of 53\n"
    result = cli.run("match", "list", "--club", CLUB, "--limit", 10, "--offset", 20, "--json")
    assert [m["id"] for m in json.loads(result.stdout)] == list(range(33, 23, -1))
    assert result.stderr == "showing 21–30 of 53; --offset 30 for more\n"
    result = cli.run("match", "list", "--club", CLUB, "--offset", 60)
    assert result.stderr == "nothing at --offset 60: there are 53\n"
    everything = cli.run("match", "list", "--club", CLUB, "--limit", 100)
    assert everything.stderr == "" and "53 of 53 matches" in everything.stdout
    help_text = cli.run("match", "list", "--help").output
    assert "--offset" in help_text and "--limit" in help_text and "--offset 50" in help_text


def test_match_list_json_and_csv_give_one_row_per_match(cli: Cli) -> None:
    header, events = legal_match("parejas", ("Ana", "Beto", "Carla", "Dani"), seed=3)
    finished = cli.service.recording.import_log(
        CLUB, write_log(make_log({**header, "date": "2026-01-10", "table": "3", "event": "spring"},
                                 events)))
    fresh = cli.new_match("mano-a-mano", ("Ana, the elder", "Beto"), "--date", "2026-02-01")
    rows = json.loads(cli.run("match", "list", "--club", CLUB, "--json").stdout)
    assert [set(r) for r in rows] == [set(LIST_HEADER.split(","))] * 2
    newest, oldest = rows
    assert newest == {"id": fresh, "date": "2026-02-01", "table": None, "event": None,
                      "players": ["Ana, the elder", "Beto"], "status": "in_progress",
                      "round": None, "totals": [0, 0], "winner": None}
    screen = cli.service.reading.screen(finished["id"])
    assert oldest["winner"] == screen.winner_name and oldest["totals"] == finished["totals"]
    assert (oldest["table"], oldest["event"], oldest["status"]) == ("3", "spring", "finished")
    text = cli.run("match", "list", "--club", CLUB, "--csv").stdout_bytes.decode()
    assert text.startswith(LIST_HEADER + "\r\n") and text.endswith("\r\n")  # RFC 4180
    parsed = list(csv.DictReader(io.StringIO(text, newline="")))
    assert parsed[0]["players"] == "Ana, the elder, Beto" and parsed[0]["winner"] == ""
    assert parsed[1]["winner"] == screen.winner_name
    assert parsed[1]["totals"] == " - ".join(map(str, finished["totals"]))
    result = cli.run("match", "list", "--club", CLUB, "--json", "--csv", code=2)
    assert error_line(result.output) == "Error: give --json or --csv, not both"


# ---------------------------------------------------------------- errors name the option typed

BAD_INPUT = [
    (["match", "list", "--club", CLUB, "--from", "soon"],
     "Invalid value for '--from': 'soon' is not a day: write it YYYY-MM-DD, like 2026-03-01"),
    (["match", "list", "--club", CLUB, "--to", "2026-13-01"],
     "Invalid value for '--to': '2026-13-01' is not a day: write it YYYY-MM-DD, like 2026-03-01"),
    (["match", "list", "--club", CLUB, "--from", "2026-02-30"],
     "Invalid value for '--from': '2026-02-30' is not a day: write it YYYY-MM-DD, like 2026-03-01"),
    (["match", "list", "--club", CLUB, "--status", "lost"],
     "Invalid value for '--status': 'lost' is not one of 'in_progress', 'finished', 'abandoned'."),
    (["match", "list", "--club", CLUB, "--player", " "],
     "Invalid value for '--player': a name cannot be blank"),
    (["match", "list", "--club", CLUB, "--limit", "0"],
     "Invalid value for '--limit': 0 is not in the range 1<=x<=2147483647."),
    (["match", "list", "--club", CLUB, "--offset", "99999999999"],
     "Invalid value for '--offset': 99999999999 is not in the range 0<=x<=2147483647."),
    (["match", "new", "--club", CLUB, "--rules", "sircle", "--player", "A", "--player", "B",
      "--date", "1 March"],
     "Invalid value for '--date': '1 March' is not a day: write it YYYY-MM-DD, like 2026-03-01"),
    (["match", "new", "--club", CLUB, "--rules", "sircle", "--player", "A", "--player", ""],
     "Invalid value for '--player': a name cannot be blank"),
    (["match", "new", "--club", CLUB, "--rules", "sircle", "--player", "A", "--player",
      "x" * (NAME_LENGTH + 1)],
     f"Invalid value for '--player': a name is at most {NAME_LENGTH} characters, not {NAME_LENGTH + 1}"),
    (["match", "new", "--club", CLUB, "--rules", '{"preset": ', "--player", "A", "--player", "B"],
     "Invalid value for '--rules': not JSON: column 12: a value was expected"),
    # ASCII digits alone, as the API and the pages read numbers: int() took "２", " 2", "1_0"
    (["match", "list", "--club", CLUB, "--limit", "２"],
     "Invalid value for '--limit': '２' is not a whole number written in digits 0 to 9"),
    (["match", "list", "--club", CLUB, "--offset", "1_0"],
     "Invalid value for '--offset': '1_0' is not a whole number written in digits 0 to 9"),
    (["match", "show", "1", "--at", " 2"],
     "Invalid value for '--at': ' 2' is not a whole number written in digits 0 to 9"),
    (["penalty", "1", "--side", "0", "--points", "-３", "--reason", "x"],
     "Invalid value for '--points': '-３' is not a whole number written in digits 0 to 9"),
    # a ruling's corrected event is read as every JSON option: a deep nesting was a traceback
    (["amend", "1", "1", '{"a":' * 20_000, "--reason", "x"],
     "Invalid value for 'EVENT': not JSON: the JSON is nested too deeply"),
    (["amend", "1", "1", '{"type": "pass", "seat": NaN}', "--reason", "x"],
     "Invalid value for 'EVENT': not JSON: NaN is not JSON"),
    (["match", "show", "1", "--at", "99999999999"],
     "Invalid value for '--at': 99999999999 is not in the range 0<=x<=2147483647."),
    (["match", "show", "1", "--at", "5"],
     "Invalid value for '--at': match 1 has 0 events; there is no event 5"),
    (["show", "1", "--at", "5"], "Invalid value for '--at': match 1 has 0 events; there is no event 5"),
    (["club", "create", "new-club", "--name", "\t"], "Invalid value for '--name': a name cannot be blank"),
    (["player", "add", "Ana\x07", "--club", CLUB],
     "Invalid value for 'NAME': a name may not contain control characters"),
    (["token", "create", "--club", CLUB, "--role", "viewer", "--label", ""],
     "Invalid value for '--label': a name cannot be blank"),
]


@pytest.mark.parametrize("args, message", BAD_INPUT, ids=lambda x: " ".join(x) if isinstance(x, list) else None)
def test_bad_input_is_a_usage_error_naming_the_option(cli: Cli, args: list[str],
                                                       message: str) -> None:
    cli.new_match("sircle", ("Ana", "Beto"))  # match 1, no events
    result = cli.run(*args, code=2)
    assert error_line(result.output) == f"Error: {message}"
    assert "date_from" not in result.output and "date_to" not in result.output


# ------------------------------------------------------------------- errors say a thing once

def test_an_unreadable_log_is_one_line_said_once(cli: Cli, tmp_path: Path) -> None:
    missing = tmp_path / "missing.jsonl"
    result = cli.run("validate", missing, code=2)
    assert result.output == f"{missing}: cannot read the file: No such file or directory\n"
    result = cli.run("show", tmp_path, code=1)
    assert result.output == f"Error: {tmp_path}: cannot read the file: Is a directory\n"
    blank = tmp_path / "blank.jsonl"
    blank.write_text('{"format": "domino-log/1", "rules": "sircle", "players": ["A", "B"]}\n\n'
                     '{"type": "deal"}\n')
    assert cli.run("validate", blank, code=2).output \
        == f"{blank}: cannot read line 2: blank line before the last event\n"
    assert cli.run("show", blank, code=1).output \
        == f"Error: {blank}: cannot read line 2: blank line before the last event\n"
    result = cli.run("validate", "--json", missing, code=2)
    assert json.loads(result.output)["error"] == {
        "line": 0, "message": "cannot read the file: No such file or directory"}


def test_an_import_refusal_says_why_once(cli: Cli, tmp_path: Path) -> None:
    result = cli.run("match", "import", "--club", CLUB, tmp_path / "missing.jsonl", code=1)
    assert result.output.count("cannot read") == 1
    assert "cannot read the file: No such file or directory" in result.output


def test_service_errors_are_one_line_as_the_service_says_them(cli: Cli) -> None:
    assert cli.run("club", "show", "nope", code=1).output == "Error: no club 'nope'\n"
    assert cli.run("match", "show", "42", code=1).output == "Error: no match '42'\n"
    match_id = cli.new_match("sircle", ("Ana", "Beto"))
    assert cli.run("void", match_id, 9, "--reason", "x", code=1).output \
        == "Error: refused (unusable event): target 9 is not an earlier event (1 to 0)\n"


# ------------------------------------------------------------------- --json on every listing

def listing_commands() -> list[tuple[str, click.Command]]:
    found = []

    def walk(command: click.Command, path: list[str]) -> None:
        if isinstance(command, click.Group):
            ctx = click.Context(command)
            for name in command.list_commands(ctx):
                walk(command.get_command(ctx, name), path + [name])
        elif path[-1] in ("list", "standings"):
            found.append((" ".join(path), command))

    walk(main, [])
    return found


def test_every_listing_has_json_and_csv() -> None:
    listings = dict(listing_commands())
    assert {"match list", "player list", "standings"} <= set(listings)
    for path, command in listings.items():
        flags = {opt for p in command.params for opt in getattr(p, "opts", [])}
        assert {"--json", "--csv"} <= flags, path


def test_player_list_json_and_csv(cli: Cli) -> None:
    for name in ("Beto", "Ana María", "Carla, Jr."):
        cli.run("player", "add", name, "--club", CLUB)
    expected, _ = cli.service.players.list(CLUB)
    rows = json.loads(cli.run("player", "list", "--club", CLUB, "--json").stdout)
    assert rows == expected and [r["name"] for r in rows] == ["Ana María", "Beto", "Carla, Jr."]
    text = cli.run("player", "list", "--club", CLUB, "--csv").stdout
    assert text.splitlines()[0] == "id,name,created_at"
    assert [r["name"] for r in csv.DictReader(io.StringIO(text))] == [r["name"] for r in rows]
    assert error_line(cli.run("player", "list", "--club", CLUB, "--json", "--csv", code=2).output) \
        == "Error: give --json or --csv, not both"


def test_standings_json(cli: Cli) -> None:
    for seed in (1, 2):
        header, events = legal_match("mano-a-mano", seed=seed)
        cli.service.recording.import_log(CLUB, write_log(make_log(header, events)))
    rows: list[dict[str, Any]] = json.loads(cli.run("standings", "--club", CLUB, "--json").stdout)
    assert rows == cli.service.standings.table(CLUB)
    assert cli.run("standings", "--club", CLUB, "--csv").stdout_bytes.decode() \
        == cli.service.standings.csv(CLUB)
