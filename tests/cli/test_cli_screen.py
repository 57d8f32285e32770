"""One match screen: ``domino match show`` (and ``domino show MATCH``, and the table prompt's
``s``) draw ``svc.reading.screen``, the view the API's GET /api/v1/matches/{id} answers: whose
turn by seat and name and what that seat may do, counts, boneyard, round, totals by side name,
open disputes, the winner by name. ``--json`` prints ``screen.as_dict()``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from cli_helpers import CLUB, OPEN_HANDS, Cli, legal_match

from referee.core.log import make_log, write_log
from referee.service.reading import Reading

PAREJAS_HANDS = [["6-6", "6-5", "5-5", "4-4", "3-3", "2-2", "1-1"],
                 ["6-4", "6-3", "5-4", "5-3", "4-3", "2-1", "1-0"],
                 ["6-2", "6-1", "6-0", "5-2", "5-1", "5-0", "4-2"],
                 ["4-1", "4-0", "3-2", "3-1", "3-0", "2-0", "0-0"]]
PLAYERS = ("Ana", "Beto", "Carla", "Dani")


@pytest.fixture
def screens(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every match the CLI asks the service's screen for."""
    asked: list[Any] = []
    original = Reading.screen

    def screen(self: Reading, match_id: Any, **kwargs: Any) -> Any:
        asked.append(match_id)
        return original(self, match_id, **kwargs)

    monkeypatch.setattr(Reading, "screen", screen)
    return asked


def disputed_parejas(cli: Cli) -> int:
    """Parejas, dealt open, Ana leads 6-6, Beto passes holding 6-4 and 6-3 (stored as disputed,
    and applied as the table played it: Carla's turn)."""
    match_id = cli.new_match("parejas", PLAYERS)
    record = cli.service.recording.record_event
    record(match_id, {"type": "deal", "hands": PAREJAS_HANDS}, expected_seq=None)
    record(match_id, {"type": "play", "seat": 0, "tile": "6-6"}, expected_seq=None)
    record(match_id, {"type": "pass", "seat": 1, "disputed": True}, expected_seq=None)
    return match_id


def test_match_show_draws_the_services_screen(cli: Cli, screens: list[Any]) -> None:
    match_id = disputed_parejas(cli)
    out = cli.run("match", "show", match_id).output
    assert screens == [str(match_id)]
    assert "After event 3 · round 1 (in progress)" in out
    assert "That event was refused: Beto passed holding" in out
    assert "Carla ◀ to play" in out
    assert "To play: Carla (seat 2) · 7 tiles · legal: 6-0 on 6, 6-1 on 6, 6-2 on 6" in out
    assert "Boneyard: 0" in out
    assert "Scores: Ana & Carla 0, Beto & Dani 0" in out
    assert "1 open dispute:" in out and "event 3: renege — Beto passed holding" in out
    assert "Match over" not in out


def test_match_show_json_is_the_screen_as_dict(cli: Cli) -> None:
    match_id = disputed_parejas(cli)
    shown = json.loads(cli.run("match", "show", match_id, "--json").stdout)
    expected = json.loads(json.dumps(cli.service.reading.screen(match_id).as_dict()))
    assert shown == expected
    assert shown["turn_name"] == "Carla" and shown["sides"] == ["Ana & Carla", "Beto & Dani"]
    assert [d["code"] for d in shown["disputes"]] == ["renege"]
    earlier = json.loads(cli.run("match", "show", match_id, "--json", "--at", 2).stdout)
    assert (earlier["seq"], earlier["turn"], earlier["disputes"]) == (2, 1, [])
    assert earlier["id"] == match_id and earlier["sides"] == shown["sides"]


def test_show_at_an_earlier_event_lists_only_the_disputes_up_to_it(cli: Cli) -> None:
    match_id = disputed_parejas(cli)
    cli.service.recording.record_event(match_id, {"type": "play", "seat": 2, "tile": "6-2"},
                                       expected_seq=None)
    for command in (["match", "show"], ["show"]):
        out = cli.run(*command, match_id, "--at", 2).output
        assert "After event 2" in out and "dispute" not in out and "refused" not in out
        out = cli.run(*command, match_id, "--at", 3).output
        assert "That event was refused: Beto passed" in out and "1 open dispute:" in out
        out = cli.run(*command, match_id).output
        assert "After event 4" in out and "refused" not in out and "1 open dispute:" in out


def test_a_finished_match_names_its_winning_side(cli: Cli) -> None:
    header, events = legal_match("parejas", PLAYERS, seed=3)
    match_id = cli.service.recording.import_log(CLUB, write_log(make_log(header, events)))["id"]
    screen = cli.service.reading.screen(match_id)
    out = cli.run("match", "show", match_id).output
    assert f"Match over: {screen.winner_name} won." in out
    assert screen.winner_name in ("Ana & Carla", "Beto & Dani")
    assert "To play" not in out
    totals = ", ".join(f"{side} {total}" for side, total in zip(screen.sides, screen.position.totals))
    assert f"Scores: {totals}" in out


def test_the_table_prompt_shows_the_screen(cli: Cli, screens: list[Any]) -> None:
    match_id = cli.new_match()
    deal = "deal " + " / ".join(" ".join(hand) for hand in OPEN_HANDS)
    out = cli.run("table", match_id, input=f"{deal}\n66\np\n!\ns\nq\n").output
    assert screens == [match_id, match_id]  # on opening, and for `s`
    shown = out[out.rindex("After event"):]
    assert shown.startswith("After event 3 · round 1 (in progress)")
    assert "That event was refused: Beto passed holding" in shown
    assert "1 open dispute:" in shown and "Scores: Ana 0, Beto 0" in shown


def test_show_of_a_log_file_names_sides_and_winner(cli: Cli, tmp_path: Any) -> None:
    header, events = legal_match("parejas", PLAYERS, seed=3)
    path = tmp_path / "m.jsonl"
    path.write_text(write_log(make_log(header, events)))
    match_id = cli.service.recording.import_log(CLUB, path.read_text())["id"]
    winner = cli.service.reading.screen(match_id).winner_name
    out = cli.run("show", path).output
    assert f"Match over: {winner} won." in out and "Scores: Ana & Carla" in out
