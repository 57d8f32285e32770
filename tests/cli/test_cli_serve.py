"""``domino serve``: the real server on a port it binds itself (``--port 0``), over a database it
upgrades itself; a port it cannot have refused before the database is touched."""

from __future__ import annotations

import os
import re
import socket
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from serve_helpers import answered, serving, wait_for

from cli.main import main
from migrations.runner import is_current
from referee.service import open_service

SLOW = pytest.mark.slow  # starts domino serve


@SLOW
def test_serve_upgrades_the_database_and_answers(tmp_path: Path) -> None:
    """On port 0 it binds a free port, prints it, and answers there."""
    url = f"sqlite:///{tmp_path / 'domino.db'}"
    env = {**os.environ, "DOMINO_DATABASE_URL": url}
    base, lines, server = serving(env)
    try:
        said = wait_for(lines, "domino-referee on", server)
        assert f"{base}/api/docs" in said and f"{base}/score" in said
        answered(base + "/api/openapi.json")
        spec = httpx.get(base + "/api/openapi.json", timeout=60)  # a loaded machine
        assert spec.status_code == 200 and spec.json()["info"]["title"] == "domino-referee"
        docs = httpx.get(base + "/api/docs", timeout=60)
        assert docs.status_code == 200 and "swagger" in docs.text.lower()
        unknown = httpx.get(base + "/api/v1/clubs/casino", timeout=60)
        assert unknown.status_code == 401  # the tables exist: the token lookup ran
        with open_service(url) as service:
            assert is_current(service.engine)
    finally:
        server.terminate()
        server.wait(timeout=10)


@SLOW
def test_serve_on_a_database_with_no_club_prints_a_setup_link(tmp_path: Path) -> None:
    """The first club without a terminal: the link printed beside the address (the code after
    '#'), used once over HTTP to make the club; no other line the server writes (its access
    log) holds the code; a second start, the club made, prints no link."""
    url = f"sqlite:///{tmp_path / 'domino.db'}"
    env = {**os.environ, "DOMINO_DATABASE_URL": url, "DOMINO_KEYS_DIR": str(tmp_path / "keys")}
    base, lines, server = serving(env)
    try:
        said = wait_for(lines, "/setup#code=", server)
        link = re.search(r"(http://127\.0\.0\.1:\d+/setup#code=([A-Za-z0-9_-]+))", said)
        assert link and link.group(1).startswith(f"{base}/setup#code=")
        code = link.group(2)
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
    base, lines, server = serving(env)
    try:
        wait_for(lines, "domino-referee on", server)
        answered(base + "/setup")
        wait_for(lines, '"GET /setup" 200')  # every line written before the server ran is read
        assert not any("/setup#code=" in line for line in lines)
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_serve_on_a_port_in_use_says_so_and_leaves_the_database_alone(tmp_path: Path) -> None:
    """A port another process listens on: one line naming the address, a non-zero exit, and
    no database made (the port is bound before the database is opened)."""
    db = tmp_path / "domino.db"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(main, ["serve", "--port", str(port),
                                           "--database-url", f"sqlite:///{db}"])
    assert result.exit_code == 1, result.output
    assert f"Error: cannot listen on 127.0.0.1 port {port}: Address already in use" in result.output
    assert "Traceback" not in result.output and "domino-referee on" not in result.output
    assert not db.exists()
