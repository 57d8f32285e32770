"""Appends over HTTP against a real server on PostgreSQL, many tables recording at once.

Starts the API as a subprocess on 127.0.0.1, each server on a fresh PostgreSQL schema: waitress
(8 threads) and gunicorn's gthread workers (4 × 2 threads), the plain WSGI ways; ``domino serve``
(uvicorn, one process, as the README sets it up for phones) and ``deployed``, gunicorn as
``deploy/gunicorn.conf.py`` runs it (uvicorn workers, ``--workers``). Two more are the floor
under these figures (bench/floor_apps.py, not in the default list): ``floor-wsgi``, waitress
serving a bare WSGI callable, and ``floor-flask``, waitress serving one Flask view that reads
the JSON body and answers JSON; neither touches the database. For each server it runs:

- a saturation run: every table (a client thread with its own keep-alive connection, recording
  its own legal match from ``referee.core.simulate.random_match``) appends as fast as answers come;
- a paced run: the tables together send ``--rate`` appends a second on a fixed schedule.

With ``--callgrind N`` it counts instructions instead, which the machine's load does not move:
each server runs under valgrind's callgrind, one table appends 60 events to warm it, then N
more with the count on; it prints the server's instructions an append, and each server's
against ``floor-flask``'s when that is in ``--servers`` (``floor-flask,waitress,serve``: the
deployed workers are ``serve``'s front and protocol, one process each).

Each append is a real scorekeeper's: a bearer token, ``If-Match`` with the last seq, a JSON event,
a 201 with the new ETag. Prints appends/s and p50/p90/p99/max latency. Bounded: each run lasts
``--duration`` seconds, the servers are stopped at the end whatever happens.

    DOMINO_TEST_DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/test \\
        python bench/api_bench.py [--tables 16] [--duration 10] [--rate 200]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from migrations.runner import upgrade  # noqa: E402
from referee.core.simulate import random_match  # noqa: E402
from referee.service import open_service  # noqa: E402
from referee.store.db import scratch_schema  # noqa: E402

PLAYERS = ["Ana", "Beto", "Carla", "Dani"]
PRESETS = ["parejas", "puerto-rico"]  # 4 seats: one table of players for every match
FLOORS = {"floor-wsgi": "bench.floor_apps:wsgi", "floor-flask": "bench.floor_apps:flask_app"}


@dataclass
class Run:
    latencies: list[float] = field(default_factory=list)  # seconds, one per 201
    errors: dict[int, int] = field(default_factory=dict)  # status -> count
    late: int = 0  # paced sends that went out more than 5 ms after their slot
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, latency: float, status: int) -> None:
        with self.lock:
            if status == 201:
                self.latencies.append(latency)
            else:
                self.errors[status] = self.errors.get(status, 0) + 1


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_command(kind: str, port: int, args: argparse.Namespace) -> list[str]:
    bind = f"127.0.0.1:{port}"
    if kind == "serve":  # domino serve: uvicorn, one process, as the README sets it up
        return [str(Path(sys.executable).with_name("domino")), "serve", "--port", str(port)]
    if kind == "deployed":  # gunicorn as deploy/ runs it: uvicorn workers (api.worker)
        return [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "deploy" / "gunicorn.conf.py"),
                "--bind", bind, "--workers", str(args.workers), "--log-level", "warning"]
    if kind == "waitress":
        return [sys.executable, "-m", "waitress", "--listen", bind, f"--threads={args.threads}",
                "--call", "api:create_app"]
    if kind in FLOORS:
        return [sys.executable, "-m", "waitress", "--listen", bind, f"--threads={args.threads}",
                FLOORS[kind]]
    return [sys.executable, "-m", "gunicorn", "api:create_app()", "-w", str(args.workers),
            "-k", "gthread", "--threads", str(args.gunicorn_threads), "-b", bind,
            "--log-level", "warning"]


@contextmanager
def server(kind: str, url: str, args: argparse.Namespace, prefix: tuple[str, ...] = (),
           start_within: float = 30) -> Iterator[int]:
    """The server running (its pid); its base URL is http://127.0.0.1:PORT (set on the args).
    ``prefix`` goes before its command (valgrind's)."""
    port = free_port()
    env = {**os.environ, "DOMINO_DATABASE_URL": url, "PYTHONPATH": str(ROOT)}
    # The server's output goes to a file: a pipe nobody drains fills up and stalls the server
    # (waitress warns of its task queue depth under load).
    log = tempfile.TemporaryFile()
    process = subprocess.Popen([*prefix, *server_command(kind, port, args)], cwd=ROOT, env=env,
                               stdout=log, stderr=subprocess.STDOUT)
    base = args.base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + start_within
        while True:
            try:
                if httpx.get(base + "/api/openapi.json", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                log.seek(0)
                raise SystemExit(f"{kind} did not start: {log.read().decode()[-2000:]}")
            time.sleep(0.1)
        yield process.pid
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process and its children (gunicorn's workers), from /proc."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(stat.parent.name) == pid or int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def setup(url: str, tables: int) -> list[str]:
    """Migrate the schema, create the club and one scorekeeper token per table."""
    with open_service(url) as service:
        upgrade(service.engine)
        service.clubs.create_club("bench", "Bench club")
        return [service.tokens.create_token("bench", "scorekeeper", label=f"table {t}") for t in range(tables)]


class Table:
    """One table recording legal matches, one after the other, over one keep-alive connection.

    The client is the standard library's http.client: it costs a fraction of the CPU of a
    richer client, and here the clients share the machine's cores with the server."""

    def __init__(self, base: str, token: str, seed: int) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.http = http.client.HTTPConnection(host, int(port), timeout=30)
        self.headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        self.rng = random.Random(seed)
        self.events: list[bytes] = []
        self.match_id = 0
        self.seq = 0

    def post(self, path: str, body: bytes, **headers: str) -> tuple[int, bytes]:
        self.http.request("POST", path, body=body, headers={**self.headers, **headers})
        response = self.http.getresponse()
        return response.status, response.read()

    def new_match(self) -> None:
        preset = self.rng.choice(PRESETS)
        _, events = random_match(preset, PLAYERS, self.rng)
        self.events = [json.dumps(e).encode() for e in events]
        status, body = self.post("/api/v1/clubs/bench/matches",
                                 json.dumps({"rules": preset, "players": PLAYERS}).encode())
        if status != 201:
            raise SystemExit(f"creating a match: {status} {body[:300]!r}")
        self.match_id, self.seq = json.loads(body)["id"], 0

    def append(self, run: Run) -> None:
        if self.seq >= len(self.events):
            self.new_match()
        start = time.perf_counter()
        status, _ = self.post(f"/api/v1/matches/{self.match_id}/events", self.events[self.seq],
                              **{"If-Match": f'"{self.seq}"'})
        run.add(time.perf_counter() - start, status)
        if status == 201:
            self.seq += 1
        else:  # never expected (each table owns its match): start afresh rather than stall
            self.seq = len(self.events)

    def close(self) -> None:
        self.http.close()


def drive(tables: list[Table], duration: float, rate: float | None) -> tuple[Run, float]:
    """All tables append for ``duration`` seconds: flat out, or paced at ``rate`` per second
    in all (each table on its own evenly spaced schedule, offset from the others)."""
    run = Run()
    start = time.perf_counter()
    stop = start + duration

    def work(index: int, table: Table) -> None:
        if rate is None:
            while time.perf_counter() < stop:
                table.append(run)
            return
        interval = len(tables) / rate
        slot = start + interval * index / len(tables)
        while slot < stop:
            now = time.perf_counter()
            if slot > now:
                time.sleep(slot - now)
            elif now - slot > 0.005:
                with run.lock:
                    run.late += 1
            table.append(run)
            slot += interval

    threads = [threading.Thread(target=work, args=(i, t)) for i, t in enumerate(tables)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return run, time.perf_counter() - start


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def report(label: str, run: Run, elapsed: float, cpu: float) -> None:
    n = len(run.latencies)
    if not n:
        print(f"{label}: no append succeeded; errors {run.errors}")
        return
    ms = [x * 1000 for x in run.latencies]
    line = (f"{label:<28} {n:>6} appends {n / elapsed:>7.1f}/s   p50 {statistics.median(ms):6.2f} ms"
            f"   p90 {percentile(ms, 90):6.2f}   p99 {percentile(ms, 99):6.2f}   max {max(ms):7.2f}")
    line += f"   server CPU {1000 * cpu / n:.2f} ms/append"
    if run.errors:
        line += f"   errors {run.errors}"
    if run.late:
        line += f"   late sends {run.late}"
    print(line, flush=True)


def bench(kind: str, pg_url: str, args: argparse.Namespace) -> None:
    with scratch_schema(pg_url, prefix="bench") as url:
        # The floors answer without looking at a token or the database.
        tokens = setup(url, args.tables) if kind not in FLOORS else ["-"] * args.tables
        with server(kind, url, args) as pid:
            tables = [Table(args.base, token, seed=args.seed + i) for i, token in enumerate(tokens)]
            try:
                for table in tables:
                    table.new_match()
                drive(tables, min(2.0, args.duration), None)  # warm up connections and caches
                for label, rate in (("saturation", None), (f"paced {args.rate:g}/s", args.rate)):
                    cpu = cpu_seconds(pid)
                    run, elapsed = drive(tables, args.duration, rate)
                    report(f"{kind} {label}", run, elapsed, cpu_seconds(pid) - cpu)
            finally:
                for table in tables:
                    table.close()


def instructions(kind: str, pg_url: str, args: argparse.Namespace) -> float:
    """The server's instructions an append (callgrind), one table appending in turn."""
    with scratch_schema(pg_url, prefix="bench") as url, tempfile.TemporaryDirectory() as folder:
        tokens = setup(url, 1) if kind not in FLOORS else ["-"]
        out = Path(folder) / "callgrind.out"
        valgrind = ("valgrind", "--tool=callgrind", "--instr-atstart=no",
                    f"--callgrind-out-file={out}")
        with server(kind, url, args, prefix=valgrind, start_within=600) as pid:
            table = Table(args.base, tokens[0], seed=args.seed)
            run = Run()
            try:
                table.new_match()
                for _ in range(60):
                    table.append(run)
                for switch in ("on", "off"):
                    subprocess.run(["callgrind_control", "-i", switch, str(pid)], check=True,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    if switch == "on":
                        for _ in range(args.callgrind):
                            table.append(run)
            finally:
                table.close()
        if run.errors:
            raise SystemExit(f"{kind}: appends refused {run.errors}")
        total = sum(int(line.split()[1]) for f in Path(folder).glob("callgrind.out*")
                    for line in f.open(errors="replace") if line.startswith("totals:"))
    return total / args.callgrind


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", default=os.environ.get("DOMINO_TEST_DATABASE_URL"),
                        help="PostgreSQL (default: DOMINO_TEST_DATABASE_URL)")
    parser.add_argument("--servers", default="waitress,gunicorn,serve,deployed")
    parser.add_argument("--tables", type=int, default=16, help="concurrent clients")
    parser.add_argument("--duration", type=float, default=10.0, help="seconds per run")
    parser.add_argument("--rate", type=float, default=200.0, help="appends/s in the paced run")
    parser.add_argument("--threads", type=int, default=8, help="waitress threads")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument("--gunicorn-threads", type=int, default=2, help="threads per gunicorn worker")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--callgrind", type=int, metavar="N",
                        help="count the server's instructions over N appends of one table")
    args = parser.parse_args()
    if not args.database_url or not args.database_url.startswith("postgresql"):
        parser.error("a PostgreSQL URL is needed: --database-url or DOMINO_TEST_DATABASE_URL")
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"{args.tables} tables, {args.duration:g} s a run, on {os.cpu_count()} cores shared by "
          f"the clients, the server and PostgreSQL (load average before: {load})", flush=True)
    if args.callgrind:
        counts: dict[str, float] = {}
        for kind in (k.strip() for k in args.servers.split(",")):
            counts[kind] = instructions(kind, args.database_url, args)
            floor = counts.get("floor-flask")
            against = f"   {counts[kind] / floor:.2f}x floor-flask" if floor else ""
            print(f"{kind:<12} {counts[kind]:>12,.0f} instructions an append (callgrind, "
                  f"{args.callgrind} appends){against}", flush=True)
        return
    for kind in args.servers.split(","):
        bench(kind.strip(), args.database_url, args)


if __name__ == "__main__":
    main()
