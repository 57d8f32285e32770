"""What the match screen gives a phone to tell the table in words (referee.service.screen): each
round's result with the winning side and the blocker by name, when the match started and when
time was called; and a tournament's rules carrying a time limit through to its matches, their
report and the standings."""

from __future__ import annotations

import random

import pytest

from referee.core.replay import replay
from referee.core.rules import resolve_rules
from referee.core.simulate import random_match
from referee.service import Caller, IllegalEvent, Invalid, Service

KEEPER = Caller("casino", "scorekeeper", 1, "table 1")


def record(service: Service, match_id: int, event: dict, who: Caller = KEEPER) -> int:
    last = service.reading.get_match(match_id)["last_seq"]
    return service.recording.record_event(match_id, event, expected_seq=last, who=who).seq


def test_a_fresh_match_has_no_rounds_no_start_and_no_time(service: Service, club: str) -> None:
    match_id = service.recording.create_match(club, "mano-a-mano", ["Ana", "Beto"])["id"]
    screen = service.reading.screen(match_id, who=KEEPER).as_dict()
    assert (screen["rounds"], screen["started_at"], screen["time_called"]) == ([], None, None)


def test_each_round_is_told_with_the_winner_by_name(service: Service, club: str) -> None:
    """A random match played out: every round the screen lists is the report's, with the
    winning side's and the blocker's names beside the seats."""
    rules = {"preset": "parejas", "target": 60}
    players = ["Ana", "Beto", "Carla", "Dani"]
    _, events = random_match(rules, players, random.Random(7))
    match_id = service.recording.create_match(club, rules, players)["id"]
    for event in events:
        record(service, match_id, event)
    screen = service.reading.screen(match_id).as_dict()
    report = service.reading.report(match_id)
    assert [{k: r[k] for k in report["rounds"][0]} for r in screen["rounds"]] == report["rounds"]
    sides = screen["sides"]
    assert sides == ["Ana & Carla", "Beto & Dani"]
    for entry in screen["rounds"]:
        assert entry["winner_name"] == (sides[entry["winner"]] if entry["winner"] is not None else None)
        blocker = entry["blocked_by"]
        assert entry["blocked_by_name"] == (players[blocker] if blocker is not None else None)
    assert {r["outcome"] for r in screen["rounds"]} <= {"domino", "blocked", "annulled"}
    assert screen["started_at"] is not None
    # The screen as it stood after the first event: one round, in play.
    first = service.reading.screen(match_id, at=1).as_dict()
    assert [r["outcome"] for r in first["rounds"]] == ["in_progress"]
    assert service.reading.screen(match_id, at=0).as_dict()["started_at"] is None


def test_a_scorekeeper_calls_time_on_rules_with_a_limit(service: Service, club: str) -> None:
    timed = service.recording.create_match(club, {"preset": "mano-a-mano", "time_limit": 20},
                                           ["Ana", "Beto"], who=KEEPER)["id"]
    record(service, timed, {"type": "deal"})
    seq = record(service, timed, {"type": "time"})
    screen = service.reading.screen(timed, who=KEEPER).as_dict()
    assert screen["rules"]["time_limit"] == 20
    assert screen["time_called"] == seq
    # Rules without a limit refuse it: nothing is written.
    plain = service.recording.create_match(club, "mano-a-mano", ["Ana", "Beto"], who=KEEPER)["id"]
    record(service, plain, {"type": "deal"})
    with pytest.raises(IllegalEvent):
        record(service, plain, {"type": "time"})
    assert service.reading.get_match(plain)["last_seq"] == 1


def test_a_tournaments_time_limit_reaches_its_matches_and_standings(service: Service,
                                                                   club: str) -> None:
    rules = {"preset": "parejas", "target": 500, "time_limit": 30}
    service.tournaments.create(club, "reloj", "Copa del reloj", rules=rules, format="pairs",
                               rounds=1, entrants=[["Ana", "Beto"], ["Carla", "Dani"]])
    (table,) = service.tournaments.pair(club, "reloj")["tables"]
    match = service.reading.get_match(table["match"])
    assert match["rules"]["time_limit"] == 30
    # Time is called early: the round in play is the last, and the match ends on it.
    _, events = random_match(rules, table["players"], random.Random(3), time_at=5)
    for seq, event in enumerate(events):
        service.recording.record_event(table["match"], event, expected_seq=seq, who=KEEPER)
    result = replay(resolve_rules(rules, 4), table["players"], events).match
    assert result.finished and result.timed is not None
    assert len(result.rounds) == 1 and max(result.totals) < 500  # ended by the clock
    report = service.reading.report(table["match"])
    assert report["totals"] == list(result.totals)
    rows = {" & ".join(r["partners"]): r for r in service.tournaments.standings(club, "reloj")}
    names = [s["name"] for s in table["sides"]]
    for side, name in enumerate(names):
        assert rows[name]["played"] == 1
        assert rows[name]["points_for"] == result.totals[side]
        assert rows[name]["won"] == int(result.winner == side)


def test_a_tournaments_time_limit_must_be_a_number_of_minutes(service: Service, club: str) -> None:
    with pytest.raises(Invalid):
        service.tournaments.create(club, "mal", "Mal", rules={"preset": "parejas", "time_limit": 0},
                                   format="pairs", rounds=1,
                                   entrants=[["Ana", "Beto"], ["Carla", "Dani"]])


def test_each_appends_screen_says_the_rounds_as_the_report_has_them_then(service: Service,
                                                                         club: str) -> None:
    """An append's screen says the rounds over from what it said before (the record keeps
    them): after every append they are the report's of the record then, and after a void
    that strikes the first round's play (the record replayed anew, every round changed) too."""
    rules = {"preset": "parejas", "target": 60}
    players = ["Ana", "Beto", "Carla", "Dani"]
    _, events = random_match(rules, players, random.Random(11))
    match_id = service.recording.create_match(club, rules, players)["id"]

    def said_as_reported(screen: object) -> None:
        rounds = service.reading.report(match_id)["rounds"]
        assert [{k: r[k] for k in rounds[0]} for r in screen.rounds] == rounds  # type: ignore[attr-defined]

    for event in events:
        said_as_reported(service.recording.record_event(
            match_id, event, expected_seq=service.reading.get_match(match_id)["last_seq"],
            who=KEEPER).screen)
    first_play = next(seq for seq, e in enumerate(events, start=1) if e["type"] == "play")
    last = service.reading.get_match(match_id)["last_seq"]
    voided = service.recording.record_event(
        match_id, {"type": "void", "target": first_play, "reason": "misrecorded"},
        expected_seq=last)
    said_as_reported(voided.screen)
    said_as_reported(service.recording.record_event(
        match_id, {"type": "note", "text": "after the void"}, expected_seq=last + 1).screen)
