"""``domino league`` through click's runner: a season set up, its fixtures generated, a fixture
played, confirmed for both teams and signed, the table and averages printed, each listing's
--json what the service answers; bad input a clear error that changes nothing."""

from __future__ import annotations

import json

from cli_helpers import CLUB, Cli
from league_helpers import win_game


def test_a_season_from_the_command_line(cli: Cli) -> None:
    cli.service.keys.init(CLUB)
    made = cli.run("league", "new", "2027", "--club", CLUB, "--name", "Liga 2027", "--singles",
                   "1", "--pairs", "1", "--first-day", "2027-01-07", "--promotion", "1")
    assert "created season 2027: Liga 2027" in made.output
    cli.run("league", "division", "2027", "one", "--club", CLUB, "--name", "One")
    for team, players in (("crown", ["Ana", "Beto"]), ("bell", ["Carla", "Dani"]),
                          ("swan", ["Eva", "Fede", "Gabi"])):
        cli.run("league", "team", "2027", "one", team, "--club", CLUB, "--name", team.title())
        cli.run("league", "squad", "2027", team, *players, "--club", CLUB)
    # A team added in the wrong division and a division too many, put right.
    cli.run("league", "division", "2027", "two", "--club", CLUB, "--name", "Two")
    cli.run("league", "team", "2027", "two", "oak", "--club", CLUB, "--name", "Oak")
    edited = cli.run("league", "team-edit", "2027", "oak", "--club", CLUB, "--name", "Oak Inn",
                     "--venue", "Quay", "--division", "one")
    assert "team oak: Oak Inn, division one" in edited.output
    assert "removed team oak" in cli.run("league", "team-remove", "2027", "oak", "--club",
                                         CLUB).output
    cli.run("league", "division-edit", "2027", "one", "--club", CLUB, "--name", "First")
    assert "removed division two" in cli.run("league", "division-remove", "2027", "two",
                                             "--club", CLUB).output
    kept = cli.service.leagues.season(CLUB, "2027")["divisions"]
    assert [(d["slug"], d["name"], [t["slug"] for t in d["teams"]]) for d in kept] == [
        ("one", "First", ["crown", "bell", "swan"])]
    refused = cli.run("league", "squad", "2027", "bell", "Ana", "--club", CLUB, code=1)
    assert "Ana is in the squad of Crown already" in refused.output
    moved = cli.run("league", "transfer", "2027", "Gabi", "bell", "--club", CLUB, "--reason",
                    "moved house", "--on", "2027-01-02")
    assert "Gabi moved from swan to bell on 2027-01-02" in moved.output
    assert "generated 6 fixtures" in cli.run("league", "generate", "2027", "--club",
                                             CLUB).output

    listed = json.loads(cli.run("league", "fixtures", "2027", "--club", CLUB, "--team",
                                "crown", "--json").stdout)
    assert listed == cli.service.leagues.fixtures(CLUB, "2027", team="crown")
    first = listed[0]
    crown_home = first["home"] == "crown"
    home, away = (["Ana"], ["Carla"]) if crown_home else (["Carla"], ["Ana"])
    sides = {"crown": ["Ana", "Beto"], "bell": ["Carla", "Dani"], "swan": ["Eva", "Fede"]}
    wrong = cli.run("league", "leg", "2027", str(first["id"]), "1", "--home", "Eva",
                    "--away", "Ana", "--club", CLUB, code=1)
    assert "not in the home team's squad" in wrong.output
    home, away = sides[first["home"]], sides[first["away"]]
    for leg, (h, a) in enumerate(((home[:1], away[:1]), (home, away)), start=1):
        game = json.loads(cli.run("league", "leg", "2027", str(first["id"]), str(leg),
                                  *[x for p in h for x in ("--home", p)],
                                  *[x for p in a for x in ("--away", p)],
                                  "--club", CLUB, "--json").stdout)
        win_game(cli.service, game["match"], 0)
    shown = cli.run("league", "fixture", "2027", str(first["id"]), "--club", CLUB).output
    assert "2-0  complete" in shown
    cli.run("league", "confirm", "2027", str(first["id"]), "--side", "home", "--club", CLUB)
    signed = cli.run("league", "confirm", "2027", str(first["id"]), "--side", "away", "--club",
                     CLUB)
    assert "result sheet 1 signed" in signed.output
    sheet = json.loads(cli.run("league", "sheet", "2027", str(first["id"]), "--club",
                               CLUB).stdout)
    assert sheet["legs_won"] == {"home": 2, "away": 0}

    table = json.loads(cli.run("league", "table", "2027", "one", "--club", CLUB, "--json").stdout)
    assert table == cli.service.leagues.table(CLUB, "2027", "one")
    assert table["rows"][0]["team"] == first["home"] and table["rows"][0]["zone"] == "promotion"
    assert first["home"].title() in cli.run("league", "table", "2027", "one", "--club",
                                            CLUB).output
    averages = json.loads(cli.run("league", "averages", "2027", "--club", CLUB,
                                  "--json").stdout)
    assert averages == cli.service.leagues.averages(CLUB, "2027")
    for listing in (("list",), ("show", "2027"), ("team-page", "2027", "crown"),
                    ("fixture", "2027", str(first["id"]))):
        assert json.loads(cli.run("league", *listing, "--club", CLUB, "--json").stdout)
    assert crown_home in (True, False)
