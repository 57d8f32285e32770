"""A league team's captain signed in by a QR code, as a phone is (referee.service.signin): the
secretary issues the captain's token with a one-time sign-in code (POST .../teams/{team}/captains
with signin), the desk draws its QR code, which opens the season's captain's desk with the code
in the fragment; the code, exchanged once, gives the captain's token, which is the team's
captain (its desk, its confirmations) and nothing more; a second exchange is refused, and only
an admin issues it."""

from __future__ import annotations

import pytest
from api_helpers import Api, assert_problem
from league_helpers import fixture_id, set_up

BASE = "/api/v1/clubs/casino/seasons/2027"
EXCHANGE = "/api/v1/signin-codes/exchange"


def issue(api: Api, team: str = "crown") -> dict:
    answer = api.client.post(f"{BASE}/teams/{team}/captains", json={"signin": True},
                             headers=api.auth("admin"))
    assert answer.status_code == 201, answer.json
    assert answer.headers["Cache-Control"] == "no-store"
    return answer.json


def test_a_captains_code_opens_the_captains_desk_signed_in(api: Api) -> None:
    set_up(api.service, "casino")
    issued = issue(api)
    assert set(issued) == {"token", "code", "expires_at", "opens"} and issued["opens"] == "captain"
    admin = api.service.tokens.authenticate(api.tokens["casino", "admin"])
    assert api.service.signin.qr_target("casino", issued["code"], who=admin) == {
        "opens": "captain", "season": "2027"}
    qr = api.client.post("/clubs/casino/desk/qr", json={"code": issued["code"]},
                         headers=api.auth("admin"))
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml"

    exchanged = api.client.post(EXCHANGE, json={"code": issued["code"]})
    assert exchanged.status_code == 200
    token = exchanged.json["token"]
    assert token == issued["token"] and exchanged.json["role"] == "scorekeeper"
    bearer = {"Authorization": f"Bearer {token}"}
    desk = api.client.get("/clubs/casino/desk/seasons/2027/captain", headers=bearer)
    assert desk.status_code == 200 and b"crown" in desk.data.lower()
    # the captain of crown, and of no other team: another team's fixture is not theirs
    other = fixture_id(api.service, "casino", "bell", "swan")
    assert_problem(api.client.post(f"{BASE}/fixtures/{other}/confirm", json={},
                                   headers=bearer), 403)
    again = assert_problem(api.client.post(EXCHANGE, json={"code": issued["code"]}), 401)
    assert "used already" in again["detail"]
    assert_problem(api.client.post("/clubs/casino/desk/qr", json={"code": issued["code"]},
                                   headers=api.auth("admin")), 404)


@pytest.mark.parametrize("role", ["referee", "scorekeeper"])
def test_only_the_secretary_issues_it(api: Api, role: str) -> None:
    set_up(api.service, "casino")
    tokens = "/api/v1/clubs/casino/tokens"
    before = [t["id"] for t in api.client.get(tokens, headers=api.auth("admin")).json]
    assert_problem(api.client.post(f"{BASE}/teams/crown/captains", json={"signin": True},
                                   headers=api.auth(role)), 403)
    assert_problem(api.client.post(f"{BASE}/teams/nobody/captains", json={"signin": True},
                                   headers=api.auth("admin")), 404)
    assert [t["id"] for t in api.client.get(tokens, headers=api.auth("admin")).json] == before
