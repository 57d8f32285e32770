"""``domino league cup`` through click's runner: a club cup of players made, drawn from a seed,
its ties played and shown, each listing's --json what the service answers; a draw made again
with another seed after a tie was played, and a wrong winner, a clear error that changes
nothing."""

from __future__ import annotations

import json

from cli_helpers import CLUB, Cli
from league_helpers import set_up, win_game

from referee.service.leagues import draw_cup

NAMES = ["Ana", "Beto", "Carla", "Dani", "Eva"]


def test_a_cup_from_the_command_line(cli: Cli) -> None:
    made = cli.run("league", "cup", "new", "open", *NAMES, "--club", CLUB, "--name", "Open",
                   "--kind", "players")
    assert "created cup open: Open, 5 entrants" in made.output
    drawn = json.loads(cli.run("league", "cup", "draw", "open", "--club", CLUB, "--seed",
                               "2025", "--seeded", "1", "--json").stdout)
    assert drawn["order"] == list(draw_cup(NAMES, 2025, 1).order)
    both = cli.run("league", "cup", "draw", "open", "--club", CLUB, "--rank", "Eva",
                   "--by-table", code=2)
    assert "--rank or --by-table" in both.output
    shown = json.loads(cli.run("league", "cup", "show", "open", "--club", CLUB,
                               "--json").stdout)
    assert shown == cli.service.leagues.cup(CLUB, "open")
    ready = next(t for t in shown["ties"] if t["status"] == "ready")
    game = json.loads(cli.run("league", "cup", "play", "open", ready["id"], "--club", CLUB,
                              "--json").stdout)
    win_game(cli.service, game["match"], 0)
    text = cli.run("league", "cup", "show", "open", "--club", CLUB).output
    assert f"{ready['id']}  {ready['home']} 1-0 {ready['away']}  played" in text

    before = cli.service.leagues.cup(CLUB, "open")
    again = cli.run("league", "cup", "draw", "open", "--club", CLUB, "--seed", "7", code=1)
    assert "the draw cannot be made again" in again.output
    other = next(t for t in before["ties"] if t["status"] == "ready")
    match = cli.service.recording.create_match(CLUB, "mano-a-mano",
                                               [other["home"], other["away"]])["id"]
    win_game(cli.service, match, 0)
    wrong = cli.run("league", "cup", "result", "open", other["id"], str(match), "--winner",
                    other["away"], "--club", CLUB, code=1)
    assert "is not won by" in wrong.output
    assert cli.service.leagues.cup(CLUB, "open") == before
    done = cli.run("league", "cup", "result", "open", other["id"], str(match), "--winner",
                   other["home"], "--club", CLUB).output
    assert f"{other['id']}: played, {other['home']}" in done
    listed = json.loads(cli.run("league", "cup", "list", "--club", CLUB, "--json").stdout)
    assert listed == cli.service.leagues.cups(CLUB)
    assert "slug,name,season" in cli.run("league", "cup", "list", "--club", CLUB,
                                         "--csv").output


def test_a_team_cup_tie_made_a_fixture_from_the_command_line(cli: Cli) -> None:
    set_up(cli.service, CLUB)
    cli.run("league", "cup", "new", "ko", "crown", "anchor", "bell", "swan", "--club", CLUB,
            "--name", "KO", "--season", "2027")
    cli.run("league", "cup", "draw", "ko", "--club", CLUB, "--seeded", "4")  # crown v swan
    early = cli.run("league", "cup", "play", "ko", "W1-1", "--home", "Ana", "--away", "Juan",
                    "--club", CLUB, code=1)
    assert "make its fixture first" in early.output
    made = json.loads(cli.run("league", "cup", "fixture", "ko", "W1-1", "--on", "2027-03-04",
                              "--club", CLUB, "--json").stdout)
    assert (made["home"], made["away"], made["date"]) == ("crown", "swan", "2027-03-04")
    text = cli.run("league", "cup", "fixture", "ko", "W1-2", "--on", "2027-03-04",
                   "--club", CLUB).output
    assert "W1-2: fixture" in text and "anchor v bell on 2027-03-04" in text
    again = cli.run("league", "cup", "fixture", "ko", "W1-1", "--on", "2027-03-11",
                    "--club", CLUB, code=1)
    assert "fixture already" in again.output
    for leg, (home, away) in enumerate([("Ana", "Juan"), ("Beto", "Kike")], start=1):
        game = json.loads(cli.run("league", "leg", "2027", str(made["fixture"]), str(leg),
                                  "--home", home, "--away", away, "--club", CLUB,
                                  "--json").stdout)
        win_game(cli.service, game["match"], 0)
    shown = cli.run("league", "cup", "show", "ko", "--club", CLUB).output
    assert f"W1-1  crown 2-0 swan  ready, fixture {made['fixture']}" in shown  # a leg to go
    cli.service.leagues.concede(CLUB, "2027", made["fixture"], 3, "away", reason="no pair")
    shown = cli.run("league", "cup", "show", "ko", "--club", CLUB).output
    assert f"W1-1  crown 3-0 swan  played, fixture {made['fixture']}" in shown
    assert json.loads(cli.run("league", "cup", "show", "ko", "--club", CLUB, "--json").stdout
                      ) == cli.service.leagues.cup(CLUB, "ko")
