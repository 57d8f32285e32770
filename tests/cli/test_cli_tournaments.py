"""``domino tournament`` through click's runner: a tournament made, entered, paired, played and
ranked from the command line prints what the service answers; bad input is a clear error."""

from __future__ import annotations

import csv
import io
import json

from cli_helpers import CLUB, Cli
from tournament_helpers import RULES, play_round

from referee.service import OPERATOR


def test_a_pairs_tournament_from_the_command_line(cli: Cli) -> None:
    made = cli.run("tournament", "new", "copa", "--club", CLUB, "--name", "Copa", "--format",
                   "pairs", "--rules", json.dumps(RULES), "--rounds", "2", "--bye-points", "20",
                   "--pair", "Ana,Beto", "--pair", "Carla,Dani", "--pair", "Eva,Fede")
    assert "created tournament copa: Copa, pairs, 2 rounds, 3 entrants" in made.output
    entered = cli.run("tournament", "enter", "copa", "Gabi", "Hugo", "--club", CLUB)
    assert "entrant 4: Gabi & Hugo, from round 1" in entered.output
    gone = cli.run("tournament", "withdraw", "copa", "eva", "--club", CLUB)
    assert "Eva & Fede withdrawn from round 1" in gone.output

    paired = json.loads(cli.run("tournament", "pair", "copa", "--club", CLUB, "--json").stdout)
    assert paired == cli.service.tournaments.round(CLUB, "copa", 1)
    assert len(paired["tables"]) == 1 and [b["name"] for b in paired["byes"]] == ["Gabi & Hugo"]
    shown = cli.run("tournament", "show", "copa", "--club", CLUB).output
    assert "Table 1: Ana & Beto v Carla & Dani" in shown  # the engine's explanation
    assert f"table 1: match {paired['tables'][0]['match']}" in shown
    assert "withdrawn from round 1" in shown
    refused = cli.run("tournament", "pair", "copa", "--club", CLUB, code=1)
    assert "round 1 is not finished" in refused.output

    play_round(cli.service, CLUB, "copa", 1, seed=5)
    rows = json.loads(cli.run("tournament", "standings", "copa", "--club", CLUB, "--json").stdout)
    assert rows == cli.service.tournaments.standings(CLUB, "copa")
    gabi = next(r for r in rows if r["partners"] == ["Gabi", "Hugo"])
    assert (gabi["byes"], gabi["won"], gabi["points_for"]) == (1, 1, 20)
    text = cli.run("tournament", "standings", "copa", "--club", CLUB, "--csv").stdout_bytes.decode()
    assert text == cli.service.tournaments.standings_csv(CLUB, "copa")
    assert next(csv.reader(io.StringIO(text)))[:4] == ["rank", "entrant", "partner_1", "partner_2"]
    table = cli.run("tournament", "standings", "copa", "--club", CLUB).output
    assert "copa: standings" in table and "Eva & Fede (withdrawn from round 1)" in table

    second = cli.run("tournament", "pair", "copa", "--club", CLUB).output
    assert "round 2: Paired" in second
    again = json.loads(cli.run("tournament", "pair", "copa", "--club", CLUB, "--repair", "2",
                               "--json").stdout)
    assert again["version"] == 2
    tables = cli.service.tournaments.round_tables(CLUB, "copa", 2, who=OPERATOR)
    assert [t["match"] for t in tables] == [t["match"] for t in again["tables"]]
    listed = json.loads(cli.run("tournament", "list", "--club", CLUB, "--json").stdout)
    assert [t["slug"] for t in listed] == ["copa"] and listed[0]["rounds_paired"] == 2
    lines = list(csv.DictReader(io.StringIO(cli.run("tournament", "list", "--club", CLUB,
                                                    "--csv").stdout)))
    assert [(r["slug"], r["status"], r["rounds_paired"]) for r in lines] == [("copa", "playing", "2")]
    assert "round 2" in cli.run("tournament", "round", "copa", "2", "--club", CLUB).output


def test_bad_input_is_a_clear_error(cli: Cli) -> None:
    base = ["tournament", "new", "t", "--club", CLUB, "--name", "T", "--rounds", "2"]
    assert "'--format'" in cli.run(*base, "--format", "swiss", "--rules", "parejas", code=2).output
    out = cli.run(*base, "--format", "rotating", "--rules", "veracruz", code=1).output
    assert "two partnerships" in out
    out = cli.run(*base, "--format", "pairs", "--rules", "parejas", "--pair", "Ana", code=2).output
    assert "a partnership is two names" in out
    out = cli.run(*base, "--format", "pairs", "--rules", "parejas", "--pair", "Ana,Beto",
                  "--player", "Carla", code=2).output
    assert "not both" in out
    assert "no tournament 'nope'" in cli.run("tournament", "show", "nope", "--club", CLUB,
                                             code=1).output
    cli.run(*base, "--format", "rotating", "--rules", "parejas", "--player", "Ana")
    out = cli.run("tournament", "pair", "t", "--club", CLUB, code=1).output
    assert "at least 4 players" in out
    assert "give --json or --csv" in cli.run("tournament", "standings", "t", "--club", CLUB,
                                             "--json", "--csv", code=2).output


def test_player_merge_refuses_two_entrants_of_one_tournament(cli: Cli) -> None:
    cli.run("tournament", "new", "copa", "--club", CLUB, "--name", "Copa", "--format", "pairs",
            "--rules", json.dumps(RULES), "--rounds", "2", "--pair", "Ana,Beto",
            "--pair", "Carla,Dani")
    refused = cli.run("player", "merge", "Ana", "Carla", "--club", CLUB, "--reason", "one?",
                      code=1)
    assert "both entered in Copa: they are two people" in refused.output
    assert cli.service.tournaments.show(CLUB, "copa")["entrants"][0]["players"] == ["Ana", "Beto"]


def test_the_directors_constraints_from_the_command_line(cli: Cli) -> None:
    cli.run("tournament", "new", "noche", "--club", CLUB, "--name", "Noche", "--format",
            "rotating", "--rules", json.dumps(RULES), "--rounds", "2", *[
                arg for name in ("Ana", "Beto", "Carla", "Dani", "Eva", "Fede", "Gabi", "Hugo")
                for arg in ("--player", name)])
    fixed = cli.run("tournament", "fix", "noche", "Hugo", "2", "--club", CLUB, "--note", "ramp")
    assert "constraint 1 set: Hugo always at table 2: ramp" in fixed.output
    apart = cli.run("tournament", "forbid", "noche", "Ana", "Beto", "--partners", "--club", CLUB)
    assert "Ana and Beto never partners" in apart.output
    cli.run("tournament", "pair", "noche", "--club", CLUB)
    bye = cli.run("tournament", "bye", "noche", "Carla", "1", "--club", CLUB)
    assert "Carla sits out round 1 (requested)" in bye.output
    assert f"domino tournament pair noche --club {CLUB} --repair 1" in bye.output
    listed = json.loads(cli.run("tournament", "constraints", "noche", "--club", CLUB,
                                "--json").stdout)
    assert listed == cli.service.tournaments.constraints(CLUB, "noche")
    rows = list(csv.DictReader(io.StringIO(cli.run("tournament", "constraints", "noche",
                                                   "--club", CLUB, "--csv").stdout)))
    assert [r["kind"] for r in rows] == ["fixed_table", "forbidden", "bye"]
    again = json.loads(cli.run("tournament", "pair", "noche", "--club", CLUB, "--repair", "1",
                               "--json").stdout)
    assert "Carla" in [b["name"] for b in again["byes"]]
    assert "Hugo always at table 2" in cli.run("tournament", "show", "noche", "--club", CLUB).output
    lifted = cli.run("tournament", "lift", "noche", "3", "--club", CLUB)
    assert "constraint 3 lifted" in lifted.output
    refused = cli.run("tournament", "fix", "noche", "Ana", "2", "--club", CLUB, code=1)
    assert "table 2 is fixed for Hugo already" in refused.output
    late = cli.run("tournament", "enter", "noche", "Ines", "--club", CLUB)
    assert "they have a bye in it until it is re-paired" in late.output


def test_the_tournament_commands_speak_the_language(cli: Cli) -> None:
    made = cli.run("--lang", "es", "tournament", "new", "copa", "--club", CLUB, "--name", "Copa",
                   "--format", "pairs", "--rules", json.dumps(RULES), "--rounds", "2",
                   "--pair", "Ana,Beto", "--pair", "Carla,Dani", "--pair", "Eva,Fede").output
    assert "torneo copa creado: Copa, pairs, 2 rondas, 3 inscritos" in made  # codes stay
    fixed = cli.run("--lang", "it", "tournament", "fix", "copa", "Ana", "2", "--club", CLUB)
    assert "vincolo 1 fissato: Ana & Beto sempre al tavolo 2" in fixed.output
    cli.run("tournament", "pair", "copa", "--club", CLUB)
    shown = cli.run("--lang", "es", "tournament", "show", "copa", "--club", CLUB).output
    assert "un descanso: ganada, 0 puntos" in shown and "inscritos:" in shown
    assert "las restricciones del director:" in shown and "ronda 1: Emparejada" in shown
    listed = cli.run("--lang", "it", "tournament", "list", "--club", CLUB).output
    assert "copa: Copa (pairs), turno 1 di 2, " in listed
