"""The club desk over HTTP: sign-in codes issued by admins and exchanged once (problem+json on
a used, expired or unknown code, counted as refused sign-ins), the desk's page by role, its QR
code, and the "did you mean" suggestions a close name gets."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from api_helpers import UNREADABLE_JSON, Api, assert_problem, make_api

from referee.service.signin import CODE_LIFETIME

CODES = "/api/v1/clubs/casino/signin-codes"
EXCHANGE = "/api/v1/signin-codes/exchange"


def issue(api: Api, role: str = "scorekeeper", label: str | None = "Mesa 2") -> dict:
    response = api.client.post(CODES, json={"role": role, "label": label}, headers=api.auth("admin"))
    assert response.status_code == 201, response.json
    return response.json


def test_a_code_is_exchanged_once(api: Api) -> None:
    issued = issue(api)
    assert set(issued) == {"id", "club", "role", "label", "token", "code", "expires_at", "opens"}
    assert issued["opens"] == "score"
    assert issued["role"] == "scorekeeper" and issued["label"] == "Mesa 2"
    response = api.client.post(EXCHANGE, json={"code": issued["code"]})
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-store"
    assert response.json == {"token": issued["token"], "club": "casino", "role": "scorekeeper",
                             "label": "Mesa 2"}
    me = api.client.get("/score/me", headers={"Authorization": "Bearer " + issued["token"]})
    assert me.json["role"] == "scorekeeper"
    again = assert_problem(api.client.post(EXCHANGE, json={"code": issued["code"]}), 401,
                           "unauthorized")
    assert "used already" in again["detail"]
    listed = api.client.get("/api/v1/clubs/casino/tokens", headers=api.auth("admin")).json
    assert [t["label"] for t in listed if t["id"] == issued["id"]] == ["Mesa 2"]


def test_an_expired_code_is_refused(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    issued = issue(api)
    later = dt.datetime.now(dt.timezone.utc) + CODE_LIFETIME + dt.timedelta(seconds=5)
    monkeypatch.setattr(api.service.signin, "clock", lambda: later)
    body = assert_problem(api.client.post(EXCHANGE, json={"code": issued["code"]}), 401)
    assert "expired" in body["detail"]


def test_a_wrong_code_is_refused_in_the_requests_language(api: Api) -> None:
    body = assert_problem(api.client.post(EXCHANGE, json={"code": "nope"}), 401)
    assert "not known" in body["detail"]
    spanish = api.client.post(EXCHANGE, json={"code": "nope"}, headers={"Accept-Language": "es"})
    assert spanish.status_code == 401 and "not known" not in spanish.json["detail"]
    assert_problem(api.client.post(EXCHANGE, json={}), 422)
    assert_problem(api.client.post(EXCHANGE, json={"code": "x" * 201}), 422)
    assert_problem(api.client.post(EXCHANGE, data="code=1"), 415)


def test_issuing_is_the_admins(api: Api) -> None:
    for role in ("referee", "scorekeeper", "viewer"):
        assert_problem(api.client.post(CODES, json={"role": "viewer"}, headers=api.auth(role)), 403)
    assert_problem(api.client.post(CODES, json={"role": "viewer"}), 401)
    assert_problem(api.client.post(CODES, json={"role": "owner"}, headers=api.auth("admin")), 422)
    other = "/api/v1/clubs/other/signin-codes"
    assert_problem(api.client.post(other, json={"role": "viewer"}, headers=api.auth("admin")), 403)


def test_refused_codes_count_as_refused_sign_ins(database_url: str) -> None:
    limited = make_api(database_url, AUTH_FAILURES="3 per minute")
    try:
        for _ in range(3):
            assert_problem(limited.client.post(EXCHANGE, json={"code": "guess"}), 401)
        body = assert_problem(limited.client.post(EXCHANGE, json={"code": "guess"}), 429)
        assert body["type"].endswith("too-many-attempts")
    finally:
        limited.service.close()


def test_the_desk_by_role(api: Api) -> None:
    page = api.client.get("/clubs/casino/desk")
    assert page.status_code == 401 and b'data-action="sign-in"' in page.data
    admin = api.client.get("/clubs/casino/desk", headers=api.auth("admin")).get_data(as_text=True)
    for hook in ('data-form="settings"', 'data-form="player-add"', 'data-form="token-issue"',
                 "data-token-id=", "data-player-id=", 'data-section="matches"',
                 "/clubs/casino/desk/disputes", "/clubs/casino/desk/tournaments"):
        assert hook in admin, hook
    referee = api.client.get("/clubs/casino/desk", headers=api.auth("referee")).get_data(as_text=True)
    assert 'data-section="matches"' in referee and "/clubs/casino/desk/disputes" in referee
    assert 'data-form="settings"' not in referee and "data-token-id=" not in referee
    for role in ("scorekeeper", "viewer"):
        lower = api.client.get("/clubs/casino/desk", headers=api.auth(role))
        text = lower.get_data(as_text=True)
        assert lower.status_code == 200 and "data-nothing" in text
        assert 'data-section=' not in text and "/desk/disputes" not in text
    rival = api.client.get("/clubs/other/desk", headers=api.auth("admin"))
    assert rival.status_code == 403


def test_a_match_with_no_deal_may_be_withdrawn(api: Api) -> None:
    fresh = api.service.recording.create_match("casino", "parejas", ["Ana", "Beto", "Carla", "Dani"])
    text = api.client.get("/clubs/casino/desk", headers=api.auth("referee")).get_data(as_text=True)
    row = text.split(f'data-match-id="{fresh["id"]}"')[1].split("</tr>")[0]
    assert 'data-action="abandon"' in row
    dealt = text.split(f'data-match-id="{api.matches["casino"]}"')[1].split("</tr>")[0]
    assert 'data-action="abandon"' not in dealt


def test_the_qr_code_holds_the_code_in_the_fragment(api: Api) -> None:
    issued = issue(api)
    response = api.client.post("/clubs/casino/desk/qr", json={"code": issued["code"]},
                               headers=api.auth("admin"))
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert response.data.startswith(b"<svg") and response.headers["Cache-Control"].startswith("private")
    assert api.client.post("/clubs/casino/desk/qr", json={"code": issued["code"]}).status_code == 401
    assert api.client.post("/clubs/casino/desk/qr", json={}, headers=api.auth("admin")).status_code == 422


@pytest.mark.parametrize("body,kind", UNREADABLE_JSON)
def test_the_qr_code_refuses_a_body_it_cannot_read_saying_what_to_send(api: Api, body: bytes,
                                                                     kind: str) -> None:
    """Read as the API reads JSON (api.openapi.strict_json): a body nested past the recursion
    limit was a 500, the others a 422 saying nothing of what was wrong."""
    for language, words in (("en", 'send {"code": a sign-in code of at most 200 characters}'),
                            ("es", "un código de acceso de 200 caracteres como máximo"),
                            ("it", "un codice di accesso di al massimo 200 caratteri")):
        refused = assert_problem(api.client.post(
            "/clubs/casino/desk/qr", data=body, content_type=kind,
            headers=api.auth("admin", **{"Accept-Language": language})), 422)
        assert words in refused["detail"], refused


@pytest.mark.parametrize("role,opens", [("scorekeeper", "score"), ("viewer", "score"),
                                        ("referee", "desk"), ("admin", "desk")])
def test_a_referees_or_secretarys_code_opens_the_desk(api: Api, role: str, opens: str) -> None:
    """The QR code of a referee's or a secretary's token signs the phone into the club desk,
    with the same one-time #code= exchange; the others' into /score. (Before, every QR code
    opened /score: a referee's phone never reached the desk.)"""
    issued = issue(api, role=role)
    assert issued["opens"] == opens
    assert api.service.signin.qr_page("casino", issued["code"], who=admin(api)) == opens


def admin(api: Api, club: str = "casino") -> Any:
    return api.service.tokens.authenticate(api.tokens[club, "admin"])


def test_the_qr_code_serves_only_its_own_clubs_codes(api: Api) -> None:
    """A code of another club's token is answered as an unknown code, in the same words;
    another club's token, or a role below admin, is refused; a used code is not drawn."""
    ours = issue(api)
    theirs = api.client.post("/api/v1/clubs/other/signin-codes", json={"role": "scorekeeper"},
                             headers=api.auth("admin", "other")).json
    qr = "/clubs/casino/desk/qr"
    unknown = assert_problem(api.client.post(qr, json={"code": "x" * 43},
                                             headers=api.auth("admin")), 404)
    foreign = assert_problem(api.client.post(qr, json={"code": theirs["code"]},
                                             headers=api.auth("admin")), 404)
    assert foreign["detail"] == unknown["detail"]
    # the other way round: casino's code on other's desk, with other's admin token
    assert_problem(api.client.post("/clubs/other/desk/qr", json={"code": ours["code"]},
                                   headers=api.auth("admin", "other")), 404)
    # a token of another club, or a referee of this one, gets no picture of this club's code
    assert_problem(api.client.post(qr, json={"code": ours["code"]},
                                   headers=api.auth("admin", "other")), 403)
    assert_problem(api.client.post(qr, json={"code": ours["code"]},
                                   headers=api.auth("referee")), 403)
    assert api.client.post(qr, json={"code": ours["code"]},
                           headers=api.auth("admin")).status_code == 200
    api.client.post(EXCHANGE, json={"code": ours["code"]})
    used = assert_problem(api.client.post(qr, json={"code": ours["code"]},
                                          headers=api.auth("admin")), 404)
    assert used["detail"] == unknown["detail"]


def test_a_close_name_comes_with_suggestions(api: Api) -> None:
    path = "/api/v1/clubs/casino/players"
    api.client.post(path, json={"name": "Ana Pérez", "new": True}, headers=api.auth("admin"))
    body = assert_problem(api.client.post(path, json={"name": "Ana Perez"}, headers=api.auth("admin")), 422)
    assert body["suggestions"] == {"Ana Perez": ["Ana Pérez"]}
    assert api.client.post(path, json={"name": "Ana Perez", "new": True},
                           headers=api.auth("admin")).status_code == 201


def desk_row(api: Api, match_id: int, role: str = "referee") -> str:
    text = api.client.get("/clubs/casino/desk", headers=api.auth(role)).get_data(as_text=True)
    return text.split(f'data-match-id="{match_id}"')[1].split("</tr>")[0]


def time_events(api: Api, match_id: int) -> list[int]:
    return [e["seq"] for e in api.service.reading.list_events(match_id) if e["event"]["type"] == "time"]


def test_time_is_called_from_the_desk_once(api: Api) -> None:
    svc = api.service
    timed = svc.recording.create_match("casino", {"preset": "mano-a-mano", "time_limit": 30},
                                       ["Ana", "Beto"])["id"]
    svc.recording.record_event(timed, {"type": "deal"}, expected_seq=0)
    row = desk_row(api, timed)
    started = svc.reading.screen(timed).started_at
    assert f'data-started="{started}"' in row and 'data-limit="30"' in row
    assert 'data-action="time"' in row and "(limit 30 minutes)" in row
    path = f"/clubs/casino/desk/matches/{timed}/time"

    # Who may is the recording use case's: no token, a viewer, another club's token.
    assert_problem(api.client.post(path), 401)
    assert_problem(api.client.post(path, headers=api.auth("viewer")), 403, "forbidden")
    assert_problem(api.client.post(path, headers=api.auth("admin", club="other")), 404)
    assert time_events(api, timed) == []

    called = api.client.post(path, headers=api.auth("referee"))
    assert called.status_code == 201, called.json
    assert called.json == {"seq": 2, "time_called": 2}
    assert time_events(api, timed) == [2]
    row = desk_row(api, timed)
    assert 'data-action="time"' not in row and 'data-time-called="2"' in row
    assert "Time called (event 2): last round" in row

    # A second desk's stale button: the rules core's refusal, said, and still one event.
    again = assert_problem(api.client.post(path, headers=api.auth("admin")), 422, "illegal-event")
    assert again["violation"]["code"] == "bad_event" and "already called" in again["detail"]
    spanish = api.client.post(path, headers=api.auth("admin", **{"Accept-Language": "es"}))
    assert spanish.status_code == 422 and "already called" not in spanish.json["detail"]
    assert time_events(api, timed) == [2]


def test_time_takes_what_recording_it_takes(api: Api) -> None:
    """A scorekeeper may call time (the phone's Time button; the desk shows it no matches);
    rules with no limit, and a match over, refuse it and nothing is written."""
    svc = api.service
    timed = svc.recording.create_match("casino", {"preset": "mano-a-mano", "time_limit": 30},
                                       ["Ana", "Beto"])["id"]
    svc.recording.record_event(timed, {"type": "deal"}, expected_seq=0)
    keeper = api.client.post(f"/clubs/casino/desk/matches/{timed}/time", headers=api.auth("scorekeeper"))
    assert keeper.status_code == 201 and time_events(api, timed) == [2]
    plain = svc.recording.create_match("casino", "mano-a-mano", ["Ana", "Beto"])["id"]
    svc.recording.record_event(plain, {"type": "deal"}, expected_seq=0)
    assert 'data-clock' not in desk_row(api, plain)
    assert_problem(api.client.post(f"/clubs/casino/desk/matches/{plain}/time",
                                   headers=api.auth("referee")), 422, "illegal-event")
    assert svc.reading.get_match(plain)["last_seq"] == 1
    assert_problem(api.client.post("/clubs/casino/desk/matches/999999/time",
                                   headers=api.auth("referee")), 404)
