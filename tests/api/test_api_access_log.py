"""The access log: one line per request on the "domino.access" logger, with the method, the
path (no query string), the status, the time taken and the remote address, and never a token."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Iterator
from urllib.parse import quote

import pytest
from api_helpers import Api, make_api

from api import access_log, create_app

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


@pytest.mark.parametrize("text", [
    "127.0.0.1", "POST", "/api/v1/matches/7/events", "", "-", "/a b", '/x"y', "/línea\n",
    "/%41%zz", "/ñ/ü", "/tab\there", "/q?x=1#f", "/[::1]", "/~user_name.-'()*+,;=:@!$&",
    "/\x00\x7f\xff", "/é\u0100",  # past latin-1: replaced, then encoded
])
def test_a_plain_string_is_logged_as_quote_gives_it(text: str) -> None:
    assert access_log._printable(text) == quote(text.encode("latin-1", "replace"),
                                                safe=access_log._PATH_SAFE)


def test_the_record_is_the_one_logger_info_makes(access: Lines) -> None:
    # The record's place and words, as logger.info called in AccessLog._log gave them.
    def app(environ: dict, start_response: Callable[..., Any]) -> list[bytes]:
        start_response("201 Created", [])
        return [b""]

    list(access_log.AccessLog(app)({"REMOTE_ADDR": "10.0.0.2", "REQUEST_METHOD": "POST",
                                    "SCRIPT_NAME": "", "PATH_INFO": "/a b"}, lambda *a: None))
    [record] = access.records
    code = access_log.AccessLog._log.__code__
    lines = [line for _, _, line in code.co_lines() if line is not None]
    assert (record.pathname, record.funcName) == (code.co_filename, "_log")
    assert min(lines) < record.lineno <= max(lines)
    assert (record.name, record.levelno, record.exc_info, record.stack_info) == (
        "domino.access", logging.INFO, None, None)
    assert record.msg == '%s "%s %s" %s %.1fms'
    assert record.args[:4] == ("10.0.0.2", "POST", "/a%20b", "201")
    assert record.getMessage() == f'10.0.0.2 "POST /a%20b" 201 {record.args[4]:.1f}ms'
    assert (record.remote_addr, record.method, record.path, record.status) == record.args[:4]
    assert record.duration_ms == round(record.args[4], 1)


@pytest.mark.parametrize("created", [-1.0, -0.5, 0.0, 1.5, 1765_000_000.0, 1765_000_000.999, 1765_000_001.25,
                                     1765_000_001.0005, 1_800_000_000.9999])
def test_the_line_formatter_dates_a_record_as_loggings_does(created: float) -> None:
    ours, theirs = access_log._LineFormatter(access_log.FORMAT), logging.Formatter(access_log.FORMAT)
    for moment in (created, created, created + 0.25, created - 1, created + 0.75):
        record = logging.makeLogRecord({"msg": "line", "created": moment,
                                        "msecs": int((moment - int(moment)) * 1000) + 0.0})
        assert ours.format(record) == theirs.format(record)


def _front_answer(front: Any, headers: list[tuple[bytes, bytes]], chunks: list[bytes]) -> int:
    """One request through the ASGI front (api.asgi), in process: its status."""
    import asyncio

    scope = {"type": "http", "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": "/api/v1/clubs", "raw_path": b"/api/v1/clubs", "query_string": b"",
             "root_path": "", "headers": headers, "client": ("198.51.100.9", 4000),
             "server": ("127.0.0.1", 8000)}
    messages = [{"type": "http.request", "body": chunk, "more_body": n < len(chunks) - 1}
                for n, chunk in enumerate(chunks)]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(front(scope, receive, send))
    return sent[0]["status"]


@pytest.mark.parametrize("trusted", [0, 1])
def test_the_asgi_fronts_own_answers_are_logged_as_the_apps(tmp_path: Path, access: Lines,
                                                             trusted: int) -> None:
    # deploy's uvicorn path answers a body too large (413) or a head it refuses (431) before
    # the app: those answers made no line; they make the line the app's answers make
    from api.asgi import Front

    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'x.db'}",
                      "MAX_CONTENT_LENGTH": 100, "TRUSTED_PROXIES": trusted})
    front = Front(app, threads=1)
    forwarded = (b"x-forwarded-for", b"203.0.113.7")
    json_type = (b"content-type", b"application/json")
    said = [(b"content-length", b"500"), json_type, forwarded]
    assert _front_answer(front, said, [b"x" * 500]) == 413
    assert _front_answer(front, [json_type, forwarded], [b"x" * 60, b"x" * 60]) == 413
    many = [(b"x-%d" % n, b"y") for n in range(60)]
    assert _front_answer(front, [*many, forwarded], [b""]) == 431
    assert _front_answer(front, [(b"content-length", b"2"), json_type, forwarded], [b"{}"]) == 401
    address = "203.0.113.7" if trusted else "198.51.100.9"
    assert [(r.status, r.method, r.path, r.remote_addr) for r in access.records] == [
        (status, "POST", "/api/v1/clubs", address) for status in ("413", "413", "431", "401")]
    assert all(r.getMessage().startswith(f'{address} "POST /api/v1/clubs" ') for r in access.records)


def test_the_http_parsers_own_answers_are_logged_too(tmp_path: Path, access: Lines) -> None:
    # what h11 refuses (a request line past the head's limit, a malformed chunked body) is
    # answered by api.server before any app: its line, the method and path "-" when unread
    import socket

    from asgi_helpers import served_asgi

    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'x.db'}"})
    with served_asgi(app, threads=1) as base:
        port = int(base.rsplit(":", 1)[1])
        for request in (b"GET /" + b"x" * 20000 + b" HTTP/1.1\r\n",
                        b"POST /api/v1/clubs HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
                        b"Content-Type: application/json\r\n\r\nzz\r\n{}\r\n0\r\n\r\n"):
            with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
                sock.sendall(request)
                while sock.recv(65536):
                    pass
    assert [(r.status, r.method, r.path, r.remote_addr) for r in access.records] == [
        ("414", "-", "-", "127.0.0.1"), ("400", "POST", "/api/v1/clubs", "127.0.0.1")]
    assert access.records[0].getMessage() == '127.0.0.1 "- -" 414 0.0ms'



def test_under_waitress_its_own_refusals_are_not_logged(tmp_path: Path, access: Lines) -> None:
    """The app as a plain WSGI app under waitress (docs/deploy.md, "Logs"): what waitress
    answers itself, before the app (a malformed header, 400; a transfer coding it does not
    know, 501), has no line, for waitress has no hook to log it; the app's answers have theirs.
    This pins what the docs say: should waitress ever pass them on, the docs must change."""
    import socket

    from api_helpers import served

    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'x.db'}"})
    answers = []
    with served(app, threads=1) as base:
        port = int(base.rsplit(":", 1)[1])
        for request in (b"GET /api/v1/clubs HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n",
                        b"POST /api/v1/clubs HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n",
                        b"GET /api/v1/clubs HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"):
            with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
                sock.sendall(request)  # each answer closes the connection: read to its end
                answers.append(b"".join(iter(lambda: sock.recv(65536), b"")).split(b" ", 2)[1])
    assert answers == [b"400", b"501", b"405"]  # the last is the app's: a GET of the clubs
    assert [(r.status, r.method, r.path) for r in access.records] == [("405", "GET", "/api/v1/clubs")]
