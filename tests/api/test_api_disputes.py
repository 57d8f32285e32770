"""Disputes over HTTP: the club's and a match's disputes, rulings by referees (after the end
too), previews with ?dry_run=true that store nothing, the rules' standard penalty in one call,
and the dispute sheet as JSON and as a printable page."""

from __future__ import annotations

from typing import Any

from api_helpers import Api, assert_problem

RULES = {"preset": "mano-a-mano", "hand_size": 3, "draw": "none", "target": 5,
         "foul_points": 10}
RENEGE = [{"type": "deal"}, {"type": "play", "seat": 0, "tile": "6-6"},
          {"type": "pass", "seat": 1}, {"type": "play", "seat": 0, "tile": "6-5"},
          {"type": "play", "seat": 1, "tile": "6-4"}, {"type": "play", "seat": 0, "tile": "5-5"},
          {"type": "reveal", "seat": 1, "tiles": ["3-3", "2-1"]}]


def renege_match(api: Api) -> int:
    created = api.client.post("/api/v1/clubs/casino/matches", headers=api.auth("scorekeeper"),
                              json={"rules": RULES, "players": ["Ana", "Beto"]})
    match_id = created.json["id"]
    api.record(match_id, RENEGE, 0)
    return match_id


def test_disputes_are_listed_open_first(api: Api) -> None:
    match_id = renege_match(api)
    found = api.client.get(f"/api/v1/matches/{match_id}/disputes", headers=api.auth("viewer"))
    assert found.status_code == 200
    assert [(d["seq"], d["code"], d["found_at"], d["ruling"]) for d in found.json] == [
        (3, "renege", 5, None)]
    club = api.client.get("/api/v1/clubs/casino/disputes", headers=api.auth("viewer"))
    assert club.status_code == 200 and club.headers["X-Total-Count"] == "1"
    assert club.json[0]["match"] == match_id
    report = api.client.get(f"/api/v1/matches/{match_id}/report", headers=api.auth("viewer")).json
    assert report["violations"][0]["found_at"] == 5 and report["violations"][0]["evidence"]
    assert report["disputes"][0]["seq"] == 3 and "suspicions" in report
    screen = api.client.get(f"/api/v1/matches/{match_id}", headers=api.auth("viewer")).json
    assert [d["seq"] for d in screen["disputes"]] == [3] and screen["winner_name"] == "Ana"


def test_a_referee_rules_after_the_end_and_a_preview_stores_nothing(api: Api) -> None:
    match_id = renege_match(api)
    stands = {"type": "stands", "target": 3, "reason": "the table played on"}
    preview = api.client.post(f"/api/v1/matches/{match_id}/events?dry_run=true", json=stands,
                              headers=api.auth("referee"))
    assert preview.status_code == 200 and preview.json["stored"] is False
    assert [v["seq"] for v in preview.json["changes"]["violations_vanish"]] == [3]
    assert api.client.get(f"/api/v1/matches/{match_id}", headers=api.auth("viewer")).json[
        "last_seq"] == len(RENEGE)
    refused = api.append(match_id, stands, len(RENEGE), role="scorekeeper")
    assert_problem(refused, 403, "forbidden")
    ruled = api.append(match_id, stands, len(RENEGE), role="referee")
    assert ruled.status_code == 201
    found = api.client.get(f"/api/v1/matches/{match_id}/disputes", headers=api.auth("viewer")).json
    assert found[0]["ruling"]["type"] == "stands"
    assert api.client.get("/api/v1/clubs/casino/disputes", headers=api.auth("viewer")).json == []


def test_the_rules_standard_penalty_in_one_call(api: Api) -> None:
    match_id = renege_match(api)
    path = f"/api/v1/matches/{match_id}/disputes/3/penalty"
    preview = api.client.post(f"{path}?dry_run=true", headers=api.auth("referee"))
    assert preview.status_code == 200
    assert preview.json["changes"]["totals"] == {"before": [9, 0], "after": [19, 0]}
    assert_problem(api.client.post(path, headers=api.auth("referee")), 428)
    applied = api.client.post(path, headers=api.auth("referee", **{"If-Match": f'"{len(RENEGE)}"'}))
    assert applied.status_code == 201, applied.json
    assert applied.json["events"][0]["event"]["points"] == 10
    assert applied.headers["ETag"] == f'"{len(RENEGE) + 1}"'
    assert_problem(api.client.post(f"/api/v1/matches/{match_id}/disputes/2/penalty",
                                   headers=api.auth("referee", **{"If-Match": '"8"'})), 404)


def test_the_dispute_sheet(api: Api) -> None:
    match_id = renege_match(api)
    sheet = api.client.get(f"/api/v1/matches/{match_id}/disputes/3", headers=api.auth("viewer"))
    assert sheet.status_code == 200
    body: dict[str, Any] = sheet.json
    assert body["moment"]["line"] == ["6-6"] and body["dispute"]["code"] == "renege"
    assert [e["seq"] for e in body["evidence"]] == [3, 5, 5]
    page = api.client.get(f"/api/v1/matches/{match_id}/disputes/3?format=html",
                          headers=api.auth("viewer"))
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert "Dispute sheet" in html and "renege" in html and "6-4" in html
    assert_problem(api.client.get(f"/api/v1/matches/{match_id}/disputes/2",
                                  headers=api.auth("viewer")), 404)
