"""A match withdrawn over the API: the token that created it (or a referee) records the
``abandon`` at the events endpoint, anyone else gets a problem saying who may; the match is
``abandoned``, listed by that status and in no list of matches in play; the screen says when
the caller may withdraw it (``can_abandon``)."""

from __future__ import annotations

from api_helpers import PLAYERS, Api, assert_problem

ABANDON = {"type": "abandon", "reason": "the wrong player was seated"}


def create(api: Api, headers: dict[str, str]) -> int:
    created = api.client.post("/api/v1/clubs/casino/matches", headers=headers,
                              json={"rules": "parejas", "players": PLAYERS, "table": "3"})
    assert created.status_code == 201, created.json
    return created.json["id"]


def listed(api: Api, status: str) -> list[int]:
    found = api.client.get(f"/api/v1/clubs/casino/matches?status={status}",
                           headers=api.auth("viewer"))
    assert found.status_code == 200
    return [m["id"] for m in found.json]


def test_the_creating_token_abandons_its_match(api: Api) -> None:
    mine = {"Authorization": f"Bearer {api.tokens['casino', 'scorekeeper']}"}
    other = api.service.tokens.create_token("casino", "scorekeeper", label="table 4")
    theirs = {"Authorization": f"Bearer {other}"}
    match_id = create(api, mine)
    screen = api.client.get(f"/api/v1/matches/{match_id}", headers=mine).json
    assert screen["can_abandon"] is True
    assert api.client.get(f"/api/v1/matches/{match_id}", headers=theirs).json["can_abandon"] is False
    assert api.client.get(f"/api/v1/matches/{match_id}",
                          headers=api.auth("referee")).json["can_abandon"] is True

    url = f"/api/v1/matches/{match_id}/events"
    refused = api.client.post(url, json=ABANDON, headers={**theirs, "If-Match": '"0"'})
    body = assert_problem(refused, 403, "forbidden")
    assert "the token that created it" in body["detail"]
    assert_problem(api.client.post(url, json=ABANDON,
                                   headers=api.auth("viewer", **{"If-Match": '"0"'})), 403)
    assert_problem(api.client.post(url, json=ABANDON,
                                   headers=api.auth("referee", "other", **{"If-Match": '"0"'})),
                   404)
    assert match_id in listed(api, "in_progress")

    done = api.client.post(url, json=ABANDON, headers={**mine, "If-Match": '"0"'})
    assert done.status_code == 201, done.json
    assert done.json["screen"]["status"] == "abandoned"
    assert done.json["screen"]["can_abandon"] is False
    assert api.client.get(f"/api/v1/matches/{match_id}",
                          headers=api.auth("viewer")).json["status"] == "abandoned"
    assert listed(api, "abandoned") == [match_id]
    assert match_id not in listed(api, "in_progress") and match_id not in listed(api, "finished")


def test_a_match_dealt_is_not_abandoned(api: Api) -> None:
    match_id = api.matches["casino"]  # its first deal is recorded
    assert api.client.get(f"/api/v1/matches/{match_id}",
                          headers=api.auth("referee")).json["can_abandon"] is False
    refused = api.append(match_id, ABANDON, 1, role="referee")
    assert_problem(refused, 422)
    assert listed(api, "abandoned") == []
