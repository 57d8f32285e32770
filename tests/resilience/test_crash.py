"""The server killed mid-load: gunicorn (2 workers) on PostgreSQL, eight tables recording real
random matches with If-Match and Idempotency-Key; twice, the master and every worker are
SIGKILLed at once and gunicorn is started again on the same port. The tables retry whatever got
no answer with the same key and carry on to the end of their matches.

Then: every acknowledged event is stored exactly once, in order, with no gap and nothing else
(the record equals what the table played), and the report the server gives for each match equals
build_report(replay(...)) of the same events computed offline.
"""

from __future__ import annotations

import threading
import time

import pytest
from resilience_helpers import (
    Gunicorn,
    Journal,
    Table,
    needs_pg,
    scratch_club,
    verify_tables,
)

pytestmark = [pytest.mark.resilience, needs_pg]

TABLES = 8
MATCHES_PER_TABLE = 2
CRASHES = 3
TIME_LIMIT = 240  # seconds for the whole load, crashes included


def test_sigkill_mid_load_loses_nothing_acknowledged(tmp_path, figures) -> None:
    began = time.monotonic()
    with scratch_club(scorekeepers=TABLES) as club:
        server = Gunicorn(club.url, tmp_path / "gunicorn.log", workers=2, threads=4)
        figures["first_boot_s"] = round(server.start(), 2)
        try:
            journal = Journal()
            acks = [0]
            lock = threading.Lock()

            def progress() -> None:
                with lock:
                    acks[0] += 1

            deadline = time.monotonic() + TIME_LIMIT
            tables = [Table(n, server.base, club.token("scorekeeper", n), club.token("referee"),
                            journal, seed=1000 + n, deadline=deadline, matches=MATCHES_PER_TABLE,
                            progress=progress) for n in range(TABLES)]
            planned = sum(len(events) for t in tables for _, events in t.planned)
            figures.update(tables=TABLES, matches_planned=TABLES * MATCHES_PER_TABLE,
                           events_planned=planned)
            load_began = time.monotonic()
            for table in tables:
                table.start()

            crashes = []
            for crash in range(1, CRASHES + 1):
                target = planned * crash // (CRASHES + 1)
                waited = time.monotonic() + 90
                while acks[0] < target and time.monotonic() < waited and any(t.is_alive() for t in tables):
                    time.sleep(0.01)
                in_flight_at = time.monotonic()
                killed = server.kill()
                killed_at = time.monotonic()
                restart_s = server.start()
                restarted_at = time.monotonic()
                crashes.append({"after_acks": acks[0], "pids_killed": len(killed),
                                "restart_s": round(restart_s, 2), "at": round(killed_at - load_began, 2),
                                "ready_at": round(restarted_at - load_began, 2)})
                crashes[-1]["requests_cut"] = sum(
                    1 for o in journal.between(in_flight_at, restarted_at) if o.status is None)

            for table in tables:
                table.join(timeout=max(1.0, deadline - time.monotonic() + 5))
            load_s = time.monotonic() - load_began
            for entry in crashes:  # how long each crash kept appends from being acknowledged
                killed_at = load_began + entry["at"]
                first_ok = min((o.ended for o in journal.between(killed_at, time.monotonic())
                                if o.kind == "append" and o.status == 201 and o.began > killed_at),
                               default=None)
                entry["appends_blocked_s"] = None if first_ok is None else round(first_ok - killed_at, 2)
            figures["crashes"] = crashes
            figures["load_s"] = round(load_s, 1)
            figures["requests"] = journal.summary()
            figures["appends"] = journal.summary([o for o in journal.outcomes if o.kind == "append"])
            alive = [t.name for t in tables if t.is_alive()]
            failures = [f"{t.name}: {t.failure!r}" for t in tables if t.failure is not None]
            assert not alive, f"tables still running after {TIME_LIMIT} s: {alive}"
            assert not failures, failures

            checked = verify_tables(server.base, club.token("referee"), tables, complete=True)
            figures.update({k: v for k, v in checked.items() if k != "problems"})
            figures["appends_per_s"] = round(checked["events_acknowledged"] / load_s, 1)
            log = server.log_text()
            figures["server_log_tracebacks"] = log.count("Traceback")
            statuses = figures["requests"]["statuses"]
            problems = [*checked["record_problems"], *(
                [f"5xx answers: {statuses}\n{server.log_tail(1500)}"]
                if any(s.startswith("5") for s in statuses) else []), *checked["report_problems"]]
            assert not problems, "\n".join(problems)
        finally:
            server.stop()
    figures["total_s"] = round(time.monotonic() - began, 1)
