"""The production recipe as written: gunicorn with deploy/gunicorn.conf.py serves the app, logs
one access line a request (no token), and keeps the app's limits for a chunked body, which only
a real server delivers as such."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import httpx
import pytest
from api_helpers import make_api

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "deploy" / "gunicorn.conf.py"
GUNICORN = Path(sys.executable).with_name("gunicorn")
pytestmark = [pytest.mark.slow,  # starts gunicorn
              pytest.mark.skipif(not GUNICORN.exists() or sys.platform == "win32",
                                 reason="gunicorn is not installed here")]


@pytest.fixture
def gunicorn(tmp_path: Path) -> Iterator[tuple[str, dict[str, str], subprocess.Popen, Path]]:
    url = f"sqlite:///{tmp_path / 'domino.db'}"
    api = make_api(url)  # the tables, two clubs and their tokens
    tokens = {role: api.tokens["casino", role] for role in ("referee", "viewer")}
    tokens["match"] = str(api.matches["casino"])
    api.service.close()
    log = tmp_path / "gunicorn.err"
    env = {**os.environ, "DOMINO_DATABASE_URL": url, "DOMINO_MAX_CONTENT_LENGTH": "2000"}
    env.pop("DOMINO_ACCESS_LOG", None)
    # Port 0: gunicorn binds a free port and logs it; a port picked here and bound by gunicorn
    # later could be taken meanwhile by another process.
    with log.open("wb") as err:
        server = subprocess.Popen(
            [str(GUNICORN), "-c", str(CONFIG), "--bind", "127.0.0.1:0", "--workers", "1"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=err)
    try:
        deadline = time.monotonic() + 120  # generous: a loaded machine starts it slowly
        while not (bound := re.search(r"Listening at: (http://127\.0\.0\.1:\d+)", log.read_text())):
            assert server.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "gunicorn did not bind in 120 s"
            time.sleep(0.2)
        base = bound.group(1)
        while True:
            assert server.poll() is None, log.read_text()
            try:
                httpx.get(base + "/api/openapi.json", timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "gunicorn did not come up in 120 s"
                time.sleep(0.2)
        yield base, tokens, server, log
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=40)


def test_gunicorn_serves_with_the_config_and_logs_each_request_once(gunicorn) -> None:
    base, tokens, server, log = gunicorn
    token = tokens["viewer"]
    r = httpx.get(f"{base}/api/v1/matches/{tokens['match']}?x=1",
                  headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert r.status_code in (200, 422)
    r = httpx.get(f"{base}/api/v1/matches/{tokens['match']}",
                  headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert r.status_code == 200
    # The readiness probe, then the two requests; one line each, written a moment after the
    # answer (waited for: a loaded machine writes them late), and no more a moment later.
    def logged() -> tuple[int, str]:
        text = log.read_text()
        lines = [line for line in text.splitlines() if "[access]" in line]
        return sum(f'"GET /api/v1/matches/{tokens["match"]}"' in line for line in lines), text

    deadline = time.monotonic() + 60
    while logged()[0] < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.3)
    count, text = logged()
    assert count == 2, text
    assert token not in text and "x=1" not in text


def test_a_chunked_body_over_the_limit_is_413_under_gunicorn(gunicorn) -> None:
    base, tokens, _, _ = gunicorn
    headers = {"Authorization": f"Bearer {tokens['referee']}", "If-Match": '"1"',
               "Content-Type": "application/json"}

    def chunks(size: int) -> Iterator[bytes]:  # no Content-Length: httpx sends it chunked
        yield b'{"type": "note", "text": "'
        yield b"x" * size
        yield b'"}'

    url = f"{base}/api/v1/matches/{tokens['match']}/events"
    r = httpx.post(url, content=chunks(5000), headers=headers, timeout=10)
    assert r.status_code == 413 and r.headers["content-type"] == "application/problem+json"
    r = httpx.post(url, content=chunks(100), headers=headers, timeout=10)
    assert r.status_code == 201, r.text


def test_gunicorn_refuses_an_oversized_request_head_itself(gunicorn) -> None:
    base, _, _, _ = gunicorn
    r = httpx.get(f"{base}/api/v1/clubs?q={'x' * 5000}", timeout=10)
    assert r.status_code in (400, 414)
    headers = {f"X-Header-{n}": "x" for n in range(60)}
    assert httpx.get(f"{base}/api/openapi.json", headers=headers, timeout=10).status_code in (400, 431)
