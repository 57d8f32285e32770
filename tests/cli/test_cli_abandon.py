"""``domino match abandon``: a match with no deal standing withdrawn (with the reason given, or
the default one), listed with ``--status abandoned`` and no more among those in play; refused,
nothing written, once a deal stands."""

from __future__ import annotations

from cli_helpers import CLUB, Cli


def test_match_abandon_withdraws_a_match_with_no_deal(cli: Cli) -> None:
    kept = cli.new_match("mano-a-mano", ("Carla", "Dani"))
    match_id = cli.new_match()
    result = cli.run("match", "abandon", match_id, "--reason", "the wrong player was seated")
    assert f"Match {match_id} abandoned (event 1)" in result.output
    assert cli.events(match_id) == [{"type": "abandon", "reason": "the wrong player was seated"}]
    listed = cli.run("match", "list", "--club", CLUB, "--status", "abandoned", "--json").output
    assert f'"id": {match_id}' in listed and f'"id": {kept}' not in listed
    live = cli.run("match", "list", "--club", CLUB, "--status", "in_progress", "--json").output
    assert f'"id": {kept}' in live and f'"id": {match_id}' not in live
    other = cli.new_match()
    cli.run("match", "abandon", other)  # no reason given: the default one is kept
    assert cli.events(other) == [{"type": "abandon", "reason": "started by mistake"}]


def test_match_abandon_is_refused_once_a_deal_stands(cli: Cli) -> None:
    match_id = cli.new_match()
    cli.run("deal", match_id)
    result = cli.run("match", "abandon", match_id, code=1)
    assert "refused (unusable event)" in result.output and "no deal stands" in result.output
    assert [e["type"] for e in cli.events(match_id)] == ["deal"]
    cli.run("match", "abandon", 999, code=1)  # no such match
