"""Every endpoint of the HTTP API, on SQLite and PostgreSQL: what it answers, its headers, its
errors as problem+json."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import quote

import pytest
from api_helpers import PLAYERS, PROBLEM, SERVER_TOKEN, Api, assert_problem, make_api, parejas

from api.schemas import SLUG, AppendedSchema
from referee.core import vocab
from referee.core.log import make_log, write_log
from referee.service import STANDING_COLUMNS, Invalid, checks


def links(response: Any) -> dict[str, str]:
    return {rel: url for url, rel in re.findall(r'<([^>]*)>; rel="(\w+)"', response.headers["Link"])}


def log_text(header: dict[str, Any], events: list[Any]) -> str:
    return write_log(make_log(header, events))


# ---------------------------------------------------------------------------- clubs and tokens

def test_create_club_with_the_server_token(api: Api) -> None:
    r = api.client.post("/api/v1/clubs", json={"slug": "la-plaza", "name": "La Plaza"},
                        headers={"Authorization": f"Bearer {SERVER_TOKEN}"})
    assert r.status_code == 201
    assert r.headers["Location"] == "/api/v1/clubs/la-plaza"
    body = r.json
    assert body["slug"] == "la-plaza" and body["name"] == "La Plaza" and body["created_at"]
    # The first admin token works, for that club only.
    admin = {"Authorization": f"Bearer {body['admin_token']}"}
    assert api.client.get("/api/v1/clubs/la-plaza", headers=admin).json["name"] == "La Plaza"
    assert_problem(api.client.get("/api/v1/clubs/casino", headers=admin), 403, "forbidden")


def test_create_club_refusals(api: Api) -> None:
    server = {"Authorization": f"Bearer {SERVER_TOKEN}"}
    assert_problem(api.client.post("/api/v1/clubs", json={"slug": "x", "name": "X"}), 401)
    assert_problem(api.client.post("/api/v1/clubs", json={"slug": "x", "name": "X"},
                                   headers=api.auth("admin")), 403, "forbidden")
    assert_problem(api.client.post("/api/v1/clubs", json={"slug": "casino", "name": "X"},
                                   headers=server), 409, "duplicate")
    body = assert_problem(api.client.post("/api/v1/clubs", json={"slug": "Bad Slug!", "name": ""},
                                          headers=server), 422, "malformed-request")
    assert set(body["errors"]["json"]) == {"slug", "name"}
    # One slug pattern for every layer (referee.core.vocab.SLUG): a trailing dash is refused by
    # the API's schema and by the service alike.
    assert SLUG.regex is vocab.SLUG and checks.SLUG is vocab.SLUG
    body = assert_problem(api.client.post("/api/v1/clubs", json={"slug": "casino-", "name": "X"},
                                          headers=server), 422, "malformed-request")
    assert set(body["errors"]["json"]) == {"slug"}
    with pytest.raises(Invalid, match="ending with a letter or digit"):
        api.service.clubs.create_club("casino-", "X")
    # The server token is no club's: it reads nothing.
    assert_problem(api.client.get("/api/v1/clubs/casino", headers=server), 403)


def test_without_a_server_token_clubs_come_only_from_the_cli(database_url: str) -> None:
    api = make_api(database_url, ADMIN_TOKEN=None)
    try:
        for token in ("", SERVER_TOKEN):
            r = api.client.post("/api/v1/clubs", json={"slug": "x", "name": "X"},
                                headers={"Authorization": f"Bearer {token}"})
            assert_problem(r, 401)
        r = api.client.post("/api/v1/clubs", json={"slug": "x", "name": "X"}, headers=api.auth("admin"))
        assert_problem(r, 403)
    finally:
        api.service.close()


def test_get_club(api: Api) -> None:
    r = api.client.get("/api/v1/clubs/casino", headers=api.auth("viewer"))
    assert r.status_code == 200 and r.json["slug"] == "casino" and r.json["name"] == "Casino"


def test_create_token(api: Api) -> None:
    r = api.client.post("/api/v1/clubs/casino/tokens", json={"role": "viewer", "label": "screen"},
                        headers=api.auth("admin"))
    assert r.status_code == 201
    assert r.json["role"] == "viewer" and r.json["club"] == "casino" and r.json["label"] == "screen"
    viewer = {"Authorization": f"Bearer {r.json['token']}"}
    assert api.client.get("/api/v1/clubs/casino", headers=viewer).status_code == 200
    assert_problem(api.client.post("/api/v1/clubs/casino/tokens", json={"role": "king"},
                                   headers=api.auth("admin")), 422)


# ---------------------------------------------------------------------------- players

def test_players_paginated_with_links(api: Api) -> None:
    for name in ("Eva", "Fito", "Gus"):
        r = api.client.post("/api/v1/clubs/casino/players", json={"name": name}, headers=api.auth("admin"))
        assert r.status_code == 201 and r.json["name"] == name and r.json["id"]
    assert_problem(api.client.post("/api/v1/clubs/casino/players", json={"name": "Eva"},
                                   headers=api.auth("admin")), 409, "duplicate")
    r = api.client.get("/api/v1/clubs/casino/players?limit=2&offset=2", headers=api.auth("viewer"))
    assert r.status_code == 200 and r.headers["X-Total-Count"] == "7"  # 4 seated + 3
    assert len(r.json) == 2
    rels = links(r)
    assert set(rels) == {"first", "prev", "next", "last"}
    assert "offset=0" in rels["first"] and "offset=0" in rels["prev"]
    assert "offset=4" in rels["next"] and "offset=6" in rels["last"]
    last = api.client.get(rels["last"], headers=api.auth("viewer"))
    assert len(last.json) == 1 and "next" not in links(last)
    assert_problem(api.client.get("/api/v1/clubs/casino/players?limit=0", headers=api.auth("viewer")), 422)


@pytest.mark.parametrize("number", ["２", "²", "+2", " 2", "1_0", "٣"])
def test_a_query_number_is_ascii_digits_alone_as_on_the_pages(api: Api, number: str) -> None:
    # int() takes all but "²" (a superscript str.isdigit took); none is a number here
    # (referee.core.vocab.whole_number), as none is a page's number on the pages
    for url in ("/api/v1/clubs/casino/players?limit=", "/api/v1/clubs/casino/matches?offset=",
                "/api/v1/clubs/casino/transparency/leaves?start="):
        r = api.client.get(url + quote(number), headers=api.auth("viewer"))
        problem = assert_problem(r, 422)
        assert "whole number" in json.dumps(problem), problem
    assert api.client.get("/api/v1/clubs/casino/players?limit=2",
                          headers=api.auth("viewer")).status_code == 200


def test_a_number_in_a_path_is_ascii_digits_alone(api: Api) -> None:
    # werkzeug's <int:> matched \d+, any script's digits: /matches/１ (fullwidth) was match 1
    match_id = api.matches["casino"]
    for digits in (str(match_id), "".join(chr(0xFF10 + int(d)) for d in str(match_id)),
                   "".join(chr(0x0660 + int(d)) for d in str(match_id))):
        ascii_only = digits.isascii()
        for url in (f"/api/v1/matches/{quote(digits)}", f"/clubs/casino/matches/{quote(digits)}"):
            r = api.client.get(url, headers={**api.auth("viewer"), "Accept": "application/json"})
            assert r.status_code == (200 if ascii_only else 404), (url, r.status_code)


def test_a_nul_in_a_path_is_no_address(api: Api) -> None:
    # PostgreSQL's text holds no NUL: a slug with one, read there, was psycopg's DataError (a
    # 500) on every page and operation naming a club, a season, a cup or a tournament
    api.service.clubs.set_public("casino", True)
    for url in ("/clubs/a%00b", "/clubs/casino/seasons/a%00", "/clubs/casino/cups/%00",
                "/clubs/casino/tournaments/%00", "/clubs/casino/desk/tournaments/%00",
                "/api/v1/clubs/a%00b", "/api/v1/clubs/casino/tournaments/%00"):
        for headers in ({}, api.auth("admin")):
            r = api.client.get(url, headers={**headers, "Accept-Language": "es"})
            assert r.status_code == 404, (url, r.status_code, r.get_data(as_text=True)[:300])
            assert assert_problem(r, 404)["detail"].startswith("no hay nada en ")
        if not url.startswith("/api/"):  # a page's address: the 404 page, in the asked language
            page = api.client.get(url, headers={"Accept": "text/html", "Accept-Language": "it"})
            assert page.status_code == 404 and '<html lang="it"' in page.get_data(as_text=True)


# ---------------------------------------------------------------------------- matches

def test_create_match(api: Api) -> None:
    r = api.client.post("/api/v1/clubs/casino/matches", headers=api.auth("scorekeeper"),
                        json={"rules": {"preset": "veracruz", "target": 60},
                              "players": ["Ana", "Hugo", "Ivo"], "table": "3"})
    assert r.status_code == 201
    body = r.json
    assert r.headers["Location"] == f"/api/v1/matches/{body['id']}" and r.headers["ETag"] == '"0"'
    assert body["rules"]["target"] == 60 and body["rules"]["seats"] == 3
    assert body["status"] == "in_progress" and body["last_seq"] == 0 and body["table"] == "3"
    names = {p["name"] for p in api.client.get("/api/v1/clubs/casino/players?limit=50",
                                                headers=api.auth("viewer")).json}
    assert {"Hugo", "Ivo"} <= names  # new players are registered


def test_create_match_refusals(api: Api) -> None:
    sk = api.auth("scorekeeper")
    r = api.client.post("/api/v1/clubs/casino/matches", json={"rules": "chess", "players": PLAYERS}, headers=sk)
    assert "chess" in assert_problem(r, 422, "invalid")["detail"]
    r = api.client.post("/api/v1/clubs/casino/matches", json={"players": PLAYERS}, headers=sk)
    assert "rules" in assert_problem(r, 422, "malformed-request")["errors"]["json"]
    r = api.client.post("/api/v1/clubs/casino/matches", json=["not", "an", "object"], headers=sk)
    assert_problem(r, 422)
    r = api.client.post("/api/v1/clubs/casino/matches", data="{", content_type="application/json", headers=sk)
    assert_problem(r, 400)


def test_list_matches_filtered_and_paginated(api: Api) -> None:
    sk, viewer = api.auth("scorekeeper"), api.auth("viewer")
    for date, players in (("2026-05-02", ["Ana", "Beto"]), ("2026-05-03", ["Eva", "Fito"])):
        r = api.client.post("/api/v1/clubs/casino/matches", headers=sk,
                            json={"rules": "mano-a-mano", "players": players, "date": date})
        assert r.status_code == 201
    header, events = parejas(3)
    r = api.client.post("/api/v1/clubs/casino/matches/import", data=log_text(
        {**header, "date": "2026-04-30"}, events), headers=api.auth("referee"))
    assert r.status_code == 201 and r.json["status"] == "finished"
    finished_id = r.json["id"]

    def ids(query: str) -> list[int]:
        r = api.client.get(f"/api/v1/clubs/casino/matches?{query}", headers=viewer)
        assert r.status_code == 200, r.json
        assert int(r.headers["X-Total-Count"]) >= len(r.json)
        return [m["id"] for m in r.json]

    assert len(ids("")) == 4
    assert ids("status=finished") == [finished_id]
    assert len(ids("status=in_progress")) == 3
    assert len(ids("player=Ana")) == 3 and len(ids("player=Fito")) == 1 and ids("player=Nobody") == []
    assert len(ids("date=2026-05-02")) == 1
    assert len(ids("date_from=2026-05-01&date_to=2026-05-02")) == 2
    assert ids("date_to=2026-04-30") == [finished_id]
    page = api.client.get("/api/v1/clubs/casino/matches?limit=3&status=in_progress", headers=viewer)
    assert page.headers["X-Total-Count"] == "3" and "next" not in links(page)
    page = api.client.get("/api/v1/clubs/casino/matches?limit=1&player=Ana", headers=viewer)
    assert "player=Ana" in links(page)["next"]  # filters carry over
    assert_problem(api.client.get("/api/v1/clubs/casino/matches?status=lost", headers=viewer), 422)
    assert_problem(api.client.get("/api/v1/clubs/casino/matches?date=yesterday", headers=viewer), 422)


def test_import(api: Api) -> None:
    ref = api.auth("referee")
    header, events = parejas(5)
    r = api.client.post("/api/v1/clubs/casino/matches/import", data=log_text(header, events),
                        headers=ref, content_type="application/x-ndjson")
    assert r.status_code == 201 and r.json["last_seq"] == len(events)
    assert r.headers["ETag"] == f'"{len(events)}"'
    match_id = r.json["id"]
    log = api.client.get(f"/api/v1/matches/{match_id}/log", headers=ref)
    # As the club stores it: the header names the club (docs/verify.md).
    assert log.get_data(as_text=True) == log_text({**header, "club": "casino"}, events)
    events_back = api.client.get(f"/api/v1/matches/{match_id}/events", headers=ref).json
    assert {e["recorded_by"] for e in events_back} == {"casino referee (token 2)"}


def test_import_refusals(api: Api) -> None:
    ref = api.auth("referee")
    url = "/api/v1/clubs/casino/matches/import"
    body = assert_problem(api.client.post(url, data='{"format": "domino-log/1"}\n', headers=ref), 422, "invalid")
    assert body["line"] == 1
    body = assert_problem(api.client.post(url, data=b"\xff\xfe", headers=ref), 422, "invalid")
    deep = '{"format": "domino-log/1", "rules": "parejas", "players": ["A", "B", "C", "D"]}\n' + "[" * 100_000
    for body in ("[" * 100_000, deep):
        assert_problem(api.client.post(url, data=body, headers=ref), 422, "invalid")
    header, events = parejas(5)
    bad = events[:3] + [{"type": "pass", "seat": 0}] + events[3:]
    body = assert_problem(api.client.post(url, data=log_text(header, bad), headers=ref), 422, "illegal-event")
    assert body["violation"]["seq"] == 4 and body["violation"]["code"] in ("out_of_turn", "renege")
    # Disputed, the same event is stored, and the match shows it as an open dispute.
    disputed = events[:3] + [{"type": "pass", "seat": 0, "disputed": True}]
    r = api.client.post(url, data=log_text(header, disputed), headers=ref)
    assert r.status_code == 201 and r.json["violations"] == 1
    match = api.client.get(f"/api/v1/matches/{r.json['id']}", headers=api.auth("viewer")).json
    assert [d["seq"] for d in match["disputes"]] == [4]


def test_request_body_limit(database_url: str) -> None:
    api = make_api(database_url, MAX_CONTENT_LENGTH=4096)
    try:
        r = api.client.post("/api/v1/clubs/casino/matches/import", data="x" * 5000,
                            headers=api.auth("referee"))
        assert_problem(r, 413)
        r = api.append(api.matches["casino"], {"type": "note", "text": "x" * 5000}, 1)
        assert_problem(r, 413)
    finally:
        api.service.close()


# ---------------------------------------------------------------------------- the match now

def test_match_resource_gives_the_scorekeeper_screen(api: Api) -> None:
    match_id = api.matches["casino"]
    seq = api.record(match_id, api.events[1:4], 1)
    r = api.client.get(f"/api/v1/matches/{match_id}", headers=api.auth("scorekeeper"))
    assert r.status_code == 200 and r.headers["ETag"] == f'"{seq}"'
    m = r.json
    assert m["seq"] == m["last_seq"] == seq and m["round"] == 1 and m["phase"] == "in_progress"
    assert len(m["line"]) == 3 and len(m["ends"]) == 2
    assert m["turn"] == m["legal"]["seat"] is not None
    assert set(m["legal"]) == {"seat", "plays", "draw", "pass"}
    assert sum(m["counts"]) == 28 - 3 and m["boneyard"] == 0 and m["totals"] == [0, 0]
    assert m["disputes"] == [] and m["players"] == PLAYERS and m["club"] == "casino"
    # Hands nobody at the table has seen stay with the referees while the round is on.
    assert m["hands_hidden"] is True and m["hands"] == [None] * 4 and m["legal"]["plays"] is None
    ref = api.client.get(f"/api/v1/matches/{match_id}", headers=api.auth("referee")).json
    assert ref["hands_hidden"] is False and all(len(h) == c for h, c in zip(ref["hands"], ref["counts"]))
    assert ref["legal"]["plays"] is not None
    # Polling: If-None-Match with the current ETag is a 304.
    r = api.client.get(f"/api/v1/matches/{match_id}", headers=api.auth("viewer", **{"If-None-Match": f'"{seq}"'}))
    assert r.status_code == 304 and r.headers["ETag"] == f'"{seq}"'
    r = api.client.get(f"/api/v1/matches/{match_id}", headers=api.auth("viewer", **{"If-None-Match": '"1"'}))
    assert r.status_code == 200


def test_hands_show_once_the_round_is_over(api: Api) -> None:
    match_id = api.matches["casino"]
    end = next(i for i, e in enumerate(api.events) if i > 0 and e["type"] == "deal")
    api.record(match_id, api.events[1:end], 1)  # the whole first round
    m = api.client.get(f"/api/v1/matches/{match_id}", headers=api.auth("viewer")).json
    assert m["phase"] in ("domino", "blocked") and m["hands_hidden"] is False
    assert any(h for h in m["hands"])
    events = api.client.get(f"/api/v1/matches/{match_id}/events", headers=api.auth("viewer")).json
    assert events[0]["event"]["hands"] == api.events[0]["hands"] and "redacted" not in events[0]


def test_unknown_match(api: Api) -> None:
    for path in ("", "/events", "/report", "/log"):
        assert_problem(api.client.get(f"/api/v1/matches/999999{path}", headers=api.auth("viewer")),
                       404, "not-found")
    assert_problem(api.append(999999, {"type": "note", "text": "x"}, 0), 404)
    assert_problem(api.client.get("/api/v1/matches/abc", headers=api.auth("viewer")), 404)


# ---------------------------------------------------------------------------- appending

def test_append_with_if_match(api: Api) -> None:
    match_id = api.matches["casino"]
    r = api.append(match_id, api.events[1], 1)
    assert r.status_code == 201 and r.headers["ETag"] == '"2"'
    body = r.json
    assert body["seq"] == 2 and body["event"] == api.events[1] and body["violation"] is None
    assert body["position"]["seq"] == 2 and body["position"]["hands_hidden"] is True
    events = api.client.get(f"/api/v1/matches/{match_id}/events?after=1", headers=api.auth("viewer")).json
    assert events[0]["recorded_by"] == "casino scorekeeper (token 3)" and events[0]["recorded_at"]


def test_append_preconditions(api: Api) -> None:
    match_id = api.matches["casino"]
    url = f"/api/v1/matches/{match_id}/events"
    r = api.client.post(url, json=api.events[1], headers=api.auth("scorekeeper"))
    assert_problem(r, 428, "if-match-required")
    r = api.client.post(url, json=api.events[1], headers=api.auth("scorekeeper", **{"If-Match": "*"}))
    assert_problem(r, 428)
    for stale in ('"0"', '"5"', 'W/"1"', '"0", "5"'):
        r = api.client.post(url, json=api.events[1], headers=api.auth("scorekeeper", **{"If-Match": stale}))
        body = assert_problem(r, 412, "stale-if-match")
        assert r.headers["ETag"] == '"1"' and body["current_seq"] == 1
    # Not entity tags quoting sequence numbers: a client bug, not a stale read.
    for malformed in ('"x"', "1", ""):
        r = api.client.post(url, json=api.events[1], headers=api.auth("scorekeeper", **{"If-Match": malformed}))
        assert_problem(r, 400, "malformed-if-match")
    # If-Match compares strongly (a weak tag never matches, above); of several tags, the one
    # naming the current seq counts.
    assert api.client.post(url, json=api.events[1],
                           headers=api.auth("scorekeeper", **{"If-Match": '"0", "1"'})).status_code == 201


def test_illegal_event_names_the_violation(api: Api) -> None:
    match_id = api.matches["casino"]
    opener = api.events[1]["seat"]
    wrong = {"type": "play", "seat": (opener + 1) % 4, "tile": "6-6"}
    # The deal was recorded open (by the operator): a referee's record shows who holds the
    # 6-6, so the referee hears why the lead is wrong (a scorekeeper who did not type the deal
    # is judged on the table as it saw it: tests/api/test_api_visibility.py).
    body = assert_problem(api.append(match_id, wrong, 1, role="referee"), 422, "illegal-event")
    assert body["violation"]["code"] == "wrong_opener" and body["violation"]["seq"] == 2
    assert body["violation"]["seat"] == (opener + 1) % 4 and body["violation"]["message"]
    body = assert_problem(api.append(match_id, {"type": "jump"}, 1), 422, "illegal-event")
    assert body["violation"]["code"] == "bad_event"
    assert_problem(api.append(match_id, [1, 2], 1), 422)
    # Nothing was stored.
    assert api.client.get(f"/api/v1/matches/{match_id}", headers=api.auth("viewer")).json["last_seq"] == 1
    # Disputed, it is stored, with its violation, and the match lists it as open.
    r = api.append(match_id, {**wrong, "disputed": True}, 1, role="referee")
    assert r.status_code == 201 and r.json["violation"]["code"] == "wrong_opener"
    m = api.client.get(f"/api/v1/matches/{match_id}", headers=api.auth("referee")).json
    assert [d["code"] for d in m["disputes"]] == ["wrong_opener"] and m["violations"] == 1
    # A referee voids it: the dispute is closed.
    r = api.append(match_id, {"type": "void", "target": 2, "reason": "not what happened"}, 2, role="referee")
    assert r.status_code == 201
    m = api.client.get(f"/api/v1/matches/{match_id}", headers=api.auth("referee")).json
    assert m["disputes"] == [] and m["violations"] == 0


def test_an_event_whose_type_is_not_text_is_refused_as_a_bad_event(api: Api) -> None:
    """A type that is a list or an object (unhashable) is judged like any malformed event: 422
    naming it, on an append and on a preview, and nothing stored (schemathesis found a 500)."""
    match_id = api.matches["casino"]
    url = f"/api/v1/matches/{match_id}/events"
    odd = [{"type": []}, {"type": {"play": 1}, "seat": 0},
           {"type": "amend", "target": 2, "event": {"type": [], "seat": 0}, "reason": "x"}]
    for event in odd:
        body = assert_problem(api.append(match_id, event, 1, role="referee"), 422, "illegal-event")
        assert body["violation"]["code"] == "bad_event" and body["violation"]["seq"] == 2
        preview = api.client.post(f"{url}?dry_run=true", json=event, headers=api.auth("referee"))
        assert preview.status_code == 200, preview.get_data(as_text=True)
        assert [v["code"] for v in preview.json["report"]["violations"]] == ["bad_event"]
    assert api.client.get(f"/api/v1/matches/{match_id}", headers=api.auth("viewer")).json["last_seq"] == 1


def test_null_in_an_optional_field_of_an_append_is_the_field_left_out(api: Api) -> None:
    """docs/log.md: null in an optional field is the field left out, and an import took such a
    line; an append was webargs' 422 "may not be empty" (found by fuzzing: an imported log's
    lines appended one by one). The referee judges them, as in an import: "seq": null is its
    bad_event (docs/readings.md)."""
    match_id = api.matches["casino"]
    url = f"/api/v1/matches/{match_id}/events"
    nulled = {**api.events[1], "end": None, "disputed": None}
    preview = api.client.post(f"{url}?dry_run=true", json=nulled, headers=api.auth("referee"))
    assert preview.status_code == 200 and preview.json["report"]["valid"], preview.json
    r = api.append(match_id, nulled, 1)
    assert r.status_code == 201 and r.json["violation"] is None, r.json
    r = api.append(match_id, {"type": "penalty", "side": 0, "points": 5, "reason": "talking",
                              "target": None}, 2, role="referee")
    assert r.status_code == 201, r.json
    body = assert_problem(api.append(match_id, {**api.events[2], "seq": None}, 3), 422, "illegal-event")
    assert body["violation"]["code"] == "bad_event" and body["violation"]["seq"] == 4
    created = api.client.post("/api/v1/clubs/casino/matches", headers=api.auth("scorekeeper"),
                              json={"rules": "parejas", "players": PLAYERS})
    closed = api.append(created.json["id"], {"type": "deal", "hands": None}, 0)
    assert closed.status_code == 201 and closed.json["event"] == {"type": "deal", "hands": None}


def test_a_penalty_past_a_scores_limit_is_refused_not_a_server_error(api: Api) -> None:
    """A penalty of 10**20 points ending the match was a 500 (the standings' integer column:
    SQLite's 64 bits; on PostgreSQL 3,000,000,000 already); a penalty's points are from
    -100,000 to 100,000 (docs/readings.md): 422 bad_event, on an import and on an append."""
    header = {"format": "domino-log/1", "rules": "mano-a-mano", "players": ["Ana", "Beto"]}
    for points in (3_000_000_000, 10**20):
        penalty = {"type": "penalty", "side": 0, "points": points, "reason": "r"}
        body = assert_problem(api.client.post("/api/v1/clubs/casino/matches/import",
                                              data=log_text(header, [penalty]),
                                              headers=api.auth("referee")), 422, "illegal-event")
        assert body["violation"]["code"] == "bad_event" and body["violation"]["seq"] == 1
        match_id = api.matches["casino"]
        body = assert_problem(api.append(match_id, penalty, 1, role="referee"), 422, "illegal-event")
        assert body["violation"]["message"] == "points must be from -100000 to 100000"
    limit = {"type": "penalty", "side": 0, "points": 100_000, "reason": "r"}
    assert api.client.post("/api/v1/clubs/casino/matches/import", data=log_text(header, [limit]),
                           headers=api.auth("referee")).status_code == 201


def test_idempotency_key(api: Api) -> None:
    match_id = api.matches["casino"]
    first = api.append(match_id, api.events[1], 1, **{"Idempotency-Key": "tap-17"})
    assert first.status_code == 201 and "Idempotent-Replayed" not in first.headers
    # The retry (its If-Match now stale) gets the first answer again; nothing more is stored.
    again = api.append(match_id, api.events[1], 1, **{"Idempotency-Key": "tap-17"})
    assert again.status_code == 201 and again.json == first.json
    assert again.headers["ETag"] == first.headers["ETag"] and again.headers["Idempotent-Replayed"] == "true"
    other = api.append(match_id, api.events[2], 2, **{"Idempotency-Key": "tap-17"})
    assert_problem(other, 422, "idempotency-key-reused")
    assert api.client.get(f"/api/v1/matches/{match_id}", headers=api.auth("viewer")).json["last_seq"] == 2


def test_the_append_answer_is_its_schema_dumped(api: Api) -> None:
    """The 201 body is built without AppendedSchema's dump (api/events.py): it must be what
    the dump gives, for every event of a match, as scorekeepers and referees see it, with
    hands hidden, a stored dispute and a retried key among them."""
    schema = AppendedSchema()
    match_id = api.matches["casino"]
    answers = []
    for seq, event in enumerate(api.events[1:], start=1):
        role = "referee" if seq % 3 == 0 else "scorekeeper"
        answers.append(api.append(match_id, event, seq, role=role, **{"Idempotency-Key": f"k{seq}"}))
    answers.append(api.append(match_id, api.events[1], 1, **{"Idempotency-Key": "k1"}))
    other = api.matches["other"]
    wrong = {"type": "play", "seat": (api.events[1]["seat"] + 1) % 4, "tile": "6-6", "disputed": True}
    answers.append(api.append(other, wrong, 1, role="referee", club="other"))
    assert answers[-2].headers["Idempotent-Replayed"] == "true"
    assert answers[-1].json["violation"] is not None
    assert any(a.json["position"]["hands_hidden"] for a in answers)
    for answer in answers:
        assert answer.status_code == 201, answer.json
        assert schema.dump(answer.json) == answer.json


def test_rulings_take_a_referee(api: Api) -> None:
    match_id = api.matches["casino"]
    penalty = {"type": "penalty", "side": 0, "points": -5, "reason": "talking"}
    assert_problem(api.append(match_id, penalty, 1, role="scorekeeper"), 403, "forbidden")
    r = api.append(match_id, penalty, 1, role="referee")
    assert r.status_code == 201 and r.json["position"]["totals"] == [-5, 0]
    # A referee records play too, and sees the hands in the answer.
    r = api.append(match_id, api.events[1], 2, role="referee")
    assert r.status_code == 201 and r.json["position"]["hands_hidden"] is False


# ---------------------------------------------------------------------------- reading the record

def test_events_paginated_by_seq(api: Api) -> None:
    match_id = api.matches["casino"]
    seq = api.record(match_id, api.events[1:6], 1)
    r = api.client.get(f"/api/v1/matches/{match_id}/events?after=2&limit=2", headers=api.auth("referee"))
    assert r.status_code == 200 and [e["seq"] for e in r.json] == [3, 4]
    assert r.headers["ETag"] == f'"{seq}"' and r.headers["X-Total-Count"] == str(seq)
    rels = links(r)
    assert "after=4" in rels["next"] and "after=0" in rels["first"] and "after=0" in rels["prev"]
    assert "after=4" in rels["last"]
    tail = api.client.get(rels["next"], headers=api.auth("referee"))
    assert [e["seq"] for e in tail.json] == [5, 6] and "next" not in links(tail)


def test_events_and_log_hide_the_round_in_progress(api: Api) -> None:
    match_id = api.matches["casino"]
    api.record(match_id, api.events[1:3], 1)
    for role in ("viewer", "scorekeeper"):
        events = api.client.get(f"/api/v1/matches/{match_id}/events", headers=api.auth(role)).json
        assert events[0]["event"] == {"type": "deal"}  # as the phone deals closed
        assert "redacted" not in events[0]  # as if recorded closed: nothing tells them apart
        assert events[1]["event"] == api.events[1]
        # A page after the deal still hides nothing it should not, and a page of it hides it.
        page = api.client.get(f"/api/v1/matches/{match_id}/events?limit=1", headers=api.auth(role)).json
        assert page[0]["event"] == {"type": "deal"}
        log = api.client.get(f"/api/v1/matches/{match_id}/log", headers=api.auth(role))
        lines = [json.loads(line) for line in log.get_data(as_text=True).splitlines()]
        assert lines[1] == {"type": "deal"} and lines[2] == api.events[1]
    for role in ("referee", "admin"):  # the ladder: an admin is a referee too
        events = api.client.get(f"/api/v1/matches/{match_id}/events", headers=api.auth(role)).json
        assert events[0]["event"] == api.events[0]
        log = api.client.get(f"/api/v1/matches/{match_id}/log", headers=api.auth(role))
        assert json.loads(log.get_data(as_text=True).splitlines()[1]) == api.events[0]


def test_report_and_log(api: Api) -> None:
    match_id = api.matches["casino"]
    seq = api.record(match_id, api.events[1:], 1)
    r = api.client.get(f"/api/v1/matches/{match_id}/report", headers=api.auth("viewer"))
    assert r.status_code == 200 and r.headers["ETag"] == f'"{seq}"'
    report = r.json
    assert report["format"] == "domino-report/1" and report["valid"] and report["finished"]
    assert report["winner"] in (0, 1) and max(report["totals"]) >= 50 and report["rounds"]
    r = api.client.get(f"/api/v1/matches/{match_id}/report", headers=api.auth("viewer", **{"If-None-Match": f'"{seq}"'}))
    assert r.status_code == 304
    log = api.client.get(f"/api/v1/matches/{match_id}/log", headers=api.auth("viewer"))
    assert log.status_code == 200 and log.mimetype == "application/x-ndjson"
    assert log.headers["ETag"] == f'"{seq}"'
    lines = log.get_data(as_text=True).splitlines()
    assert json.loads(lines[0])["format"] == "domino-log/1" and [json.loads(x) for x in lines[1:]] == api.events


def test_standings(api: Api) -> None:
    header, events = parejas(11)
    r = api.client.post("/api/v1/clubs/casino/matches/import", data=log_text(header, events),
                        headers=api.auth("referee"))
    winner = r.json["winner"]
    rows = api.client.get("/api/v1/clubs/casino/standings", headers=api.auth("viewer")).json
    by_name = {row["player"]: row for row in rows}
    assert set(by_name) == set(PLAYERS)
    assert all(row["played"] == 1 for row in rows)
    assert {name for name, row in by_name.items() if row["won"]} == {PLAYERS[winner], PLAYERS[winner + 2]}
    csv = api.client.get("/api/v1/clubs/casino/standings?format=csv", headers=api.auth("viewer"))
    assert csv.status_code == 200 and csv.mimetype == "text/csv"
    lines = csv.get_data(as_text=True).splitlines()
    assert lines[0] == ",".join(STANDING_COLUMNS) and len(lines) == 5
    assert_problem(api.client.get("/api/v1/clubs/casino/standings?format=xml", headers=api.auth("viewer")), 422)


# ---------------------------------------------------------------------------- HTTP itself

def test_http_errors_are_problems(api: Api) -> None:
    assert_problem(api.client.get("/api/v1/nowhere", headers=api.auth("viewer")), 404)
    r = api.client.delete("/api/v1/clubs/casino", headers=api.auth("admin"))
    assert_problem(r, 405)
    assert "GET" in r.headers["Allow"]
    r = api.client.get("/api/v1/clubs/casino", headers={"Authorization": "Bearer nope"})
    assert_problem(r, 401, "unauthorized")
    assert r.headers["WWW-Authenticate"].startswith("Bearer")
    r = api.client.get("/api/v1/clubs/casino", headers={"Authorization": "Basic YTpi"})
    assert_problem(r, 401)


def test_hostile_json_is_a_client_error(api: Api) -> None:
    match_id = api.matches["casino"]
    headers = api.auth("scorekeeper", **{"If-Match": '"1"'})
    nested = '{"type": "note", "text": "x", "extra": ' + "[" * 970 + "]" * 970 + "}"
    for body in ("[" * 50_000, nested, '{"type": "note", "text": NaN}', "\xff", '{"a": 1e999999}'):
        r = api.client.post(f"/api/v1/matches/{match_id}/events", data=body.encode("latin-1"),
                            content_type="application/json", headers=headers)
        assert 400 <= r.status_code < 500, (body[:20], r.status_code)
        assert r.mimetype == PROBLEM
    # A lone surrogate escape is JSON; it is stored and given back as it came.
    r = api.client.post(f"/api/v1/matches/{match_id}/events", data='{"type": "note", "text": "\\ud800"}',
                        content_type="application/json", headers=headers)
    assert r.status_code == 201 and r.json["event"]["text"] == "\ud800"


def test_unexpected_errors_are_logged_and_hidden(api: Api, monkeypatch: Any) -> None:
    def boom(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(api.service.reading, "report", boom)
    r = api.client.get(f"/api/v1/matches/{api.matches['casino']}/report", headers=api.auth("viewer"))
    body = assert_problem(r, 500, "server-error")
    assert "secret" not in r.get_data(as_text=True) and body["title"]


def test_every_pattern_of_the_document_is_a_regex_every_validator_reads(api: Api) -> None:
    """A pattern some validators cannot read (a surrogate range: not for engines of Unicode
    text, Rust's among them) made schemathesis, and any such client, drop it; the names'
    pattern then admitted control characters the service refuses."""
    import jsonschema_rs

    patterns: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("pattern"), str):
                patterns.append(node["pattern"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(api.client.get("/api/openapi.json").json)
    assert len(set(patterns)) >= 2
    for pattern in set(patterns):
        jsonschema_rs.validator_for({"type": "string", "pattern": pattern})  # raises if not
    typed = next(p for p in patterns if "x1f" in p)
    name = jsonschema_rs.validator_for({"type": "string", "pattern": typed})
    assert name.is_valid("Ana María") and not any(name.is_valid(v) for v in ("a\tb", "a\x85", " ", "a\n"))


def test_the_document_says_a_settings_change_names_one(api: Api) -> None:
    doc = api.client.get("/api/openapi.json").json
    assert doc["components"]["schemas"]["ClubSettings"]["minProperties"] == 1
    r = api.client.patch("/api/v1/clubs/casino", json={}, headers=api.auth("admin"))
    assert_problem(r, 422)


def test_openapi_and_offline_docs(api: Api) -> None:
    spec = api.client.get("/api/openapi.json").json
    assert spec["openapi"].startswith("3.")
    paths = spec["paths"]
    for path in ("/api/v1/clubs", "/api/v1/clubs/{club}", "/api/v1/clubs/{club}/players",
                 "/api/v1/clubs/{club}/matches", "/api/v1/clubs/{club}/matches/import",
                 "/api/v1/matches/{match_id}", "/api/v1/matches/{match_id}/events",
                 "/api/v1/matches/{match_id}/report", "/api/v1/matches/{match_id}/log",
                 "/api/v1/clubs/{club}/standings"):
        assert path in paths
    assert spec["components"]["securitySchemes"]["bearer"]["scheme"] == "bearer"
    page = api.client.get("/api/docs")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    # Every asset the page loads is served here: no CDN.
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert sources and all(s.startswith("/api/docs/assets/") for s in sources)
    for source in sources:
        assert api.client.get(source).status_code == 200
    assert "/api/openapi.json" in html


def test_a_huge_if_match_and_an_encoded_surrogate_are_refused_not_500s(api: Api) -> None:
    match_id = api.matches["casino"]
    huge = api.client.post(f"/api/v1/matches/{match_id}/events", json={"type": "note", "text": "x"},
                           headers=api.auth("scorekeeper", **{"If-Match": '"' + "9" * 4301 + '"'}))
    assert huge.status_code in (400, 412), huge.get_data(as_text=True)
    surrogate = api.client.post(f"/api/v1/matches/{match_id}/events",
                                data=b'{"type": "note", "text": "\xed\xa0\x80"}',
                                headers=api.auth("scorekeeper", **{"If-Match": '"1"',
                                                                   "Content-Type": "application/json"}))
    assert surrogate.status_code in (400, 422), surrogate.get_data(as_text=True)
