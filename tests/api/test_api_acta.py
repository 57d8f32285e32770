"""The verifiable results over HTTP: a finished match's acta (200, and 409, 403, 404), the
public signing key, the chain head on the match, its log and its page; and for a match in play
no digest anywhere, to a viewer who may not see the hands nor to anyone else."""

from __future__ import annotations

import json
import re

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from api_helpers import PLAYERS, Api, api, assert_problem, parejas  # noqa: F401 (fixture)
from referee.core import acta as sheet, chain

HEX64 = re.compile(r"[0-9a-f]{64}")


def finish(api: Api) -> int:
    """The casino match (its first deal recorded) played to its end."""
    m = api.matches["casino"]
    api.record(m, api.events[1:], start=1)
    assert api.client.get(f"/api/v1/matches/{m}", headers=api.auth("viewer")).json["status"] \
        == "finished"
    return m


def test_a_finished_match_carries_its_head_and_a_signed_acta(api: Api) -> None:
    m = finish(api)
    log = api.client.get(f"/api/v1/matches/{m}/log", headers=api.auth("viewer"))
    lines = [json.loads(x) for x in log.get_data(as_text=True).splitlines()]
    head = chain.head(lines[0], lines[1:])
    assert log.headers["Domino-Chain-Head"] == head
    screen = api.client.get(f"/api/v1/matches/{m}", headers=api.auth("viewer"))
    assert screen.json["chain_head"] == head == screen.headers["Domino-Chain-Head"]
    got = api.client.get(f"/api/v1/matches/{m}/acta", headers=api.auth("viewer"))
    assert got.status_code == 200 and got.headers["ETag"] == f'"{len(api.events)}"'
    acta = got.json
    assert acta["chain"]["head"] == head and acta["match"] == m
    assert [p["name"] for p in acta["players"]] == PLAYERS
    key = api.client.get("/api/v1/signing-key")  # no token needed
    assert key.status_code == 200 and key.json["key_id"] == acta["key_id"]
    public = Ed25519PublicKey.from_public_bytes(sheet.decode(key.json["public_key"], "key"))
    public.verify(sheet.decode(acta["signature"], "signature"), sheet.signed_bytes(acta))
    pem = api.client.get("/api/v1/signing-key?format=pem")
    assert pem.get_data(as_text=True) == key.json["pem"]
    page = api.client.get(f"/clubs/casino/matches/{m}", headers=api.auth("viewer"))
    assert page.status_code == 200 and head in page.get_data(as_text=True)


def test_no_acta_while_in_play_nor_for_strangers(api: Api) -> None:
    m = api.matches["casino"]
    body = assert_problem(api.client.get(f"/api/v1/matches/{m}/acta",
                                         headers=api.auth("referee")), 409, "not-finished")
    assert "not finished" in body["detail"]
    finish(api)
    assert_problem(api.client.get(f"/api/v1/matches/{m}/acta",
                                  headers=api.auth("admin", "other")), 404)  # no match, to them
    assert_problem(api.client.get(f"/api/v1/matches/{m}/acta"), 401)
    assert_problem(api.client.get("/api/v1/matches/99999/acta", headers=api.auth("viewer")), 404)


def test_a_live_match_with_hidden_hands_gives_no_digest_anywhere(api: Api) -> None:
    # The casino match: an open deal recorded by setup; a viewer sees it closed.
    m = api.matches["casino"]
    api.record(m, api.events[1:5], start=1)
    for role in ("viewer", "scorekeeper", "referee", "admin"):
        headers = api.auth(role)
        answers = [api.client.get(f"/api/v1/matches/{m}{path}", headers=headers)
                   for path in ("", "/events", "/log", "/report", "/disputes", "/acta")]
        answers.append(api.client.get(f"/clubs/casino/matches/{m}", headers=headers))
        for answer in answers:
            assert "Domino-Chain-Head" not in answer.headers, (role, answer.request.path)
            text = answer.get_data(as_text=True)
            assert not HEX64.search(text), (role, answer.request.path)
        assert answers[0].json["chain_head"] is None
    # What a digest would give away: the head of the record with the hands in it.
    header = json.loads(api.client.get(f"/api/v1/matches/{m}/log", headers=api.auth("referee"))
                        .get_data(as_text=True).splitlines()[0])
    secret = chain.head(header, api.events[:5])
    for role in ("viewer", "referee"):
        for path in ("", "/events", "/log", "/report"):
            answer = api.client.get(f"/api/v1/matches/{m}{path}", headers=api.auth(role))
            assert secret not in answer.get_data(as_text=True)
            assert secret not in str(answer.headers)


def test_a_broken_key_file_is_the_servers_fault(api: Api, tmp_path, monkeypatch) -> None:
    bad = tmp_path / "bad.pem"
    bad.write_text("not a key", encoding="utf-8")
    monkeypatch.setenv("DOMINO_SIGNING_KEY", str(bad))
    assert_problem(api.client.get("/api/v1/signing-key"), 500, "server-error")
