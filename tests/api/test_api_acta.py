"""The verifiable results over HTTP: a finished match's acta (200 with its leaf index, and 409,
403, 404), the club's keys and its transparency log (public on a public club, else a token of
the club), the chain head on the match, its log and its page; for a match in play no digest
anywhere; a body repeating a JSON key is unreadable."""

from __future__ import annotations

import json
import re

from api_helpers import PLAYERS, Api, assert_problem, parejas

from referee.core import chain, merkle
from referee.seal import documents
from referee.seal.keys import read_keys

HEX64 = re.compile(r"[0-9a-f]{64}")
BASE = "/api/v1/clubs/casino"


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
    assert got.headers["Domino-Leaf-Index"] == str(acta["leaf_index"]) == "0"
    assert [p["name"] for p in acta["players"]] == PLAYERS
    keys = api.client.get(f"{BASE}/keys", headers=api.auth("viewer"))
    assert keys.status_code == 200 and keys.json["keys"][0]["key_id"] == acta["key_id"]
    assert documents.signature_problems(acta, read_keys(keys.get_data(as_text=True)),
                                        "the acta") == []
    page = api.client.get(f"/clubs/casino/matches/{m}", headers=api.auth("viewer"))
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and f'data-head="{head}"' in text and "Leaf 0:" in text


def test_the_transparency_log_over_http(api: Api) -> None:
    m = finish(api)
    viewer = api.auth("viewer")
    head = api.client.get(f"{BASE}/transparency/head", headers=viewer).json
    assert head["format"] == "domino-tree-head/1" and head["size"] == 1
    keys = read_keys(api.client.get(f"{BASE}/keys", headers=viewer).get_data(as_text=True))
    assert documents.signature_problems(head, keys, "the tree head") == []
    leaves = api.client.get(f"{BASE}/transparency/leaves?start=0&end=5", headers=viewer).json
    assert [a["match"] for a in leaves] == [m]
    proof = api.client.get(f"{BASE}/transparency/inclusion?index=0&size=1", headers=viewer).json
    assert proof == {"index": 0, "size": 1, "path": []}
    assert documents.inclusion_problems(leaves[0], head, proof) == []
    api.append(m, {"type": "note", "text": "gg"}, len(api.events))  # a new version: leaf 1
    now = api.client.get(f"{BASE}/transparency/head", headers=viewer).json
    proof = api.client.get(f"{BASE}/transparency/consistency?from=1&to=2", headers=viewer).json
    assert proof["from"] == 1 and proof["to"] == 2 and len(proof["path"]) == 1
    assert documents.consistency_problems(head, now, proof) == []
    assert merkle.root([bytes.fromhex(h) for h in [merkle.leaf_hash(documents.leaf(a)).hex()
                        for a in api.client.get(f"{BASE}/transparency/leaves",
                                                headers=viewer).json]]).hex() == now["root"]
    for bad in ("inclusion?index=2", "inclusion?index=0&size=3", "consistency?from=3&to=2",
                "inclusion?index=-1", "leaves?start=x"):
        assert api.client.get(f"{BASE}/transparency/{bad}", headers=viewer).status_code == 422


def test_the_log_is_read_as_the_clubs_pages_are(api: Api) -> None:
    finish(api)
    for path in ("keys", "transparency/head", "transparency/leaves"):
        assert_problem(api.client.get(f"{BASE}/{path}"), 401)  # a private club
        assert_problem(api.client.get(f"{BASE}/{path}", headers=api.auth("admin", "other")), 403)
    api.service.clubs.set_public("casino", True)
    for path in ("keys", "transparency/head", "transparency/leaves",
                 "transparency/inclusion?index=0"):
        assert api.client.get(f"{BASE}/{path}").status_code == 200
    assert_problem(api.client.get("/api/v1/clubs/other/transparency/head",
                                  headers=api.auth("viewer", "other")), 404)  # no key, no head


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


def test_an_acta_waits_for_its_clubs_key(api: Api) -> None:
    m = api.matches["other"]
    for seq, event in enumerate(api.events[1:], start=1):
        assert api.append(m, event, seq, club="other").status_code == 201  # recorded all the same
    body = assert_problem(api.client.get(f"/api/v1/matches/{m}/acta",
                                         headers=api.auth("viewer", "other")), 409, "acta-pending")
    assert "key" in body["detail"] and "domino-keys" not in body["detail"]  # no path leaks
    api.service.keys.init("other")
    # Reading it signs nothing (a read never writes): still pending, now for the signing
    # itself, which the server's background job does (and domino key sign-due at once).
    body = assert_problem(api.client.get(f"/api/v1/matches/{m}/acta",
                                         headers=api.auth("viewer", "other")), 409, "acta-pending")
    assert "key" not in body["detail"]
    assert api.service.jobs.run_due().signed == [(m, 0)]
    assert api.client.get(f"/api/v1/matches/{m}/acta",
                          headers=api.auth("viewer", "other")).json["leaf_index"] == 0


def test_a_body_repeating_a_key_is_unreadable(api: Api) -> None:
    m = api.matches["casino"]
    response = api.client.post(f"/api/v1/matches/{m}/events",
                               data='{"type": "play", "seat": 1, "tile": "0-0", "tile": "6-6"}',
                               content_type="application/json",
                               headers=api.auth("scorekeeper", **{"If-Match": '"1"'}))
    body = assert_problem(response, 400)
    assert "'tile' appears twice" in json.dumps(body)
    header, evs = parejas(3)
    text = json.dumps(header) + "\n" + '{"type": "note", "text": "a", "text": "b"}\n'
    imported = api.client.post(f"{BASE}/matches/import", data=text,
                               content_type="application/x-ndjson", headers=api.auth("referee"))
    body = assert_problem(imported, 422, "invalid")
    assert body["line"] == 2 and "'text' appears twice" in body["detail"]


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
