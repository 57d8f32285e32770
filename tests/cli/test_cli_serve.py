"""``domino serve``: a real waitress server on a free port, over a database it upgrades itself."""

from __future__ import annotations

import os
import re
import subprocess
import time
from pathlib import Path

import httpx
import pytest
from serve_helpers import DOMINO, answered, free_port, serving, wait_for

from migrations.runner import is_current
from referee.service import open_service

pytestmark = pytest.mark.slow  # starts domino serve


def test_serve_upgrades_the_database_and_answers(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'domino.db'}"
    port = free_port()
    env = {**os.environ, "DOMINO_DATABASE_URL": url}
    server = subprocess.Popen([DOMINO, "serve", "--port", str(port)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120  # generous: a loaded machine
        while True:
            assert server.poll() is None, server.stderr.read().decode()
            try:
                spec = httpx.get(f"http://127.0.0.1:{port}/api/openapi.json", timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the server did not come up in 120 s"
                time.sleep(0.2)
        assert spec.status_code == 200 and spec.json()["info"]["title"] == "domino-referee"
        docs = httpx.get(f"http://127.0.0.1:{port}/api/docs", timeout=60)  # a loaded machine
        assert docs.status_code == 200 and "swagger" in docs.text.lower()
        unknown = httpx.get(f"http://127.0.0.1:{port}/api/v1/clubs/casino", timeout=60)
        assert unknown.status_code == 401  # the tables exist: the token lookup ran
        with open_service(url) as service:
            assert is_current(service.engine)
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_serve_on_a_database_with_no_club_prints_a_setup_link(tmp_path: Path) -> None:
    """The first club without a terminal: the link printed beside the address (the code after
    '#'), used once over HTTP to make the club; no other line the server writes (its access
    log) holds the code; a second start, the club made, prints no link."""
    url = f"sqlite:///{tmp_path / 'domino.db'}"
    env = {**os.environ, "DOMINO_DATABASE_URL": url, "DOMINO_KEYS_DIR": str(tmp_path / "keys")}
    port = free_port()
    lines, server = serving(port, env)
    try:
        said = wait_for(lines, "/setup#code=")
        link = re.search(r"(http://127\.0\.0\.1:\d+/setup#code=([A-Za-z0-9_-]+))", said)
        assert link and link.group(1).startswith(f"http://127.0.0.1:{port}/setup#code=")
        code = link.group(2)
        base = f"http://127.0.0.1:{port}"
        answered(base + "/setup")
        made = httpx.post(base + "/api/v1/setup", timeout=10,
                          json={"code": code, "name": "La Ceiba", "language": "es"})
        assert made.status_code == 201 and made.json()["desk"] == "/clubs/la-ceiba/desk"
        again = httpx.post(base + "/api/v1/setup", timeout=10,
                           json={"code": code, "name": "Otro", "language": "es"})
        assert again.status_code == 401 and "used already" in again.json()["detail"]
        wait_for(lines, '"POST /api/v1/setup" 401')  # the access log has its lines by now
        assert [line for line in lines if code in line] == [said]  # the printed link alone
    finally:
        server.terminate()
        server.wait(timeout=10)
    port = free_port()
    lines, server = serving(port, env)
    try:
        wait_for(lines, "domino-referee on")
        answered(f"http://127.0.0.1:{port}/setup")
        wait_for(lines, '"GET /setup" 200')  # every line written before the server ran is read
        assert not any("/setup#code=" in line for line in lines)
    finally:
        server.terminate()
        server.wait(timeout=10)
