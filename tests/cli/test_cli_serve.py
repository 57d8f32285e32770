"""``domino serve``: a real waitress server on a free port, over a database it upgrades itself."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from migrations.runner import is_current
from referee.service import open_service

DOMINO = str(Path(sys.executable).with_name("domino"))
pytestmark = pytest.mark.slow  # starts domino serve


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_upgrades_the_database_and_answers(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'domino.db'}"
    port = free_port()
    env = {**os.environ, "DOMINO_DATABASE_URL": url}
    server = subprocess.Popen([DOMINO, "serve", "--port", str(port)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while True:
            assert server.poll() is None, server.stderr.read().decode()
            try:
                spec = httpx.get(f"http://127.0.0.1:{port}/api/openapi.json", timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the server did not come up in 30 s"
                time.sleep(0.2)
        assert spec.status_code == 200 and spec.json()["info"]["title"] == "domino-referee"
        docs = httpx.get(f"http://127.0.0.1:{port}/api/docs", timeout=5)
        assert docs.status_code == 200 and "swagger" in docs.text.lower()
        unknown = httpx.get(f"http://127.0.0.1:{port}/api/v1/clubs/casino", timeout=5)
        assert unknown.status_code == 401  # the tables exist: the token lookup ran
        with open_service(url) as service:
            assert is_current(service.engine)
    finally:
        server.terminate()
        server.wait(timeout=10)
