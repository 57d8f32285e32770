"""Appends while 1,000 live scoreboard streams are open, against the same appends with none.

Starts the API as a subprocess on 127.0.0.1, as it is deployed: gunicorn with
``deploy/gunicorn.conf.py`` (uvicorn workers, the ASGI front) on PostgreSQL when a URL is given,
else ``domino serve`` on a fresh SQLite file. A public club; one scorekeeper appends legal
events one after the other (``referee.core.simulate.random_match``, a new match when one ends),
each a real request (bearer token, If-Match, a 201), and the time of each is kept:

1. ``--appends`` appends with no stream open;
2. ``--streams`` streams opened (anonymous, as a projector reads a public club), each read by
   one selector thread that counts the row events each receives;
3. the same number of appends again; then how many streams had a row of the last append.

Prints p50 / p99 / max of an append in each phase and their ratio, and the streams' tally.
The streams' caps are raised for the run (one client address opens them all).

    python bench/stream_bench.py [--streams 1000] [--appends 300] [--database-url URL]
    DOMINO_TEST_DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/test \\
        python bench/stream_bench.py --workers 2
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from migrations.runner import upgrade  # noqa: E402
from referee.core.simulate import random_match  # noqa: E402
from referee.service import open_service  # noqa: E402
from referee.store.db import scratch_schema  # noqa: E402

PLAYERS = ["Ana", "Beto", "Carla", "Dani"]
CLUB = "casino"
STREAM_PATH = f"/api/v1/clubs/{CLUB}/scoreboard/stream"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def prepare(url: str) -> str:
    """The tables, a public club and a scorekeeper's token in the database at ``url``."""
    with open_service(url) as service:
        upgrade(service.engine)
        service.clubs.create_club(CLUB, "Casino")
        service.clubs.set_public(CLUB, True)
        return service.tokens.create_token(CLUB, "scorekeeper", label="bench")


@contextmanager
def server(url: str, args: argparse.Namespace) -> Iterator[int]:
    port = free_port()
    env = {**os.environ, "DOMINO_DATABASE_URL": url, "DOMINO_ACCESS_LOG": "0",
           "DOMINO_SCOREBOARD_STREAMS": str(args.streams + 100),
           "DOMINO_SCOREBOARD_STREAMS_PER_CLUB": str(args.streams + 100),
           "DOMINO_SCOREBOARD_STREAMS_PER_CLIENT": str(args.streams + 100),
           "PYTHONPATH": str(ROOT)}
    if url.startswith("postgresql"):
        command = [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "deploy" / "gunicorn.conf.py"),
                   "--bind", f"127.0.0.1:{port}", "--workers", str(args.workers),
                   "--log-level", "warning"]
    else:
        command = [str(Path(sys.executable).with_name("domino")), "serve", "--port", str(port)]
    log = tempfile.TemporaryFile()
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                log.seek(0)
                raise SystemExit(f"the server exited:\n{log.read().decode(errors='replace')}")
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                conn.request("GET", "/api/openapi.json")
                if conn.getresponse().status == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the server did not start in 60 s")
            time.sleep(0.2)
        yield port
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


class Streams(threading.Thread):
    """``count`` open streams, read by one thread; ``rows[i]``: row events stream i received."""

    def __init__(self, port: int, count: int) -> None:
        super().__init__(daemon=True)
        self.selector = selectors.DefaultSelector()
        self.rows = [0] * count
        self.statuses: dict[int, int] = {}
        self.socks: list[socket.socket] = []
        self.stop = threading.Event()
        request = f"GET {STREAM_PATH} HTTP/1.1\r\nHost: bench\r\n\r\n".encode()
        for index in range(count):
            sock = socket.create_connection(("127.0.0.1", port), timeout=30)
            sock.sendall(request)
            self.socks.append(sock)
        for index, sock in enumerate(self.socks):  # every answer's head, then non-blocking
            head = b""
            while b"\r\n\r\n" not in head:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                head += chunk
            status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/") else 0
            self.statuses[status] = self.statuses.get(status, 0) + 1
            self.rows[index] += head.count(b"event: row")
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ, index)

    def run(self) -> None:
        while not self.stop.is_set():
            for key, _ in self.selector.select(timeout=0.2):
                try:
                    data = key.fileobj.recv(65536)  # type: ignore[union-attr]
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                if not data:
                    self.selector.unregister(key.fileobj)
                    continue
                self.rows[key.data] += data.count(b"event: row")

    def close(self) -> None:
        self.stop.set()
        self.join(timeout=10)
        for sock in self.socks:
            sock.close()


class Scorekeeper:
    """Legal events, appended one after the other over one keep-alive connection."""

    def __init__(self, port: int, token: str, seed: int) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        self.rng = random.Random(seed)
        self.match_id, self.events, self.seq = 0, [], 0

    def reconnect(self) -> None:
        """A new connection (the server closes one idle for a few seconds)."""
        self.conn.close()
        self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)

    def _call(self, method: str, path: str, body: Any, **headers: str) -> tuple[int, Any]:
        self.conn.request(method, path, json.dumps(body), {**self.headers, **headers})
        response = self.conn.getresponse()
        return response.status, json.loads(response.read() or b"null")

    def append(self) -> float:
        if self.seq >= len(self.events):
            _, self.events = random_match("parejas", PLAYERS, self.rng)
            status, made = self._call("POST", f"/api/v1/clubs/{CLUB}/matches",
                                      {"rules": "parejas", "players": PLAYERS})
            assert status == 201, made
            self.match_id, self.seq = made["id"], 0
        began = time.perf_counter()
        status, body = self._call("POST", f"/api/v1/matches/{self.match_id}/events",
                                  self.events[self.seq], **{"If-Match": f'"{self.seq}"'})
        took = time.perf_counter() - began
        assert status == 201, body
        self.seq += 1
        return took


def figures(times: list[float]) -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return (f"p50 {statistics.median(ordered) * 1000:6.1f} ms   p99 {p99 * 1000:6.1f} ms   "
            f"max {ordered[-1] * 1000:6.1f} ms")


def bench(url: str, args: argparse.Namespace) -> None:
    token = prepare(url)
    with server(url, args) as port, ExitStack() as stack:
        keeper = Scorekeeper(port, token, seed=7)
        for _ in range(20):  # warm the server's caches and pools
            keeper.append()
        quiet = [keeper.append() for _ in range(args.appends)]
        began = time.monotonic()
        streams = Streams(port, args.streams)
        stack.callback(streams.close)
        streams.start()
        opened_s = time.monotonic() - began
        time.sleep(2)  # every stream subscribed and its snapshot read
        before = list(streams.rows)
        keeper.reconnect()
        keeper.append()
        loaded = [keeper.append() for _ in range(args.appends)]
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and min(
                now - was for now, was in zip(streams.rows, before)) == 0:
            time.sleep(0.1)
        got_rows = sum(1 for now, was in zip(streams.rows, before) if now > was)
        kind = "gunicorn (uvicorn workers) + PostgreSQL" if url.startswith("postgresql") else \
            "domino serve + SQLite"
        print(f"{kind}; {os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.1f}")
        print(f"appends with no stream open:      {figures(quiet)}")
        print(f"appends with {args.streams:>5} streams open: {figures(loaded)}")
        ratio = sorted(loaded)[int(0.99 * len(loaded))] / sorted(quiet)[int(0.99 * len(quiet))]
        print(f"p99 with streams / without: {ratio:.2f}")
        print(f"streams opened in {opened_s:.1f} s, answers {streams.statuses}; "
              f"{got_rows} of {args.streams} received rows while the appends ran")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--appends", type=int, default=300)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (PostgreSQL)")
    parser.add_argument("--database-url", default=os.environ.get("DOMINO_TEST_DATABASE_URL"))
    args = parser.parse_args()
    if args.database_url and args.database_url.startswith("postgresql"):
        with scratch_schema(args.database_url) as url:
            bench(url, args)
    else:
        with tempfile.TemporaryDirectory() as folder:
            bench(f"sqlite:///{folder}/domino.db", args)


if __name__ == "__main__":
    main()
