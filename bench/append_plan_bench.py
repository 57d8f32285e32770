"""What the server spends on an append's plan: PostgreSQL's own CPU an append, on one connection,
the way the service runs it against the statement it replaced.

The service's connections take custom plans only (``plan_cache_mode=force_custom_plan``,
``referee.store.db._libpq_args``: a generic plan made on a small table scans it for good).
Since migration 0028 one event is appended by the procedure ``append_event``, whose statement
keeps generic plans that cannot scan (``referee.store.events``); before it PostgreSQL planned
the compare-and-set, and the foreign key's check of the match, afresh each time. This appends
``Service.record_event`` onto one long match (one thread, a pool of one connection, no
scoreboard notices), in blocks that alternate three ways: ``procedure`` (as the service runs),
``statement`` (the statement itself, ``events._cas_insert(1)``, under the session's custom
plans: the code before 0028) and ``statement, generic`` (the same with the session's
``plan_cache_mode`` set to ``force_generic_plan`` between blocks, only for this measure, on a
fresh scratch schema: what no scan-proof plan could beat), and prints for each the medians over
the blocks of the server backend's CPU an append (user and system, from its
``/proc/PID/stat``: the database must run on this machine), this process's CPU and the wall
time. The backend's CPU is in clock ticks (10 ms): the blocks are long for that.

    python bench/append_plan_bench.py [--pg URL] [--blocks 6] [--appends 300]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import namedtuple
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from store_bench import PLAYERS, RULES, backend_cpu, long_matches  # noqa: E402 - the same long matches

from migrations.runner import upgrade  # noqa: E402
from referee.service import Service  # noqa: E402
from referee.store import events as store_events  # noqa: E402
from referee.store.db import make_engine, scratch_schema  # noqa: E402
from referee.store.driver import DriverStatement  # noqa: E402


class _Statement(DriverStatement):
    """The statement itself, its rows read as the procedure's: ``stored``, None for none."""

    def rows(self, conn: Any, params: dict[str, Any]) -> list[Any]:
        return [_Stored(r.seq) for r in super().rows(conn, params)] or [_Stored(None)]


_Stored = namedtuple("_Stored", "stored")

# Each way: the statement an append runs, and the session's plan_cache_mode.
PROCEDURE = store_events.append_event_statement()
STATEMENT = _Statement(store_events._cas_insert(1))
MODES = {"procedure": (PROCEDURE, "force_custom_plan"),
         "statement": (STATEMENT, "force_custom_plan"),
         "statement, generic": (STATEMENT, "force_generic_plan")}


def run(url: str, blocks: int, appends: int) -> dict[str, list[tuple[float, float, float]]]:
    engine = make_engine(url, pool_size=1)  # one connection: one backend to read
    service = Service(engine)
    upgrade(service.engine)
    service.notifier.enabled = False  # its batches would take a second connection
    service.clubs.create_club("bench", "Bench")
    events = long_matches(1, appends * len(MODES) * (blocks + 1), seed=1)[0]
    match_id = service.recording.create_match("bench", RULES, PLAYERS)["id"]
    with engine.connect() as conn:
        pid = conn.exec_driver_sql("SELECT pg_backend_pid()").scalar_one()
    seq = 0

    def block(mode: str) -> tuple[float, float, float]:
        nonlocal seq
        statement, plans = MODES[mode]
        store_events._APPEND_EVENT = statement
        raw = engine.raw_connection()
        try:
            raw.driver_connection.autocommit = True
            raw.driver_connection.execute(f"SET plan_cache_mode = {plans}")
            raw.driver_connection.autocommit = False
        finally:
            raw.close()
        server, client, wall = backend_cpu(pid), time.process_time(), time.perf_counter()
        for _ in range(appends):
            service.recording.record_event(match_id, events[seq], expected_seq=seq,
                                           client_event_id=f"k{seq}", recorded_by="bench")
            seq += 1
        ms = 1000 / appends
        return ((backend_cpu(pid) - server) * ms, (time.process_time() - client) * ms,
                (time.perf_counter() - wall) * ms)

    try:
        for mode in MODES:  # the match past its first rounds, each statement prepared
            block(mode)
        found: dict[str, list[tuple[float, float, float]]] = {mode: [] for mode in MODES}
        for _ in range(blocks):
            for mode in MODES:
                found[mode].append(block(mode))
        return found
    finally:
        store_events._APPEND_EVENT = PROCEDURE
        engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pg", default=os.environ.get("DOMINO_TEST_DATABASE_URL"),
                        help="a PostgreSQL URL on this machine; default DOMINO_TEST_DATABASE_URL")
    parser.add_argument("--blocks", type=int, default=6, help="blocks of each mode")
    parser.add_argument("--appends", type=int, default=200, help="appends a block")
    args = parser.parse_args()
    if not args.pg:
        parser.error("a PostgreSQL URL: --pg or DOMINO_TEST_DATABASE_URL")
    with scratch_schema(args.pg, prefix="bench") as url:
        found = run(url, args.blocks, args.appends)
    print(f"{args.blocks} blocks of {args.appends} appends each way, in turn "
          f"(medians over the blocks; load average "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())})")
    for mode, blocks in found.items():
        server = [b[0] for b in blocks]
        print(f"  {mode:18s} server CPU {statistics.median(server):.3f} ms an append (blocks "
              f"{', '.join(format(s, '.3f') for s in server)}), this process "
              f"{statistics.median(b[1] for b in blocks):.3f} ms, wall "
              f"{statistics.median(b[2] for b in blocks):.2f} ms")


if __name__ == "__main__":
    main()
