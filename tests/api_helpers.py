"""Fixtures and helpers for the HTTP API tests (tests/test_api_*.py).

``api`` builds, on the ``database_url`` of conftest.py (SQLite, and PostgreSQL when
DOMINO_TEST_DATABASE_URL is set), an app with two clubs, ``casino`` (with its signing key) and
``other`` (without one), a token of every role in each, and one parejas match of each club with
its first deal recorded.
"""

from __future__ import annotations

import random
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator

import pytest
import waitress
from db_helpers import migrate
from flask import Flask
from flask.testing import FlaskClient
from waitress import wasyncore

from api import create_app
from api.context import EXTENSION
from referee.core.simulate import random_match
from referee.core.vocab import ROLES
from referee.service import Service, open_service

SERVER_TOKEN = "server-admin-secret-for-tests"
CLUBS = ("casino", "other")
PLAYERS = ["Ana", "Beto", "Carla", "Dani"]
PROBLEM = "application/problem+json"


def parejas(seed: int = 7) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A legal parejas match (open recording) from the simulator."""
    return random_match("parejas", PLAYERS, random.Random(seed))


@dataclass
class Api:
    app: Flask
    client: FlaskClient
    service: Service
    tokens: dict[tuple[str, str], str]  # (club, role) -> token
    matches: dict[str, int] = field(default_factory=dict)  # club -> a match id
    events: list[dict[str, Any]] = field(default_factory=list)  # the match's whole record

    def auth(self, role: str, club: str = "casino", **headers: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[club, role]}", **headers}

    def append(self, match_id: int, event: dict[str, Any], seq: int, role: str = "scorekeeper",
               club: str = "casino", **headers: str):  # type: ignore[no-untyped-def]
        return self.client.post(f"/api/v1/matches/{match_id}/events", json=event,
                                headers=self.auth(role, club, **{"If-Match": f'"{seq}"'}, **headers))

    def record(self, match_id: int, events: list[dict[str, Any]], start: int) -> int:
        """Append ``events`` after event ``start`` as a scorekeeper; returns the last seq."""
        for seq, event in enumerate(events, start=start):
            response = self.append(match_id, event, seq)
            assert response.status_code == 201, response.json
        return start + len(events)


def make_api(database_url: str, **config: Any) -> Api:
    with open_service(database_url) as service:
        migrate(service.engine)
    app = create_app({"DATABASE_URL": database_url, "ADMIN_TOKEN": SERVER_TOKEN, **config})
    service = app.extensions[EXTENSION]
    tokens = {}
    for club in CLUBS:
        service.clubs.create_club(club, club.title())
        for role in ROLES:
            tokens[club, role] = service.tokens.create_token(club, role, label=f"{club} {role}")
    service.keys.init("casino")
    api = Api(app, app.test_client(), service, tokens)
    _, api.events = parejas()
    for club in CLUBS:
        summary = service.recording.create_match(club, "parejas", PLAYERS, date="2026-05-01")
        api.matches[club] = summary["id"]
        service.recording.record_event(summary["id"], api.events[0], expected_seq=0, recorded_by="setup")
    return api


@pytest.fixture
def api(database_url: str) -> Iterator[Api]:
    built = make_api(database_url)
    yield built
    built.service.close()


def assert_problem(response: Any, status: int, kind: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True))
    assert response.mimetype == PROBLEM
    body = response.get_json(force=True)
    assert body["status"] == status and body["title"]
    if kind is not None:
        assert body["type"].endswith(":" + kind), body
    return body


@contextmanager
def served(app: Flask, threads: int = 8) -> Iterator[str]:
    """``app`` under a real waitress server on 127.0.0.1 (a free port), in a thread; yields
    its base URL and stops it afterwards."""
    server = waitress.create_server(app, host="127.0.0.1", port=0, threads=threads)
    stop = threading.Event()

    def loop() -> None:
        # server.run() loops for ever; this one checks for the stop between polls, then closes
        # the clients' connections in the thread that polls them: a task still streaming to one
        # (a scoreboard) is told the client went away at its next write.
        while not stop.is_set():
            server.asyncore.loop(timeout=0.05, map=server._map, count=1)
        for channel in list(server._map.values()):
            if channel is not server and channel is not server.trigger:
                channel.handle_close()

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        stop.set()
        thread.join(timeout=10)
        server.task_dispatcher.shutdown(timeout=5)
        if server.task_dispatcher.threads:
            # A task that outlived the wait still ends by writing b"x" to waitress's trigger.
            # Closed now, the trigger's fd number would soon be another socket's (a
            # PostgreSQL connection, which then fails: "invalid frontend message type 120"),
            # so the trigger is left open and only the listening socket closes.
            wasyncore.dispatcher.close(server)
        else:
            server.close()
