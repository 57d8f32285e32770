"""The dispute workflow in the service: disputes listed with their rulings, rulings after the
match ended, amend versus void, previews that store nothing, the rules' standard penalty, and
the dispute sheet."""

from __future__ import annotations

import pytest

from referee.service import Caller, Forbidden, Invalid, NotFound, Service

SMALL = {"preset": "mano-a-mano", "hand_size": 3, "draw": "none", "target": 5}
# Closed: seat 1 passes at 3 on the 6s, then plays the 6-4 at 5 (a renege the record proves);
# seat 0 goes out at 6 and wins the match; seat 1 shows its last two tiles at 7.
RENEGE = [{"type": "deal"}, {"type": "play", "seat": 0, "tile": "6-6"},
          {"type": "pass", "seat": 1}, {"type": "play", "seat": 0, "tile": "6-5"},
          {"type": "play", "seat": 1, "tile": "6-4"}, {"type": "play", "seat": 0, "tile": "5-5"},
          {"type": "reveal", "seat": 1, "tiles": ["3-3", "2-1"]}]
STANDS = {"type": "stands", "target": 3, "reason": "both sides agreed to play on"}


def new_match(service: Service, club: str, rules=SMALL, events=RENEGE) -> int:
    match_id = service.recording.create_match(club, rules, ["Ana", "Beto"])["id"]
    for event in events:
        service.recording.record_event(match_id, event, expected_seq=None)
    return match_id


def test_a_proven_foul_is_an_open_dispute_until_ruled(service: Service, club: str) -> None:
    match_id = new_match(service, club)
    summary = service.reading.get_match(match_id)
    assert summary["status"] == "finished" and summary["violations"] == 1
    [dispute] = service.disputes.for_match(match_id)
    assert (dispute["seq"], dispute["code"], dispute["found_at"], dispute["ruling"]) == (
        3, "renege", 5, None)
    listed, total = service.disputes.for_club(club)
    assert total == 1 and listed[0]["match"] == match_id
    # a ruling after the match ended is accepted, and settles it
    service.recording.record_event(match_id, STANDS, expected_seq=7)
    assert service.reading.get_match(match_id)["violations"] == 0
    assert service.disputes.for_match(match_id)[0]["ruling"]["type"] == "stands"
    assert service.disputes.for_club(club)[1] == 0
    assert service.disputes.for_club(club, status="ruled")[1] == 1
    assert service.reading.report(match_id)["valid"]


def test_a_preview_stores_nothing_and_says_what_changes(service: Service, club: str) -> None:
    match_id = new_match(service, club)
    penalty = {"type": "penalty", "side": 1, "points": 50, "target": 3, "reason": "renege"}
    preview = service.disputes.preview(match_id, [penalty])
    assert preview["stored"] is False and preview["events"][0]["violation"] is None
    changes = preview["changes"]
    assert changes["totals"] == {"before": [9, 0], "after": [9, 50]}
    assert changes["winner"] == {"before": 0, "after": 1}  # the result follows
    assert [v["seq"] for v in changes["violations_vanish"]] == [3]
    assert service.reading.get_match(match_id)["last_seq"] == len(RENEGE)


def test_the_rules_standard_penalty(service: Service, club: str) -> None:
    rules = {**SMALL, "foul_points": 10, "foul_share": 50}  # greater of 10 and 50% of 5
    match_id = new_match(service, club, rules)
    assert service.disputes.standard_penalty(match_id, 3) == [
        {"type": "penalty", "side": 0, "points": 10, "target": 3,
         "reason": "the rules' penalty for renege at event 3"}]
    [recorded] = service.disputes.apply_standard_penalty(match_id, 3, expected_seq=7)
    assert recorded.seq == 8
    assert service.reading.report(match_id)["totals"] == [19, 0]
    assert service.disputes.for_match(match_id)[0]["ruling"]["points"] == 10
    with pytest.raises(Invalid):
        service.disputes.standard_penalty(new_match(service, club), 3)  # no standard penalty
    with pytest.raises(NotFound):
        service.disputes.standard_penalty(match_id, 2)  # not a dispute


def test_amend_fixes_a_typo_that_a_void_could_only_strike(service: Service, club: str) -> None:
    typo = {"type": "deal", "hands": [["6-6", "6-5", "5-5"], ["6-4", "3-3", "6-5"]],
            "disputed": True}
    plays = [{"type": "play", "seat": 0, "tile": "6-6", "disputed": True},
             {"type": "play", "seat": 1, "tile": "6-4", "disputed": True}]
    fixed = {"type": "deal", "hands": [["6-6", "6-5", "5-5"], ["6-4", "3-3", "2-1"]]}
    amend = {"type": "amend", "target": 1, "event": fixed, "reason": "2-1 typed as 6-5"}
    void = {"type": "void", "target": 1, "reason": "bad deal"}
    amended = new_match(service, club, events=[typo, *plays, amend])
    report = service.reading.report(amended)
    assert report["valid"] and service.reading.state(amended).line == ("6-6", "6-4")
    assert [(d["seq"], d["code"], d["ruling"]["type"]) for d in report["disputes"]] == [
        (1, "bad_event", "amend")]
    voided = new_match(service, club, events=[typo, *plays, void])
    report = service.reading.report(voided)
    assert [v["code"] for v in report["violations"]] == ["round_over", "round_over"]


def test_a_void_after_the_end_brings_the_match_back_into_play(service: Service,
                                                             club: str) -> None:
    match_id = new_match(service, club)
    service.recording.record_event(match_id, {"type": "void", "target": 6, "reason": "typo"},
                                   expected_seq=7)
    summary = service.reading.get_match(match_id)
    assert summary["status"] == "in_progress" and summary["winner"] is None


def test_the_dispute_sheet(service: Service, club: str) -> None:
    match_id = new_match(service, club)
    service.recording.record_event(match_id, STANDS, expected_seq=7)
    sheet = service.disputes.sheet(match_id, 3)
    assert sheet["match"]["id"] == match_id and sheet["match"]["players"] == ["Ana", "Beto"]
    assert sheet["event"] == {"type": "pass", "seat": 1}
    assert sheet["moment"] == {"seq": 2, "round": 1, "line": ["6-6"], "ends": [6, 6],
                               "open_ends": [{"side": "left", "pip": 6},
                                             {"side": "right", "pip": 6}], "count": None,
                               "turn": 1, "turn_name": "Beto"}
    assert sheet["dispute"]["code"] == "renege" and sheet["dispute"]["found_at"] == 5
    assert [e["seq"] for e in sheet["evidence"]] == [3, 5, 5]
    assert sheet["evidence"][1]["event"] == {"type": "play", "seat": 1, "tile": "6-4"}
    assert sheet["ruling"]["type"] == "stands"
    assert sheet["score"] == {"before": [9, 0], "after": [9, 0]}
    with pytest.raises(NotFound):
        service.disputes.sheet(match_id, 2)


def test_only_referees_rule(service: Service, club: str) -> None:
    match_id = new_match(service, club)
    scorekeeper = Caller(club, "scorekeeper", 7, "phone")
    with pytest.raises(Forbidden):
        service.recording.record_event(match_id, STANDS, expected_seq=7, who=scorekeeper)
    with pytest.raises(Forbidden):
        service.disputes.preview(match_id, [STANDS], who=scorekeeper)


def test_a_ruling_must_name_a_dispute(service: Service, club: str) -> None:
    match_id = new_match(service, club)
    with pytest.raises(Invalid, match="not a dispute"):
        service.recording.record_event(match_id, {**STANDS, "target": 2}, expected_seq=7)
    with pytest.raises(Invalid, match="not a dispute"):
        service.recording.record_event(match_id, {"type": "penalty", "side": 0, "points": 5,
                                                  "target": 4, "reason": "x"}, expected_seq=7)
    assert service.disputes.for_match(match_id)[0]["seat_name"] == "Beto"
