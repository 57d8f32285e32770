"""Helpers for the resilience suite: a real gunicorn server as a subprocess (started, SIGKILLed,
restarted), the local PostgreSQL cluster (stopped and started again), and HTTP clients that
record real matches the way a careful scorekeeper's app would (If-Match, Idempotency-Key,
retrying with the same key).

Everything here talks to 127.0.0.1 only, and every wait is bounded in time.
"""

from __future__ import annotations

import ctypes
import http.client
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import pytest

from migrations.runner import upgrade
from referee.core.replay import replay
from referee.core.report import build_report
from referee.core.rules import resolve_rules
from referee.core.simulate import random_match
from referee.service import open_service

ROOT = Path(__file__).resolve().parents[2]
PG_URL = os.environ.get("DOMINO_TEST_DATABASE_URL")
PLAYERS = ["Ana", "Beto", "Carla", "Dani"]
PRESETS = ("parejas", "puerto-rico")  # four seats each: one list of players for every match
PROBLEM = "application/problem+json"
CLUB = "casino"

needs_pg = pytest.mark.skipif(
    not (PG_URL and PG_URL.startswith("postgresql")),
    reason="DOMINO_TEST_DATABASE_URL (a PostgreSQL URL) is not set")

# What a failed request can raise before any answer: refused, reset, timed out, half an answer.
TRANSPORT_ERRORS = (OSError, http.client.HTTPException)
IDLE_LIMIT_S = 1.0  # a keep-alive connection idle longer is not reused (gunicorn's keepalive: 2 s)


# ---------------------------------------------------------------- processes

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _become_subreaper() -> None:
    """Orphaned descendants (gunicorn workers whose master was SIGKILLed) are re-parented to
    this process instead of PID 1, so that they can be reaped here and leave no zombie."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        pass


def _ppid_and_state(pid: int) -> tuple[int, str] | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return int(fields[1]), fields[0]


def alive(pid: int) -> bool:
    found = _ppid_and_state(pid)
    return found is not None and found[1] != "Z"


def children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        child = int(stat.parent.name)
        info = _ppid_and_state(child)
        if info is not None and info[0] == pid and info[1] != "Z":
            found.append(child)
    return sorted(found)


def _reap(pid: int) -> None:
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass


def wait_until(predicate: Any, timeout: float, interval: float = 0.05) -> bool:
    deadline = time.monotonic() + timeout
    while True:
        if predicate():
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(interval)


class Gunicorn:
    """gunicorn as deployed (deploy/gunicorn.conf.py: the ASGI front under api.worker's
    uvicorn workers, ``threads`` app threads a worker) on 127.0.0.1, in its own process group,
    its output in a file. The port stays the same across restarts, so clients carry on."""

    def __init__(self, database_url: str, log_path: Path, *, workers: int = 2, threads: int = 4,
                 **environment: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.workers, self.threads = workers, threads
        self.log_path = log_path
        self.env = {**os.environ, "DOMINO_DATABASE_URL": database_url,
                    "DOMINO_THREADS": str(threads), "PYTHONPATH": str(ROOT), **environment}
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0
        _become_subreaper()

    def command(self) -> list[str]:
        return [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "deploy" / "gunicorn.conf.py"),
                "-w", str(self.workers), "-b", f"127.0.0.1:{self.port}", "--timeout", "30",
                "--graceful-timeout", "5", "--log-level", "warning"]

    def start(self, timeout: float = 40) -> float:
        """Start and wait until every worker answers; returns the seconds it took."""
        began = time.monotonic()
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(self.command(), cwd=ROOT, env=self.env, stdout=log,
                                            stderr=subprocess.STDOUT, start_new_session=True)
        self.starts += 1
        deadline = began + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.process.returncode}:\n{self.log_tail()}")
            if len(children(self.process.pid)) >= self.workers and self._answers():
                return time.monotonic() - began
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"gunicorn did not start in {timeout} s:\n{self.log_tail()}")
            time.sleep(0.1)

    def _answers(self) -> bool:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
            conn.request("GET", "/api/openapi.json")
            ok = conn.getresponse().status == 200
            conn.close()
            return ok
        except TRANSPORT_ERRORS:
            return False

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def worker_pids(self) -> list[int]:
        return children(self.pid) if self.process is not None else []

    def kill(self) -> list[int]:
        """SIGKILL the master and every worker (no chance to finish a request or close a
        socket); returns the pids killed once none of them is left."""
        assert self.process is not None
        workers = self.worker_pids()
        killed = [self.pid, *workers]
        for pid in killed:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        try:  # anything forked between the listing and the kill is in the same group
            os.killpg(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait(timeout=10)
        for pid in workers:
            wait_until(lambda pid=pid: (_reap(pid), not alive(pid))[1], timeout=10)
        leftover = [pid for pid in workers if alive(pid)]
        assert not leftover, f"workers still alive after SIGKILL: {leftover}"
        self.process = None
        return killed

    def stop(self) -> None:
        if self.process is None:
            return
        workers = self.worker_pids()
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        for pid in workers:
            wait_until(lambda pid=pid: (_reap(pid), not alive(pid))[1], timeout=10)
        self.process = None

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def log_tail(self, chars: int = 3000) -> str:
        return self.log_text()[-chars:]


class Waitress(Gunicorn):
    """``waitress --call api:create_app`` (one process, ``threads`` threads), run the same way."""

    def __init__(self, database_url: str, log_path: Path, *, threads: int = 16,
                 **environment: str) -> None:
        super().__init__(database_url, log_path, workers=0, threads=threads, **environment)

    def command(self) -> list[str]:
        return [sys.executable, "-m", "waitress", "--listen", f"127.0.0.1:{self.port}",
                f"--threads={self.threads}", "--call", "api:create_app"]


# ---------------------------------------------------------------- PostgreSQL

def _pg_host_port() -> tuple[str, int]:
    from sqlalchemy.engine import make_url

    url = make_url(PG_URL or "")
    return url.host or "127.0.0.1", url.port or 5432


def pg_controllable() -> str | None:
    """Why the local cluster cannot be stopped and started here, or None when it can."""
    if not PG_URL:
        return "DOMINO_TEST_DATABASE_URL is not set"
    host, _ = _pg_host_port()
    if host not in ("127.0.0.1", "localhost"):
        return f"the test database is not local ({host})"
    if not shutil.which("pg_ctlcluster") or not Path("/etc/postgresql").is_dir():
        return "pg_ctlcluster is not installed"
    if os.geteuid() != 0:
        return "stopping PostgreSQL needs root here"
    return None


def _pg_ctl(action: str, *extra: str) -> subprocess.CompletedProcess[str]:
    version = min(os.listdir("/etc/postgresql"))
    return subprocess.run(["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", action,
                           *extra], capture_output=True, text=True, timeout=90, check=False)


def pg_ready() -> bool:
    host, port = _pg_host_port()
    try:
        return subprocess.run(["pg_isready", "-h", host, "-p", str(port), "-t", "2"],
                              capture_output=True, timeout=10, check=False).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


_PG_STOPPED_BY_US = threading.Event()


def pg_checkpoint() -> None:
    """CHECKPOINT now, while PostgreSQL is up: the shutdown checkpoint of a stop then has little
    left to write (on this machine it can otherwise spend 15 s syncing files, the outage with it)."""
    from sqlalchemy.engine import make_url

    host, port = _pg_host_port()
    user = make_url(PG_URL or "").username or "postgres"
    subprocess.run(["psql", "-h", host, "-p", str(port), "-U", user, "-d", "postgres",
                    "-Atqc", "CHECKPOINT"], capture_output=True, timeout=60, check=False)


def pg_stop() -> None:
    _PG_STOPPED_BY_US.set()
    result = _pg_ctl("stop", "-m", "fast")
    assert result.returncode == 0, result.stderr


def pg_start(timeout: float = 60) -> float:
    """Start the cluster and wait for pg_isready; returns the seconds it took."""
    began = time.monotonic()
    if not pg_ready():
        result = _pg_ctl("start")
        if result.returncode != 0 and not pg_ready():
            raise RuntimeError(f"pg_ctlcluster start failed: {result.stderr}")
    if not wait_until(pg_ready, timeout=timeout, interval=0.2):
        raise RuntimeError(f"PostgreSQL not ready {timeout} s after start")
    _PG_STOPPED_BY_US.clear()
    return time.monotonic() - began


def pg_restore_if_stopped() -> None:
    """The safety net: if a test stopped the cluster and did not get to start it, start it."""
    if _PG_STOPPED_BY_US.is_set():  # only ever the cluster this process stopped
        pg_start()


# ---------------------------------------------------------------- a scratch club

@contextmanager
def scratch_schema(url: str, prefix: str = "resilience") -> Iterator[str]:
    """referee.store.db.scratch_schema, but with a connection of its own for the DROP: that one
    keeps the CREATE's connection in a pool, and after a PostgreSQL restart the pooled
    connection is dead (AdminShutdown) and the schema is never dropped."""
    import uuid

    from sqlalchemy import create_engine
    from sqlalchemy.engine import make_url
    from sqlalchemy.pool import NullPool

    schema = f"{prefix}_{uuid.uuid4().hex[:16]}"
    admin = create_engine(url, isolation_level="AUTOCOMMIT", poolclass=NullPool)
    try:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
        scoped = make_url(url).update_query_dict({"options": f"-csearch_path={schema}"})
        yield scoped.render_as_string(hide_password=False)
        pg_restore_if_stopped()
        with admin.connect() as conn:
            conn.exec_driver_sql("SET lock_timeout = '10s'")
            conn.exec_driver_sql(f'DROP SCHEMA "{schema}" CASCADE')
    finally:
        admin.dispose()


@dataclass
class Club:
    url: str
    tokens: dict[str, list[str]]  # role -> tokens

    def token(self, role: str, index: int = 0) -> str:
        return self.tokens[role][index]


def make_club(url: str, scorekeepers: int = 1, fresh: int = 0) -> Club:
    """Migrate the database at ``url`` and create the club ``casino`` in it, with
    ``scorekeepers`` scorekeeper tokens, a referee's, an admin's, and ``fresh`` more scorekeeper
    tokens meant to be used for the first time later (no worker has them cached)."""
    with open_service(url) as service:
        upgrade(service.engine)
        service.clubs.create_club(CLUB, "Casino")
        tokens = {
            "scorekeeper": [service.tokens.create_token(CLUB, "scorekeeper", label=f"table {n}")
                            for n in range(scorekeepers)],
            "referee": [service.tokens.create_token(CLUB, "referee", label="referee")],
            "admin": [service.tokens.create_token(CLUB, "admin", label="admin")],
            "fresh": [service.tokens.create_token(CLUB, "scorekeeper", label=f"fresh {n}")
                      for n in range(fresh)],
        }
    return Club(url, tokens)


@contextmanager
def scratch_club(scorekeepers: int = 1, fresh: int = 0) -> Iterator[Club]:
    """make_club in a scratch schema on PostgreSQL, dropped afterwards."""
    assert PG_URL
    with scratch_schema(PG_URL, prefix="resilience") as url:
        yield make_club(url, scorekeepers, fresh)


# ---------------------------------------------------------------- HTTP

@dataclass
class Answer:
    status: int
    headers: dict[str, str]  # lower-case names
    body: bytes
    elapsed: float

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def problem(self) -> bool:
        return self.headers.get("content-type", "").startswith(PROBLEM)


class Http:
    """One keep-alive connection (http.client: light on CPU, which the server shares), opened
    again after any transport error. ``timeout`` bounds every socket operation."""

    def __init__(self, base: str, token: str | None = None, timeout: float = 30) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.host, self.port, self.timeout = host, int(port), timeout
        self.headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.conn: http.client.HTTPConnection | None = None
        self.last_used = 0.0

    def call(self, method: str, path: str, body: bytes | None = None,
             headers: dict[str, str] | None = None, token: str | None = None) -> Answer:
        reused = self.conn is not None
        try:
            return self._call(method, path, body, headers, token)
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            # The server closed an idle keep-alive connection as this request went out (its
            # keep-alive timeout): a read is sent again once on a new connection, as browsers
            # do. A write is left to the caller, who knows whether it can be resent.
            if not reused or method != "GET":
                raise
            return self._call(method, path, body, headers, token)

    def _call(self, method: str, path: str, body: bytes | None,
              headers: dict[str, str] | None, token: str | None) -> Answer:
        if self.conn is not None and time.monotonic() - self.last_used > IDLE_LIMIT_S:
            self.close()  # gunicorn closes keep-alive connections idle for 2 s: don't race it
        if self.conn is None:
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        sent = {**self.headers, **(headers or {})}
        if token is not None:
            sent["Authorization"] = f"Bearer {token}"
        if body is not None:
            sent.setdefault("Content-Type", "application/json")
        began = time.monotonic()
        try:
            self.conn.request(method, path, body=body, headers=sent)
            response = self.conn.getresponse()
            data = response.read()
        except BaseException:
            self.close()
            raise
        self.last_used = time.monotonic()
        answer = Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, data,
                        self.last_used - began)
        if answer.headers.get("connection", "").lower() == "close":
            self.close()
        return answer

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def etag_seq(answer: Answer) -> int | None:
    value = answer.headers.get("etag", "")
    inner = value.strip().strip('"')
    return int(inner) if inner.isdigit() else None


def percentile(values: list[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


# ---------------------------------------------------------------- what every request did

@dataclass
class Outcome:
    began: float  # time.monotonic()
    ended: float
    kind: str  # "append", "create", "read"...
    status: int | None  # None: no answer (see error)
    error: str | None = None
    retry_after: str | None = None
    problem: bool = True


class Journal:
    """Every request any client made, thread-safe, for the figures and the checks."""

    def __init__(self) -> None:
        self.outcomes: list[Outcome] = []
        self.lock = threading.Lock()

    def add(self, outcome: Outcome) -> None:
        with self.lock:
            self.outcomes.append(outcome)

    def call(self, http_: Http, kind: str, method: str, path: str, body: bytes | None = None,
             headers: dict[str, str] | None = None, token: str | None = None) -> Answer | None:
        began = time.monotonic()
        try:
            answer = http_.call(method, path, body, headers, token)
        except TRANSPORT_ERRORS as error:
            self.add(Outcome(began, time.monotonic(), kind, None, type(error).__name__))
            return None
        self.add(Outcome(began, time.monotonic(), kind, answer.status,
                         retry_after=answer.headers.get("retry-after"),
                         problem=answer.status < 400 or answer.problem))
        return answer

    def between(self, start: float, end: float) -> list[Outcome]:
        """Requests that ended in [start, end)."""
        with self.lock:
            return [o for o in self.outcomes if start <= o.ended < end]

    def summary(self, outcomes: list[Outcome] | None = None) -> dict[str, Any]:
        if outcomes is None:
            with self.lock:
                outcomes = list(self.outcomes)
        statuses = Counter(str(o.status) for o in outcomes if o.status is not None)
        errors = Counter(o.error for o in outcomes if o.error)
        ok = [o.ended - o.began for o in outcomes if o.status is not None and o.status < 300]
        every = [o.ended - o.began for o in outcomes]
        return {
            "requests": len(outcomes),
            "statuses": dict(sorted(statuses.items())),
            "transport_errors": dict(sorted(errors.items())),
            "p50_ms_2xx": _ms(percentile(ok, 50)),
            "p99_ms_2xx": _ms(percentile(ok, 99)),
            "p99_ms_all": _ms(percentile(every, 99)),
            "max_ms_all": _ms(max(every) if every else None),
        }


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 1)


# ---------------------------------------------------------------- a table recording matches

GIVE_UP_S = 45.0  # longer than any outage the tests make (5 s down, a slow start)


class Refused(Exception):
    """An answer a correct client cannot get past (an unexpected 4xx)."""


class OutOfTime(Exception):
    pass


@dataclass
class MatchRun:
    match_id: int
    preset: str
    events: list[dict[str, Any]]  # what the table plays, in order
    acked: int = 0  # events 1..acked were acknowledged (201)
    replayed: int = 0  # of which answered Idempotent-Replayed
    adopted: int = 0  # found stored after a 412 (an earlier try's answer was lost)

    def expected_report(self, events: list[Any] | None = None) -> dict[str, Any]:
        rules = resolve_rules(self.preset, len(PLAYERS))
        report = build_report(replay(rules, PLAYERS, self.events[:self.acked] if events is None else events))
        return json.loads(json.dumps(report))  # as the API writes it: lists, not tuples


class Table(threading.Thread):
    """A scorekeeper's app: records random legal matches one after the other over one
    keep-alive connection. Every append names the seq it follows (If-Match) and carries an
    Idempotency-Key; on no answer or a 5xx it sends the very same request again (honouring
    Retry-After, capped so the table keeps trying), on 412 it reads the ETag again.

    Stops after ``matches`` matches, or when ``stop`` is set (between appends: an append in
    doubt is always settled first), or at ``deadline`` (time.monotonic())."""

    def __init__(self, number: int, base: str, token: str, referee_token: str, journal: Journal,
                 *, seed: int, deadline: float, matches: int | None = None,
                 stop: threading.Event | None = None, timeout: float = 30,
                 progress: Any = None) -> None:
        super().__init__(name=f"table-{number}", daemon=True)
        self.number = number
        # Idempotency-Keys unique to this table object: two tables of one test (or two runs)
        # with the same number and token must not answer each other's requests.
        self.keys = f"t{number}-{uuid.uuid4().hex[:8]}"
        self.http = Http(base, token, timeout=timeout)
        self.referee_token = referee_token
        self.journal = journal
        self.rng = random.Random(seed)
        self.deadline, self.max_matches, self.stop_event = deadline, matches, stop
        self.progress = progress or (lambda: None)
        self.planned: list[tuple[str, list[dict[str, Any]]]] = []
        for _ in range(matches or 0):  # drawn up front: a test knows how much is coming
            preset = self.rng.choice(PRESETS)
            self.planned.append((preset, random_match(preset, PLAYERS, self.rng)[1]))
        self.runs: list[MatchRun] = []
        self.created: list[int] = []  # every match id a create answered with (retries too)
        self.anomalies: list[str] = []
        self.failure: BaseException | None = None

    # -- plumbing

    def _pause(self, answer: Answer | None, attempt: int) -> None:
        delay = min(0.5, 0.02 * 2 ** min(attempt, 5))
        if answer is not None and (ra := answer.headers.get("retry-after", "")).isdigit():
            delay = min(float(ra), 0.5)
        time.sleep(delay)

    def _send(self, kind: str, method: str, path: str, body: bytes | None = None,
              headers: dict[str, str] | None = None, token: str | None = None,
              retry_statuses: tuple[int, ...] = ()) -> Answer:
        """The request until it gets an answer that is neither a transport error nor a 5xx
        (for at most GIVE_UP_S of failing: a server that fails for longer is broken, and the
        test should say so rather than wait for its deadline)."""
        attempt = 0
        began = time.monotonic()
        while True:
            now = time.monotonic()
            if now > self.deadline or now - began > GIVE_UP_S:
                last = self.journal.outcomes[-1] if self.journal.outcomes else None
                raise OutOfTime(f"table {self.number}: {method} {path} still failing after "
                                f"{now - began:.0f} s (last: {last and (last.status or last.error)})")
            answer = self.journal.call(self.http, kind, method, path, body, headers, token)
            if answer is not None and answer.status < 500 and answer.status not in retry_statuses:
                return answer
            self._pause(answer, attempt)
            attempt += 1

    # -- the table

    def run(self) -> None:
        try:
            while self.max_matches is None or len(self.runs) < self.max_matches:
                if self.stop_event is not None and self.stop_event.is_set():
                    break
                if len(self.runs) < len(self.planned):
                    preset, events = self.planned[len(self.runs)]
                else:
                    preset = self.rng.choice(PRESETS)
                    _, events = random_match(preset, PLAYERS, self.rng)
                run = MatchRun(self.create(preset), preset, events)
                self.runs.append(run)
                while run.acked < len(run.events):
                    if self.stop_event is not None and self.stop_event.is_set():
                        break
                    self.append(run)
                    self.progress()
        except BaseException as error:  # noqa: BLE001 - the test reports it
            self.failure = error
        finally:
            self.http.close()

    def create(self, preset: str) -> int:
        body = json.dumps({"rules": preset, "players": PLAYERS}).encode()
        # A retried create (its answer lost) must not make a second match: the same key.
        key = {"Idempotency-Key": f"{self.keys}-create-{len(self.runs) + 1}"}
        answer = self._send("create", "POST", f"/api/v1/clubs/{CLUB}/matches", body, key)
        if answer.status != 201:
            raise Refused(f"create: {answer.status} {answer.body[:300]!r}")
        match_id = answer.json()["id"]
        self.created.append(match_id)
        return match_id

    def append(self, run: MatchRun) -> None:
        seq = run.acked
        body = json.dumps(run.events[seq]).encode()
        headers = {"If-Match": f'"{seq}"', "Idempotency-Key": f"{self.keys}-m{run.match_id}-e{seq + 1}"}
        path = f"/api/v1/matches/{run.match_id}/events"
        for _ in range(20):
            answer = self._send("append", "POST", path, body, headers)
            if answer.status == 201:
                if etag_seq(answer) != seq + 1 or answer.json().get("seq") != seq + 1:
                    self.anomalies.append(f"match {run.match_id}: 201 for seq {seq + 1} names "
                                          f"ETag {answer.headers.get('etag')}")
                run.acked = seq + 1
                run.replayed += answer.headers.get("idempotent-replayed") == "true"
                return
            if answer.status != 412:
                raise Refused(f"match {run.match_id} seq {seq + 1}: {answer.status} {answer.body[:300]!r}")
            # 412: nobody else records this match, so the record must still end at seq, or hold
            # this table's own next events (a try whose answer was lost, though the same key
            # should have answered it as a replay).
            current = self.current_seq(run.match_id)
            if current == seq:
                continue
            if current < seq:
                self.anomalies.append(f"match {run.match_id}: acknowledged events lost: the record "
                                      f"ends at {current}, {seq} were acknowledged")
                raise Refused(self.anomalies[-1])
            stored = self.stored_events(run.match_id, after=seq)
            if stored == run.events[seq:current]:
                self.anomalies.append(f"match {run.match_id}: 412 at seq {seq + 1} although the "
                                      f"event was stored (its retry was not answered as a replay)")
                run.acked, run.adopted = current, run.adopted + current - seq
                return
            self.anomalies.append(f"match {run.match_id}: events {seq + 1}..{current} stored that "
                                  f"this table did not send")
            raise Refused(self.anomalies[-1])
        raise Refused(f"match {run.match_id} seq {seq + 1}: 412 twenty times over")

    def current_seq(self, match_id: int) -> int:
        answer = self._send("read", "GET", f"/api/v1/matches/{match_id}")
        seq = etag_seq(answer)
        if answer.status != 200 or seq is None:
            raise Refused(f"reading match {match_id}: {answer.status} {answer.body[:200]!r}")
        return seq

    def stored_events(self, match_id: int, after: int = 0) -> list[Any]:
        return [e["event"] for e in stored_records(self, match_id, after)]


def stored_records(table: Table, match_id: int, after: int = 0) -> list[dict[str, Any]]:
    """Every record after ``after`` as the referee sees it (hands open), page by page."""
    records: list[dict[str, Any]] = []
    for _ in range(1000):  # pages of 1000: a million events, far more than any test records
        answer = table._send("read", "GET", f"/api/v1/matches/{match_id}/events?after={after}&limit=1000",
                             token=table.referee_token)
        if answer.status != 200:
            raise Refused(f"events of {match_id}: {answer.status} {answer.body[:200]!r}")
        page = answer.json()
        records.extend(page)
        if len(page) < 1000:
            return records
        after = page[-1]["seq"]
    raise Refused(f"events of {match_id}: more than 1000 pages")


def report_difference(served: Any, offline: dict[str, Any]) -> str | None:
    """None when the API's report is the offline build_report, else what differs, by key."""
    if served == offline:
        return None
    if not isinstance(served, dict):
        return f"the report is not an object: {str(served)[:100]}"
    missing = sorted(set(offline) - set(served))
    extra = sorted(set(served) - set(offline))
    changed = sorted(k for k in set(served) & set(offline) if served[k] != offline[k])
    return (f"the report differs from the offline build_report(replay(...)): "
            f"missing {missing}, extra {extra}, different {changed}")


def verify_tables(base: str, referee_token: str, tables: list[Table], *,
                  complete: bool) -> dict[str, Any]:
    """What was acknowledged against what is stored, match by match: every acknowledged event
    stored exactly once, in order, no gap, nothing else; and the report the server gives
    equals the offline replay of the same events. Returns figures; problems go in "problems"."""
    checker = Table(-1, base, referee_token, referee_token, Journal(), seed=0,
                    deadline=time.monotonic() + 120)
    problems: list[str] = []  # about the record: lost, doubled, out of order, foreign events
    report_problems: list[str] = []  # about the report the API gives for a right record
    matches = events = replayed = stored_total = 0
    for table in tables:
        for run in table.runs:
            matches += 1
            events += run.acked
            replayed += run.replayed
            if complete and run.acked != len(run.events):
                problems.append(f"match {run.match_id}: {run.acked} of {len(run.events)} acknowledged")
            records = stored_records(checker, run.match_id)
            stored_total += len(records)
            seqs = [r["seq"] for r in records]
            if seqs != list(range(1, len(records) + 1)):
                problems.append(f"match {run.match_id}: stored seqs are not 1..N: {seqs[:5]}...")
            stored = [r["event"] for r in records]
            if stored != run.events[:run.acked]:
                first = next((i for i, (a, b) in enumerate(zip(stored, run.events)) if a != b),
                             min(len(stored), run.acked))
                problems.append(f"match {run.match_id}: {len(stored)} stored, {run.acked} "
                                f"acknowledged, first difference at seq {first + 1}")
                continue
            summary = checker._send("read", "GET", f"/api/v1/matches/{run.match_id}")
            if etag_seq(summary) != run.acked:
                problems.append(f"match {run.match_id}: ETag {summary.headers.get('etag')}, "
                                f"{run.acked} acknowledged")
            report = checker._send("read", "GET", f"/api/v1/matches/{run.match_id}/report")
            differs = (f"GET report answered {report.status}" if report.status != 200
                       else report_difference(report.json(), run.expected_report()))
            if differs:
                report_problems.append(f"match {run.match_id}: {differs}")
        problems.extend(table.anomalies)
    # A create whose answer was lost, sent again with its Idempotency-Key, must not have made
    # a second match that no table records.
    listing = checker._send("read", "GET", f"/api/v1/clubs/{CLUB}/matches?limit=1")
    orphans = int(listing.headers.get("x-total-count", "0")) - matches
    if orphans:
        problems.append(f"{orphans} matches were created that no table records")
    checker.http.close()
    return {"matches": matches, "orphan_matches": orphans, "events_acknowledged": events,
            "events_stored": stored_total, "idempotent_replays": replayed,
            "record_problems": problems, "report_problems": report_problems,
            "problems": problems + report_problems}
