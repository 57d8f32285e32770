"""The access log: one line per request on the "domino.access" logger, with the method, the
path (no query string), the status, the time taken and the remote address, and never a token."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest
from api_helpers import Api, make_api

from api import create_app

ROOT = Path(__file__).resolve().parents[2]


class Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def access() -> Iterator[Lines]:
    """The access logger's records, caught on the logger itself (whatever else is configured)."""
    logger = logging.getLogger("domino.access")
    lines = Lines()
    level = logger.level
    logger.addHandler(lines)
    logger.setLevel(logging.INFO)
    yield lines
    logger.removeHandler(lines)
    logger.setLevel(level)


def everything_in(record: logging.LogRecord) -> str:
    return record.getMessage() + " " + " ".join(str(v) for v in vars(record).values())


def test_a_request_makes_one_line_without_the_token(api: Api, access: Lines) -> None:
    token = api.tokens["casino", "viewer"]
    match_id = api.matches["casino"]
    r = api.client.get(f"/api/v1/matches/{match_id}/events?after=0&limit=5",
                       headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200
    [record] = access.records
    line = record.getMessage()
    assert line.startswith("127.0.0.1 ")
    assert f'"GET /api/v1/matches/{match_id}/events" 200 ' in line and line.endswith("ms")
    assert (record.method, record.path, record.status, record.remote_addr) == (
        "GET", f"/api/v1/matches/{match_id}/events", "200", "127.0.0.1")
    assert record.duration_ms >= 0
    for secret in (token, "Bearer", "Authorization", "after=", "?"):
        assert secret not in everything_in(record)


def test_refusals_and_errors_are_logged_too(api: Api, access: Lines) -> None:
    token = api.tokens["casino", "scorekeeper"]
    api.client.post(f"/api/v1/matches/{api.matches['casino']}/events", json={"type": "note"},
                    headers={"Authorization": f"Bearer {token}"})  # no If-Match: 428
    api.client.get("/api/v1/clubs/casino", headers={"Authorization": "Bearer wrong-token"})
    api.client.get("/nowhere")
    # A token where none belongs (the query string) is not logged either.
    api.client.get(f"/api/v1/clubs/casino?token={token}", headers={"Authorization": f"Bearer {token}"})
    assert [r.status for r in access.records] == ["428", "401", "404", "200"]
    for record in access.records:
        assert token not in everything_in(record) and "wrong-token" not in everything_in(record)


def test_a_path_cannot_forge_a_line(api: Api, access: Lines) -> None:
    api.client.get('/x%0A127.0.0.1 "GET /fake" 200 1.0ms')
    [record] = access.records
    assert "\n" not in record.getMessage() and '"GET /fake"' not in record.getMessage()
    assert record.path.startswith("/x%0A127.0.0.1%20%22GET")


def test_it_can_be_turned_off(database_url: str, access: Lines) -> None:
    quiet = make_api(database_url, ACCESS_LOG="0")
    try:
        quiet.client.get("/api/openapi.json")
        assert access.records == []
    finally:
        quiet.service.close()


def test_behind_trusted_proxies_the_client_address_is_logged(tmp_path: Path,
                                                             access: Lines) -> None:
    url = f"sqlite:///{tmp_path / 'x.db'}"
    forwarded = {"X-Forwarded-For": "203.0.113.7"}
    create_app({"DATABASE_URL": url, "TRUSTED_PROXIES": 1}).test_client().get(
        "/api/openapi.json", headers=forwarded)
    assert access.records[-1].remote_addr == "203.0.113.7"
    # No proxy trusted: the header is only the client's claim.
    create_app({"DATABASE_URL": url}).test_client().get("/api/openapi.json", headers=forwarded)
    assert access.records[-1].remote_addr == "127.0.0.1"


@pytest.mark.slow  # starts a process
def test_with_no_logging_configured_lines_go_to_stderr(tmp_path: Path) -> None:
    # What domino serve and a plain gunicorn get: nobody configured logging, lines still appear.
    script = (
        "from api import create_app\n"
        f"app = create_app({{'DATABASE_URL': 'sqlite:///{tmp_path / 'x.db'}'}})\n"
        "app.test_client().get('/api/openapi.json', headers={'Authorization': 'Bearer s3cret'})\n"
        "import logging; logging.basicConfig()\n"  # as waitress does, after create_app
        "app.test_client().get('/api/openapi.json?x=1')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, env={**os.environ, "DOMINO_ACCESS_LOG": ""})
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stderr.splitlines() if "[access]" in line]
    assert len(lines) == 2, done.stderr  # once each, though the root logger has a handler now
    assert all('"GET /api/openapi.json" 200' in line for line in lines)
    assert "s3cret" not in done.stderr and "x=1" not in done.stderr
