"""``domino standings`` with its filters and groups, and ``domino club set --tie-breakers``,
through click's runner: what they print is what the service answers."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from cli_helpers import CLUB, Cli, legal_match

from referee.core.log import make_log, write_log
from referee.service.standings import PARTNERSHIP_COLUMNS


def season(cli: Cli) -> None:
    for seed, (rules, players, day, event) in enumerate([
            ("parejas", ("Ana", "Beto", "Carla", "Dani"), "2026-01-10", "liga"),
            ("parejas", ("Beto", "Ana", "Dani", "Carla"), "2026-02-10", "copa"),
            ("mano-a-mano", ("Ana", "Eva"), "2026-03-10", None)]):
        header, events = legal_match(rules, players, seed=seed + 1)
        header["date"] = day
        if event:
            header["event"] = event
        cli.service.recording.import_log(CLUB, write_log(make_log(header, events)))


def test_standings_with_filters_and_groups(cli: Cli) -> None:
    season(cli)
    for args, kwargs in ((["--from", "2026-02-01"], {"date_from": "2026-02-01"}),
                         (["--to", "2026-01-31", "--event", "liga"],
                          {"date_to": "2026-01-31", "event": "liga"}),
                         (["--group", "partnerships"], {"group": "partnerships"}),
                         ([], {})):
        rows: list[dict[str, Any]] = json.loads(
            cli.run("standings", "--club", CLUB, *args, "--json").stdout)
        assert rows == cli.service.standings.table(CLUB, **kwargs)
        assert cli.run("standings", "--club", CLUB, *args, "--csv").stdout_bytes.decode() \
            == cli.service.standings.csv(CLUB, **kwargs)
    lines = list(csv.reader(io.StringIO(
        cli.run("standings", "--club", CLUB, "--group", "partnerships", "--csv").stdout)))
    assert lines[0] == list(PARTNERSHIP_COLUMNS) and len(lines) == 3
    shown = cli.run("standings", "--club", CLUB).output
    assert "casino: standings" in shown and "Eva" in shown and "rating" in shown
    assert "provisional" in shown  # the note under the table
    shown = cli.run("standings", "--club", CLUB, "--group", "partnerships", "--event", "liga",
                    "--from", "2026-01-01").output
    assert "(partnerships)" in shown and " & " in shown and "event liga" in shown
    assert "Jan 1, 2026 to …" in shown  # the day in the output's language


def test_standings_refuse_bad_options(cli: Cli) -> None:
    assert "--from" in cli.run("standings", "--club", CLUB, "--from", "soon", code=2).output
    assert "--group" in cli.run("standings", "--club", CLUB, "--group", "teams", code=2).output
    assert "no club 'x'" in cli.run("standings", "--club", "x", code=1).output


def test_club_set_tie_breakers(cli: Cli) -> None:
    result = cli.run("club", "set", CLUB, "--tie-breakers", "won,head_to_head, points_for")
    assert result.stdout == "casino: tie-breakers Matches won, Head to head, Points for\n"
    assert cli.service.standings.tie_breakers(CLUB) == ["won", "head_to_head", "points_for"]
    assert cli.run("club", "set", CLUB, "--tie-breakers", "default").stdout == \
        "casino: tie-breakers Matches won, Points difference, Points for, Head to head\n"
    assert "'luck'" in cli.run("club", "set", CLUB, "--tie-breakers", "won,luck", code=2).output
    assert "twice" in cli.run("club", "set", CLUB, "--tie-breakers", "won,won", code=2).output
    assert "no club 'x'" in cli.run("club", "set", "x", "--tie-breakers", "won", code=1).output
    assert "set" in cli.run("club", "--help").output


def test_club_set_unranked(cli: Cli) -> None:
    cli.service.players.create(CLUB, "Zoe")
    assert cli.run("club", "set", CLUB, "--unranked", "hidden").stdout == \
        "casino: players with no counted match not listed\n"
    assert cli.service.standings.unranked(CLUB) == "hidden"
    assert "Zoe" not in cli.run("standings", "--club", CLUB).output
    assert cli.run("club", "set", CLUB, "--unranked", "apart").stdout == \
        "casino: players with no counted match listed apart\n"
    shown = [line for line in cli.run("standings", "--club", CLUB).output.splitlines()
             if "Zoe" in line]
    assert len(shown) == 1 and shown[0].split("│")[1].strip() == "-"  # listed, not ranked
    assert "--unranked" in cli.run("club", "set", CLUB, "--unranked", "gone", code=2).output


def test_club_set_rules_and_target_the_start_form_preselects(cli: Cli) -> None:
    result = cli.run("club", "set", CLUB, "--rules", "veracruz", "--target", "150")
    assert result.stdout == ("casino: rules preselected for a new match Veracruz\n"
                             "casino: target preselected for a new match 150\n")
    club = cli.service.clubs.get_club(CLUB)
    assert (club["default_rules"], club["default_target"]) == ("veracruz", 150)
    assert cli.run("club", "set", CLUB, "--target", "none").stdout == \
        "casino: target preselected for a new match the preset's own\n"
    assert cli.service.clubs.get_club(CLUB)["default_rules"] == "veracruz"  # not named: kept
    assert "none (the form's first preset)" in cli.run("club", "set", CLUB, "--rules", "none").stdout
    for bad in (["--target", "0"], ["--target", "10001"], ["--target", "5.5"], ["--rules", "poker"]):
        refused = cli.run("club", "set", CLUB, "--name", "Renamed", *bad, code=2)
        assert f"'{bad[0]}'" in refused.output, refused.output
    club = cli.service.clubs.get_club(CLUB)
    assert (club["default_rules"], club["default_target"]) == (None, None)
    assert club["name"] != "Renamed"


def test_club_set_many_settings_at_once_one_line_each(cli: Cli) -> None:
    before = cli.service.clubs.get_club(CLUB)
    # the service refuses this one (the CLI lets any text through to --name's own checks)
    refused = cli.run("club", "set", "x", "--name", "Renamed", "--rules", "parejas", code=1)
    assert "no club 'x'" in refused.output
    both = cli.run("club", "set", CLUB, "--name", "Casino Dos", "--rules", "parejas",
                   "--public", "--timezone", "America/Puerto_Rico").stdout.splitlines()
    assert both == ["casino: its pages are public", "casino: name Casino Dos",
                    "casino: rules preselected for a new match Parejas",
                    "casino: time zone America/Puerto_Rico"]
    assert cli.service.clubs.get_club(CLUB)["timezone"] == "America/Puerto_Rico"
    assert "IANA name" in cli.run("club", "set", CLUB, "--timezone", "Ponce", code=1).output
    assert cli.run("club", "set", CLUB, "--timezone", "none").stdout == \
        "casino: time zone UTC (none set)\n"
    after = cli.service.clubs.get_club(CLUB)
    assert (after["name"], after["public"], after["default_rules"]) == ("Casino Dos", True, "parejas")
    assert after["created_at"] == before["created_at"]
