"""``domino league cup concede`` and ``walkover`` through click's runner: a tie conceded and
another given as a walkover, each --json what the service answers, the bracket shown moved on;
a tie decided already, not known yet, or one with a match already refused a walkover, each a
clear error that changes nothing."""

from __future__ import annotations

import json

from cli_helpers import CLUB, Cli
from league_helpers import win_game

NAMES = ["Ana", "Beto", "Carla", "Dani"]


def test_ties_conceded_and_given_from_the_command_line(cli: Cli) -> None:
    cli.run("league", "cup", "new", "open", *NAMES, "--club", CLUB, "--name", "Open",
            "--kind", "players", "--best-of", "3")
    cli.run("league", "cup", "draw", "open", "--club", CLUB, "--seeded", "4")  # 1-4, 2-3
    said = cli.run("league", "cup", "concede", "open", "W1-1", "--by", "away", "--reason",
                   "injured", "--club", CLUB).output
    assert "W1-1: Ana goes through (Dani: injured)" in said
    waiting = cli.run("league", "cup", "walkover", "open", "W2-1", "--by", "home",
                      "--reason", "x", "--club", CLUB, code=1)
    assert "who plays it is not decided" in waiting.output
    game = cli.service.leagues.play_tie(CLUB, "open", "W1-2")["match"]
    win_game(cli.service, game, 1)
    before = cli.service.leagues.cup(CLUB, "open")
    played = cli.run("league", "cup", "walkover", "open", "W1-2", "--by", "home", "--reason",
                     "late", "--club", CLUB, code=1)
    assert "no walkover" in played.output
    bad = cli.run("league", "cup", "concede", "open", "W1-2", "--by", "nobody", "--reason",
                  "x", "--club", CLUB, code=2)
    assert "--by" in bad.output
    assert cli.service.leagues.cup(CLUB, "open") == before
    done = json.loads(cli.run("league", "cup", "concede", "open", "W1-2", "--by", "home",
                              "--reason", "ill", "--club", CLUB, "--json").stdout)
    assert done == {"cup": "open", "tie": "W1-2", "kind": "conceded", "by": "home",
                    "entrant": "Beto", "winner": "Carla", "reason": "ill"}
    decided = cli.run("league", "cup", "concede", "open", "W1-2", "--by", "away", "--reason",
                      "x", "--club", CLUB, code=1)
    assert "decided already" in decided.output
    shown = cli.run("league", "cup", "show", "open", "--club", CLUB).output
    assert "W1-1  Ana 0-0 Dani  played, conceded by Dani" in shown
    assert "W2-1  Ana 0-0 Carla  ready" in shown
    given = json.loads(cli.run("league", "cup", "walkover", "open", "W2-1", "--by", "home",
                               "--reason", "no show", "--club", CLUB, "--json").stdout)
    assert given["kind"] == "walkover" and given["winner"] == "Carla"
    assert "champion: Carla" in cli.run("league", "cup", "show", "open", "--club", CLUB).output
