"""The app as it is served (api.asgi behind uvicorn with api.server's protocol): a scoreboard
stream holds no thread of the app, a disconnect frees its slot at once, the caps per client
address and per club, a client that stops reading is dropped; and the edge's answers, each
problem+json, with the server answering on after each."""

from __future__ import annotations

import asyncio
import http.client
import json
import logging
import socket
import sys
import threading
import time
from contextlib import ExitStack
from typing import Any, Iterator
from urllib.parse import urlsplit

import pytest
from api_helpers import PROBLEM, Api, make_api, reused_api
from asgi_helpers import served_asgi

from api import edge
from api.asgi import Front
from api.handoff import KEY
from api.scoreboard import EXTENSION as SCOREBOARD
from api.scoreboard import Wakeups

FAST = {"SCOREBOARD_HEARTBEAT_SECONDS": 0.2, "SCOREBOARD_POLL_SECONDS": 0.05, "ACCESS_LOG": "0",
        "MAX_CONTENT_LENGTH": 4096}
WAIT = 60.0  # seconds a condition may take to come true (it comes in well under one; a loaded
# machine, a load of 20 on 2 cores, stretched some past 15)


@pytest.fixture
def fast_api(database_url: str) -> Iterator[Api]:
    """The session's one app with FAST's settings, over this test's database: every server a
    test starts stops before its end, so none outlives the test on the shared app (building an
    app of its own cost each of these tests more than its setup's copy of the database)."""
    built = reused_api(database_url, **FAST)
    yield built
    built.service.close()


def port_of(base: str) -> int:
    return int(urlsplit(base).port or 0)


def open_stream(base: str, api: Api, club: str = "casino") -> tuple[http.client.HTTPConnection, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port_of(base), timeout=WAIT)
    conn.request("GET", f"/api/v1/clubs/{club}/scoreboard/stream", headers=api.auth("viewer", club))
    return conn, conn.getresponse()


def until(predicate: Any) -> bool:
    deadline = time.monotonic() + WAIT
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def subscribed(api: Api) -> int:
    board = api.app.extensions.get(SCOREBOARD)
    return board.hub.subscribed if board is not None else 0


def get(base: str, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port_of(base), timeout=WAIT)
    try:
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


def raw(base: str, data: bytes, *, half_close: bool = False) -> bytes:
    """``data`` sent as it is on a new connection (then, with ``half_close``, the sending side
    shut); what the server answers until it closes."""
    with socket.create_connection(("127.0.0.1", port_of(base)), timeout=WAIT) as sock:
        sock.sendall(data)
        if half_close:
            sock.shutdown(socket.SHUT_WR)
        got = b""
        while chunk := sock.recv(65536):
            got += chunk
        return got


def problem_of(answer: bytes) -> tuple[int, dict[str, str], dict[str, Any]]:
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers, json.loads(body)


# ------------------------------------------------------------------------------ streams


def test_streams_hold_no_thread_of_the_app(fast_api: Api) -> None:
    """One app thread, six open streams: the JSON is still answered, and an append reaches
    every stream."""
    api = fast_api
    with served_asgi(api.app, threads=1) as base, ExitStack() as open_streams:
        streams = []
        for _ in range(6):
            conn, response = open_stream(base, api)
            open_streams.callback(conn.close)
            assert response.status == 200
            streams.append(response)
        status, _, _ = get(base, "/api/v1/clubs/casino/scoreboard", **api.auth("viewer"))
        assert status == 200
        match_id = api.matches["casino"]
        conn = http.client.HTTPConnection("127.0.0.1", port_of(base), timeout=WAIT)
        conn.request("POST", f"/api/v1/matches/{match_id}/events", json.dumps(api.events[1]),
                     {**api.auth("scorekeeper"), "If-Match": '"1"', "Content-Type": "application/json"})
        assert conn.getresponse().status == 201
        for response in streams:
            lines = []
            while not any(line.startswith(b"event: row") for line in lines):
                lines.append(response.readline())
                assert len(lines) < 500 and lines[-1]


def test_a_disconnect_frees_its_slot_at_once(fast_api: Api) -> None:
    api = fast_api
    with served_asgi(api.app) as base:
        conn, response = open_stream(base, api)
        assert response.status == 200 and subscribed(api) == 1
        response.close()
        conn.close()
        assert until(lambda: subscribed(api) == 0)


@pytest.mark.parametrize("how", ["closed", "half-closed"])
def test_a_clients_end_frees_its_slot_at_once(database_url: str, how: str) -> None:
    """A client that has read what came and closes its socket sends its end (a FIN, not a
    reset), as a browser's closed tab does; so does one that shuts its sending side. The stream
    ends as the server hears it, not when a heartbeat (here ten minutes away) finds the socket
    dead, and the server closes the connection."""
    api = make_api(database_url, **{**FAST, "SCOREBOARD_HEARTBEAT_SECONDS": 600})
    try:
        with served_asgi(api.app) as base:
            sock = socket.create_connection(("127.0.0.1", port_of(base)), timeout=WAIT)
            sock.sendall(b"GET /api/v1/clubs/casino/scoreboard/stream HTTP/1.1\r\nHost: x\r\n"
                         b"Authorization: " + api.auth("viewer")["Authorization"].encode()
                         + b"\r\n\r\n")
            got = b""
            while b"event: snapshot" not in got:
                got += sock.recv(65536)
            assert got.startswith(b"HTTP/1.1 200 ") and subscribed(api) == 1
            sock.settimeout(0.3)
            try:
                while sock.recv(65536):
                    pass  # everything sent so far read: a close now sends a FIN
            except socket.timeout:
                pass
            if how == "closed":
                sock.close()
            else:
                sock.shutdown(socket.SHUT_WR)
            assert until(lambda: subscribed(api) == 0)
            if how == "half-closed":
                sock.settimeout(WAIT)
                while sock.recv(65536):
                    pass  # the end of the stream, then the server's close
                sock.close()
    finally:
        api.service.close()


@pytest.mark.parametrize("cap", ["SCOREBOARD_STREAMS_PER_CLIENT", "SCOREBOARD_STREAMS_PER_CLUB"])
def test_the_caps_per_client_and_per_club(database_url: str, cap: str) -> None:
    api = make_api(database_url, **FAST, **{cap: 2})
    try:
        with served_asgi(api.app) as base, ExitStack() as held:
            for _ in range(2):
                conn, response = open_stream(base, api)
                held.callback(conn.close)
                assert response.status == 200
            conn, busy = open_stream(base, api)
            held.callback(conn.close)
            body = json.loads(busy.read())
            assert busy.status == 503 and busy.getheader("Content-Type") == PROBLEM
            assert busy.getheader("Retry-After") and body["type"].endswith(":busy")
            conn, other = open_stream(base, api, club="other")
            held.callback(conn.close)
            # another club is not this club's crowd; the same address is the same client
            assert other.status == (200 if cap.endswith("CLUB") else 503)
    finally:
        api.service.close()


def test_a_client_that_stops_reading_is_dropped(fast_api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    """The front driven directly: a write that never completes (the client's buffers full)
    drops the connection after WRITE_SECONDS and frees the slot."""
    monkeypatch.setattr(edge, "WRITE_SECONDS", 0.2)
    api = fast_api
    front = Front(api.app, threads=2)
    aborted = asyncio.Event()

    class Connection:
        stopping = asyncio.Event()
        hung_up = asyncio.Event()

        def writing_paused(self) -> bool:
            return len(sent) >= 3  # the next send blocks (below): the buffers are full

        def body_at_hand(self, scope: dict[str, Any]) -> bool:
            return not sent  # receive() below has the request's body at once

        def abort(self) -> None:
            aborted.set()

    monkeypatch.setitem(edge.OPEN, ("127.0.0.1", 4321), Connection())
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)
        if message["type"] == "http.response.body" and len(sent) > 3:
            await asyncio.Event().wait()  # blocked for ever, as on a full socket

    async def receive() -> dict[str, Any]:
        if not sent:
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()  # the client never disconnects
        return {}

    scope = {"type": "http", "method": "GET", "path": "/api/v1/clubs/casino/scoreboard/stream",
             "raw_path": b"/api/v1/clubs/casino/scoreboard/stream", "query_string": b"",
             "root_path": "", "http_version": "1.1", "scheme": "http",
             "headers": [(b"authorization", api.auth("viewer")["Authorization"].encode())],
             "client": ("127.0.0.1", 4321), "server": ("127.0.0.1", 80)}

    async def main() -> None:
        await asyncio.wait_for(front(scope, receive, send), timeout=WAIT)

    asyncio.run(main())
    assert aborted.is_set() and sent[0]["status"] == 200
    assert until(lambda: subscribed(api) == 0)
    assert KEY not in scope.get("extensions", {})  # the caller's scope is left as it was


def test_the_server_drops_a_stream_whose_client_stopped_reading(
        fast_api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same through uvicorn and the edge's protocol: once the client's buffers are full
    (the transport pauses writing, as it does then), the stream's next write (a heartbeat)
    waits WRITE_SECONDS, then the server drops the connection and frees the slot."""
    monkeypatch.setattr(edge, "WRITE_SECONDS", 0.3)
    api = fast_api
    errors: list[logging.LogRecord] = []
    with served_asgi(api.app) as base:
        told = logging.Handler()
        told.emit = errors.append  # type: ignore[method-assign]
        logging.getLogger("uvicorn.error").addHandler(told)  # after uvicorn set its logging up
        conn, response = open_stream(base, api)
        assert response.status == 200 and until(lambda: subscribed(api) == 1)
        while not response.readline().startswith(b": still here"):
            pass  # the opening read, and a heartbeat: the stream is being served
        protocol: Any = edge.OPEN[conn.sock.getsockname()]
        protocol.loop.call_soon_threadsafe(protocol.flow.pause_writing)
        assert until(lambda: subscribed(api) == 0)
        assert until(lambda: conn.sock.getsockname() not in edge.OPEN)
        try:
            while response.read(1024):
                pass  # what was sent before: then the end
        except (ConnectionError, http.client.IncompleteRead):
            pass  # dropped: a reset
        conn.close()
        logging.getLogger("uvicorn.error").removeHandler(told)
    # Dropped by the front, not by an error (no traceback, no unfinished answer reported).
    assert [r.getMessage() for r in errors if r.levelno >= logging.WARNING] == []


def test_streams_are_woken_a_batch_at_a_time() -> None:
    """A change for many streams wakes Wakeups.BATCH of them an iteration of the loop, so
    what else waits on the loop (a request) runs in between; in the end every one is woken."""
    async def main() -> tuple[int, int]:
        loop = asyncio.get_running_loop()
        wakeups = Wakeups(loop)
        events = [asyncio.Event() for _ in range(Wakeups.BATCH * 3 + 1)]
        for event in events:
            wakeups.wake(event)
        seen: list[int] = []
        loop.call_soon(lambda: seen.append(sum(e.is_set() for e in events)))  # after the first
        for _ in range(10):
            await asyncio.sleep(0)
        return seen[0], sum(e.is_set() for e in events)

    first, last = asyncio.run(main())
    assert (first, last) == (Wakeups.BATCH, Wakeups.BATCH * 3 + 1)


# ------------------------------------------------------------------------------ the edge


def test_the_edge_answers_problem_json_and_the_server_answers_on(fast_api: Api) -> None:
    with served_asgi(fast_api.app) as base:
        cases = {
            400: b"POST /api/v1/clubs HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
                 b"Content-Type: application/json\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
            414: b"GET /api/v1/clubs?q=" + b"x" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
            431: b"GET / HTTP/1.1\r\nHost: x\r\n" + b"".join(
                b"X-%d: y\r\n" % n for n in range(60)) + b"\r\n",
        }
        for status, request in cases.items():
            got, headers, body = problem_of(raw(base, request))
            assert (got, headers["content-type"], body["status"]) == (status, PROBLEM, status)
            assert headers["x-content-type-options"] == "nosniff"
        got, _, _ = problem_of(raw(base, b"GET /" + b"x" * 20000 + b" HTTP/1.1\r\n"))
        assert got == 414  # longer than the whole head may be, and still the request line
        got, _, _ = problem_of(raw(base, b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"y" * 20000 + b"\r\n\r\n"))
        assert got == 431
        chunked = (b"POST /api/v1/clubs HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
                   b"Content-Type: application/json\r\n\r\n")
        big = b"%x\r\n%s\r\n0\r\n\r\n" % (5000, b"x" * 5000)
        got, _, body = problem_of(raw(base, chunked + big))
        assert got == 413 and "larger than" in body["detail"]
        assert get(base, "/api/openapi.json")[0] == 200


def test_a_body_whose_length_is_said_twice_is_refused(fast_api: Api) -> None:
    """Content-Length and Transfer-Encoding together: 400, nothing done, whichever is first,
    whether the two agree or not (a proxy in front may read the other one: request smuggling)."""
    admin = fast_api.auth("admin")["Authorization"].encode()
    body = b'{"name": "Smuggled"}'
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
    with served_asgi(fast_api.app) as base:
        for lengths in ([b"Content-Length: %d" % len(chunked), b"Transfer-Encoding: chunked"],
                        [b"Transfer-Encoding: chunked", b"Content-Length: %d" % len(body)],
                        [b"Content-Length: 0", b"Transfer-Encoding: chunked"]):
            request = (b"POST /api/v1/clubs/casino/players HTTP/1.1\r\nHost: x\r\n"
                       b"Authorization: " + admin + b"\r\nContent-Type: application/json\r\n"
                       + b"\r\n".join(lengths) + b"\r\n\r\n" + chunked)
            got, headers, answer = problem_of(raw(base, request))
            assert (got, headers["content-type"], headers["connection"]) == (400, PROBLEM, "close")
            assert "Content-Length and Transfer-Encoding" in answer["detail"]
        assert fast_api.service.players.find("casino", "Smuggled") is None
        assert get(base, "/api/openapi.json")[0] == 200


def test_a_client_that_half_closes_after_its_request_gets_the_answer(fast_api: Api) -> None:
    with served_asgi(fast_api.app) as base:
        request = (b"GET /api/v1/clubs/casino/matches HTTP/1.1\r\nHost: x\r\n"
                   b"Authorization: Bearer \xe9\xff\r\n\r\n")  # a token to look up: not at once
        status, _, body = problem_of(raw(base, request, half_close=True))  # then it closed
        assert status == 401 and body["status"] == 401
        viewer = fast_api.auth("viewer")["Authorization"].encode()
        answer = raw(base, b"GET /api/v1/clubs/casino HTTP/1.1\r\nHost: x\r\nAuthorization: "
                     + viewer + b"\r\n\r\n", half_close=True)
        assert answer.startswith(b"HTTP/1.1 200 ") and b'"slug":"casino"' in answer


def test_slow_and_idle_connections_are_closed(fast_api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(edge, "HEAD_SECONDS", 0.3)
    monkeypatch.setattr(edge, "BODY_IDLE_SECONDS", 0.3)
    with served_asgi(fast_api.app) as base:
        assert raw(base, b"") == b""  # connected, said nothing: closed
        assert raw(base, b"GET /api/openapi.json HTTP/1.1\r\nHost") == b""  # a head that stalls
        got, headers, body = problem_of(raw(base, b"POST /api/v1/clubs HTTP/1.1\r\nHost: x\r\n"
                                                  b"Content-Type: application/json\r\n"
                                                  b"Content-Length: 10\r\n\r\n{"))
        assert (got, headers["content-type"]) == (408, PROBLEM)
        assert get(base, "/api/openapi.json")[0] == 200


def test_a_body_is_timed_only_while_it_is_awaited(fast_api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    """The front arms the body's timer (BODY_IDLE_SECONDS) only for a body not here yet: a
    request sent whole (nearly every one) is read without a timer; a body sent after its head
    is timed, and read (its 408 when it never comes: the test above)."""
    armed: list[float] = []
    timeout = asyncio.timeout

    def counted(delay: float | None) -> Any:
        if sys._getframe(1).f_code is Front._body.__code__:
            armed.append(delay)
        return timeout(delay)

    monkeypatch.setattr(asyncio, "timeout", counted)
    head = (b"POST /api/v1/clubs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 2\r\nConnection: close\r\n\r\n")
    with served_asgi(fast_api.app) as base:
        whole, _, _ = problem_of(raw(base, head + b"{}"))
        assert (whole, armed) == (401, [])  # read, then refused by the app: no admin token
        with socket.create_connection(("127.0.0.1", port_of(base)), timeout=WAIT) as sock:
            sock.sendall(head)
            assert until(lambda: len(armed) == 1)  # the head read, the body awaited
            sock.sendall(b"{}")
            got = b""
            while chunk := sock.recv(65536):
                got += chunk
        assert problem_of(got)[0] == 401 and armed == [edge.BODY_IDLE_SECONDS]


def test_every_answer_has_the_security_headers(fast_api: Api) -> None:
    with served_asgi(fast_api.app) as base:
        for path in ("/api/openapi.json", "/api/v1/clubs/casino", "/api/v1/nowhere"):
            _, headers, _ = get(base, path)
            assert headers["x-content-type-options"] == "nosniff", path
            assert "frame-ancestors 'none'" in headers["content-security-policy"], path
            assert headers["referrer-policy"] == "same-origin", path


def test_the_scoreboard_is_in_the_document(fast_api: Api) -> None:
    spec = fast_api.client.get("/api/openapi.json").json
    for path in ("/api/v1/clubs/{club}/scoreboard", "/api/v1/pages/clubs/{club}/scoreboard",
                 "/api/v1/clubs/{club}/tournaments/{tournament}/scoreboard",
                 "/api/v1/clubs/{club}/scoreboard/stream",
                 "/api/v1/clubs/{club}/tournaments/{tournament}/scoreboard/stream"):
        assert "get" in spec["paths"][path], path
    stream = spec["paths"]["/api/v1/clubs/{club}/scoreboard/stream"]["get"]
    assert "text/event-stream" in stream["responses"]["200"]["content"]
    assert "503" in stream["responses"]


def test_the_servers_lifespan_runs_the_jobs_in_the_background(fast_api: Api) -> None:
    """Between the server's start and stop (the ASGI lifespan: domino serve and each gunicorn
    worker), the service's jobs run in a thread of their own (the ratings' catch-up and the
    actas due, never done inside a read); the stop ends it."""
    front = Front(fast_api.app)
    jobs = [t for t in threading.enumerate() if t.name == "domino-jobs"]
    assert jobs == []

    async def lifespan() -> None:
        inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        sent: list[dict[str, Any]] = []

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        task = asyncio.create_task(front({"type": "lifespan"}, inbox.get, send))
        await inbox.put({"type": "lifespan.startup"})
        while not sent:
            await asyncio.sleep(0.01)
        assert sent == [{"type": "lifespan.startup.complete"}]
        assert [t for t in threading.enumerate() if t.name == "domino-jobs" and t.is_alive()]
        await inbox.put({"type": "lifespan.shutdown"})
        await task
        assert sent[-1] == {"type": "lifespan.shutdown.complete"}

    asyncio.run(lifespan())
    assert not [t for t in threading.enumerate() if t.name == "domino-jobs" and t.is_alive()]


@pytest.mark.parametrize(("headers", "refused"), [
    ([(b"host", b"x"), (b"content-length", b"3")], None),
    ([(b"transfer-encoding", b"chunked")], None),
    ([(b"content-length", b"3"), (b"host", b"x"), (b"transfer-encoding", b"chunked")], 400),
    ([(b"transfer-encoding", b"chunked"), (b"content-length", b"3")], 400),
    ([(b"x-big", b"y" * (edge.HEADER_FIELD - 7))], None),  # name, ": " and value: the limit
    ([(b"x-big", b"y" * (edge.HEADER_FIELD - 6))], 431),
    # a field too long is said before lengths said twice, as the head is read
    ([(b"content-length", b"3"), (b"transfer-encoding", b"chunked"),
      (b"x-big", b"y" * edge.HEADER_FIELD)], 431),
    ([(b"x-%d" % n, b"y") for n in range(edge.HEADER_FIELDS)], None),
    ([(b"x-%d" % n, b"y") for n in range(edge.HEADER_FIELDS + 1)], 431),
])
def test_the_front_refuses_a_head_by_its_fields(headers: list[tuple[bytes, bytes]],
                                                refused: int | None) -> None:
    scope = {"method": "POST", "raw_path": b"/api/v1/clubs", "query_string": b"",
             "headers": headers}
    got = edge.refused_head(scope)
    assert (got[0] if got else None) == refused
