"""Two app servers (``domino serve``, two processes on two ports) sharing the primary, their
pages read on the standby: an append made through either reaches the live scoreboard streams of
both, told by the primary's NOTIFY and read on the primary. The standby's replay is paused
all along: a scoreboard that waited on the standby (which delivers no NOTIFY, and here replays
nothing) would show neither append."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import urllib.request
from contextlib import ExitStack
from typing import Any, Iterator

import pytest
from api_helpers import Api
from serve_helpers import answered, serving
from sqlalchemy import create_engine
from standby_helpers import Standby, page_last_seq, replay_paused
from stream_helpers import Stream

pytestmark = pytest.mark.slow  # a standby, and two servers started as processes

READ_TIMEOUT = 30.0  # a read of the stream, at most (an append's row comes in well under 1 s)


@pytest.fixture
def two_servers(app: Api, standby: Standby, pg_url: str) -> Iterator[list[str]]:
    """Two `domino serve` processes over the app's database: the primary, and the standby for
    their pages (DOMINO_READ_DATABASE_URL); their base URLs."""
    env = {**os.environ, "DOMINO_DATABASE_URL": pg_url,
           "DOMINO_READ_DATABASE_URL": standby.url(pg_url), "DOMINO_ACCESS_LOG": "0"}
    servers: list[subprocess.Popen] = []
    bases = []
    try:
        for _ in range(2):
            base, _, server = serving(env)
            servers.append(server)
            bases.append(base)
        for base in bases:
            answered(base + "/api/v1/openapi.json")
        yield bases
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()


def _stream(stack: ExitStack, base: str, token: str) -> Stream:
    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=READ_TIMEOUT)
    stack.callback(conn.close)
    conn.request("GET", "/api/v1/clubs/casino/scoreboard/stream",
                 headers={"Authorization": f"Bearer {token}"})
    response = conn.getresponse()
    stack.callback(response.close)
    assert response.status == 200
    return Stream(response)


def _append(base: str, api: Api, match_id: int, event: dict[str, Any], seq: int) -> int:
    request = urllib.request.Request(
        f"{base}/api/v1/matches/{match_id}/events", data=json.dumps(event).encode(),
        method="POST", headers={**api.auth("scorekeeper"), "Content-Type": "application/json",
                                "If-Match": f'"{seq}"'})
    with urllib.request.urlopen(request, timeout=READ_TIMEOUT) as response:
        assert response.status == 201
        return int(response.headers["ETag"].strip('"'))


def test_two_servers_stream_an_append_made_on_either(app: Api, standby: Standby,
                                                     pg_url: str,
                                                     two_servers: list[str]) -> None:
    match_id = app.matches["casino"]
    token = app.tokens["casino", "viewer"]
    standby_engine = create_engine(standby.url(pg_url))
    try:
        with replay_paused(standby_engine), ExitStack() as stack:
            streams = [_stream(stack, base, token) for base in two_servers]
            for stream in streams:
                assert [r["seq"] for r in stream.event("snapshot")["data"]["rows"]] == [1]
            seq = 1
            for step, through in enumerate(two_servers, start=1):
                seq = _append(through, app, match_id, app.events[step], seq)
                for stream in streams:
                    row = stream.event("row")["data"]
                    assert (row["match"], row["seq"]) == (match_id, seq), through
            assert page_last_seq(app, match_id) == 1  # the standby replayed neither append
    finally:
        standby_engine.dispose()
