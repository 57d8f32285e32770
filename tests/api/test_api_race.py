"""Appends racing over real HTTP: a waitress server in a thread, httpx clients in threads, all
naming the same last sequence number at once. Exactly one wins each seq; every other gets 412
with the winner's ETag; the record has no gap and no duplicate."""

from __future__ import annotations

import threading
from typing import Any

import httpx
from api_helpers import Api, served

CLIENTS = 8
ROUNDS = 12


def test_one_winner_per_seq(api: Api) -> None:
    match_id = api.matches["casino"]
    barrier = threading.Barrier(CLIENTS)
    outcomes: list[list[tuple[int, int, str]]] = [[] for _ in range(ROUNDS)]  # (status, client, etag)
    errors: list[BaseException] = []

    def client(number: int, base: str) -> None:
        headers = api.auth("scorekeeper")
        try:
            with httpx.Client(base_url=base, headers=headers, timeout=30) as http:
                for round_ in range(ROUNDS):
                    seq = 1 + round_  # everyone read the same ETag before racing
                    barrier.wait()
                    r = http.post(f"/api/v1/matches/{match_id}/events",
                                  json={"type": "note", "text": f"client {number} round {round_}"},
                                  headers={"If-Match": f'"{seq}"'})
                    outcomes[round_].append((r.status_code, number, r.headers.get("ETag", "")))
                    if r.status_code == 412:
                        assert r.headers["content-type"] == "application/problem+json"
                        assert r.json()["current_seq"] == seq + 1
        except BaseException as error:  # noqa: BLE001 - reported by the main thread
            errors.append(error)
            barrier.abort()

    with served(api.app, threads=CLIENTS) as base:
        threads = [threading.Thread(target=client, args=(n, base)) for n in range(CLIENTS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
    assert not errors, errors
    winners: dict[int, int] = {}
    for round_, results in enumerate(outcomes):
        statuses = sorted(status for status, _, _ in results)
        assert statuses == [201] + [412] * (CLIENTS - 1), (round_, results)
        # The winner's ETag and every loser's name the same new seq.
        assert {etag for _, _, etag in results} == {f'"{round_ + 2}"'}
        winners[round_ + 2] = next(n for status, n, _ in results if status == 201)
    recorded: list[dict[str, Any]] = api.client.get(
        f"/api/v1/matches/{match_id}/events?after=1", headers=api.auth("referee")).json
    assert [e["seq"] for e in recorded] == list(range(2, ROUNDS + 2))
    for event in recorded:
        assert event["event"]["text"] == f"client {winners[event['seq']]} round {event['seq'] - 2}"


def test_racing_retries_store_once(api: Api) -> None:
    """The same append sent by several connections at once (a client retrying while its first
    try is still in flight) under one Idempotency-Key: stored once, every answer a 201 naming it."""
    match_id = api.matches["casino"]
    barrier = threading.Barrier(CLIENTS)
    answers: list[httpx.Response] = []

    def client(base: str) -> None:
        with httpx.Client(base_url=base, headers=api.auth("scorekeeper"), timeout=30) as http:
            barrier.wait()
            answers.append(http.post(f"/api/v1/matches/{match_id}/events", json=api.events[1],
                                     headers={"If-Match": '"1"', "Idempotency-Key": "tap-1"}))

    with served(api.app, threads=CLIENTS) as base:
        threads = [threading.Thread(target=client, args=(base,)) for _ in range(CLIENTS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
    assert [r.status_code for r in answers] == [201] * CLIENTS
    assert {r.headers["ETag"] for r in answers} == {'"2"'}
    assert sum("Idempotent-Replayed" not in r.headers for r in answers) == 1
    assert len({r.content for r in answers}) == 1  # the same answer, byte for byte
    events = api.client.get(f"/api/v1/matches/{match_id}/events", headers=api.auth("referee")).json
    assert [e["seq"] for e in events] == [1, 2]
