"""Helpers for the HTTP API tests (tests/api/); their fixture ``api`` is in tests/conftest.py.

``api`` gives, on the ``database_url`` of conftest.py (SQLite, and PostgreSQL when
DOMINO_TEST_DATABASE_URL is set), an app with two clubs, ``casino`` (with its signing key) and
``other`` (without one), a token of every role in each, and one parejas match of each club with
its first deal recorded. That database is built once a session and copied for each test
(tests/template_helpers.py: ``seeded``); the app is the session's one (``reused_api``), bound to
the test's own service.
"""

from __future__ import annotations

import random
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator

import waitress
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import Engine
from template_helpers import seeded
from waitress import wasyncore

from api import create_app
from api.auth import init_auth
from api.context import EXTENSION, init_context
from api.scoreboard import EXTENSION as SCOREBOARD
from referee.core.simulate import random_match
from referee.core.vocab import ROLES
from referee.service import MatchLimits, Service, open_service

SERVER_TOKEN = "server-admin-secret-for-tests"
CLUBS = ("casino", "other")
PLAYERS = ["Ana", "Beto", "Carla", "Dani"]
PROBLEM = "application/problem+json"

# JSON bodies a reader must refuse with a sentence, never answer with a 500 (api.openapi's
# strict_json): nested past the recursion limit (a RecursionError out of json.loads), NaN (no
# JSON), a key twice (two readers, two values), a lone surrogate's bytes (no UTF-8), cut short,
# not an object, and JSON sent as text.
UNREADABLE_JSON: list[tuple[bytes, str]] = [
    (b"[" * 100_000 + b"]" * 100_000, "application/json"),
    (b'{"code": NaN, "names": NaN, "ruling": NaN}', "application/json"),
    (b'{"code": "a", "code": "b", "names": [], "names": ["Ana"]}', "application/json"),
    (b'{"code": "\xed\xa0\x80", "names": ["\xed\xa0\x80"]}', "application/json"),
    (b'{"code": "a', "application/json"), (b"[1]", "application/json"),
    (b'{"code": "a", "names": ["Ana"]}', "text/plain")]


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


@dataclass(frozen=True)
class Seed:
    """What the API tests' database holds, beyond its tables (see the module's docstring)."""

    tokens: dict[tuple[str, str], str]
    matches: dict[str, int]
    events: list[dict[str, Any]]


def _seed(engine: Engine) -> Seed:
    service = Service(engine)
    tokens = {}
    for club in CLUBS:
        service.clubs.create_club(club, club.title())
        for role in ROLES:
            tokens[club, role] = service.tokens.create_token(club, role, label=f"{club} {role}")
    service.keys.init("casino")
    _, events = parejas()
    matches = {}
    for club in CLUBS:
        summary = service.recording.create_match(club, "parejas", PLAYERS, date="2026-05-01")
        matches[club] = summary["id"]
        service.recording.record_event(summary["id"], events[0], expected_seq=0, recorded_by="setup")
    service.close()
    return Seed(tokens, matches, events)


def _api(app: Flask, service: Service) -> Api:
    seed = seeded(service.engine, "api", _seed)
    return Api(app, app.test_client(), service, seed.tokens, seed.matches, seed.events)


def api_over(service: Service, **config: Any) -> Api:
    """A new app, with ``config``, over ``service``'s database seeded (for a template's build)."""
    url = service.engine.url.render_as_string(hide_password=False)
    app = create_app({"DATABASE_URL": url, "ADMIN_TOKEN": SERVER_TOKEN, **config}, service=service)
    return _api(app, service)


def make_api(database_url: str, **config: Any) -> Api:
    """A new app, with ``config``, over ``database_url`` seeded (see the module's docstring):
    for a test that changes its app, or keeps it past its own end."""
    app = create_app({"DATABASE_URL": database_url, "ADMIN_TOKEN": SERVER_TOKEN, **config})
    return _api(app, app.extensions[EXTENSION])


_APPS: dict[str, Flask] = {}


def reused_app(database_url: str, **config: Any) -> Flask:
    """The session's one app for ``config`` (building an app is most of what a test of one
    request costs), bound to a service of this test's own on ``database_url``. The app keeps
    nothing of the test before: its scoreboard is made again, the failed sign-ins' counts
    start again."""
    key = repr(sorted(config.items()))
    app = _APPS.get(key)
    if app is None:
        app = _APPS[key] = create_app({"DATABASE_URL": database_url, **config})
        return app
    limits = MatchLimits(events=app.config["MAX_MATCH_EVENTS"], bytes=app.config["MAX_MATCH_BYTES"])
    service = open_service(database_url, limits=limits, threads=app.config["THREADS"])
    init_context(app, service)
    app.config["DATABASE_URL"] = database_url
    app.extensions.pop(SCOREBOARD, None)
    init_auth(app)  # new counts of failed sign-ins (it only sets them: safe to call again)
    return app


def reused_api(database_url: str, **config: Any) -> Api:
    """:func:`make_api`'s, on the session's one app for ``config`` (:func:`reused_app`)."""
    app = reused_app(database_url, ADMIN_TOKEN=SERVER_TOKEN, **config)
    return _api(app, app.extensions[EXTENSION])


def score_me(api: "Api", token: str, lang: str) -> dict[str, Any]:
    """/score/me for ``token``, in ``lang``: whose token it is, and the phone's footer line."""
    return api.client.get("/score/me", headers={"Authorization": f"Bearer {token}",
                                                "Accept-Language": lang}).json


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
        # A scoreboard's stream is a thread waiting in its subscription for the next row or
        # heartbeat (15 s): the client's connection closed above does not wake it, and it
        # held the wait below for its whole 5 s. Its subscription closed, it ends at once.
        board = app.extensions.get(SCOREBOARD)
        if board is not None:
            board.hub.end_all()
        server.task_dispatcher.shutdown(timeout=5)
        if server.task_dispatcher.threads:
            # A task that outlived the wait still ends by writing b"x" to waitress's trigger.
            # Closed now, the trigger's fd number would soon be another socket's (a
            # PostgreSQL connection, which then fails: "invalid frontend message type 120"),
            # so the trigger is left open and only the listening socket closes.
            wasyncore.dispatcher.close(server)
        else:
            server.close()
