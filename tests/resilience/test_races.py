"""32 clients appending to one match at once, over real HTTP to a server in another process:
gunicorn (2 workers) on PostgreSQL, and waitress on SQLite.

- In lockstep: every round, all 32 (a barrier) send the match's next event naming the same last
  seq. Exactly one gets 201; the 31 others get 412 with the winner's seq as ETag.
- Free for all: no barrier; each client sends the next event of the match as it last saw it,
  and on 412 takes the current seq from the answer's ETag and tries again. Each seq is won by
  exactly one 201.

Then the record is the match's events in order (no duplicate, no gap, nothing else) and the
server's report equals the offline replay of those events. Every answer is 201 or 412.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections import Counter
from typing import Any

import pytest
from resilience_helpers import (
    CLUB,
    PG_URL,
    PLAYERS,
    Gunicorn,
    Http,
    MatchRun,
    Waitress,
    etag_seq,
    make_club,
    percentile,
    report_difference,
    scratch_club,
)

from referee.core.simulate import random_match

pytestmark = pytest.mark.resilience

CLIENTS = 32
LOCKSTEP_ROUNDS = 40
FREE_FOR_ALL_EVENTS = 80
TIME_LIMIT = 120  # seconds per phase


class Racer:
    def __init__(self, number: int, base: str, token: str) -> None:
        self.number = number
        self.http = Http(base, token, timeout=30)
        self.answers: list[tuple[int, int, int | None, float, bool]] = []  # seq tried, status, etag, s, problem

    def post(self, match_id: int, events: list[dict[str, Any]], seq: int) -> tuple[int, int | None]:
        answer = self.http.call("POST", f"/api/v1/matches/{match_id}/events",
                                json.dumps(events[seq]).encode(),
                                {"If-Match": f'"{seq}"', "Idempotency-Key": f"c{self.number}-s{seq + 1}"})
        tag = etag_seq(answer)
        self.answers.append((seq, answer.status, tag, answer.elapsed,
                             answer.status < 400 or answer.problem))
        if answer.status == 412 and answer.json().get("current_seq") != tag:
            raise AssertionError(f"412 body names {answer.json().get('current_seq')}, ETag {tag}")
        return answer.status, tag


def _threads(target: Any, count: int) -> list[BaseException]:
    errors: list[BaseException] = []

    def run(n: int) -> None:
        try:
            target(n)
        except BaseException as error:  # noqa: BLE001 - reported by the test
            errors.append(error)

    threads = [threading.Thread(target=run, args=(n,), daemon=True) for n in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=TIME_LIMIT + 10)
    if any(t.is_alive() for t in threads):
        errors.append(TimeoutError("racers still running"))
    return errors


def _figures(racers: list[Racer], answers: list[tuple[int, int, int | None, float, bool]],
             seconds: float) -> dict[str, Any]:
    latencies = [a[3] for a in answers]
    return {"requests": len(answers), "statuses": dict(Counter(str(a[1]) for a in answers)),
            "seconds": round(seconds, 2), "requests_per_s": round(len(answers) / seconds, 1),
            "p50_ms": round(1000 * percentile(latencies, 50), 1),
            "p99_ms": round(1000 * percentile(latencies, 99), 1),
            "max_ms": round(1000 * max(latencies), 1)}


SERVERS = [
    pytest.param("gunicorn-postgresql", marks=pytest.mark.skipif(
        not (PG_URL and PG_URL.startswith("postgresql")), reason="DOMINO_TEST_DATABASE_URL is not set")),
    "waitress-sqlite",
]


@pytest.mark.parametrize("server_kind", SERVERS)
def test_32_clients_one_winner_per_seq(server_kind: str, tmp_path, figures) -> None:  # noqa: C901 (the clients' loop and its checks read as one story)
    began = time.monotonic()
    target = LOCKSTEP_ROUNDS + FREE_FOR_ALL_EVENTS
    events = next(e for seed in range(77, 127)  # a match long enough for both phases
                  if len(e := random_match("parejas", PLAYERS, random.Random(seed))[1]) >= target)

    if server_kind == "gunicorn-postgresql":
        setup = scratch_club(scorekeepers=CLIENTS)
    else:
        from contextlib import nullcontext

        setup = nullcontext(make_club(f"sqlite:///{tmp_path / 'race.db'}", scorekeepers=CLIENTS))
    with setup as club:
        if server_kind == "gunicorn-postgresql":
            server = Gunicorn(club.url, tmp_path / "server.log", workers=2, threads=8)
        else:
            server = Waitress(club.url, tmp_path / "server.log", threads=16)
        server.start()
        try:
            admin = Http(server.base, club.token("referee"))
            created = admin.call("POST", f"/api/v1/clubs/{CLUB}/matches",
                                 json.dumps({"rules": "parejas", "players": PLAYERS}).encode())
            assert created.status == 201, created.body
            match_id = created.json()["id"]
            racers = [Racer(n, server.base, club.token("scorekeeper", n)) for n in range(CLIENTS)]

            # -- lockstep: everyone names the same seq at once
            barrier = threading.Barrier(CLIENTS)
            phase = time.monotonic()

            def lockstep(n: int) -> None:
                try:
                    for seq in range(LOCKSTEP_ROUNDS):
                        barrier.wait(timeout=30)
                        racers[n].post(match_id, events, seq)
                except BaseException:
                    barrier.abort()
                    raise

            errors = _threads(lockstep, CLIENTS)
            lockstep_s = time.monotonic() - phase
            answers = [a for r in racers for a in r.answers]
            figures["lockstep"] = {"clients": CLIENTS, "rounds": LOCKSTEP_ROUNDS,
                                   **_figures(racers, answers, lockstep_s)}
            assert not errors, errors
            problems = []
            for seq in range(LOCKSTEP_ROUNDS):
                got = sorted((a[1], a[2]) for a in answers if a[0] == seq)
                if got != [(201, seq + 1)] + [(412, seq + 1)] * (CLIENTS - 1):
                    problems.append(f"seq {seq + 1}: {Counter(got)}")
            if not all(a[4] for a in answers):
                problems.append("a refusal was not application/problem+json")

            # -- free for all: each client follows the ETag the server gives it
            for r in racers:
                r.answers.clear()
            deadline = time.monotonic() + TIME_LIMIT
            phase = time.monotonic()

            def free_for_all(n: int) -> None:
                seq = LOCKSTEP_ROUNDS
                while seq < target and time.monotonic() < deadline:
                    status, tag = racers[n].post(match_id, events, seq)
                    if status == 201:
                        seq += 1
                    elif status == 412 and tag is not None and tag > seq:
                        seq = tag
                    else:
                        raise AssertionError(f"client {n} at seq {seq}: {status} ETag {tag}")

            errors = _threads(free_for_all, CLIENTS)
            ffa_s = time.monotonic() - phase
            answers = [a for r in racers for a in r.answers]
            wins = Counter(a[2] for a in answers if a[1] == 201)
            per_client = [sum(1 for a in r.answers if a[1] == 201) for r in racers]
            figures["free_for_all"] = {
                "clients": CLIENTS, "events": FREE_FOR_ALL_EVENTS,
                **_figures(racers, answers, ffa_s),
                "wins_per_client_min_max": [min(per_client), max(per_client)]}
            assert not errors, errors
            for seq in range(LOCKSTEP_ROUNDS + 1, target + 1):
                if wins[seq] != 1:
                    problems.append(f"free for all: seq {seq} won {wins[seq]} times")
            if set(wins) - set(range(LOCKSTEP_ROUNDS + 1, target + 1)):
                problems.append(f"201s naming seqs out of range: {sorted(set(wins))[-3:]}")
            if not all(a[4] for a in answers):
                problems.append("a refusal was not application/problem+json")

            # -- the record and the report
            records = admin.call("GET", f"/api/v1/matches/{match_id}/events?limit=10000").json()
            if [r["seq"] for r in records] != list(range(1, target + 1)):
                problems.append(f"stored seqs are not 1..{target}: {len(records)} records")
            if [r["event"] for r in records] != events[:target]:
                problems.append("the record is not the match's events in order")
            report = admin.call("GET", f"/api/v1/matches/{match_id}/report")
            expected = MatchRun(match_id, "parejas", events[:target], acked=target).expected_report()
            if etag_seq(report) != target:
                problems.append(f"the report's ETag is {report.headers.get('etag')}, not {target}")
            if differs := report_difference(report.json(), expected):
                problems.append(differs)
            for r in racers:
                r.http.close()
            admin.close()
            figures["server_log_tracebacks"] = server.log_text().count("Traceback")
            figures["problems"] = problems
            assert not problems, "\n".join(problems) + "\n" + server.log_tail(1500)
        finally:
            server.stop()
    figures["total_s"] = round(time.monotonic() - began, 1)
