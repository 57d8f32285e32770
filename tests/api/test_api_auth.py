"""The auth matrix: every endpoint, with a token of each role of the resource's own club and of
another club, and with no or an unknown token. Own club and an allowed role: the endpoint's
success; own club and another role: 403; another club: 403 whatever the role; no token: 401.
The roles are a ladder: each may do all that the roles below it may."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import pytest
from api_helpers import ROLES, SERVER_TOKEN, Api, assert_problem, make_api, parejas

from referee.core.log import make_log, write_log

READERS = {"viewer", "scorekeeper", "referee", "admin"}
RECORDERS = {"scorekeeper", "referee", "admin"}
REFEREES = {"referee", "admin"}


@dataclass(frozen=True)
class Endpoint:
    name: str
    method: str
    path: str  # {club} and {match} are filled in with casino's
    allowed: set[str]
    success: int
    body: Callable[[Api], dict[str, Any]] = lambda api: {}


def _log(api: Api) -> dict[str, Any]:
    header, events = parejas(2)
    return {"data": write_log(make_log(header, events)), "content_type": "application/x-ndjson"}


def _append(event: Callable[[Api], dict[str, Any]]) -> Callable[[Api], dict[str, Any]]:
    return lambda api: {"json": event(api), "headers_extra": {"If-Match": '"1"'}}


ENDPOINTS = [
    Endpoint("get club", "GET", "/api/v1/clubs/{club}", READERS, 200),
    Endpoint("list players", "GET", "/api/v1/clubs/{club}/players", READERS, 200),
    Endpoint("create player", "POST", "/api/v1/clubs/{club}/players", {"admin"}, 201,
             lambda api: {"json": {"name": "Zoe"}}),
    Endpoint("create token", "POST", "/api/v1/clubs/{club}/tokens", {"admin"}, 201,
             lambda api: {"json": {"role": "viewer"}}),
    Endpoint("standings", "GET", "/api/v1/clubs/{club}/standings", READERS, 200),
    Endpoint("set tie-breakers", "PATCH", "/api/v1/clubs/{club}", {"admin"}, 200,
             lambda api: {"json": {"tie_breakers": ["won", "head_to_head"]}}),
    Endpoint("list matches", "GET", "/api/v1/clubs/{club}/matches", READERS, 200),
    Endpoint("create match", "POST", "/api/v1/clubs/{club}/matches", RECORDERS, 201,
             lambda api: {"json": {"rules": "parejas", "players": ["Ana", "Beto", "Carla", "Dani"]}}),
    Endpoint("import", "POST", "/api/v1/clubs/{club}/matches/import", REFEREES, 201, _log),
    Endpoint("get match", "GET", "/api/v1/matches/{match}", READERS, 200),
    Endpoint("report", "GET", "/api/v1/matches/{match}/report", READERS, 200),
    Endpoint("log", "GET", "/api/v1/matches/{match}/log", READERS, 200),
    Endpoint("list events", "GET", "/api/v1/matches/{match}/events", READERS, 200),
    Endpoint("append play", "POST", "/api/v1/matches/{match}/events", RECORDERS, 201,
             _append(lambda api: api.events[1])),
    Endpoint("append note", "POST", "/api/v1/matches/{match}/events", RECORDERS, 201,
             _append(lambda api: {"type": "note", "text": "table 3 is noisy"})),
    Endpoint("append ruling", "POST", "/api/v1/matches/{match}/events", REFEREES, 201,
             _append(lambda api: {"type": "penalty", "side": 1, "points": 10, "reason": "renege"})),
]


def _request(endpoint: Endpoint, api: Api, auth: dict[str, str]):  # type: ignore[no-untyped-def]
    kwargs = endpoint.body(api)
    headers = {**auth, **kwargs.pop("headers_extra", {})}
    path = endpoint.path.format(club="casino", match=api.matches["casino"])
    return api.client.open(path, method=endpoint.method, headers=headers, **kwargs)


@pytest.mark.parametrize("club", ["own", "other"])
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=lambda e: e.name)
def test_role_and_club(api: Api, endpoint: Endpoint, role: str, club: str) -> None:
    token_club = "casino" if club == "own" else "other"
    response = _request(endpoint, api, api.auth(role, token_club))
    if club == "own" and role in endpoint.allowed:
        assert response.status_code == endpoint.success, response.get_data(as_text=True)
    elif club == "other" and _by_id(endpoint):
        assert_unknown(api, endpoint, response)
    else:
        assert_problem(response, 403, "forbidden")


def _by_id(endpoint: Endpoint) -> bool:
    """A path naming a match by its id alone: to a token that may not read the match, no match."""
    return endpoint.path.startswith("/api/v1/matches/")


def assert_unknown(api: Api, endpoint: Endpoint, response: Any) -> None:
    """``response`` is what an id naming no match gets, word for word but the id (docs/api.md,
    "404 or 403"): no oracle of which ids exist in another club."""
    body = assert_problem(response, 404, "not-found")
    unknown = api.matches["casino"] + 1000
    kwargs = endpoint.body(api)
    headers = {**api.auth("admin"), **kwargs.pop("headers_extra", {})}
    missing = api.client.open(endpoint.path.format(club="casino", match=unknown),
                              method=endpoint.method, headers=headers, **kwargs)
    expected = assert_problem(missing, 404, "not-found")
    assert body["detail"] == expected["detail"].replace(str(unknown), str(api.matches["casino"]))
    assert set(response.headers.keys()) == set(missing.headers.keys())


JSON = {"Content-Type": "application/json"}
# Requests to paths naming a match by its id, each with something else wrong or stale (its
# If-Match, its query, its body): a token that may not read the match must learn nothing of it.
BY_ID_REQUESTS = [
    ("GET", "/api/v1/matches/{match}?nope=1", {}, None),
    ("GET", "/api/v1/matches/{match}/events?limit=many", {}, None),
    ("GET", "/api/v1/matches/{match}/report", {}, None),
    ("GET", "/api/v1/matches/{match}/log", {}, None),
    ("GET", "/api/v1/matches/{match}/acta", {}, None),
    ("GET", "/api/v1/matches/{match}/disputes/1?format=pdf", {}, None),
    ("POST", "/api/v1/matches/{match}/events", {"If-Match": '"99"', **JSON}, b'{"type": "note", "text": "x"}'),
    ("POST", "/api/v1/matches/{match}/events", {"If-Match": '"1"', **JSON}, b'{"type": "note", "text": "x"}'),
    ("POST", "/api/v1/matches/{match}/events", JSON, b'{"type": "note", "text": "x"}'),
    ("POST", "/api/v1/matches/{match}/events", {"If-Match": "one", **JSON}, b'{"type": "note"}'),
    ("POST", "/api/v1/matches/{match}/events", {"If-Match": '"1"', "Content-Type": "text/plain"}, b"hello"),
    ("POST", "/api/v1/matches/{match}/events", {"If-Match": '"1"', **JSON}, b"[1, 2]"),
    ("POST", "/api/v1/matches/{match}/events?dry_run=perhaps", JSON, b'{"type": "note"}'),
    ("POST", "/api/v1/matches/{match}/disputes/1/penalty", {"If-Match": '"99"'}, None),
]


@pytest.mark.parametrize("request_", BY_ID_REQUESTS, ids=lambda r: f"{r[0]} {r[1]} {r[2]}")
def test_a_token_that_may_not_read_the_match_hears_of_nothing_else(api: Api, request_: Any) -> None:
    """Another club's token (and the server's) is answered as an unknown id is, before any
    other check: not 412 naming the last event, nor 428, 400, 415 or 422 about what it sent."""
    method, path, headers, body = request_
    unknown = api.matches["casino"] + 1000

    def send(match: int, token: str) -> Any:
        return api.client.open(path.format(match=match), method=method, data=body,
                               headers={"Authorization": f"Bearer {token}", **headers})

    missing = send(unknown, api.tokens["casino", "admin"])
    expected = assert_problem(missing, 404, "not-found")
    for token in (api.tokens["other", "admin"], api.tokens["other", "viewer"], SERVER_TOKEN):
        response = send(api.matches["casino"], token)
        body_ = assert_problem(response, 404, "not-found")
        assert body_ == {**expected, "detail": expected["detail"].replace(
            str(unknown), str(api.matches["casino"]))}
        assert set(response.headers.keys()) == set(missing.headers.keys())
    assert api.service.reading.get_match(api.matches["casino"])["last_seq"] == 1  # nothing stored


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=lambda e: e.name)
def test_no_valid_token(api: Api, endpoint: Endpoint) -> None:
    for token in (None, "", "dr_unknown", SERVER_TOKEN + "x", "x" * 5000):
        auth = {} if token is None else {"Authorization": f"Bearer {token}"}
        response = _request(endpoint, api, auth)
        assert_problem(response, 401, "unauthorized")
        assert response.headers["WWW-Authenticate"].startswith("Bearer")


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=lambda e: e.name)
def test_the_server_token_is_no_clubs(api: Api, endpoint: Endpoint) -> None:
    response = _request(endpoint, api, {"Authorization": f"Bearer {SERVER_TOKEN}"})
    if _by_id(endpoint):
        assert_unknown(api, endpoint, response)
    else:
        assert_problem(response, 403)


def test_refused_tokens_are_limited_per_address(database_url: str) -> None:
    """Past AUTH_FAILURES refused tokens, each further refused token from that address gets 429
    with Retry-After; a valid token from it is always let in (one guesser on a club's Wi-Fi
    locks out no phone behind the same router), so is a request without one, and a valid
    sign-in code. Good tokens are never counted, nor is another address."""
    api = make_api(database_url, AUTH_FAILURES="3 per hour")
    try:
        match = f"/api/v1/matches/{api.matches['casino']}"
        for _ in range(5):  # good tokens are never counted
            assert api.client.get(match, headers=api.auth("viewer")).status_code == 200
        for n in range(3):
            assert_problem(api.client.get(match, headers={"Authorization": f"Bearer bad{n}"}), 401)
        for n in range(20):
            limited = api.client.get(match, headers={"Authorization": f"Bearer worse{n}"})
            body = assert_problem(limited, 429, "too-many-attempts")
            assert 0 < int(limited.headers["Retry-After"]) <= 3601 and "Retry-After" in body["detail"]
            # and between the guesses, the phones of the same address
            assert api.client.get(match, headers=api.auth("viewer")).status_code == 200
        assert api.client.get("/api/v1/clubs/casino/scoreboard").status_code in (200, 401)
        assert api.client.get("/api/openapi.json").status_code == 200
        code = api.service.signin.issue("casino", "viewer")["code"]
        assert_problem(api.client.post("/api/v1/signin-codes/exchange", json={"code": "guess"}), 429)
        exchanged = api.client.post("/api/v1/signin-codes/exchange", json={"code": code})
        assert exchanged.status_code == 200
        token = exchanged.get_json()["token"]
        assert api.client.get(match, headers={"Authorization": f"Bearer {token}"}).status_code == 200
        elsewhere = api.client.get(match, headers={"Authorization": "Bearer bad"},
                                   environ_base={"REMOTE_ADDR": "192.0.2.7"})
        assert_problem(elsewhere, 401)
    finally:
        api.service.close()
