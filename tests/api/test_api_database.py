"""The API when the database is not there: 503 problem+json with Retry-After, fast, never a 500;
and back to work by itself, without a restart, when the database is back or after the server
dropped its connections."""

from __future__ import annotations

import socket
import threading
import time
import uuid
from pathlib import Path
from typing import Any, Iterator

import pytest
from api_helpers import PLAYERS, SERVER_TOKEN, Api, assert_problem, make_api
from db_helpers import PG_URL
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from api import create_app

CLOSED_PORT = "postgresql+psycopg://postgres@127.0.0.1:1/test"
needs_pg = pytest.mark.skipif(not PG_URL, reason="DOMINO_TEST_DATABASE_URL is not set")


def assert_unavailable(response: Any) -> None:
    body = assert_problem(response, 503, "database-unavailable")
    assert int(response.headers["Retry-After"]) > 0
    assert "psycopg" not in body["detail"] and "127.0.0.1" not in body["detail"]


def requests(token: str) -> list[tuple[str, str, dict[str, Any]]]:
    auth = {"Authorization": f"Bearer {token}"}
    return [
        ("GET", "/api/v1/clubs/casino", {"headers": auth}),
        ("GET", "/api/v1/clubs/casino/matches", {"headers": auth}),
        ("POST", "/api/v1/clubs/casino/matches", {"headers": auth, "json": {"rules": "parejas", "players": PLAYERS}}),
        ("POST", "/api/v1/matches/1/events", {"headers": {**auth, "If-Match": '"0"'}, "json": {"type": "note", "text": "x"}}),
        ("GET", "/api/v1/matches/1", {"headers": auth}),
        ("GET", "/api/v1/clubs/casino/standings?format=csv", {"headers": auth}),
    ]


def test_an_unreachable_database_is_503_with_retry_after_and_fast() -> None:
    app = create_app({"DATABASE_URL": CLOSED_PORT, "ADMIN_TOKEN": SERVER_TOKEN})
    try:
        client = app.test_client()
        began = time.monotonic()
        # A club token needs the database to be found; the server token does not, and its
        # request fails at the first query instead.
        assert_unavailable(client.post("/api/v1/clubs", json={"slug": "x", "name": "X"},
                                       headers={"Authorization": f"Bearer {SERVER_TOKEN}"}))
        for method, url, kwargs in requests("some-club-token"):
            assert_unavailable(client.open(url, method=method, **kwargs))
        assert time.monotonic() - began < 15  # a hang would be far longer
        # What needs no database still works.
        assert client.get("/api/openapi.json").status_code == 200
    finally:
        app.extensions["domino-referee.service"].close()


class Proxy:
    """A TCP forwarder to PostgreSQL that can be cut and restored on the same port: the
    database as the API sees it going away and coming back."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        self.port = probe.getsockname()[1]
        probe.close()
        self._listener: socket.socket | None = None
        self._sockets: list[socket.socket] = []

    def up(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def down(self) -> None:
        """Refuse new connections and cut every open one."""
        if self._listener is not None:
            try:
                self._listener.shutdown(socket.SHUT_RDWR)  # wakes the accept() (close would not)
            except OSError:
                pass
            self._listener.close()
            self._listener = None
        for sock in self._sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()
        self._sockets.clear()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.upstream)
            self._sockets += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass


@pytest.fixture
def pg_api() -> Iterator[tuple[Api, str]]:
    """An Api on PostgreSQL whose connections are tagged with an application_name of their own
    (so that a test can kill exactly them, not the other tests' or anyone else's)."""
    from referee.store.db import scratch_schema

    assert PG_URL
    name = f"domino-test-{uuid.uuid4().hex[:12]}"
    with scratch_schema(PG_URL, prefix="test") as url:
        tagged = make_url(url).update_query_dict({"application_name": name})
        api = make_api(tagged.render_as_string(hide_password=False))
        try:
            yield api, name
        finally:
            api.service.close()


def kill_backends(name: str) -> int:
    """pg_terminate_backend, from another connection, of every backend the API holds."""
    admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            killed = conn.execute(text(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid() "
                "AND application_name = :name"), {"name": name}).scalar_one()
        deadline = time.monotonic() + 60  # generous: a loaded machine
        while time.monotonic() < deadline:  # termination is asynchronous
            with admin.connect() as conn:
                left = conn.execute(text("SELECT count(*) FROM pg_stat_activity "
                                         "WHERE application_name = :name"), {"name": name}).scalar_one()
            if not left:
                break
            time.sleep(0.02)
        return killed
    finally:
        admin.dispose()


@needs_pg
def test_terminated_backends_between_two_requests_are_no_500(pg_api: tuple[Api, str]) -> None:
    api, name = pg_api
    match_id = api.matches["casino"]
    seq = 1
    for round_ in range(3):
        r = api.append(match_id, api.events[seq], seq)
        assert r.status_code == 201, r.json
        seq += 1
        assert kill_backends(name) >= 1
        # The very next requests, reads and an append, on the connections the pool held.
        r = api.client.get(f"/api/v1/matches/{match_id}", headers=api.auth("viewer"))
        assert r.status_code == 200 and r.json["last_seq"] == seq
        r = api.append(match_id, api.events[seq], seq)
        assert r.status_code == 201, r.json
        seq += 1
        kill_backends(name)
        r = api.client.get("/api/v1/clubs/casino/standings", headers=api.auth("viewer"))
        assert r.status_code == 200


@needs_pg
def test_the_api_recovers_by_itself_when_the_database_comes_back() -> None:
    from referee.store.db import scratch_schema

    assert PG_URL
    real = make_url(PG_URL)
    proxy = Proxy((real.host or "127.0.0.1", real.port or 5432))
    proxy.up()
    with scratch_schema(PG_URL, prefix="test") as url:
        through = make_url(url).set(host="127.0.0.1", port=proxy.port)
        api = make_api(through.render_as_string(hide_password=False))
        try:
            viewer = api.auth("viewer")
            match_url = f"/api/v1/matches/{api.matches['casino']}"
            assert api.client.get(match_url, headers=viewer).status_code == 200
            proxy.down()
            began = time.monotonic()
            for _ in range(3):
                assert_unavailable(api.client.get(match_url, headers=viewer))
            assert_unavailable(api.append(api.matches["casino"], api.events[1], 1))
            assert time.monotonic() - began < 15  # a connect timeout a request: 20 s
            proxy.up()
            r = api.client.get(match_url, headers=viewer)
            assert r.status_code == 200 and r.json["last_seq"] == 1
            assert api.append(api.matches["casino"], api.events[1], 1).status_code == 201
        finally:
            api.service.close()
            proxy.down()


def test_which_database_errors_are_unavailability() -> None:
    from sqlalchemy import exc

    from referee.service import database_unavailable

    cause = Exception("boom")
    assert database_unavailable(exc.OperationalError("SELECT 1", {}, cause))  # down, timeouts
    assert database_unavailable(exc.InterfaceError("SELECT 1", {}, cause))
    assert database_unavailable(exc.TimeoutError("QueuePool limit reached"))  # a full pool
    assert database_unavailable(exc.DBAPIError("SELECT 1", {}, cause, connection_invalidated=True))
    assert not database_unavailable(exc.ProgrammingError("SELECT 1", {}, cause))  # a bug
    assert not database_unavailable(exc.IntegrityError("INSERT", {}, cause))


def test_a_full_pool_is_503_and_a_database_bug_500(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    from sqlalchemy import exc

    def full(*args: Any, **kwargs: Any) -> None:
        raise exc.TimeoutError("QueuePool limit of size 5 overflow 10 reached")

    def bug(*args: Any, **kwargs: Any) -> None:
        raise exc.ProgrammingError("SELECT secret FROM nowhere", {}, Exception("no such column"))

    url = f"/api/v1/matches/{api.matches['casino']}/report"
    monkeypatch.setattr(api.service.reading, "report", full)
    assert_unavailable(api.client.get(url, headers=api.auth("viewer")))
    monkeypatch.setattr(api.service.reading, "report", bug)
    r = api.client.get(url, headers=api.auth("viewer"))
    assert_problem(r, 500, "server-error")
    assert "secret" not in r.get_data(as_text=True)


@needs_pg
def test_the_app_pool_is_sized_for_the_threads_serving_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """create_app (THREADS, or DOMINO_THREADS) and the ASGI front (its own default too) give the
    service a pool with a connection for every request thread."""
    from api.asgi import THREADS, create_asgi
    from api.context import EXTENSION

    monkeypatch.delenv("DOMINO_DB_POOL_SIZE", raising=False)
    monkeypatch.delenv("DOMINO_THREADS", raising=False)
    apps = [create_app({"DATABASE_URL": PG_URL, "THREADS": 40}),
            create_asgi({"DATABASE_URL": PG_URL, "THREADS": 64}).app]
    monkeypatch.setenv("DOMINO_THREADS", "30")
    apps.append(create_app({"DATABASE_URL": PG_URL}))
    try:
        assert [app.extensions[EXTENSION].engine.pool.size() for app in apps] == [44, 68, 34]
    finally:
        for app in apps:
            app.extensions[EXTENSION].close()
    assert THREADS + 4 <= 20  # the default front's threads fit the default pool


def test_a_corrupted_database_file_is_503_on_every_channel_in_the_readers_language(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A SQLite file damaged under a running server (pages overwritten) was a 500 and a
    traceback on the API, the pages and an append; it is the operator's to mend, said as such."""
    import sqlite3

    path = tmp_path / "club.db"
    api = make_api(f"sqlite:///{path}")
    try:
        match = api.matches["casino"]
        checkpoint = sqlite3.connect(path)
        checkpoint.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # every page in the file itself
        checkpoint.close()
        api.service.engine.dispose()
        data = bytearray(path.read_bytes())
        for page in range(4096, len(data), 4096):  # every page but the first (the schema's)
            data[page + 100:page + 300] = b"\xa5" * 200
        path.write_bytes(bytes(data))
        spanish = {"Accept-Language": "es"}
        for response in (
                api.client.get(f"/api/v1/matches/{match}", headers=api.auth("viewer", **spanish)),
                api.append(match, api.events[1], 1, **spanish),
                api.client.get(f"/clubs/casino/matches/{match}",
                               headers=api.auth("viewer", **spanish))):
            body = assert_problem(response, 503, "database-damaged")
            assert "Retry-After" not in response.headers
            assert body["detail"].startswith("la base de datos del servidor está dañada")
            assert "malformed" not in body["detail"]
        logged = [record for record in caplog.records if record.name == "api"]
        assert logged and all(record.exc_info is None for record in logged)
        assert all("database damaged on" in record.getMessage() for record in logged)
    finally:
        api.service.close()


def test_which_database_errors_are_damage() -> None:
    from sqlalchemy import exc

    from referee.service import database_damaged

    class Driver(Exception):
        def __init__(self, **attributes: object) -> None:
            super().__init__("x")
            self.__dict__.update(attributes)

    def said(**attributes: object) -> bool:
        return database_damaged(exc.DatabaseError("SELECT 1", {}, Driver(**attributes)))

    assert said(sqlite_errorcode=11) and said(sqlite_errorcode=26)  # CORRUPT, NOTADB
    assert said(sqlite_errorcode=11 | (1 << 8))  # SQLITE_CORRUPT_VTAB: an extended code
    assert said(sqlstate="XX001") and said(sqlstate="XX002")
    assert not said(sqlite_errorcode=5) and not said(sqlstate="57P01") and not said()
    assert not database_damaged(exc.TimeoutError("QueuePool limit reached"))


def test_a_browser_asking_for_a_page_gets_the_failure_as_a_page(api: Api,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The database out of reach, or a bug, on a page a browser asked for was the API's
    problem+json, shown to the reader as raw JSON: it is a page in the site's frame, in the
    reader's language, same status and Retry-After. The API, and a script's fetch, keep
    problem+json."""
    from sqlalchemy import exc

    from referee.service.pages import Pages

    def down(*args: Any, **kwargs: Any) -> None:
        raise exc.OperationalError("SELECT 1", {}, Exception("connection refused"))

    def bug(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("a bug with a secret")

    match = api.matches["casino"]
    browser = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8", "Accept-Language": "it"}
    page, twin = f"/clubs/casino/matches/{match}", f"/api/v1/matches/{match}"
    api.service.engine.dispose()
    monkeypatch.setattr(api.service.engine.pool, "connect", down)
    response = api.client.get(page, headers=api.auth("viewer", **browser))
    assert (response.status_code, response.mimetype) == (503, "text/html")
    assert int(response.headers["Retry-After"]) > 0
    html = response.get_data(as_text=True)
    assert "<title>Non disponibile al momento" in html and "Il database non è raggiungibile" in html
    assert_unavailable(api.client.get(twin, headers=api.auth("viewer", **browser)))
    assert_unavailable(api.client.get(page, headers=api.auth("viewer", Accept="*/*")))
    monkeypatch.undo()
    monkeypatch.setattr(Pages, "match", bug)
    response = api.client.get(page, headers=api.auth("viewer", **browser))
    assert (response.status_code, response.mimetype) == (500, "text/html")
    html = response.get_data(as_text=True)
    assert "<title>Errore del server" in html and "secret" not in html


def test_a_database_taking_no_writes_for_now_is_503_not_500(api: Api) -> None:
    """A write reaching a database that takes none just now (PostgreSQL read-only: a standby,
    the old primary of a failover; SQLite's file read-only) was a 500 and a traceback on
    PostgreSQL (psycopg files 25006 under InternalError) where SQLite's was a 503; nothing
    was stored either way, and a retry later with the same Idempotency-Key stores it once."""
    from sqlalchemy import event

    engine = api.service.engine
    read_only = ("PRAGMA query_only = ON" if engine.dialect.name == "sqlite"
                 else "SET default_transaction_read_only = on")

    def taking_no_writes(connection: Any, record: Any) -> None:
        cursor = connection.cursor()
        cursor.execute(read_only)
        cursor.close()
        if engine.dialect.name != "sqlite":
            connection.commit()

    match = api.matches["casino"]
    key = {"Idempotency-Key": str(uuid.uuid4())}
    engine.dispose()
    event.listen(engine, "connect", taking_no_writes)
    try:
        assert_unavailable(api.append(match, api.events[1], 1, **key))
    finally:
        event.remove(engine, "connect", taking_no_writes)
        engine.dispose()
    assert api.append(match, api.events[1], 1, **key).status_code == 201
    assert api.append(match, api.events[1], 1, **key).status_code == 201  # the first answer
    assert api.client.get(f"/api/v1/matches/{match}", headers=api.auth("viewer")).json[
        "last_seq"] == 2
