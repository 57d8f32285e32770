"""HTTP itself, refused clearly: a body that is not JSON, an If-Match that is not one, a body
too large however it is sent, and the server's own errors, each as problem+json, with nothing
stored."""

from __future__ import annotations

import io
import socket
from typing import Any

import pytest
from api_helpers import Api, assert_problem, make_api, served


def last_seq(api: Api, club: str = "casino") -> int:
    match = api.client.get(f"/api/v1/matches/{api.matches[club]}", headers=api.auth("viewer"))
    return match.json["last_seq"]


def match_count(api: Api) -> int:
    r = api.client.get("/api/v1/clubs/casino/matches", headers=api.auth("viewer"))
    return int(r.headers["X-Total-Count"])


# ---------------------------------------------------------------------------- 415

@pytest.mark.parametrize("body", [
    {"data": {"type": "note", "text": "x"}},  # a form
    {"data": '{"type": "note", "text": "x"}', "content_type": "text/plain"},
    {"data": '{"type": "note", "text": "x"}'},  # JSON, but not said to be
    {"data": "", "content_type": "application/x-www-form-urlencoded"},
])
def test_a_body_that_is_not_json_is_415(api: Api, body: dict[str, Any]) -> None:
    match_id = api.matches["casino"]
    r = api.client.post(f"/api/v1/matches/{match_id}/events", **body,
                        headers=api.auth("scorekeeper", **{"If-Match": '"1"'}))
    problem = assert_problem(r, 415)
    assert "JSON" in problem["detail"]
    assert last_seq(api) == 1  # nothing stored (a form used to be read as an empty event)


def test_every_json_endpoint_refuses_other_bodies(api: Api) -> None:
    before = match_count(api)
    form = {"rules": "parejas", "players": "Ana"}
    for url, role in (("/api/v1/clubs/casino/matches", "scorekeeper"),
                      ("/api/v1/clubs/casino/players", "admin")):
        assert_problem(api.client.post(url, data=form, headers=api.auth(role)), 415)
    assert_problem(api.client.post("/api/v1/clubs", data={"slug": "x", "name": "X"},
                                   headers={"Authorization": "Bearer server-admin-secret-for-tests"}),
                   415)
    assert match_count(api) == before
    # JSON with a charset or a +json type is JSON; no body at all is the schema's business.
    r = api.client.post("/api/v1/clubs/casino/matches", data='{"rules": "parejas", "players": ["A", "B", "C", "D"]}',
                        content_type="application/json; charset=utf-8", headers=api.auth("scorekeeper"))
    assert r.status_code == 201
    r = api.client.post("/api/v1/clubs/casino/players", headers=api.auth("admin"))
    assert_problem(r, 422, "malformed-request")


@pytest.mark.parametrize("body, said", [
    (b'{"type": "draw" "seat": 1}', {"en": "line 1, column 17: a comma was expected",
                                     "es": "línea 1, columna 17: se esperaba una coma",
                                     "it": "riga 1, colonna 17: era attesa una virgola"}),
    (b'{"type": "note",\n "seq": NaN}', {"en": "NaN is not JSON", "es": "NaN no es JSON",
                                         "it": "NaN non è JSON"}),
    (b'{"points": 1e999}', {"en": "1e999 is too large a number",
                            "es": "1e999 es un número demasiado grande",
                            "it": "1e999 è un numero troppo grande"}),
    (b"[" * 2000, {"en": "the JSON is nested too deeply", "es": "el JSON está anidado demasiado hondo",
                   "it": "il JSON è annidato troppo in profondità"}),
    (b'{"x": "\xff"}', {"en": "the text is not UTF-8 (byte 7)", "es": "el texto no es UTF-8 (byte 7)",
                         "it": "il testo non è UTF-8 (byte 7)"}),
])
def test_a_body_that_cannot_be_read_says_where_and_what_in_the_callers_language(
        api: Api, body: bytes, said: dict[str, str]) -> None:
    # json's English ("Expecting ',' delimiter") and Python's ("maximum recursion depth
    # exceeded while decoding a JSON array", "'utf-8' codec can't decode byte") were the words
    before = last_seq(api)
    headers = {**api.auth("scorekeeper"), "Content-Type": "application/json",
               "If-Match": f'"{before}"'}
    body_words = {"en": "the body is not JSON: ", "es": "el cuerpo de la petición no es JSON: ",
                  "it": "il corpo della richiesta non è JSON: "}
    for lang, words in said.items():
        r = api.client.post(f"/api/v1/matches/{api.matches['casino']}/events", data=body,
                            headers={**headers, "Accept-Language": lang})
        assert assert_problem(r, 400)["errors"] == {"json": [body_words[lang] + words]}
    assert last_seq(api) == before  # nothing recorded


def test_the_import_takes_its_log_as_text_whatever_the_type(api: Api) -> None:
    # Not a JSON endpoint: a domino-log/1 is JSON Lines, sent as x-ndjson or text/plain.
    r = api.client.post("/api/v1/clubs/casino/matches/import", data="not a log",
                        content_type="text/plain", headers=api.auth("referee"))
    assert_problem(r, 422, "invalid")


# ---------------------------------------------------------------------------- If-Match

@pytest.mark.parametrize("value", ['"x"', "1", "", "  ", '"1', '"1" "2"', '"1",,', 'W/"x"',
                                   '"1", garbage', '"-1"', '"1.0"', '"1e3"'])
def test_an_if_match_that_is_not_quoted_integers_is_400(api: Api, value: str) -> None:
    match_id = api.matches["casino"]
    r = api.client.post(f"/api/v1/matches/{match_id}/events", json=api.events[1],
                        headers=api.auth("scorekeeper", **{"If-Match": value}))
    body = assert_problem(r, 400, "malformed-if-match")
    assert "If-Match" in body["detail"]
    assert last_seq(api) == 1


def test_if_match_missing_stale_and_current(api: Api) -> None:
    match_id = api.matches["casino"]
    url = f"/api/v1/matches/{match_id}/events"
    assert_problem(api.client.post(url, json=api.events[1], headers=api.auth("scorekeeper")),
                   428, "if-match-required")
    for stale in ('"0"', '"5"', 'W/"1"', '"0", "5"', '"99999999999999999999"'):
        r = api.client.post(url, json=api.events[1],
                            headers=api.auth("scorekeeper", **{"If-Match": stale}))
        body = assert_problem(r, 412, "stale-if-match")
        assert r.headers["ETag"] == '"1"' and body["current_seq"] == 1
    r = api.client.post(url, json=api.events[1],
                        headers=api.auth("scorekeeper", **{"If-Match": ' W/"1" , "1" '}))
    assert r.status_code == 201 and r.headers["ETag"] == '"2"'


# ---------------------------------------------------------------------------- 413

def chunked(api: Api, url: str, body: bytes, **headers: str) -> Any:
    """A request as a server hands over a chunked body: no Content-Length, the stream ended by
    the server (wsgi.input_terminated)."""
    return api.client.post(url, input_stream=io.BytesIO(body),
                           headers={"Transfer-Encoding": "chunked", **headers},
                           environ_overrides={"wsgi.input_terminated": True})


def test_an_oversized_chunked_body_is_413(database_url: str) -> None:
    api = make_api(database_url, MAX_CONTENT_LENGTH=200)
    try:
        match_id = api.matches["casino"]
        url = f"/api/v1/matches/{match_id}/events"
        big = b'{"type": "note", "text": "' + b"x" * 300 + b'"}'
        r = chunked(api, url, big, **api.auth("scorekeeper", **{"If-Match": '"1"'}),
                    **{"Content-Type": "application/json"})
        assert "200 bytes" in assert_problem(r, 413)["detail"]
        header = b'{"format": "domino-log/1", "rules": "parejas", "players": ["A", "B", "C", "D"]}\n'
        r = chunked(api, "/api/v1/clubs/casino/matches/import", header + b" " * 300,
                    **api.auth("referee"))
        assert_problem(r, 413)  # it used to be read cut short at the limit
        assert last_seq(api) == 1 and match_count(api) == 1
        # Within the limit, to the byte, a chunked body is read whole.
        exact = b'{"type": "note", "text": "' + b"y" * (200 - 28) + b'"}'
        assert len(exact) == 200
        r = chunked(api, url, exact, **api.auth("scorekeeper", **{"If-Match": '"1"'}),
                    **{"Content-Type": "application/json"})
        assert r.status_code == 201 and r.json["event"]["text"] == "y" * 172
        r = chunked(api, "/api/v1/clubs/casino/matches/import", header, **api.auth("referee"))
        assert r.status_code == 201
    finally:
        api.service.close()


# ---------------------------------------------------------------------------- the server's own

def raw_request(base: str, data: bytes) -> tuple[int, str, bytes]:
    host, port = base.rsplit("//", 1)[1].split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(data)
        out = b""
        while chunk := sock.recv(65536):
            out += chunk
    head, _, body = out.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers.get("content-type", ""), body


def test_the_servers_own_errors_are_problems(api: Api) -> None:
    token = api.tokens["casino", "scorekeeper"].encode()
    with served(api.app) as base:
        for request, status in (
            (b"GET /nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 404),
            (b"GET /api/v1/clubs/casino/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 404),
            (b"DELETE /api/v1/clubs HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 405),
            (b"POST /api/v1/clubs/casino/players HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
             b"Content-Type: application/json\r\nContent-Length: 3\r\nAuthorization: Bearer "
             + token + b"\r\n\r\n{{{", 400),
        ):
            code, content_type, body = raw_request(base, request)
            assert (code, content_type) == (status, "application/problem+json"), body
            assert b"<html" not in body.lower()
