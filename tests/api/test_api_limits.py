"""A match past its limits (MAX_MATCH_EVENTS, MAX_MATCH_BYTES) is 413 problem+json naming the
limit, over HTTP as in the service, for appends and imports alike; nothing is stored."""

from __future__ import annotations

import pytest
from api_helpers import assert_problem, make_api, parejas

from api import create_app
from referee.core.log import make_log, write_log
from referee.service import MatchLimits
from referee.store import db


def test_appends_past_the_event_limit_are_413(database_url: str) -> None:
    api = make_api(database_url, MAX_MATCH_EVENTS=3)
    try:
        match_id = api.matches["casino"]  # its deal is event 1
        assert api.record(match_id, api.events[1:3], 1) == 3
        r = api.append(match_id, api.events[3], 3)
        body = assert_problem(r, 413, "match-too-large")
        assert (body["limit"], body["maximum"]) == ("events", 3)
        assert "at most 3 events" in body["detail"] and "DOMINO_MAX_MATCH_EVENTS" in body["detail"]
        viewer = api.auth("viewer")
        assert api.client.get(f"/api/v1/matches/{match_id}", headers=viewer).json["last_seq"] == 3
        header, events = parejas(4)
        r = api.client.post("/api/v1/clubs/casino/matches/import", data=write_log(make_log(header, events)),
                            headers=api.auth("referee"))
        assert assert_problem(r, 413, "match-too-large")["limit"] == "events"
    finally:
        api.service.close()


def test_appends_past_the_byte_limit_are_413(database_url: str) -> None:
    api = make_api(database_url, MAX_MATCH_BYTES=600)
    try:
        match_id = api.matches["casino"]
        r = api.append(match_id, {"type": "note", "text": "x" * 500}, 1)
        body = assert_problem(r, 413, "match-too-large")
        assert (body["limit"], body["maximum"]) == ("bytes of events", 600)
        assert "DOMINO_MAX_MATCH_BYTES" in body["detail"]
        assert api.append(match_id, {"type": "note", "text": "short"}, 1).status_code == 201
    finally:
        api.service.close()


def test_the_limits_are_settings(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    url = f"sqlite:///{tmp_path / 'domino.db'}"
    monkeypatch.setenv("DOMINO_MAX_MATCH_EVENTS", "12")
    monkeypatch.delenv("DOMINO_MAX_MATCH_BYTES", raising=False)
    app = create_app({"DATABASE_URL": url})
    engine = app.extensions["domino-referee.service"].engine
    assert (app.config["MAX_MATCH_EVENTS"], app.config["MAX_MATCH_BYTES"]) == (12, 8 * 1024 * 1024)
    assert db.match_limits(engine) == MatchLimits(events=12, bytes=8 * 1024 * 1024)
    app = create_app({"DATABASE_URL": url, "MAX_MATCH_BYTES": "1000"})
    assert db.match_limits(app.extensions["domino-referee.service"].engine) == MatchLimits(12, 1000)
