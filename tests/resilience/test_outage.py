"""The database goes away under the server: gunicorn (2 workers) on PostgreSQL, gunicorn left
alone throughout.

- Under load (six tables recording, a screen polling): PostgreSQL is stopped
  (pg_ctlcluster stop -m fast) for about 5 s, then started again. While it is down, every answer
  is 503 with Retry-After: no 500, no other 5xx, no request hanging past 10 s (the clients'
  timeout), and a token no worker has cached yet gets 503 too, not 401. Once PostgreSQL is back,
  the same server processes answer again within 15 s; nothing acknowledged is lost.
- While idle (every pooled connection open and unused): PostgreSQL is restarted. The next
  requests find dead pooled connections: none may be a 500, and appends succeed again within 15 s.

PostgreSQL is started again whatever happens (here, in the scratch schema's teardown and in
conftest's), and pg_isready is waited for, so the tests after these find it running.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from resilience_helpers import (
    CLUB,
    Gunicorn,
    Http,
    Journal,
    Outcome,
    Table,
    needs_pg,
    pg_checkpoint,
    pg_controllable,
    pg_ready,
    pg_start,
    pg_stop,
    scratch_club,
    verify_tables,
)

pytestmark = [
    pytest.mark.resilience, needs_pg,
    pytest.mark.skipif(pg_controllable() is not None, reason=str(pg_controllable())),
]

TABLES = 6
WARM_S = 3.0
OUTAGE_S = 5.0  # PostgreSQL down (from the moment the stop command has returned)
RECOVERY_LIMIT_S = 15.0
AFTER_S = 3.0
HANG_LIMIT_S = 10.0  # every client's socket timeout: a request taking longer fails


class Screen(threading.Thread):
    """A screen polling what the tables record: the match, its report and events, the list."""

    def __init__(self, base: str, token: str, journal: Journal, tables: list[Table],
                 stop: threading.Event) -> None:
        super().__init__(name="screen", daemon=True)
        self.http = Http(base, token, timeout=HANG_LIMIT_S)
        self.journal, self.tables, self.stop_event = journal, tables, stop

    def run(self) -> None:
        turn = 0
        deadline = time.monotonic() + 300  # the test sets stop long before
        while not self.stop_event.is_set() and time.monotonic() < deadline:
            runs = [t.runs[-1] for t in self.tables if t.runs]
            if runs:
                run = runs[turn % len(runs)]
                path = (f"/api/v1/matches/{run.match_id}",
                        f"/api/v1/matches/{run.match_id}/report",
                        f"/api/v1/matches/{run.match_id}/events?after={max(0, run.acked - 5)}",
                        f"/api/v1/clubs/{CLUB}/matches?limit=5")[turn % 4]
                self.journal.call(self.http, "read", "GET", path)
            turn += 1
            time.sleep(0.05)
        self.http.close()


def _tables(server: Gunicorn, club: Any, journal: Journal, stop: threading.Event,
            seed: int) -> list[Table]:
    deadline = time.monotonic() + 150
    return [Table(n, server.base, club.token("scorekeeper", n), club.token("referee"), journal,
                  seed=seed + n, deadline=deadline, stop=stop, timeout=HANG_LIMIT_S)
            for n in range(TABLES)]


def _run_until_appends(journal: Journal, since: float, count: int, limit: float) -> None:
    """Wait until ``count`` appends sent after ``since`` were acknowledged, or ``limit``."""
    while time.monotonic() < limit:
        done = sum(1 for o in journal.between(since, time.monotonic())
                   if o.kind == "append" and o.status == 201 and o.began >= since)
        if done >= count:
            return
        time.sleep(0.05)


def _not_503_promise(outcome: Outcome) -> bool:
    """Neither an answer below 500 nor a 503 with Retry-After: a 500, a 502, no answer..."""
    if outcome.status is None:
        return True
    return outcome.status >= 500 and not (outcome.status == 503 and outcome.retry_after)


def _recovery(journal: Journal, up: float, end: float) -> tuple[float | None, float | None]:
    """Seconds from PostgreSQL being back to the first success, and to the last failure."""
    after = journal.between(up, end)
    first_ok = min((o.ended for o in after if o.status is not None and o.status < 400
                    and o.began >= up), default=None)
    last_bad = max((o.ended for o in after if o.status is None or o.status >= 500), default=None)
    return (None if first_ok is None else round(first_ok - up, 2),
            None if last_bad is None else round(last_bad - up, 2))


def _check_common(figures: dict[str, Any], journal: Journal, tables: list[Table],
                  first_ok: float | None, last_bad: float | None) -> list[str]:
    problems = []
    slowest = max(o.ended - o.began for o in journal.outcomes)
    if slowest >= HANG_LIMIT_S:
        problems.append(f"a request took {slowest:.1f} s")
    timeouts = sum(1 for o in journal.outcomes if o.error in ("TimeoutError", "timeout"))
    if timeouts:
        problems.append(f"{timeouts} requests timed out after {HANG_LIMIT_S} s")
    if first_ok is None or first_ok > RECOVERY_LIMIT_S:
        problems.append(f"no success within {RECOVERY_LIMIT_S} s of PostgreSQL being back")
    if last_bad is not None and last_bad > RECOVERY_LIMIT_S:
        problems.append(f"still failing {last_bad} s after PostgreSQL was back")
    fivehundreds = sum(1 for o in journal.outcomes if o.status == 500)
    if fivehundreds:
        problems.append(f"{fivehundreds} answers were 500 "
                        f"({sum(1 for o in journal.outcomes if o.status == 500 and o.kind == 'append')} of them appends)")
    if not figures["server_pids_unchanged"]:
        problems.append("the server's processes changed (a worker died and was replaced)")
    problems.extend(f"{t.name}: {t.failure!r}" for t in tables if t.failure is not None)
    return problems


def test_database_outage_answers_503_and_recovers(tmp_path, figures) -> None:
    began = time.monotonic()
    with scratch_club(scorekeepers=TABLES, fresh=1) as club:
        server = Gunicorn(club.url, tmp_path / "gunicorn.log", workers=2, threads=4)
        server.start()
        journal, stop = Journal(), threading.Event()
        tables: list[Table] = []
        probe = None
        try:
            tables = _tables(server, club, journal, stop, seed=2000)
            screen = Screen(server.base, club.token("referee"), journal, tables, stop)
            load_began = time.monotonic()
            for thread in (*tables, screen):
                thread.start()
            time.sleep(WARM_S)
            pids_before = [server.pid, *server.worker_pids()]
            pg_checkpoint()
            stopping = time.monotonic()
            pg_stop()
            stopped = time.monotonic()
            # A token used for the first time while the database is down: no worker has it
            # cached, so whose it is cannot be known. 503, not 401 (nor 500).
            fresh = Http(server.base, club.token("fresh", 0), timeout=HANG_LIMIT_S)
            probe = journal.call(fresh, "fresh-token", "GET", f"/api/v1/clubs/{CLUB}/matches")
            fresh.close()
            time.sleep(max(0.0, stopped + OUTAGE_S - time.monotonic()))

            starting = time.monotonic()
            pg_start()
            up = time.monotonic()
            _run_until_appends(journal, up, 2 * TABLES, up + RECOVERY_LIMIT_S + 5)
            time.sleep(AFTER_S)
            stop.set()
            for thread in (*tables, screen):
                thread.join(timeout=2 * HANG_LIMIT_S + 5)
            end = time.monotonic()
            pids_after = [server.pid, *server.worker_pids()]
        finally:
            stop.set()
            if not pg_ready():
                pg_start()
            for thread in tables:
                thread.join(timeout=2 * HANG_LIMIT_S + 5)

        try:
            down = journal.between(stopped, starting)  # answered while PostgreSQL was down
            shutting = journal.between(stopping, stopped)
            booting = journal.between(starting, up)
            first_ok, last_bad = _recovery(journal, up, end)
            figures.update(
                tables=TABLES,
                pg_stop_command_s=round(stopped - stopping, 2),
                pg_down_s=round(starting - stopped, 2),
                pg_start_command_s=round(up - starting, 2),
                before=journal.summary(journal.between(load_began, stopping)),
                while_stopping=journal.summary(shutting),
                while_down=journal.summary(down),
                while_starting=journal.summary(booting),
                down_503=sum(1 for o in down if o.status == 503),
                down_503_with_retry_after=sum(1 for o in down if o.status == 503 and o.retry_after),
                retry_after_values=sorted({o.retry_after for o in journal.outcomes if o.retry_after}),
                fresh_token_probe=probe.status if probe is not None else "no answer",
                after_start=journal.summary(journal.between(up, end)),
                first_success_after_start_command_s=next(
                    (round(o.ended - starting, 2) for o in sorted(journal.between(starting, end), key=lambda o: o.ended)
                     if o.status is not None and o.status < 400 and o.began >= starting), None),
                first_success_after_start_s=first_ok,
                last_failure_after_start_s=last_bad,
                server_pids_unchanged=pids_before == pids_after,
                server_log_tracebacks=server.log_text().count("Traceback"),
            )
            checked = verify_tables(server.base, club.token("referee"), tables, complete=False)
            figures.update({k: v for k, v in checked.items() if k != "problems"})
        finally:
            server.stop()
    figures["total_s"] = round(time.monotonic() - began, 1)

    problems = _check_common(figures, journal, tables, first_ok, last_bad)
    broken = [o for o in (*shutting, *down, *booting) if _not_503_promise(o)]
    if broken:
        problems.append(f"{len(broken)} answers while PostgreSQL was stopping, down or starting "
                        f"were neither below 500 nor 503 with Retry-After: while down "
                        f"{figures['while_down']['statuses']} {figures['while_down']['transport_errors']}")
    if figures["down_503"] == 0:
        problems.append("no 503 while PostgreSQL was down")
    if figures["fresh_token_probe"] != 503:
        problems.append(f"a token first used while PostgreSQL was down got "
                        f"{figures['fresh_token_probe']}, not 503")
    problems.extend(checked["problems"])
    assert not problems, "\n".join(problems) + "\n--- server log:\n" + server.log_tail(1500)


def test_postgres_restart_while_idle_no_500(tmp_path, figures) -> None:
    """Every pooled connection dies while nobody uses it; the next requests must not be 500s."""
    began = time.monotonic()
    with scratch_club(scorekeepers=TABLES) as club:
        server = Gunicorn(club.url, tmp_path / "gunicorn.log", workers=2, threads=4)
        server.start()
        journal = Journal()
        warm, stop = threading.Event(), threading.Event()
        first: list[Table] = []
        second: list[Table] = []
        try:
            first = _tables(server, club, journal, warm, seed=3000)
            for table in first:  # concurrent load: several pooled connections in each worker
                table.start()
            time.sleep(WARM_S)
            warm.set()
            for table in first:
                table.join(timeout=2 * HANG_LIMIT_S + 5)
            pids_before = [server.pid, *server.worker_pids()]
            pg_checkpoint()
            restarting = time.monotonic()
            pg_stop()
            pg_start()
            up = time.monotonic()
            # The same tokens (cached by the workers) and new matches: the first database use
            # of each request is on a pooled connection PostgreSQL has closed.
            second = _tables(server, club, journal, stop, seed=4000)
            for table in second:
                table.start()
            _run_until_appends(journal, up, 4 * TABLES, up + RECOVERY_LIMIT_S + 5)
            time.sleep(1.0)
            stop.set()
            for table in second:
                table.join(timeout=2 * HANG_LIMIT_S + 5)
            end = time.monotonic()
            pids_after = [server.pid, *server.worker_pids()]
        finally:
            warm.set()
            stop.set()
            if not pg_ready():
                pg_start()
        try:
            first_ok, last_bad = _recovery(journal, up, end)
            after = journal.between(up, end)
            figures.update(
                tables=TABLES, pg_restart_s=round(up - restarting, 2),
                before=journal.summary(journal.between(began, restarting)),
                after_restart=journal.summary(after),
                first_success_after_restart_s=first_ok,
                last_failure_after_restart_s=last_bad,
                server_pids_unchanged=pids_before == pids_after,
                server_log_tracebacks=server.log_text().count("Traceback"),
            )
            checked = verify_tables(server.base, club.token("referee"), [*first, *second],
                                    complete=False)
            figures.update({k: v for k, v in checked.items() if k != "problems"})
        finally:
            server.stop()
    figures["total_s"] = round(time.monotonic() - began, 1)
    problems = _check_common(figures, journal, [*first, *second], first_ok, last_bad)
    problems.extend(checked["problems"])
    assert not problems, "\n".join(problems) + "\n--- server log:\n" + server.log_tail(1500)
