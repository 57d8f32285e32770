"""What the table has not seen stays out of the service's answers to a caller who may not see
hands: the round in play's hands and drawn tiles, exactly from its deal on, and nothing once it
is over."""

from __future__ import annotations

import json

from referee.service import Caller, Service

VIEWER = Caller("casino", "viewer", 1, "phone")

HANDS = [["6-6", "6-5", "5-5", "4-4", "3-3", "2-2", "1-1"],
         ["6-4", "6-3", "5-4", "5-3", "4-3", "2-1", "1-0"]]


def new_match(service: Service, club: str) -> int:
    return service.recording.create_match(club, "mano-a-mano", ["Ana", "Beto"])["id"]


def record(service: Service, match_id: int, *events: dict) -> None:
    for event in events:
        service.recording.record_event(match_id, event, expected_seq=None)


def test_round_in_play_is_shown_as_the_table_saw_it(service: Service, club: str) -> None:
    match_id = new_match(service, club)
    record(service, match_id, {"type": "deal", "hands": HANDS}, {"type": "play", "seat": 0, "tile": "6-6"},
           {"type": "play", "seat": 1, "tile": "6-4"}, {"type": "play", "seat": 0, "tile": "4-4"})
    seen = service.reading.list_events(match_id, who=VIEWER)
    assert seen[0]["event"] == {"type": "deal", "hands": [None, None]} and seen[0]["redacted"]
    assert all("redacted" not in r for r in seen[1:])
    assert service.reading.list_events(match_id)[0]["event"]["hands"] == HANDS
    assert service.reading.state(match_id, who=VIEWER).hands == (None, None)
    assert service.reading.state(match_id).hands[1] is not None
    exported = [json.loads(line) for line in service.reading.export_log(match_id, who=VIEWER).splitlines()]
    assert exported[1] == {"type": "deal", "hands": [None, None]}
    assert exported[2:] == [r["event"] for r in seen[1:]]


def test_nothing_is_hidden_once_the_round_is_over(service: Service, club: str) -> None:
    match_id = new_match(service, club)
    record(service, match_id, {"type": "deal", "hands": HANDS},
           {"type": "annul", "reason": "misdeal"})
    assert service.reading.list_events(match_id, who=VIEWER)[0]["event"]["hands"] == HANDS
    assert service.reading.state(match_id, who=VIEWER).hands[0] is not None


def test_a_struck_deal_does_not_move_the_secret_round(service: Service, club: str) -> None:
    match_id = new_match(service, club)
    record(service, match_id, {"type": "note", "text": "first table"},
           {"type": "deal", "hands": HANDS}, {"type": "void", "target": 2, "reason": "wrong match"},
           {"type": "deal", "hands": HANDS[::-1]})
    seen = service.reading.list_events(match_id, who=VIEWER)
    assert seen[1]["event"]["hands"] == HANDS  # struck: no round in play began there
    assert seen[3]["event"]["hands"] == [None, None]
