"""The first club over HTTP (api/setup.py): the page the setup link opens, whether its code
still works, the club made once with the secretary's token, refused codes counted as refused
sign-ins, and the code in no access log line (it travels in bodies only)."""

from __future__ import annotations

import logging
from typing import Any, Iterator

import pytest
from api_helpers import assert_problem, reused_app
from template_helpers import migrate

from api.context import EXTENSION

CHECK, SETUP = "/api/v1/setup/check", "/api/v1/setup"


@pytest.fixture
def empty(database_url: str) -> Iterator[Any]:
    """The app over a database with no club."""
    app = reused_app(database_url, AUTH_FAILURES="3 per minute")  # the session's, bound to it
    migrate(app.extensions[EXTENSION].engine)
    yield app
    app.extensions[EXTENSION].close()


def test_the_link_makes_the_first_club_once(empty: Any, caplog: pytest.LogCaptureFixture) -> None:
    client, svc = empty.test_client(), empty.extensions[EXTENSION]
    code = svc.setup.issue()["code"]
    with caplog.at_level(logging.INFO, logger="domino.access"):
        page = client.get("/setup")
        checked = client.post(CHECK, json={"code": code})
        made = client.post(SETUP, json={"code": code, "name": "La Ceiba", "language": "it"})
        again = client.post(SETUP, json={"code": code, "name": "Otra", "language": "es"})
    html = page.get_data(as_text=True)
    for hook in ('data-form="setup"', 'name="name"', '<select id="setup-language" name="language"',
                 'data-action="setup"', "data-token", 'data-link="desk"'):
        assert hook in html, hook
    assert checked.status_code == 200 and checked.json["expires_at"]
    assert made.status_code == 201 and made.headers["Cache-Control"] == "no-store"
    body = made.json
    assert body["desk"] == "/clubs/la-ceiba/desk" and body["club"]["language"] == "it"
    assert (body["role"], body["label"]) == ("admin", "first admin") and body["signing_key"]
    club = client.get("/api/v1/clubs/la-ceiba", headers={"Authorization": f"Bearer {body['token']}"})
    assert club.status_code == 200 and club.json["name"] == "La Ceiba"
    desk = client.get(body["desk"], headers={"Authorization": f"Bearer {body['token']}"})
    assert desk.status_code == 200 and 'data-form="settings"' in desk.get_data(as_text=True)
    assert "used already" in assert_problem(again, 401, "unauthorized")["detail"]
    logged = [r.getMessage() for r in caplog.records if r.name == "domino.access"]
    assert len(logged) >= 4 and not any(code in line for line in logged)


def test_a_bad_name_is_refused_and_spends_nothing(empty: Any) -> None:
    client, svc = empty.test_client(), empty.extensions[EXTENSION]
    code = svc.setup.issue()["code"]
    assert_problem(client.post(SETUP, json={"code": code, "name": " ", "language": "es"}), 422)
    assert_problem(client.post(SETUP, json={"code": code, "name": "X", "language": "fr"}), 422)
    assert_problem(client.post(SETUP, json={"code": code}), 422)  # no name
    assert client.post(CHECK, json={"code": code}).status_code == 200


def test_refused_codes_count_as_refused_sign_ins(empty: Any) -> None:
    client = empty.test_client()
    for path, body in ((CHECK, {"code": "guess"}), (SETUP, {"code": "guess", "name": "X"}),
                       (CHECK, {"code": "guess"})):
        assert_problem(client.post(path, json=body), 401)
    body = assert_problem(client.post(CHECK, json={"code": "guess"}), 429)
    assert body["type"].endswith("too-many-attempts")


def test_the_first_club_may_name_the_rules_of_a_new_match(empty: Any) -> None:
    """The setup form offers every preset, the points family's with their words; the one picked
    is the club's default_rules; an unknown one is refused and spends nothing."""
    client, svc = empty.test_client(), empty.extensions[EXTENSION]
    client.set_cookie("lang", "es")
    html = client.get("/setup").get_data(as_text=True)
    assert '<select id="setup-rules" name="default_rules"' in html
    assert ('<option value="fives-and-threes">Fives and Threes · puntos durante el juego por cincos '
            'y treses, a 61 exactos</option>') in html
    code = svc.setup.issue()["code"]
    refused = client.post(SETUP, json={"code": code, "name": "La Ceiba", "default_rules": "fives"})
    assert_problem(refused, 422)
    made = client.post(SETUP, json={"code": code, "name": "La Ceiba", "default_rules": "all-fives"})
    assert made.status_code == 201, made.json
    assert made.json["club"]["default_rules"] == "all-fives"
