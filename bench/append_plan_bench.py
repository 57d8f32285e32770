"""What the server spends on an append's plan: PostgreSQL's own CPU an append, custom plans (as
the service runs) against generic ones, on one connection.

The service's connections take custom plans only (``plan_cache_mode=force_custom_plan``,
``referee.store.db._libpq_args``: a generic plan made on a small table scans it for good), so
PostgreSQL plans the append's compare-and-set afresh each time. This sizes that cost, the
largest of an append's left on a quiet machine, before anyone builds a plan that is safe to keep:
appends ``Service.record_event`` onto one long match (one thread, a pool of one connection, no
scoreboard notices), in blocks that alternate the connection's ``plan_cache_mode`` between
``force_custom_plan`` and ``force_generic_plan`` (set for the session between blocks, the
generic only for this measure, on a fresh scratch schema), and prints for each the medians over
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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from store_bench import PLAYERS, RULES, long_matches  # noqa: E402 - the same long matches

from migrations.runner import upgrade  # noqa: E402
from referee.service import Service  # noqa: E402
from referee.store.db import make_engine, scratch_schema  # noqa: E402

MODES = ("force_custom_plan", "force_generic_plan")


def backend_cpu(pid: int) -> float:
    """CPU seconds (user and system) the process ``pid`` has spent."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(url: str, blocks: int, appends: int) -> dict[str, list[tuple[float, float, float]]]:
    engine = make_engine(url, pool_size=1)  # one connection: one backend to read
    service = Service(engine)
    upgrade(service.engine)
    service.notifier.enabled = False  # its batches would take a second connection
    service.clubs.create_club("bench", "Bench")
    events = long_matches(1, appends * (2 * blocks + 1), seed=1)[0]
    match_id = service.recording.create_match("bench", RULES, PLAYERS)["id"]
    with engine.connect() as conn:
        pid = conn.exec_driver_sql("SELECT pg_backend_pid()").scalar_one()
    seq = 0

    def block(mode: str) -> tuple[float, float, float]:
        nonlocal seq
        raw = engine.raw_connection()
        try:
            raw.driver_connection.autocommit = True
            raw.driver_connection.execute(f"SET plan_cache_mode = {mode}")
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
        block(MODES[0])  # the match past its first rounds, the statement prepared
        found: dict[str, list[tuple[float, float, float]]] = {mode: [] for mode in MODES}
        for _ in range(blocks):
            for mode in MODES:
                found[mode].append(block(mode))
        return found
    finally:
        engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pg", default=os.environ.get("DOMINO_TEST_DATABASE_URL"),
                        help="a PostgreSQL URL on this machine; default DOMINO_TEST_DATABASE_URL")
    parser.add_argument("--blocks", type=int, default=6, help="blocks of each mode")
    parser.add_argument("--appends", type=int, default=300, help="appends a block")
    args = parser.parse_args()
    if not args.pg:
        parser.error("a PostgreSQL URL: --pg or DOMINO_TEST_DATABASE_URL")
    with scratch_schema(args.pg, prefix="bench") as url:
        found = run(url, args.blocks, args.appends)
    print(f"{args.blocks} blocks of {args.appends} appends each way, in alternation "
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
