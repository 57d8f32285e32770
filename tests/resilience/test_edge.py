"""The edge under attack, on the servers as deployed: gunicorn with deploy/gunicorn.conf.py
(uvicorn workers, the ASGI front) on PostgreSQL, and ``domino serve`` on SQLite.

- the idle-stream flood: one client opens scoreboard streams of a public club without a token
  and never reads them; past its address's cap it gets 503 at once, while a private club's
  viewer still gets its stream and the API answers; ending the flood (each socket's end, a
  FIN) frees every slot at once;
- the anonymous flood from many addresses on ``domino serve``: 3,000 idle sockets from 100
  addresses over six public clubs fill the visitors' share of the streams, never the members':
  a private club's viewer and a public club's member get their streams; their end frees every
  slot at once;
- the guesser on a club's Wi-Fi: 300 wrong tokens from one address, then that address's valid
  tokens are answered 200, never 429, while its further guesses stay refused;
- revocation across workers: an admin token revoked through one request is refused (401) by
  every later request, on new connections spread over 3 workers;
- malformed chunked bodies (a chunk size ``zz``) and bodies whose length is said twice
  (Content-Length and Transfer-Encoding): 400 problem+json every time, nothing stored, no
  traceback in the server's log, the server answering on; on gunicorn and ``domino serve``;
- the slow-connection flood on ``domino serve``: 500 connections held open, idle or sending a
  body byte by byte, while ordinary requests keep being answered; the server closes them all
  within its timeouts.

None of these stops PostgreSQL.
"""

from __future__ import annotations

import http.client
import resource
import secrets
import socket
import sys
import threading
import time
from collections import Counter
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from resilience_helpers import (
    CLUB,
    PROBLEM,
    ROOT,
    Gunicorn,
    Http,
    make_club,
    needs_pg,
    percentile,
    scratch_club,
    wait_until,
)

pytestmark = pytest.mark.resilience

CONFIG = ROOT / "deploy" / "gunicorn.conf.py"
STREAM = "/api/v1/clubs/{club}/scoreboard/stream"
FLOOD = 300  # idle streams one client tries to open
PER_CLIENT = 32  # api.live's StreamCaps.client default, restated as the test's expectation
SLOW = 500  # connections held open on domino serve
# The anonymous flood on domino serve: sockets, their addresses (127.0.1.1 to 127.0.1.100, which
# Linux routes to this machine), the public clubs they watch.
SWARM, ADDRESSES, PUBLIC_CLUBS = 3000, 100, 6
STREAMS, RESERVED = 2000, 25  # StreamCaps' process cap and members' share, restated
GUESSES = 300  # wrong tokens from one address
AUTH_FAILURES = 30  # api.auth's default, restated


class Production(Gunicorn):
    """gunicorn as deployed: ``-c deploy/gunicorn.conf.py`` (uvicorn workers)."""

    def command(self) -> list[str]:
        return [sys.executable, "-m", "gunicorn", "-c", str(CONFIG), "--bind",
                f"127.0.0.1:{self.port}", "--workers", str(self.workers), "--log-level", "warning"]


class Serve(Gunicorn):
    """``domino serve`` (one process)."""

    def __init__(self, database_url: str, log_path: Path, **environment: str) -> None:
        super().__init__(database_url, log_path, workers=0, **environment)

    def command(self) -> list[str]:
        return [str(Path(sys.executable).with_name("domino")), "serve", "--port", str(self.port)]


def _stream_request(club: str, token: str | None = None) -> bytes:
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    return (f"GET {STREAM.format(club=club)} HTTP/1.1\r\nHost: t\r\n{auth}\r\n").encode()


def _status(sock: socket.socket) -> tuple[int, bytes]:
    """The status of the answer on ``sock`` and the head read so far."""
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        if not chunk:
            break
        head += chunk
    return (int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/") else 0), head


def _reads(server: Gunicorn, token: str, count: int) -> list[float]:
    """``count`` reads of the club's matches over one connection, each answered 200: their
    times, in seconds."""
    client = Http(server.base, token)
    try:
        times = []
        for _ in range(count):
            answer = client.call("GET", f"/api/v1/clubs/{CLUB}/matches")
            assert answer.status == 200
            times.append(answer.elapsed)
        return times
    finally:
        client.close()


def _ms(seconds: float | None) -> float:
    return round(1000 * (seconds or 0), 1)


def _private_club(url: str, slug: str = "private") -> str:
    from referee.service import open_service

    with open_service(url) as service:
        service.clubs.create_club(slug, "Private")
        return service.tokens.create_token(slug, "viewer", label="projector")


@needs_pg
def test_an_idle_stream_flood_starves_no_one(tmp_path: Path, figures: dict[str, Any]) -> None:
    with scratch_club() as club:
        from referee.service import open_service

        with open_service(club.url) as service:
            service.clubs.set_public(CLUB, True)
        viewer = _private_club(club.url)
        server = Production(club.url, tmp_path / "gunicorn.log", workers=2)
        server.start()
        try:

            def reopen() -> bool:
                socks = []
                try:
                    for _ in range(PER_CLIENT):
                        sock = socket.create_connection(("127.0.0.1", server.port), timeout=30)
                        socks.append(sock)
                        sock.sendall(_stream_request(CLUB))
                        if _status(sock)[0] != 200:
                            return False
                    return True
                finally:
                    for sock in socks:
                        sock.close()

            with ExitStack() as held:
                statuses: Counter[int] = Counter()
                began = time.monotonic()
                refused_s: list[float] = []
                flood: list[socket.socket] = []
                for _ in range(FLOOD):
                    sock = socket.create_connection(("127.0.0.1", server.port), timeout=30)
                    held.callback(sock.close)
                    flood.append(sock)
                    sent = time.monotonic()
                    sock.sendall(_stream_request(CLUB))
                    status, head = _status(sock)
                    statuses[status] += 1
                    if status == 503:
                        refused_s.append(time.monotonic() - sent)
                        assert b"retry-after" in head.lower() and PROBLEM.encode() in head
                figures["flood_s"] = round(time.monotonic() - began, 2)
                figures["flood_statuses"] = dict(statuses)
                figures["refusal_p99_ms"] = _ms(percentile(refused_s, 99))
                # Each worker holds at most its cap for the address: the rest were refused.
                assert statuses[200] <= 2 * PER_CLIENT and statuses[503] >= FLOOD - 2 * PER_CLIENT
                assert set(statuses) <= {200, 503}
                # The private club's projector, from another address, and the API meanwhile.
                projector = socket.create_connection(("127.0.0.1", server.port), timeout=30,
                                                     source_address=("127.0.0.2", 0))
                held.callback(projector.close)
                projector.sendall(_stream_request("private", viewer))
                figures["private_viewer_status"] = _status(projector)[0]
                assert figures["private_viewer_status"] == 200
                reads = _reads(server, club.token("referee"), 50)
                figures["reads_during_flood_p99_ms"] = _ms(percentile(reads, 99))
                # The flood ends cleanly: each socket sends its end (a FIN, as a closed tab's
                # does), and stays open meanwhile. Every slot is free at once, so the whole cap
                # is there again (a stream once held its slot until a heartbeat found the
                # socket dead, and one half-closed for its ten minutes).
                for sock in flood:
                    sock.shutdown(socket.SHUT_WR)
                closed_at = time.monotonic()
                assert wait_until(reopen, timeout=30, interval=0.1)
                figures["slots_free_again_s"] = round(time.monotonic() - closed_at, 2)

            figures["server_log_tracebacks"] = server.log_text().count("Traceback")
            assert figures["server_log_tracebacks"] == 0, server.log_tail()
        finally:
            server.stop()


def _enough_files(needed: int) -> None:
    """This process's soft limit of open files raised (within the hard one) to ``needed``:
    each socket of a flood is a file."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        if hard != resource.RLIM_INFINITY and hard < needed:
            pytest.skip(f"{needed} open files needed; the hard limit is {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))


def _ended(socks: list[socket.socket], timeout: float) -> bool:
    """Whether the server ends every one of ``socks`` (each read to its close) within
    ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    for sock in socks:
        try:
            while True:
                sock.settimeout(max(0.01, deadline - time.monotonic()))
                if not sock.recv(65536):
                    break
        except socket.timeout:
            return False
        except OSError:
            pass  # reset: closed all the same
    return True


def test_an_anonymous_flood_from_many_addresses_leaves_the_members_their_boards(
        tmp_path: Path, figures: dict[str, Any]) -> None:
    """``domino serve``: 3,000 idle anonymous sockets from 100 addresses (30 each, under the
    address cap) over six public clubs. The visitors' share (75 % of the streams) fills and
    the rest are refused 503; a private club's viewer and a public club's member still get
    their streams at once, and the API answers. The flood's end (each socket's FIN) frees
    every slot at once: the server ends each stream and closes its connection."""
    _enough_files(SWARM + 500)
    url = f"sqlite:///{tmp_path / 'domino.db'}"
    club = make_club(url)
    publics = [f"public-{n}" for n in range(1, PUBLIC_CLUBS + 1)]
    from referee.service import open_service

    with open_service(url) as service:
        for slug in publics:
            service.clubs.create_club(slug, slug.title())
            service.clubs.set_public(slug, True)
        member = service.tokens.create_token(publics[0], "viewer", label="projector")
    viewer = _private_club(url)
    server = Serve(url, tmp_path / "serve.log")
    server.start()
    try:
        with ExitStack() as held:
            statuses: Counter[int] = Counter()
            streams: list[socket.socket] = []
            began = time.monotonic()
            for a in range(1, ADDRESSES + 1):
                batch = []
                for n in range(SWARM // ADDRESSES):
                    sock = socket.create_connection(("127.0.0.1", server.port), timeout=60,
                                                    source_address=(f"127.0.1.{a}", 0))
                    held.callback(sock.close)
                    sock.sendall(_stream_request(publics[(a + n) % PUBLIC_CLUBS]))
                    batch.append(sock)
                for sock in batch:
                    status, head = _status(sock)
                    statuses[status] += 1
                    if status == 200:
                        streams.append(sock)
                    else:
                        assert b"retry-after" in head.lower() and PROBLEM.encode() in head, head
                        sock.close()
            figures.update(sockets=SWARM, addresses=ADDRESSES, public_clubs=PUBLIC_CLUBS,
                           flood_s=round(time.monotonic() - began, 1),
                           flood_statuses=dict(statuses))
            seen: dict[str, int] = {}
            for name, club_slug, token, source in (("private_viewer", "private", viewer, "127.0.2.1"),
                                                   ("public_member", publics[0], member, "127.0.1.1")):
                sock = socket.create_connection(("127.0.0.1", server.port), timeout=60,
                                                source_address=(source, 0))
                held.callback(sock.close)
                sent = time.monotonic()
                sock.sendall(_stream_request(club_slug, token))
                seen[name] = _status(sock)[0]
                figures[f"{name}_status"] = seen[name]
                figures[f"{name}_ms"] = round(1000 * (time.monotonic() - sent), 1)
            reads = _reads(server, club.token("referee"), 50)
            figures["reads_during_flood_p99_ms"] = _ms(percentile(reads, 99))
            assert seen == {"private_viewer": 200, "public_member": 200}
            visitors = STREAMS - STREAMS * RESERVED // 100
            assert statuses == Counter({200: visitors, 503: SWARM - visitors}), statuses
            # Their end, a FIN each (the sockets stay open to read): the server ends every
            # stream and closes its connection at once.
            for sock in streams:
                sock.shutdown(socket.SHUT_WR)
            ended_at = time.monotonic()
            assert _ended(streams, timeout=60), "streams still served after their clients' end"
            figures["every_stream_ended_by_the_server_s"] = round(time.monotonic() - ended_at, 2)
            again = Counter()
            for n in range(SWARM // ADDRESSES):  # the visitors' share is there again
                sock = socket.create_connection(("127.0.0.1", server.port), timeout=60,
                                                source_address=("127.0.3.1", 0))
                held.callback(sock.close)
                sock.sendall(_stream_request(publics[n % PUBLIC_CLUBS]))
                again[_status(sock)[0]] += 1
            assert again == Counter({200: SWARM // ADDRESSES}), again
        figures["server_log_tracebacks"] = server.log_text().count("Traceback")
        assert figures["server_log_tracebacks"] == 0, server.log_tail()
    finally:
        server.stop()


@needs_pg
def test_a_guesser_on_a_clubs_wifi_locks_out_no_phone(tmp_path: Path,
                                                      figures: dict[str, Any]) -> None:
    """gunicorn as deployed (2 workers, each counting on its own): 300 wrong tokens from one
    address, each on a new connection. Past the limit each is refused 429; then that address's
    valid tokens (the phones on the same Wi-Fi) are answered 200, never 429, and its next
    guesses are still refused."""
    with scratch_club() as club:
        server = Production(club.url, tmp_path / "gunicorn.log", workers=2)
        server.start()
        try:
            path = f"/api/v1/clubs/{CLUB}/matches"

            def status(token: str) -> int:
                conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30,
                                                  source_address=("127.0.4.1", 0))
                try:
                    conn.request("GET", path, headers={"Authorization": f"Bearer {token}"})
                    answer = conn.getresponse()
                    answer.read()
                    return answer.status
                finally:
                    conn.close()

            guesses = Counter(status("dr_" + secrets.token_urlsafe(32)) for _ in range(GUESSES))
            phones = Counter(status(club.token(role)) for _ in range(50)
                             for role in ("scorekeeper", "referee"))
            later = Counter(status("dr_" + secrets.token_urlsafe(32)) for _ in range(20))
            figures.update(workers=2, guesses=GUESSES, guesses_statuses=dict(guesses),
                           valid_tokens_after=sum(phones.values()), valid_statuses=dict(phones),
                           guesses_after_statuses=dict(later))
            assert phones == Counter({200: 100}), phones
            # Each worker answered at most its limit's worth of guesses 401, the rest 429.
            assert set(guesses) | set(later) == {401, 429}, (guesses, later)
            assert guesses[401] + later[401] <= 2 * AUTH_FAILURES, (guesses, later)
        finally:
            server.stop()


@needs_pg
def test_a_revoked_token_is_refused_by_every_worker_at_once(tmp_path: Path,
                                                            figures: dict[str, Any]) -> None:
    with scratch_club() as club:
        # Refused tokens are limited per address (api.auth): not what this test counts.
        server = Production(club.url, tmp_path / "gunicorn.log", workers=3,
                            DOMINO_AUTH_FAILURES="10000 per minute")
        server.start()
        try:
            admin, stolen = club.token("admin"), club.token("referee")
            path = f"/api/v1/clubs/{CLUB}/matches"
            warm = Counter(Http(server.base, stolen).call("GET", path).status for _ in range(30))
            assert warm == Counter({200: 30})  # every worker has answered it (and seen it)
            listing = Http(server.base, admin).call("GET", f"/api/v1/clubs/{CLUB}/tokens?limit=500")
            token_id = next(t["id"] for t in listing.json() if t["label"] == "referee")
            revoked = Http(server.base, admin).call("DELETE", f"/api/v1/clubs/{CLUB}/tokens/{token_id}")
            assert revoked.status == 200
            after: Counter[int] = Counter()
            for _ in range(300):  # each a new connection: the kernel spreads them over workers
                conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
                conn.request("GET", path, headers={"Authorization": f"Bearer {stolen}"})
                answer = conn.getresponse()
                answer.read()
                after[answer.status] += 1
                conn.close()
            figures.update(workers=3, requests_after_revocation=sum(after.values()),
                           statuses_after=dict(after))
            assert after == Counter({401: 300}), after
        finally:
            server.stop()


@needs_pg
def _answer(port: int, request: bytes) -> str:
    """The status of the answer to ``request`` on a new connection, with " problem" when it is
    problem+json ("none" for no answer)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(request)
        got = b""
        while chunk := sock.recv(65536):
            got += chunk
    head = got.split(b"\r\n\r\n", 1)[0].lower()
    status = got.split(b" ", 2)[1].decode() if got.startswith(b"HTTP/") else "none"
    return status + (" problem" if PROBLEM.encode() in head else "")


def _said_twice(token: str, n: int) -> bytes:
    """A request whose body's length is said twice (Content-Length and Transfer-Encoding: in
    either order; agreeing with the chunked body or not) adding a player: a proxy reading the
    other length would see another request in it."""
    body = b'{"name": "Smuggled %d"}' % n
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
    lengths = [b"Content-Length: %d" % (len(chunked) if n % 2 else len(body)),
               b"Transfer-Encoding: chunked"]
    if n % 3 == 0:
        lengths.reverse()
    head = (f"POST /api/v1/clubs/{CLUB}/players HTTP/1.1\r\nHost: t\r\n"
            f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n"
            "Connection: close\r\n").encode()
    return head + b"\r\n".join(lengths) + b"\r\n\r\n" + chunked


def _players(base: str, token: str) -> list[str]:
    answer = Http(base, token).call("GET", f"/api/v1/clubs/{CLUB}/players?limit=500")
    assert answer.status == 200
    return [p["name"] for p in answer.json()]


SAID_TWICE = 40  # requests with both lengths, to each server


@needs_pg
def test_malformed_chunked_bodies_are_400_problems(tmp_path: Path, figures: dict[str, Any]) -> None:
    with scratch_club() as club:
        server = Production(club.url, tmp_path / "gunicorn.log", workers=2)
        server.start()
        try:
            bodies = [b"zz\r\n{}\r\n0\r\n\r\n", b"-1\r\n{}\r\n0\r\n\r\n", b"2\r\n{}}}\r\n0\r\n\r\n",
                      b"0x2\r\n{}\r\n0\r\n\r\n", b"2 2\r\n{}\r\n0\r\n\r\n"]
            statuses: Counter[str] = Counter()
            for n in range(200):
                request = ((f"POST /api/v1/matches/1/events HTTP/1.1\r\nHost: t\r\n"
                           f"Authorization: Bearer {club.token('scorekeeper')}\r\n"
                           "Content-Type: application/json\r\nIf-Match: \"0\"\r\n"
                           "Connection: close\r\nTransfer-Encoding: chunked\r\n\r\n").encode()
                           + bodies[n % len(bodies)])
                statuses[_answer(server.port, request)] += 1
            figures["malformed_requests"] = 200
            figures["answers"] = dict(statuses)
            twice = Counter(_answer(server.port, _said_twice(club.token("admin"), n))
                            for n in range(SAID_TWICE))
            figures["length_said_twice"] = SAID_TWICE
            figures["length_said_twice_answers"] = dict(twice)
            figures["server_log_tracebacks"] = server.log_text().count("Traceback")
            assert set(statuses) == {"400 problem"}, statuses
            assert twice == Counter({"400 problem": SAID_TWICE}), twice
            assert not [n for n in _players(server.base, club.token("admin")) if "Smuggled" in n]
            assert figures["server_log_tracebacks"] == 0, server.log_tail()
            assert Http(server.base).call("GET", "/api/openapi.json").status == 200
        finally:
            server.stop()


def test_domino_serve_answers_through_a_slow_connection_flood(tmp_path: Path,
                                                              figures: dict[str, Any]) -> None:
    url = f"sqlite:///{tmp_path / 'domino.db'}"
    club = make_club(url)
    server = Serve(url, tmp_path / "serve.log")
    server.start()
    stop = threading.Event()
    try:
        with ExitStack() as held:
            socks: list[socket.socket] = []
            for n in range(SLOW):
                sock = socket.create_connection(("127.0.0.1", server.port), timeout=30)
                held.callback(sock.close)
                if n % 2:  # a body announced, sent a byte at a time
                    sock.sendall((f"POST /api/v1/clubs/{CLUB}/players HTTP/1.1\r\nHost: t\r\n"
                                  "Content-Type: application/json\r\nContent-Length: 100000\r\n"
                                  "\r\n").encode())
                socks.append(sock)

            def trickle() -> None:
                while not stop.wait(1.0):
                    for sock in socks[1::2]:
                        try:
                            sock.send(b" ")
                        except OSError:
                            pass

            dripper = threading.Thread(target=trickle, daemon=True)
            dripper.start()
            reads = _reads(server, club.token("referee"), 100)
            figures.update(slow_connections=SLOW, requests_answered=len(reads),
                           p50_ms=_ms(percentile(reads, 50)), p99_ms=_ms(percentile(reads, 99)))

            def closed(sock: socket.socket) -> bool:
                sock.settimeout(0.01)
                try:
                    return sock.recv(65536) == b"" or True  # an answer (408) or the close
                except socket.timeout:
                    return False
                except OSError:
                    return True

            began = time.monotonic()
            assert wait_until(lambda: all(closed(s) for s in socks), timeout=120, interval=0.5)
            figures["all_closed_by_the_server_s"] = round(time.monotonic() - began, 1)
            twice = Counter(_answer(server.port, _said_twice(club.token("admin"), n))
                            for n in range(SAID_TWICE))
            figures["length_said_twice_answers"] = dict(twice)
            assert twice == Counter({"400 problem": SAID_TWICE}), twice
            assert not [n for n in _players(server.base, club.token("admin")) if "Smuggled" in n]
            figures["server_log_tracebacks"] = server.log_text().count("Traceback")
            assert figures["server_log_tracebacks"] == 0, server.log_tail()
    finally:
        stop.set()
        server.stop()
