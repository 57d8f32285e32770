"""``domino club``, ``domino player``, ``domino token`` and the errors every database command
shares (a database never upgraded, a service error), through click's runner."""

from __future__ import annotations

import json
import re
from pathlib import Path

import click
import pytest
from cli_helpers import CLUB, Cli
from click.testing import CliRunner

from cli.main import main
from referee.service import NotFound


def test_club_create_and_show(cli: Cli) -> None:
    result = cli.run("club", "create", "dominoes-nyc", "--name", "Dominoes NYC")
    assert "created club dominoes-nyc (Dominoes NYC)" in result.output
    cli.new_match()
    result = cli.run("club", "show", CLUB)
    assert "casino: Casino Domino Club" in result.output
    assert "2 players, 1 match (0 finished)" in result.output
    assert "time zone: UTC (none set)" in result.output
    assert "unknown" not in result.output
    result = cli.run("club", "show", "nope", code=1)
    assert "no club 'nope'" in result.output
    result = cli.run("club", "create", CLUB, "--name", "Again", code=1)
    assert "Error:" in result.output
    result = cli.run("club", "create", "Bad Slug", "--name", "x", code=1)
    assert "slug" in result.output


def test_club_create_prints_its_first_admin_token_and_the_desk(cli: Cli,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """As the README says: `domino club create casino "Casino"` (the name a second argument,
    or --name as before) prints the club's first admin token and the club desk's address.
    Before, the name had to be --name and no token was printed."""
    out = cli.run("club", "create", "la-ceiba", "La Ceiba").stdout
    token = re.search(r"\(the secretary's; shown this once, only its hash is kept\): (dr_\S+)",
                      out).group(1)
    who = cli.service.tokens.authenticate(token)
    assert (who.club, who.role, who.label) == ("la-ceiba", "admin", "first admin")
    assert "the club desk: http://127.0.0.1:8000/clubs/la-ceiba/desk (sign in there" in out
    assert cli.service.clubs.get_club("la-ceiba")["name"] == "La Ceiba"

    out = cli.run("club", "create", "pena", "--name", "La Peña", "--site",
                  "https://domino.example/").stdout
    assert "the club desk: https://domino.example/clubs/pena/desk" in out
    monkeypatch.setenv("DOMINO_SITE_URL", "http://10.0.0.5:8000")
    made = json.loads(cli.run("club", "create", "eden", "Edén", "--json").stdout)
    assert set(made) == {"slug", "name", "admin_token", "desk", "signing_key"}
    assert made["desk"] == "http://10.0.0.5:8000/clubs/eden/desk" and made["name"] == "Edén"
    assert cli.service.tokens.authenticate(made["admin_token"]).role == "admin"
    assert made["signing_key"].startswith("ed25519:")

    assert "NAME or --name" in cli.run("club", "create", "x", "A", "--name", "B", code=2).output
    assert "give the club's name" in cli.run("club", "create", "x", code=2).output
    assert cli.run("club", "create", "y", "Same", "--name", "Same").exit_code == 0
    with pytest.raises(NotFound):
        cli.service.clubs.get_club("x")


def test_player_add_and_list(cli: Cli) -> None:
    assert "added Ana María to casino" in cli.run("player", "add", "Ana María", "--club", CLUB).output
    cli.run("player", "add", "Beto", "--club", CLUB)
    result = cli.run("player", "add", "Beto", "--club", CLUB, code=1)
    assert "Error:" in result.output and "Traceback" not in result.output
    result = cli.run("player", "list", "--club", CLUB)
    assert "2 players" in result.output and "Ana María" in result.output and "Beto" in result.output
    assert "no club 'x'" in cli.run("player", "list", "--club", "x", code=1).output
    cli.run("player", "add", "Carla", code=2)  # --club is required: a usage error


def test_token_create(cli: Cli) -> None:
    token = cli.run("token", "create", "--club", CLUB, "--role", "scorekeeper",
                    "--label", "table 3").stdout.strip()
    assert token.startswith("dr_")
    assert cli.service.tokens.authenticate(token).role == "scorekeeper"
    cli.run("token", "create", "--club", CLUB, "--role", "king", code=2)


def test_a_database_not_upgraded_says_run_db_upgrade(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOMINO_DATABASE_URL", f"sqlite:///{tmp_path / 'fresh.db'}")
    runner = CliRunner()
    for args in (["club", "show", CLUB], ["match", "list", "--club", CLUB], ["play", "1", "6-6"],
                 ["standings", "--club", CLUB], ["show", "1"], ["table", "1"]):
        result = runner.invoke(main, args)
        assert result.exit_code == 1, (args, result.output)
        assert "run `domino db upgrade`" in result.output, args
    assert runner.invoke(main, ["db", "upgrade"]).exit_code == 0
    assert runner.invoke(main, ["club", "create", CLUB, "--name", "Casino"]).exit_code == 0


def test_an_unreachable_database_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOMINO_DATABASE_URL", "postgresql+psycopg://nobody@127.0.0.1:1/none")
    result = CliRunner().invoke(main, ["club", "show", CLUB])
    assert result.exit_code == 1 and "database error" in result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)


def test_every_command_has_help_with_an_example() -> None:
    def walk(command: click.Command, path: list[str]) -> list[tuple[list[str], click.Command]]:
        found = [(path, command)]
        if isinstance(command, click.Group):  # lazy groups: every subcommand, imported
            ctx = click.Context(command)
            for name in command.list_commands(ctx):
                found += walk(command.get_command(ctx, name), path + [name])
        return found

    commands = walk(main, [])
    assert {"table", "import", "standings", "pass", "void"} <= {p[-1] for p, _ in commands if p}
    runner = CliRunner()
    for path, command in commands:
        result = runner.invoke(main, path + ["--help"])
        assert result.exit_code == 0 and "Example" in result.output, path


def test_a_listings_csv_escapes_what_a_spreadsheet_would_run(cli: Cli) -> None:
    cli.run("player", "add", "=HYPERLINK(1)", "--club", CLUB)
    csv_text = cli.run("player", "list", "--club", CLUB, "--csv").stdout
    assert "'=HYPERLINK(1)" in csv_text and "\n=HYPERLINK" not in csv_text.replace(",", "\n")


def test_club_set_name_public_private_as_the_desk_does(cli: Cli) -> None:
    result = cli.run("club", "set", CLUB, "--public", "--name", "Casino de Ponce")
    assert "casino: its pages are public" in result.stdout
    assert "casino: name Casino de Ponce" in result.stdout
    club = cli.service.clubs.get_club(CLUB)
    assert club["public"] is True and club["name"] == "Casino de Ponce"
    assert "private (a token is needed)" in cli.run("club", "set", CLUB, "--private").stdout
    assert cli.service.clubs.get_club(CLUB)["public"] is False
    both = cli.run("club", "set", CLUB, "--language", "it", "--tie-breakers", "default").stdout
    assert "language of its pages it" in both and "tie-breakers Matches won" in both
    refused = cli.run("club", "set", CLUB, "--name", " ", code=2)
    assert "'--name'" in refused.stderr and cli.service.clubs.get_club(CLUB)["name"] == "Casino de Ponce"
    assert "give --name, --public or --private" in cli.run("club", "set", CLUB, code=2).stderr


def test_token_issue_then_list_shows_label_role_and_last_use(cli: Cli) -> None:
    issued = cli.run("token", "issue", "--club", CLUB, "--role", "referee", "--label", "head referee")
    secret = issued.stdout.strip()
    assert secret and "\n" not in secret and not issued.stderr  # the token alone, for a script
    listed = cli.run("token", "list", "--club", CLUB).stdout
    assert "head referee" in listed and "referee" in listed and "never" in listed
    cli.service.tokens.authenticate(secret)  # a use: the list tells when
    [row] = json.loads(cli.run("token", "list", "--club", CLUB, "--json").stdout)
    assert row["label"] == "head referee" and row["role"] == "referee" and row["last_used_at"]
    assert row["last_used_at"][:10] in cli.run("token", "list", "--club", CLUB).stdout
    old = cli.run("token", "create", "--club", CLUB, "--role", "viewer")  # the old name still works
    assert old.stdout.strip() and "  create " not in cli.run("token", "--help").stdout
