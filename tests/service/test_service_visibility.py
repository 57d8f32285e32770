"""Who sees what: while a round is in play, the tiles the table has not seen (hands dealt open,
tiles drawn in sight) are shown only to the club's referees and to the token that recorded them.
Every test records an open deal as scorekeeper A, then tries a channel as a viewer and as a
second scorekeeper B, who must learn nothing the table did not see."""

from __future__ import annotations

import json
import re

import pytest

from referee.service import Caller, IllegalEvent, Service

# mano-a-mano: seat 0 holds the highest double (6-6) and leads.
HANDS = [["6-6", "6-5", "5-5", "4-4", "3-3", "2-2", "1-1"],
         ["6-4", "6-3", "5-4", "5-3", "4-3", "2-1", "1-0"]]
SECRET = set(HANDS[0][1:] + HANDS[1])  # all but the lead, which the table sees
A = Caller("casino", "scorekeeper", 1, "table 1")
B = Caller("casino", "scorekeeper", 2, "table 1, second phone")
VIEWER = Caller("casino", "viewer", 3, "club screen")
REFEREE = Caller("casino", "referee", 4, "referee")


def names_a_secret(text: str) -> set[str]:
    return {t for t in re.findall(r"\d-\d", text) if t in SECRET or t[::-1] in SECRET}


def new_match(service: Service, club: str) -> int:
    return service.recording.create_match(club, "mano-a-mano", ["Ana", "Beto"])["id"]


def record(service: Service, match_id: int, *events: dict, who: Caller = A) -> None:
    for event in events:
        service.recording.record_event(match_id, event, expected_seq=None, who=who)


@pytest.fixture
def led(service: Service, club: str) -> int:
    """Scorekeeper A dealt open; seat 0 led the 6-6; seat 1 (holding 6-4 and 6-3) is on turn."""
    match_id = new_match(service, club)
    record(service, match_id, {"type": "deal", "hands": HANDS},
           {"type": "play", "seat": 0, "tile": "6-6"})
    return match_id


def refusal(service: Service, match_id: int, event: dict, who: Caller) -> dict:
    with pytest.raises(IllegalEvent) as caught:
        record(service, match_id, event, who=who)
    return caught.value.violation.as_dict()


def test_the_recorder_and_referees_see_the_hands_and_the_legal_plays(service: Service,
                                                                      led: int) -> None:
    for who in (A, REFEREE):
        pos = service.reading.state(led, who=who)
        assert pos.hands[1] is not None and {p["tile"] for p in pos.legal["plays"]} == {"6-4", "6-3"}
        assert pos.legal["draw"] is False
    for who in (B, VIEWER):
        pos = service.reading.state(led, who=who)
        assert pos.hands == (None, None) and pos.counts == (6, 7)
        # The flags come from what the table saw: a closed hand may draw while the boneyard lasts.
        assert pos.legal == {"seat": 1, "plays": None, "draw": True, "pass": False}
        screen = service.reading.screen(led, who=who)
        shown = {k: v for k, v in screen.as_dict().items() if k not in ("unseen", "unseen_plays")}
        assert screen.hands_hidden and not names_a_secret(json.dumps(shown))
        # The pickers of tiles not seen are every tile (that fits) not on the line: they
        # depend on nothing the table has not seen.
        assert screen.unseen_plays == tuple({"tile": f"6-{b}", "end": 6} for b in range(6))
        assert len(screen.unseen) == 27


def test_events_and_log_show_only_the_recorders_own_secrets(service: Service, led: int) -> None:
    record(service, led, {"type": "draw", "seat": 1, "tile": "0-0", "disputed": True}, who=B)
    for who, deal_hidden, draw_hidden in ((A, False, True), (B, True, False),
                                          (VIEWER, True, True), (REFEREE, False, False)):
        events = service.reading.list_events(led, who=who)
        assert (events[0]["event"] == {"type": "deal"}) is deal_hidden, who
        assert ("tile" not in events[2]["event"]) is draw_hidden, who
        # Nothing marks what was taken out: the record reads as if it had been recorded closed.
        assert not any("redacted" in e for e in events)
        log = [json.loads(line) for line in service.reading.export_log(led, who=who).splitlines()]
        assert (log[1] == {"type": "deal"}) is deal_hidden
        assert ("tile" not in log[3]) is draw_hidden


def test_a_voided_deal_is_as_secret_as_the_deal_that_replaced_it(service: Service,
                                                                 club: str) -> None:
    match_id = new_match(service, club)
    record(service, match_id, {"type": "note", "text": "table 1"},
           {"type": "deal", "hands": HANDS})
    record(service, match_id, {"type": "void", "target": 2, "reason": "typo"}, who=REFEREE)
    record(service, match_id, {"type": "deal", "hands": HANDS[::-1]})
    for who in (B, VIEWER):
        seen = service.reading.list_events(match_id, who=who)
        assert seen[1]["event"] == seen[3]["event"] == {"type": "deal"}
        assert not names_a_secret(service.reading.export_log(match_id, who=who))
    assert service.reading.list_events(match_id, who=A)[1]["event"]["hands"] == HANDS


def test_violation_messages_of_disputed_events_name_no_hidden_tile(service: Service,
                                                                   led: int) -> None:
    record(service, led, {"type": "pass", "seat": 1, "disputed": True})
    full = service.reading.report(led, who=REFEREE)["violations"][0]
    assert full["code"] == "renege" and names_a_secret(full["message"])
    for who in (B, VIEWER):
        # Their report is their record's: with the hands closed, the pass was wrong because a
        # draw was allowed (what a closed recording of the same table says).
        told = service.reading.report(led, who=who)["violations"][0]
        assert told["code"] == "must_draw" and told["seq"] == full["seq"]
        assert not names_a_secret(told["message"])
        disputes = service.reading.screen(led, who=who).disputes
        assert disputes and not names_a_secret(json.dumps(disputes))


def test_refusals_to_a_second_scorekeeper_name_no_hidden_tile(service: Service, led: int) -> None:
    assert names_a_secret(refusal(service, led, {"type": "pass", "seat": 1}, A)["message"])
    # As B sees the table, the pass is wrong because a draw was allowed: that is what B hears.
    renege = refusal(service, led, {"type": "pass", "seat": 1}, B)
    assert renege["code"] == "must_draw" and not names_a_secret(renege["message"])


def test_what_contradicts_a_hidden_hand_is_stored_as_a_dispute_for_those_who_see_it(
        service: Service, led: int) -> None:
    # Seat 1 holds 6-4 and 6-3: as A's record shows, drawing is illegal. B sees the table only,
    # where a closed hand may draw while the boneyard lasts: B's draw is stored, and B is told
    # nothing (the table saw a draw); the referees and A, who typed the hand, see the dispute.
    drew = service.recording.record_event(led, {"type": "draw", "seat": 1}, expected_seq=2, who=B)
    assert drew.violation is None and drew.screen.disputes == ()
    assert service.reading.get_match(led, who=B)["violations"] == 0
    assert service.reading.report(led, who=VIEWER)["valid"]
    for who in (A, REFEREE):
        [dispute] = service.reading.report(led, who=who)["violations"]
        assert (dispute["seq"], dispute["code"]) == (3, "illegal_draw")
        assert service.reading.get_match(led, who=who)["violations"] == 1
    # Seat 1 does not hold 6-5, which fits: the same for a play.
    played = service.recording.record_event(led, {"type": "play", "seat": 1, "tile": "6-5"},
                                            expected_seq=3, who=B)
    assert played.violation is None and played.state.line == ("6-6", "6-5")
    assert [v["code"] for v in service.reading.report(led, who=REFEREE)["violations"]] == [
        "illegal_draw", "not_in_hand"]


def test_a_reveal_is_judged_on_the_hand_as_the_scorekeeper_sees_it(service: Service,
                                                                   led: int) -> None:
    told = refusal(service, led, {"type": "reveal", "seat": 1, "tiles": ["6-4"]}, B)
    assert told["code"] == "reveal_mismatch"  # one tile shown for a hand of seven
    assert not names_a_secret(told["message"])
    # A total the closed hand may have is the table's to accept; the hand typed contradicts it.
    shown = service.recording.record_event(led, {"type": "reveal", "seat": 1, "pips": 0},
                                           expected_seq=2, who=B)
    assert shown.violation is None
    [dispute] = service.reading.report(led, who=REFEREE)["violations"]
    assert (dispute["seq"], dispute["code"]) == (3, "reveal_mismatch")


def test_probing_a_hand_tile_by_tile_tells_only_what_the_lines_ends_show(service: Service,
                                                                         led: int) -> None:
    # 5-4 is in seat 1's hand, 5-5 in seat 0's; neither fits the 6s: the same answer for both.
    held = refusal(service, led, {"type": "play", "seat": 1, "tile": "5-4"}, B)
    not_held = refusal(service, led, {"type": "play", "seat": 1, "tile": "5-5"}, B)
    assert held["code"] == not_held["code"] == "no_match"
    assert names_a_secret(held["message"]) <= {"5-4"} and names_a_secret(not_held["message"]) <= {"5-5"}
    assert refusal(service, led, {"type": "play", "seat": 1, "tile": "5-5"}, A)["code"] == "not_in_hand"


def test_an_idempotency_key_is_the_tokens_own(service: Service, led: int) -> None:
    draw = {"type": "play", "seat": 1, "tile": "6-4"}
    first = service.recording.record_event(led, draw, expected_seq=2, client_event_id="k1", who=A)
    retry = service.recording.record_event(led, draw, expected_seq=2, client_event_id="k1", who=A)
    assert retry.duplicate and retry.seq == first.seq
    # B guessing A's key and body is not a retry of A's event: it is judged as B's own append.
    with pytest.raises(Exception) as caught:
        service.recording.record_event(led, draw, expected_seq=2, client_event_id="k1", who=B)
    assert type(caught.value).__name__ == "Conflict"


def test_once_the_round_is_over_everything_shows(service: Service, club: str) -> None:
    match_id = new_match(service, club)
    record(service, match_id, {"type": "deal", "hands": HANDS})
    record(service, match_id, {"type": "annul", "reason": "misdeal"}, who=REFEREE)
    assert service.reading.list_events(match_id, who=VIEWER)[0]["event"]["hands"] == HANDS
    assert service.reading.state(match_id, who=VIEWER).hands[0] is not None


def test_an_amended_deal_is_as_secret_as_the_deal(service: Service, club: str) -> None:
    match_id = new_match(service, club)
    typo = [list(HANDS[0]), list(HANDS[1])]
    typo[1][-1] = "6-6"  # dealt twice: a bad deal, stored as disputed
    record(service, match_id, {"type": "deal", "hands": typo, "disputed": True})
    record(service, match_id, {"type": "amend", "target": 1, "reason": "a typo in the deal",
                               "event": {"type": "deal", "hands": HANDS}}, who=REFEREE)
    assert service.reading.state(match_id, who=REFEREE).hands[1] is not None
    for who in (B, VIEWER):
        seen = service.reading.list_events(match_id, who=who)
        assert seen[1]["event"]["event"] == {"type": "deal"}
        assert service.reading.state(match_id, who=who).hands == (None, None)
        assert not names_a_secret(service.reading.export_log(match_id, who=who))


def test_referees_see_which_token_recorded_each_event(service: Service, led: int) -> None:
    assert [r["token_id"] for r in service.reading.list_events(led, who=REFEREE)] == [1, 1]
    assert "token_id" not in service.reading.list_events(led, who=VIEWER)[0]
