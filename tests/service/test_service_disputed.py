"""Recording as disputed keeps the game going, and undo only while the match is in play
(docs/rules.md, *Recording as disputed keeps the game going*; issue 31): what the append answers, the phone's screen,
the report and the disputes desk say of a disputed event, on SQLite and (with
DOMINO_TEST_DATABASE_URL) PostgreSQL."""

from __future__ import annotations

import random
from typing import Any

import pytest

from referee.core.simulate import random_match
from referee.service import Caller, Forbidden, IllegalEvent, Invalid, Service

HANDS = [["6-6", "6-5", "5-5", "4-4", "3-3", "2-2", "1-1"],
         ["6-4", "6-3", "5-4", "5-3", "4-3", "2-1", "1-0"]]
SHORT = {"preset": "mano-a-mano", "target": 10}


def token(service: Service, club: str, role: str, label: str) -> Caller:
    return service.tokens.authenticate(service.tokens.create_token(club, role, label=label))


def record(service: Service, match_id: int, event: dict[str, Any], who: Caller) -> Any:
    last = service.reading.get_match(match_id, who=who)["last_seq"]
    return service.recording.record_event(match_id, event, expected_seq=last, who=who)


@pytest.fixture
def table(service: Service, club: str) -> tuple[int, Caller, Caller]:
    """mano-a-mano dealt open by a scorekeeper; Ana leads the 6-6: Beto (6-4, 6-3) to play."""
    keeper = token(service, club, "scorekeeper", "table 1")
    referee = token(service, club, "referee", "referee")
    match_id = service.recording.create_match(club, "mano-a-mano", ["Ana", "Beto"],
                                              who=keeper)["id"]
    record(service, match_id, {"type": "deal", "hands": HANDS}, keeper)
    record(service, match_id, {"type": "play", "seat": 0, "tile": "6-6"}, keeper)
    return match_id, keeper, referee


def test_a_disputed_pass_is_applied_and_the_next_seat_is_offered(
        service: Service, table: tuple[int, Caller, Caller]) -> None:
    match_id, keeper, referee = table
    with pytest.raises(IllegalEvent) as refused:
        record(service, match_id, {"type": "pass", "seat": 1}, keeper)
    assert refused.value.violation.code == "renege"
    answer = record(service, match_id, {"type": "pass", "seat": 1, "disputed": True}, keeper)
    assert (answer.seq, answer.violation.code) == (3, "renege")
    screen = answer.screen
    # the game goes on from the seat that acted: Ana's moves are offered, not Beto's
    assert screen.position.turn == 0 and screen.position.legal["seat"] == 0
    assert {p["tile"] for p in screen.position.legal["plays"]} == {"6-5"}
    assert [(d["seq"], d["code"]) for d in screen.disputes] == [(3, "renege")]
    assert screen.summary["violations"] == 1
    # the record goes on: Ana plays, and the dispute stays open until a referee rules
    after = record(service, match_id, {"type": "play", "seat": 0, "tile": "6-5"}, keeper)
    assert after.violation is None and after.screen.position.turn == 1
    report = service.reading.report(match_id, who=keeper)
    assert [(d["seq"], d["code"], d["ruling"]) for d in report["disputes"]] == [
        (3, "renege", None)]
    assert [(v["seq"], v["code"]) for v in report["violations"]] == [(3, "renege")]
    # the report, the phone's screen and the disputes desk agree
    assert [(d["seq"], d["code"]) for d in service.disputes.for_match(match_id, who=keeper)] == [
        (3, "renege")]
    desk = service.disputes.desk("casino", who=referee)
    assert [(s["match"]["id"], s["dispute"]["seq"], s["dispute"]["code"]) for s in desk["open"]] \
        == [(match_id, 3, "renege")]
    assert [(d["seq"], d["code"]) for d in
            service.reading.screen(match_id, who=keeper).disputes] == [(3, "renege")]


def test_the_same_disputed_event_again_is_refused_as_a_repeat(
        service: Service, table: tuple[int, Caller, Caller]) -> None:
    match_id, keeper, _ = table
    record(service, match_id, {"type": "pass", "seat": 1, "disputed": True}, keeper)
    for _ in range(5):  # a double tap, or a script: each refused, nothing stored
        with pytest.raises(IllegalEvent) as refused:
            record(service, match_id, {"type": "pass", "seat": 1, "disputed": True}, keeper)
        assert refused.value.violation.code == "repeat"
        assert "event 3" in refused.value.violation.message
    summary = service.reading.get_match(match_id, who=keeper)
    assert summary["last_seq"] == 3 and summary["violations"] == 1
    # anything between them, and it is an event of its own again (a pass out of turn: stored
    # as a dispute, not applied)
    record(service, match_id, {"type": "note", "text": "Beto insists"}, keeper)
    again = record(service, match_id, {"type": "pass", "seat": 1, "disputed": True}, keeper)
    assert again.violation.code == "out_of_turn" and again.screen.position.turn == 0


@pytest.mark.parametrize("event", [
    {"type": "pass", "seat": 1, "unsighted": True},  # a renege, applied were it kept
    {"type": "amend", "target": 2, "reason": "r",
     "event": {"type": "play", "seat": 0, "tile": "1-0", "unsighted": True}}])
def test_a_caller_cannot_send_the_services_unsighted_mark(
        service: Service, table: tuple[int, Caller, Caller], event: dict[str, Any]) -> None:
    """"unsighted" is the service's mark (docs/log.md): sent by a caller, it would have a
    refused event applied as the table's and, again and again, never refused as a repeat."""
    match_id, keeper, referee = table
    for who in (keeper, referee):
        with pytest.raises(Invalid) as refused:
            record(service, match_id, event, who)
        assert "unsighted" in str(refused.value)
    assert service.reading.get_match(match_id, who=keeper)["last_seq"] == 2


def test_a_disputed_event_that_cannot_be_applied_is_stored_and_changes_nothing(
        service: Service, table: tuple[int, Caller, Caller]) -> None:
    match_id, keeper, _ = table
    before = service.reading.screen(match_id, who=keeper).position
    answer = record(service, match_id, {"type": "play", "seat": 1, "tile": "5-4",
                                        "disputed": True}, keeper)  # fits neither 6
    assert answer.violation.code == "no_match"
    assert answer.screen.position.line == before.line and answer.screen.position.turn == 1


def test_a_referees_void_replays_the_round_without_the_disputed_event(
        service: Service, table: tuple[int, Caller, Caller]) -> None:
    match_id, keeper, referee = table
    record(service, match_id, {"type": "pass", "seat": 1, "disputed": True}, keeper)
    record(service, match_id, {"type": "play", "seat": 0, "tile": "6-5"}, keeper)
    voided = record(service, match_id, {"type": "void", "target": 3, "reason": "he had a 6"},
                    referee)
    # without the pass Ana's play came out of turn: a dispute of its own, not applied
    assert voided.screen.position.line == ("6-6",) and voided.screen.position.turn == 1
    report = service.reading.report(match_id, who=referee)
    assert [(d["seq"], d["code"], (d["ruling"] or {}).get("type")) for d in report["disputes"]] \
        == [(3, "renege", "void"), (4, "out_of_turn", None)]


def finished_by(service: Service, club: str, keeper: Caller, seed: int = 1) -> int:
    """A short match recorded whole by ``keeper``, which finished it."""
    _, events = random_match(SHORT, ["Ana", "Beto"], random.Random(seed))
    match_id = service.recording.create_match(club, SHORT, ["Ana", "Beto"], who=keeper)["id"]
    for seq, event in enumerate(events):
        service.recording.record_event(match_id, event, expected_seq=seq, who=keeper)
    assert service.reading.get_match(match_id)["status"] == "finished"
    return match_id


def test_no_undo_once_the_match_is_over(service: Service, club: str) -> None:
    keeper = token(service, club, "scorekeeper", "table 2")
    referee = token(service, club, "referee", "referee")
    match_id = finished_by(service, club, keeper)
    last = service.reading.get_match(match_id)["last_seq"]
    screen = service.reading.screen(match_id, who=keeper)
    assert screen.undo is None and screen.position.finished
    # the screen right before the last event offered it, while the match was in play
    assert service.reading.screen(match_id, at=last - 1, who=keeper).undo == last - 1
    with pytest.raises(Forbidden) as refused:
        record(service, match_id, {"type": "void", "target": last, "reason": "undo"}, keeper)
    assert "only a referee" in refused.value.message
    with pytest.raises(Forbidden):  # a preview asks what the append would
        service.disputes.preview(match_id, [{"type": "void", "target": last, "reason": "undo"}],
                                 who=keeper)
    summary = service.reading.get_match(match_id)
    assert summary["status"] == "finished" and summary["last_seq"] == last
    # a referee still may: the match comes back into play
    voided = record(service, match_id, {"type": "void", "target": last, "reason": "misread"},
                    referee)
    assert not voided.screen.position.finished
    assert service.reading.screen(match_id, who=keeper).undo is None  # the referee's, last
