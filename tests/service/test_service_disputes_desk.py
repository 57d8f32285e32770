"""The disputes desk's use cases (referee/service/disputes.py): the club's open disputes with
their evidence (``desk``, ``for_club``), a ruling built from the record (``ruling``), and the
sheet's club name and ruling events. Run on SQLite, and on PostgreSQL with
DOMINO_TEST_DATABASE_URL set."""

from __future__ import annotations

import pytest

from referee.service import Caller, Conflict, Forbidden, Invalid, Service, Unauthorized

RULES = {"preset": "mano-a-mano", "hand_size": 3, "draw": "none", "target": 5, "foul_points": 10}
# Closed: Lucía (seat 1) passes at 3 with both ends at 5 and plays the 5-2 at 5 (proven renege);
# Marco goes out at 6; Lucía shows her last two tiles at 7.
FIVE = [{"type": "deal"}, {"type": "play", "seat": 0, "tile": "5-5"}, {"type": "pass", "seat": 1},
        {"type": "play", "seat": 0, "tile": "5-3"}, {"type": "play", "seat": 1, "tile": "5-2"},
        {"type": "play", "seat": 0, "tile": "3-1"},
        {"type": "reveal", "seat": 1, "tiles": ["4-4", "2-1"]}]


def new_match(service: Service, club: str, rules=RULES) -> int:
    match_id = service.recording.create_match(club, rules, ["Marco Rossi", "Lucía Gómez"])["id"]
    for event in FIVE:
        service.recording.record_event(match_id, event, expected_seq=None)
    return match_id


def token(service: Service, club: str, role: str) -> Caller:
    return service.tokens.authenticate(service.tokens.create_token(club, role, label=role))


def test_the_clubs_open_disputes_are_listed_until_ruled(service: Service, club: str) -> None:
    first, second = new_match(service, club), new_match(service, club)
    listed, total = service.disputes.for_club(club, status="open")
    assert total == 2 and [(d["match"], d["seq"], d["code"]) for d in listed] == [
        (first, 3, "renege"), (second, 3, "renege")]
    service.recording.record_event(first, {"type": "stands", "target": 3, "reason": "agreed"},
                                   expected_seq=7)
    listed, total = service.disputes.for_club(club, status="open")
    assert total == 1 and listed[0]["match"] == second
    assert service.disputes.for_club(club, status="ruled")[0][0]["match"] == first


def test_the_desk_gives_each_open_dispute_with_its_evidence(service: Service, club: str) -> None:
    ruled, open_ = new_match(service, club), new_match(service, club)
    service.recording.record_event(ruled, {"type": "penalty", "side": 0, "points": 10,
                                           "target": 3, "reason": "renege"}, expected_seq=7)
    desk = service.disputes.desk(club, who=token(service, club, "referee"))
    assert desk["club"]["name"] == "Casino Domino Club"
    [sheet] = desk["open"]
    assert sheet["match"]["id"] == open_ and sheet["last_seq"] == 7
    assert sheet["standard_penalty"] == 10
    assert sheet["event"] == {"type": "pass", "seat": 1}
    assert (sheet["dispute"]["seat"], sheet["dispute"]["certainty"],
            sheet["dispute"]["found_at"]) == (1, "proven", 5)
    assert sheet["moment"]["round"] == 1 and sheet["moment"]["ends"] == [5, 5]
    assert [f["seq"] for f in sheet["evidence"]] == [3, 5, 5]
    assert sheet["evidence"][1]["event"] == {"type": "play", "seat": 1, "tile": "5-2"}
    assert sheet["score"]["before"] == [11, 0]
    [done] = desk["ruled"]
    assert (done["match"]["id"], done["seq"], done["ruling"]["type"]) == (ruled, 3, "penalty")


@pytest.mark.parametrize("role", ["viewer", "scorekeeper"])
def test_the_desk_takes_a_referee(service: Service, club: str, role: str) -> None:
    new_match(service, club)
    with pytest.raises(Forbidden):
        service.disputes.desk(club, who=token(service, club, role))
    with pytest.raises(Unauthorized):
        service.disputes.desk(club, who=None)
    service.clubs.create_club("other", "Other")
    with pytest.raises(Forbidden):
        service.disputes.desk(club, who=token(service, "other", "referee"))
    assert service.disputes.desk(club, who=token(service, club, "admin"))["open"]


def test_each_ruling_is_built_from_the_record(service: Service, club: str) -> None:
    match_id = new_match(service, club)
    rule = service.disputes.ruling
    assert rule(match_id, 3, "standard", reason="renege") == [
        {"type": "penalty", "side": 0, "points": 10, "target": 3, "reason": "renege"}]
    assert rule(match_id, 3, "penalty", reason="r", points=25) == [
        {"type": "penalty", "side": 0, "points": 25, "target": 3, "reason": "r"}]
    assert rule(match_id, 3, "forfeit", reason="r") == [
        {"type": "forfeit", "side": 1, "target": 3, "reason": "r"}]
    for kind in ("void", "annul", "stands"):
        assert rule(match_id, 3, kind, reason="r") == [{"type": kind, "target": 3, "reason": "r"}]
    draw = {"type": "draw", "seat": 1}
    assert rule(match_id, 3, "amend", reason="r", event=draw) == [
        {"type": "amend", "target": 3, "event": draw, "reason": "r"}]
    for bad in ({"points": 0, "kind": "penalty"}, {"points": "5", "kind": "penalty"},
                {"kind": "amend"}, {"kind": "pardon"}):
        with pytest.raises(Invalid):
            rule(match_id, 3, bad.pop("kind"), reason="r", **bad)
    with pytest.raises(Invalid):
        rule(match_id, 3, "stands", reason="  ")
    with pytest.raises(Forbidden):
        rule(match_id, 3, "stands", reason="r", who=token(service, club, "scorekeeper"))
    assert service.reading.get_match(match_id)["last_seq"] == 7  # nothing stored


def test_a_ruling_on_a_stale_page_is_a_conflict(service: Service, club: str) -> None:
    match_id = new_match(service, club)
    assert service.disputes.ruling(match_id, 3, "stands", reason="r", expected_seq=7)
    service.recording.record_event(match_id, {"type": "stands", "target": 3, "reason": "first"},
                                   expected_seq=7)
    with pytest.raises(Conflict):  # the page saw seq 7: another desk ruled since
        service.disputes.ruling(match_id, 3, "stands", reason="r", expected_seq=7)
    with pytest.raises(Conflict):  # read anew, it is ruled already
        service.disputes.ruling(match_id, 3, "stands", reason="r", expected_seq=8)


def test_the_sheet_names_the_club_and_every_ruling_event(service: Service, club: str) -> None:
    match_id = new_match(service, club)
    service.disputes.apply_standard_penalty(match_id, 3, expected_seq=7, reason="renege")
    sheet = service.disputes.sheet(match_id, 3)
    assert sheet["club"] == {"slug": club, "name": "Casino Domino Club"}
    assert sheet["ruling_events"] == [{"seq": 8, "event": {
        "type": "penalty", "side": 0, "points": 10, "target": 3, "reason": "renege"}}]
    assert sheet["score"] == {"before": [11, 0], "after": [21, 0]}


# As FIVE to event 5, then Marco passes at 6 and 8 with his last tile never shown: the record
# allows that he held a tile that fits but proves nothing (suspicions, beside the renege).
SUSPECT = [*FIVE[:5], {"type": "pass", "seat": 0}, {"type": "play", "seat": 1, "tile": "2-1"},
           {"type": "pass", "seat": 0}, {"type": "pass", "seat": 1}]


def test_the_desk_says_what_the_record_suggests_without_proving(service: Service,
                                                                 club: str) -> None:
    match_id = service.recording.create_match(club, {**RULES, "target": 50},
                                              ["Marco Rossi", "Lucía Gómez"])["id"]
    for event in SUSPECT:
        service.recording.record_event(match_id, event, expected_seq=None)
    [sheet] = service.disputes.desk(club)["open"]
    assert sheet["dispute"]["seq"] == 3 and sheet["dispute"]["certainty"] == "proven"
    suspicions = sheet["suspicions"]
    assert [(s["seq"], s["certainty"], s["seat"]) for s in suspicions] == [
        (6, "possible", 0), (8, "possible", 0), (9, "possible", 1)]
    assert suspicions[0]["event"] == {"type": "pass", "seat": 0}
