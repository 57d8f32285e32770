"""Recording commands (deal, play, draw, pass, reveal, note) and rulings (penalty, void, annul,
forfeit), through click's runner, each test on its own SQLite file."""

from __future__ import annotations

from typing import Any

from cli_helpers import OPEN_HANDS, Cli, legal_match

from referee import build_report, replay, resolve_rules


def command_for(match_id: int, event: dict[str, Any], lead: bool = False) -> list[Any]:
    """The command a scorekeeper would type for a log event, naming no seat (the CLI takes the
    seat on turn) except for a reveal and a ``lead`` (closed hands: several seats may open)."""
    kind = event["type"]
    if kind == "deal":
        hands = event.get("hands") or []
        args: list[Any] = ["deal", match_id]
        if any(hand is not None for hand in hands):
            for hand in hands:
                args += ["--hand", " ".join(hand) if hand is not None else "-"]
        return args
    if kind == "play":
        return (["play", match_id, event["tile"]] + (["--end", event["end"]] if "end" in event else [])
                + (["--seat", event["seat"]] if lead else []))
    if kind == "draw":
        return ["draw", match_id] + ([event["tile"]] if "tile" in event else [])
    if kind == "pass":
        return ["pass", match_id]
    if kind == "reveal":
        shown = event["tiles"] if "tiles" in event else ["--pips", event["pips"]]
        return ["reveal", match_id, "--seat", event["seat"], *shown]
    assert kind == "note", event
    return ["note", match_id, event["text"]]


def commands_for(match_id: int, events: list[dict[str, Any]]) -> list[list[Any]]:
    leads = {i + 1 for i, e in enumerate(events) if e["type"] == "deal"}
    return [command_for(match_id, e, lead=i in leads) for i, e in enumerate(events)]


def first_round(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    deals = [i for i, e in enumerate(events) if e["type"] == "deal"]
    return events[:deals[1]] if len(deals) > 1 else events


def expected_report(header: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    rules = resolve_rules(header["rules"], len(header["players"]))
    return build_report(replay(rules, header["players"], events))


def test_an_open_round_recorded_command_by_command(cli: Cli) -> None:
    header, events = legal_match("mano-a-mano", seed=3)
    events = first_round(events)
    match_id = cli.new_match()
    outputs = [cli.run(*command_for(match_id, e)).output for e in events]
    assert outputs[0].startswith("event 1: dealt a new round (open)")
    assert all(f"event {seq}:" in out for seq, out in enumerate(outputs, start=1))
    expected = expected_report(header, events)
    assert cli.service.reading.report(match_id)["rounds"] == expected["rounds"]
    result = expected["rounds"][0]
    assert f"Round 1: {result['outcome']}" in outputs[-1]
    assert f"{result['points']} points to" in outputs[-1] and "Totals: Ana " in outputs[-1]
    assert all("Round 1:" not in out for out in outputs[:-1])


def test_a_closed_round_waits_for_reveals_then_scores(cli: Cli) -> None:
    header, events = legal_match("mano-a-mano", seed=5, hidden=[0, 1])
    events = first_round(events)
    match_id = cli.new_match()
    outputs = [cli.run(*args).output for args in commands_for(match_id, events)]
    assert "dealt a new round (closed)" in outputs[0]
    reveals = [i for i, e in enumerate(events) if e["type"] == "reveal"]
    assert reveals, "the round ended with tiles in a hand"
    assert "waiting for reveals from" in outputs[reveals[0] - 1]
    assert "points to" in outputs[reveals[-1]] or "nobody scores" in outputs[reveals[-1]]
    assert cli.service.reading.report(match_id)["rounds"] == expected_report(header, events)["rounds"]


def test_the_seat_on_turn_is_the_default_and_a_choice_needs_seat(cli: Cli) -> None:
    match_id = cli.new_match({"preset": "mano-a-mano", "first_opener": "free"})
    result = cli.run("play", match_id, "6-6", code=2)
    assert "no round has been dealt yet" in result.output and "--seat" not in result.output
    cli.run("deal", match_id, "--hand", " ".join(OPEN_HANDS[0]), "--hand", " ".join(OPEN_HANDS[1]))
    result = cli.run("play", match_id, "6-4", code=2)
    assert "several seats may open this round: 0 (Ana), 1 (Beto): say which seat acts with --seat" \
        in result.output
    assert "Beto played 6-4" in cli.run("play", match_id, "64", "--seat", 1).output
    assert "Ana played 4-4" in cli.run("play", match_id, "4-4").output  # Ana's turn now


def test_an_illegal_event_is_refused_unless_disputed(cli: Cli) -> None:
    match_id = cli.new_match()
    cli.run("deal", match_id, "--hand", " ".join(OPEN_HANDS[0]), "--hand", " ".join(OPEN_HANDS[1]))
    cli.run("play", match_id, "6-6")
    result = cli.run("pass", match_id, code=1)
    assert "refused (renege): Beto passed holding" in result.output
    assert "add --disputed" in result.output
    assert len(cli.events(match_id)) == 2  # nothing stored
    result = cli.run("pass", match_id, "--disputed")
    assert "event 3: Beto passed — recorded as disputed (renege:" in result.output
    assert cli.events(match_id)[-1] == {"type": "pass", "seat": 1, "disputed": True}
    # the disputed pass is applied as the table played it: Ana's turn
    result = cli.run("play", match_id, "6-5", "--end", "9", code=1)
    assert "refused (tile does not fit)" in result.output
    assert "on the 6 end" in cli.run("play", match_id, "6-5", "--end", "6").output
    assert "refused (no round in play)" not in result.output


def test_draws_reveals_and_notes(cli: Cli) -> None:
    match_id = cli.new_match()
    cli.run("deal", match_id, "--hand", "6-6 6-5 5-5 4-4 3-3 2-2 1-1", "--hand", "-")
    cli.run("play", match_id, "6-6", "--seat", 0)  # Beto's hand is closed: he might open too
    assert "Beto drew a tile (unseen)" in cli.run("draw", match_id).output
    assert "Beto drew 0-0" in cli.run("draw", match_id, "00").output
    cli.run("note", match_id, "Beto", "is", "slow")
    assert cli.events(match_id)[-1] == {"type": "note", "text": "Beto is slow"}
    cli.run("reveal", match_id, "--seat", 1, code=2)  # neither tiles nor pips
    cli.run("reveal", match_id, "--seat", 1, "6-5", "--pips", 3, code=2)  # both
    result = cli.run("reveal", match_id, "--seat", 1, "6-6", code=1)  # on the line, and 1 of 9
    assert "refused (reveal does not match)" in result.output


def test_rulings(cli: Cli) -> None:
    match_id = cli.new_match()
    cli.run("deal", match_id, "--hand", " ".join(OPEN_HANDS[0]), "--hand", " ".join(OPEN_HANDS[1]))
    cli.run("play", match_id, "6-6")
    result = cli.run("annul", match_id, "--reason", "misdeal")
    assert "annulled the round (misdeal)" in result.output
    assert "Round 1: annulled; no score, deal again" in result.output
    result = cli.run("penalty", match_id, "--side", 1, "--points", -5, "--reason", "slow play")
    assert "penalty: -5 points to Beto (slow play)" in result.output
    assert "Totals: Ana 0, Beto -5" in result.output
    result = cli.run("void", match_id, 4, "--reason", "wrong table")
    assert "voided event 4 (wrong table)" in result.output and "Totals: Ana 0, Beto 0" in result.output
    assert "refused (unusable event)" in cli.run("void", match_id, 99, "--reason", "x", code=1).output
    result = cli.run("penalty", match_id, "--side", 0, "--points", 50, "--reason", "award")
    assert "Match over: Ana won." in result.output
    assert "refused (match over)" in cli.run("forfeit", match_id, "--side", 0, "--reason", "x",
                                             code=1).output
    other = cli.new_match()
    result = cli.run("forfeit", other, "--side", 0, "--reason", "left the table")
    assert "forfeit by Ana (left the table)" in result.output and "Match over: Beto won." in result.output
    cli.run("penalty", other, "--side", 0, "--points", 1, code=2)  # --reason is required


def test_user_mistakes_are_one_line_errors(cli: Cli) -> None:
    for args in (["play", 99, "6-6"], ["deal", 99], ["note", 99, "x"], ["void", 99, 1, "--reason", "x"]):
        result = cli.run(*args, code=1)
        assert "Error: no match '99'" in result.output
    assert "'6x' is not a tile" in cli.run("play", 1, "6x", code=2).output
    assert "not an end" in cli.run("play", 1, "6-6", "--end", "middle", code=2).output
    assert "not a tile" in cli.run("deal", 1, "--hand", "6-6 zz", code=2).output
    assert "no match 'abc'" in cli.run("pass", "abc", code=1).output
