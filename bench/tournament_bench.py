"""A 500-table tournament round on the live scoreboard: every table appends at once, and the
tournament's scoreboard stream measures how long each append's update takes to arrive.

Starts the API as a subprocess on 127.0.0.1 (api_bench's servers: gunicorn with gthread workers
on PostgreSQL, so that the appends land on several workers and reach the stream's worker through
LISTEN/NOTIFY; waitress on SQLite, polling) on a fresh database holding one tournament, built
through the service as a club's admin and referee would: ``svc.tournaments.create`` with
``2 x --tables`` fixed partnerships (format ``round_robin``, rules ``parejas``; the players are
registered by the entering itself, with ``confirm_new`` so that no near-name check asks about
"Player 0001" and "Player 0002"), then ``svc.tournaments.pair`` for round 1, which creates the
``--tables`` matches with their table numbers, then each table dealt through
``svc.recording.record_event`` (``referee.core.simulate.random_match``: its events name seats,
not players, so one simulated match serves any table). ``round_robin`` because its round 1 is
the circle method's fixed schedule, paired in about 2 s on SQLite; ``pairs`` pairs the same
field in about 3 s, but ``rotating`` grows about eightfold with each doubling of the field
(6 s for 400 players, 47 s for 800: 2,000 would take minutes).

Then ``--waves`` times, every table appends its next legal event at once (``--clients``
threads, each with its own keep-alive connection and its share of the tables, released
together), while a client reads
``GET /api/v1/clubs/{club}/tournaments/{t}/scoreboard/stream`` (the current round's tables).

The figure is, for each append, the time from its acknowledgement (the 201 read by its client)
to the arrival of a row of its table at that seq or later on the stream (an update that comes
before the 201 has been read counts 0). Prints p50/p99/max and whether p99 <= 1 s. Bounded:
each wave waits at most ``--timeout`` seconds for its updates, and the server is stopped at the
end whatever happens.

    DOMINO_BENCH_DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/test \\
        python bench/tournament_bench.py [--tables 500] [--waves 3] [--clients 50]

(DOMINO_TEST_DATABASE_URL is used when DOMINO_BENCH_DATABASE_URL is not set; neither: SQLite.)
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from api_bench import PLAYERS, cpu_seconds, server  # noqa: E402

from migrations.runner import upgrade  # noqa: E402
from referee.core.simulate import random_match  # noqa: E402
from referee.service import open_service  # noqa: E402
from referee.store.db import scratch_schema  # noqa: E402

CLUB = "night"
TOURNAMENT = "open"
STREAM = f"/api/v1/clubs/{CLUB}/tournaments/{TOURNAMENT}/scoreboard/stream"


@contextmanager
def database(args: argparse.Namespace) -> Iterator[str]:
    url = os.environ.get("DOMINO_BENCH_DATABASE_URL") or os.environ.get("DOMINO_TEST_DATABASE_URL")
    if url:
        with scratch_schema(url, prefix="bench") as scoped:
            yield scoped
        return
    with tempfile.TemporaryDirectory() as folder:
        yield f"sqlite:///{Path(folder) / 'domino.db'}"


def setup(url: str, tables: int, waves: int) -> tuple[str, dict[int, list[dict[str, Any]]]]:
    """The club (public), a scorekeeper token, and the tournament with round 1 paired into
    ``tables`` tables, each dealt: each table's next ``waves`` events, by match id. Prints how
    long entering, pairing and dealing took."""
    with open_service(url) as svc:
        upgrade(svc.engine)
        svc.clubs.create_club(CLUB, "Club night")
        svc.clubs.set_public(CLUB, True)
        token = svc.tokens.create_token(CLUB, "scorekeeper", label="bench")
        began = time.perf_counter()
        partnerships = [[f"Player {2 * i + 1:04d}", f"Player {2 * i + 2:04d}"]
                        for i in range(2 * tables)]
        svc.tournaments.create(CLUB, TOURNAMENT, "Bench open", rules="parejas",
                               format="round_robin", rounds=1, entrants=partnerships,
                               confirm_new=True)
        entered = time.perf_counter()
        round_one = svc.tournaments.pair(CLUB, TOURNAMENT)
        paired = time.perf_counter()
        if len(round_one["tables"]) != tables:
            raise SystemExit(f"round 1 has {len(round_one['tables'])} tables, not {tables}")
        plays: dict[int, list[dict[str, Any]]] = {}
        for table in round_one["tables"]:
            _, events = random_match("parejas", PLAYERS, random.Random(table["table"]))
            svc.recording.record_event(table["match"], events[0], expected_seq=0)
            plays[table["match"]] = events[1:1 + waves]
        print(f"{2 * tables} partnerships entered in {entered - began:.1f} s, round 1 paired "
              f"(its {tables} matches created) in {paired - entered:.1f} s, dealt in "
              f"{time.perf_counter() - paired:.1f} s")
    return token, plays


class Stream(threading.Thread):
    """The tournament's scoreboard stream, read in a thread: how many rows its snapshot had,
    and when each row arrived (perf_counter)."""

    def __init__(self, base: str) -> None:
        super().__init__(daemon=True)
        host, port = base.removeprefix("http://").split(":")
        self.conn = http.client.HTTPConnection(host, int(port), timeout=60)
        self.arrivals: dict[int, list[tuple[int, float]]] = {}  # match -> [(seq, when)]
        self.snapshot = threading.Event()
        self.tables = 0  # rows in the snapshot: the round's tables
        self.lock = threading.Lock()
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.conn.request("GET", STREAM)
            response = self.conn.getresponse()
            if response.status != 200:
                raise RuntimeError(f"the stream answered {response.status}")
            kind = None
            for raw in response:
                line = raw.rstrip(b"\r\n")
                if line.startswith(b"event: "):
                    kind = line[7:].decode()
                elif line.startswith(b"data: "):
                    when = time.perf_counter()
                    data = json.loads(line[6:])
                    if kind == "snapshot":
                        self.tables = len(data["rows"])
                        self.snapshot.set()
                    elif kind == "row":
                        with self.lock:
                            self.arrivals.setdefault(data["match"], []).append((data["seq"], when))
        except BaseException as error:  # the main thread reports it
            self.error = error
            self.snapshot.set()

    def arrived(self, match_id: int, seq: int) -> float | None:
        """When the first row of the match at ``seq`` or later arrived (None: not yet)."""
        with self.lock:
            rows = self.arrivals.get(match_id, [])
            return next((when for s, when in rows if s >= seq), None)


def wave(base: str, token: str, plays: dict[int, list[dict[str, Any]]], index: int,
         clients: int) -> tuple[dict[tuple[int, int], float], int]:
    """Every table appends its event ``index`` at once; (match, seq) -> when its 201 was read,
    and how many appends failed."""
    host, port = base.removeprefix("http://").split(":")
    ids = sorted(plays)
    shares = [ids[i::clients] for i in range(clients)]
    acks: dict[tuple[int, int], float] = {}
    failed = [0]
    lock = threading.Lock()

    def client(share: list[int]) -> None:
        conn = http.client.HTTPConnection(host, int(port), timeout=30)
        start.wait()
        for match_id in share:
            seq = index + 1  # the deal is event 1
            body = json.dumps(plays[match_id][index])
            conn.request("POST", f"/api/v1/matches/{match_id}/events", body=body, headers={
                "Authorization": f"Bearer {token}", "Content-Type": "application/json",
                "If-Match": f'"{seq}"'})
            response = conn.getresponse()
            response.read()
            when = time.perf_counter()
            with lock:
                if response.status == 201:
                    acks[match_id, seq + 1] = when
                else:
                    failed[0] += 1
        conn.close()

    threads = [threading.Thread(target=client, args=(s,)) for s in shares if s]
    start = threading.Barrier(len(threads))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return acks, failed[0]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(q * len(ordered))) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--waves", type=int, default=3, help="appends per table, all at once")
    parser.add_argument("--clients", type=int, default=50, help="appending threads")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds a wave may wait")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (PostgreSQL)")
    parser.add_argument("--gunicorn-threads", type=int, default=16,
                        help="threads per gunicorn worker")
    parser.add_argument("--threads", type=int, default=32, help="waitress threads (SQLite)")
    args = parser.parse_args()

    with database(args) as url:
        kind = "gunicorn" if url.startswith("postgresql") else "waitress"
        token, plays = setup(url, args.tables, args.waves)
        print(f"database: {url.split(':', 1)[0]}; server: {kind}"
              + (f", {args.workers} workers x {args.gunicorn_threads} threads"
                 if kind == "gunicorn" else f", {args.threads} threads"))
        with server(kind, url, args) as pid:
            stream = Stream(args.base)
            stream.start()
            if not stream.snapshot.wait(60) or stream.error is not None:
                raise SystemExit(f"no snapshot from the stream: {stream.error}")
            if stream.tables != args.tables:
                raise SystemExit(f"the stream's snapshot has {stream.tables} tables, "
                                 f"not {args.tables}")
            latencies: list[float] = []
            missing = failed_total = 0
            cpu_before, wall = cpu_seconds(pid), time.perf_counter()
            for index in range(args.waves):
                sent = time.perf_counter()
                acks, failed = wave(args.base, token, plays, index, args.clients)
                appended = time.perf_counter() - sent
                failed_total += failed
                deadline = time.perf_counter() + args.timeout
                waiting = dict(acks)
                wave_latencies = []
                while waiting and time.perf_counter() < deadline:
                    for key, ack in list(waiting.items()):
                        when = stream.arrived(*key)
                        if when is not None:
                            wave_latencies.append(max(0.0, when - ack))
                            del waiting[key]
                    time.sleep(0.01)
                missing += len(waiting)
                latencies += wave_latencies
                print(f"wave {index + 1}: {len(acks)} appends in {appended:.2f} s "
                      f"({len(acks) / appended:.0f}/s), {failed} failed; updates p99 "
                      f"{percentile(wave_latencies, 0.99) * 1000:.0f} ms" if wave_latencies
                      else f"wave {index + 1}: no update arrived")
            cpu = cpu_seconds(pid) - cpu_before
            wall = time.perf_counter() - wall
        if not latencies:
            raise SystemExit("no update arrived at all")
        p50, p99 = statistics.median(latencies), percentile(latencies, 0.99)
        print(f"append acknowledged -> scoreboard update, {len(latencies)} appends "
              f"({args.tables} tables x {args.waves} waves): p50 {p50 * 1000:.0f} ms, "
              f"p99 {p99 * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms; "
              f"{missing} never arrived, {failed_total} appends failed; "
              f"server CPU {cpu:.1f} s over {wall:.1f} s")
        print(f"p99 <= 1 s: {'yes' if p99 <= 1.0 and not missing else 'NO'}")


if __name__ == "__main__":
    main()
