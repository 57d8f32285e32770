"""``domino player add|list|show|rename|merge``: names matched by key, "did you mean ...?" with
--new, renames and merges with their history, --json."""

from __future__ import annotations

import json

from cli_helpers import CLUB, Cli


def test_add_normalises_and_refuses_the_same_person(cli: Cli) -> None:
    out = cli.run("player", "add", "  Ana   María ", "--club", CLUB).output
    assert "added Ana María to casino (id 1)" in out
    for same in ("ana maría", "ANA MARÍA", "Ana Mari\u0301a"):
        result = cli.run("player", "add", same, "--club", CLUB, code=1)
        assert "exists already" in result.output
    result = cli.run("player", "add", "\u202eanA", "--club", CLUB, code=1)
    assert "bidi" in result.output
    rows = json.loads(cli.run("player", "list", "--club", CLUB, "--json").stdout)
    assert [r["name"] for r in rows] == ["Ana María"]


def test_add_asks_did_you_mean_until_new(cli: Cli) -> None:
    cli.run("player", "add", "Ana Pérez", "--club", CLUB)
    result = cli.run("player", "add", "Ana Perez", "--club", CLUB, code=1)
    assert "did you mean Ana Pérez?" in result.output and "--new" in result.output
    added = json.loads(cli.run("player", "add", "Ana Perez", "--club", CLUB, "--new", "--json").stdout)
    assert added["name"] == "Ana Perez" and added["id"] == 2
    # match new: a close new name is refused there too; a player added with --new is known
    result = cli.run("match", "new", "--club", CLUB, "--rules", "mano-a-mano",
                     "--player", "Ana Peres", "--player", "Beto", code=1)
    assert "did you mean" in result.output
    match_id = cli.new_match("mano-a-mano", ("ana perez", "Beto"))
    assert cli.service.reading.get_match(match_id)["players"] == ["ana perez", "Beto"]
    assert cli.service.reading.list_matches(CLUB, player="ANA PEREZ")[1] == 1


def test_show_rename_and_merge(cli: Cli) -> None:
    first = cli.new_match("mano-a-mano", ("Ana Pérez", "Beto"))
    second = cli.new_match("mano-a-mano", ("Anita", "Carla"))
    out = cli.run("player", "show", "ana pérez", "--club", CLUB).output
    assert "Ana Pérez (id 1)" in out and "1 match" in out and "no renames or merges" in out

    out = cli.run("player", "rename", "Anita", "Anita P", "--club", CLUB, "--reason", "surname").output
    assert "renamed Anita (id 3) to Anita P" in out
    out = cli.run("player", "rename", "3", "Anita P", "--club", CLUB, "--reason", "again").output
    assert "nothing changed" in out
    result = cli.run("player", "rename", "3", "beto", "--club", CLUB, "--reason", "clash", code=1)
    assert "exists already" in result.output and "merge" in result.output
    cli.run("player", "rename", "3", "Anita Q", "--club", CLUB, code=2)  # --reason is required

    out = cli.run("player", "merge", "anita p", "Ana Pérez", "--club", CLUB,
                  "--reason", "one person").output
    assert "merged Anita P (id 3) into Ana Pérez (id 1): 1 match moved" in out
    shown = json.loads(cli.run("player", "show", "1", "--club", CLUB, "--json").stdout)
    assert shown["matches"] == 2 and shown["aliases"] == [{"id": 3, "name": "Anita P"}]
    assert [e["kind"] for e in shown["history"]] == ["rename", "merge"]
    assert shown["history"][1]["moved"] == [second]
    assert shown["history"][1]["recorded_by"] == "operator"
    out = cli.run("player", "show", "Anita P", "--club", CLUB).output  # the alias finds Ana
    assert "Ana Pérez (id 1)" in out and "also known as: Anita P (id 3)" in out
    assert "renamed Anita to Anita P by operator: surname" in out
    assert "merged Anita P (id 3) into Ana Pérez (id 1), 1 match moved by operator: one person" in out
    out = cli.run("player", "show", "3", "--club", CLUB).output  # the merged row, by id
    assert "merged into player 1" in out
    listed = json.loads(cli.run("match", "list", "--club", CLUB, "--player", "anita p", "--json").stdout)
    assert {m["id"] for m in listed} == {first, second}
    assert sorted(m["players"] for m in listed) == [["Ana Pérez", "Beto"], ["Anita", "Carla"]]
    names = [r["name"] for r in json.loads(cli.run("player", "list", "--club", CLUB, "--json").stdout)]
    assert names == ["Ana Pérez", "Beto", "Carla"]

    result = cli.run("player", "merge", "1", "Beto", "--club", CLUB, "--reason", "x", code=1)
    assert "sat in one match" in result.output
    result = cli.run("player", "merge", "3", "Carla", "--club", CLUB, "--reason", "x", code=1)
    assert "was merged into" in result.output
    result = cli.run("player", "show", "Nadie", "--club", CLUB, code=1)
    assert "no player 'Nadie'" in result.output
    result = cli.run("player", "show", "42", "--club", CLUB, code=1)
    assert "no player 42" in result.output
