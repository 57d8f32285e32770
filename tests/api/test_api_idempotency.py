"""Creating a match under an Idempotency-Key, as an append: a retry gets the first answer again
and makes no second match; the key with another body is 422; racing duplicates make one match."""

from __future__ import annotations

import threading
from typing import Any

import httpx
from api_helpers import PLAYERS, Api, assert_problem, served

from referee.service import IdempotencyMismatch, Service

URL = "/api/v1/clubs/casino/matches"
BODY = {"rules": {"preset": "parejas", "target": 100}, "players": PLAYERS, "table": "7"}


def matches(api: Api, club: str = "casino") -> list[dict[str, Any]]:
    return api.client.get(f"/api/v1/clubs/{club}/matches?limit=500", headers=api.auth("viewer", club)).json


def test_a_retried_create_gets_the_first_answer(api: Api) -> None:
    before = len(matches(api))
    headers = api.auth("scorekeeper", **{"Idempotency-Key": "new-match-1"})
    first = api.client.post(URL, json=BODY, headers=headers)
    assert first.status_code == 201 and "Idempotent-Replayed" not in first.headers
    again = api.client.post(URL, json=BODY, headers=headers)
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.json == first.json
    for name in ("Location", "ETag"):
        assert again.headers[name] == first.headers[name]
    assert len(matches(api)) == before + 1
    # Events recorded since do not change the answer to a retry of the create.
    match_id = first.json["id"]
    api.record(match_id, api.events[:2], 0)
    late = api.client.post(URL, json=BODY, headers=headers)
    assert late.status_code == 201 and late.json == first.json and late.headers["ETag"] == '"0"'
    assert len(matches(api)) == before + 1


def test_the_same_key_with_another_body_is_422(api: Api) -> None:
    headers = api.auth("scorekeeper", **{"Idempotency-Key": "k"})
    assert api.client.post(URL, json=BODY, headers=headers).status_code == 201
    count = len(matches(api))
    for other in ({**BODY, "table": "8"}, {**BODY, "players": PLAYERS[::-1]},
                  {**BODY, "rules": "parejas"}, {**BODY, "date": "2020-01-01"},
                  {k: v for k, v in BODY.items() if k != "table"}):
        r = api.client.post(URL, json=other, headers=headers)
        body = assert_problem(r, 422, "idempotency-key-reused")
        assert "idempotency key" in body["detail"]
    assert len(matches(api)) == count


def test_keys_are_the_clubs_and_a_date_left_out_is_the_first(api: Api) -> None:
    # Another club's match under the same key is another match.
    key = {"Idempotency-Key": "shared"}
    mine = api.client.post(URL, json=BODY, headers=api.auth("scorekeeper", **key))
    theirs = api.client.post("/api/v1/clubs/other/matches", json=BODY,
                             headers=api.auth("scorekeeper", "other", **key))
    assert mine.status_code == theirs.status_code == 201 and mine.json["id"] != theirs.json["id"]
    assert "Idempotent-Replayed" not in theirs.headers
    # Without a key, the same body makes a new match each time.
    plain = [api.client.post(URL, json=BODY, headers=api.auth("scorekeeper")) for _ in range(2)]
    assert plain[0].json["id"] != plain[1].json["id"]
    # A dated request retried with the same date is the same request.
    dated = {**BODY, "date": "2026-04-30"}
    key = {"Idempotency-Key": "dated"}
    one = api.client.post(URL, json=dated, headers=api.auth("scorekeeper", **key))
    two = api.client.post(URL, json=dated, headers=api.auth("referee", **key))
    assert two.json == one.json and two.headers["Idempotent-Replayed"] == "true"


def test_a_key_that_is_not_one_is_refused(api: Api) -> None:
    count = len(matches(api))
    r = api.client.post(URL, json=BODY, headers=api.auth("scorekeeper", **{"Idempotency-Key": "x" * 201}))
    assert_problem(r, 422)
    assert len(matches(api)) == count


def test_racing_duplicates_make_one_match(api: Api) -> None:
    clients = 8
    barrier = threading.Barrier(clients)
    answers: list[httpx.Response] = []
    errors: list[BaseException] = []
    before = len(matches(api))

    def create(base: str) -> None:
        try:
            with httpx.Client(base_url=base, timeout=30) as http:
                barrier.wait()
                answers.append(http.post(URL, json=BODY, headers=api.auth(
                    "scorekeeper", **{"Idempotency-Key": "race"})))
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)
            barrier.abort()

    with served(api.app, threads=clients) as base:
        threads = [threading.Thread(target=create, args=(base,)) for _ in range(clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
    assert not errors, errors
    assert sorted(r.status_code for r in answers) == [201] * clients
    assert len({r.json()["id"] for r in answers}) == 1
    assert sum(r.headers.get("Idempotent-Replayed") == "true" for r in answers) == clients - 1
    assert len(matches(api)) == before + 1


def test_the_service_takes_the_key_too(service: Service, club: str) -> None:
    first = service.recording.create_match(club, "parejas", PLAYERS, client_key="cli-1")
    again = service.recording.create_match(club, "parejas", PLAYERS, client_key="cli-1")
    assert not first.replayed and again.replayed and again == first
    try:
        service.recording.create_match(club, "mano-a-mano", PLAYERS[:2], client_key="cli-1")
    except IdempotencyMismatch:
        pass
    else:
        raise AssertionError("a reused key with another request was accepted")
    assert service.reading.list_matches(club)[1] == 1
