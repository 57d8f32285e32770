"""How fast the service records events, against what the database itself can insert.

For each database (a fresh SQLite file always; PostgreSQL with --pg URL or when
DOMINO_TEST_DATABASE_URL is set, in a scratch schema dropped afterwards):

- raw: single-row INSERTs of an event row, each its own transaction (autocommit: one round
  trip, one commit), straight through the DBAPI connection: the database's own ceiling for
  one-event appends;
- service: ``Service.record_event`` with an expected seq and a client event id (what the API
  does for ``POST /matches/{id}/events``), over long random legal matches; appends per second
  and the latency p50 and p99;
- the raw insert's round trip again with 1 ms of busy Python before each: on a virtual machine
  a round trip costs more after the client was busy (measured here: 1.2 ms back to back, 2.5 ms
  after 3 ms of Python), so an append's own Python costs it twice;
- the CPU (this process's, user and system) an append costs and a raw insert costs, medians
  over the blocks: what a machine shared with other work stretches least;
- on PostgreSQL running on this machine, the server's CPU an append and a raw insert too (its
  backends' user and system time, from ``/proc/PID/stat``, in clock ticks of 10 ms: medians
  over the blocks), and where an append's wall time goes: this process's CPU, the server's, and
  the rest (waiting: the round trip, the commit's flush, the scheduler);
- the ratio service/raw (goal on PostgreSQL: at least 0.5). The machine may be shared, so the
  work runs in blocks (one match each) with raw inserts measured before and after every block;
  each block's ratio is against the raw rate around it, and the median is printed;
- the cost of an append around seq 10 against one around seq 1,000 (medians over seqs 6-15 and
  996-1005 of every match, appended in alternation; goal: at most 1.3), both as the API sees
  it (the cached match) and on a cache miss (a service that has not seen the match: another
  worker, after a restart; this one replays the record, so it grows with the match).

    python bench/store_bench.py [--pg URL] [--matches 6] [--raw 1000] [--baseline DIR]

With ``--baseline DIR`` (DIR holding another copy of the ``referee`` package, say main's:
``git archive main referee | tar -x -C DIR``), each database is measured in child processes,
the baseline's code and this tree's in turn (``--rounds`` times each), and the CPU of an
append of each is printed side by side with the ratio of their medians: the figure a shared
machine stretches least, compared in one run.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import event

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
if "--referee-from" in sys.argv:  # a child of --baseline: the code to measure comes first
    sys.path.insert(0, sys.argv[sys.argv.index("--referee-from") + 1])

from migrations.runner import upgrade  # noqa: E402
from referee import store  # noqa: E402
from referee.core.simulate import random_match  # noqa: E402
from referee.service import Service  # noqa: E402
from referee.store.db import make_engine, scratch_schema  # noqa: E402

PLAYERS = ["Ana", "Beto"]
RULES = {"preset": "mano-a-mano", "target": 5000}  # long matches: thousands of events
EARLY, LATE = range(6, 16), range(996, 1006)
RAW_CPU: list[float] = []  # CPU seconds a raw insert, one a block of them
RAW_SERVER: list[float] = []  # the server's CPU seconds a raw insert, one a block of them


def backend_cpu(pid: int) -> float:
    """CPU seconds (user and system) the process ``pid`` (a PostgreSQL backend on this
    machine) has spent; 0 for one gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Backends:
    """The server processes of an engine's PostgreSQL connections, each noted as it connects
    (none on SQLite, nor when the server's processes are not this machine's): what they have
    spent in all (:meth:`cpu`)."""

    def __init__(self, engine: Any) -> None:
        self.pids: set[int] = set()
        if engine.dialect.name == "postgresql":
            event.listen(engine, "connect",
                         lambda dbapi, _record: self.pids.add(dbapi.info.backend_pid))

    def cpu(self) -> float | None:
        if not self.pids or not all(Path(f"/proc/{pid}").exists() for pid in self.pids):
            return None  # another machine's (or a pool's connection gone: not counted)
        return sum(backend_cpu(pid) for pid in self.pids)


def long_matches(count: int, events: int, seed: int) -> list[list[dict[str, Any]]]:
    out = []
    rng = random.Random(seed)
    while len(out) < count:
        _, evs = random_match(RULES, PLAYERS, rng, max_rounds=400)
        if len(evs) >= events:
            out.append(evs[:events])
    return out


def spin(seconds: float) -> None:
    """Keep the CPU busy for ``seconds``, as Python between two statements does."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def raw_insert_rate(service: Service, match_id: int, rows: int, start_seq: int,
                    gap: float = 0.0, backends: Backends | None = None) -> float:
    """Single-row inserts per second, each its own transaction, in autocommit (one round trip
    and one commit each): the least a database can do for one durable row. With ``gap``, the
    seconds of busy Python before each insert, and the rate counts only the inserts' time."""
    payload = store.dump_json({"type": "play", "seat": 0, "tile": "6-5"})
    now = store.utcnow()
    sqlite = service.engine.dialect.name == "sqlite"
    raw = service.engine.raw_connection()
    driver = raw.driver_connection
    try:
        if not sqlite:
            driver.autocommit = True  # the sqlite3 connection is in autocommit already
        cursor = raw.cursor()
        mark = "?" if sqlite else "%s"
        insert = (f"INSERT INTO events (match_id, seq, type, data, client_event_id, recorded_at,"
                  f" recorded_by, digest) VALUES ({', '.join([mark] * 8)})")
        stamp = now.isoformat() if sqlite else now
        digest = "0" * 64  # a row as wide as the service's (its chain link), not computed
        spent = 0.0
        cpu, server = time.process_time(), backends.cpu() if backends else None
        for seq in range(start_seq, start_seq + rows):
            if gap:
                spin(gap)
            began = time.perf_counter()
            cursor.execute(insert, (match_id, seq, "play", payload, f"raw-{seq}", stamp, "bench",
                                    digest))
            spent += time.perf_counter() - began
        if not gap:
            RAW_CPU.append((time.process_time() - cpu) / rows)
            if server is not None and (now_server := backends.cpu()) is not None:  # type: ignore[union-attr]
                RAW_SERVER.append((now_server - server) / rows)
        return rows / spent
    finally:
        if not sqlite:
            driver.autocommit = False
        raw.close()


def run(url: str, args: argparse.Namespace) -> dict[str, float]:
    engine = make_engine(url)
    backends = Backends(engine)  # before anything connects
    service = Service(engine)
    upgrade(service.engine)
    service.clubs.create_club("bench", "Bench")
    scratch = service.recording.create_match("bench", "mano-a-mano", PLAYERS)["id"]
    matches = long_matches(args.matches, LATE[-1], args.seed)

    def append(svc: Service, match_id: int, seq: int, event: Any, key: str) -> float:
        t0 = time.perf_counter()
        svc.recording.record_event(match_id, event, expected_seq=seq, client_event_id=key,
                         recorded_by="bench")
        return time.perf_counter() - t0

    # Throughput: every match recorded up to seq LATE[0] - 1, one append after another, one
    # match a block, with a block of raw inserts before and after each: the machine is shared
    # and drifts, so each block is compared with the raw rate measured around it.
    latencies: list[float] = []
    long_ids = []
    RAW_CPU.clear()
    RAW_SERVER.clear()
    raw_rates = [raw_insert_rate(service, scratch, args.raw, 1, backends=backends)]
    rates = []
    cpus = []  # CPU seconds an append, one a block
    servers = []  # the server's CPU seconds an append, one a block (PostgreSQL here)
    for n, evs in enumerate(matches):
        match_id = service.recording.create_match("bench", RULES, PLAYERS)["id"]
        long_ids.append(match_id)
        began, cpu, server = time.perf_counter(), time.process_time(), backends.cpu()
        for seq in range(LATE[0] - 1):
            latencies.append(append(service, match_id, seq, evs[seq], f"{n}-{seq}"))
        rates.append((LATE[0] - 1) / (time.perf_counter() - began))
        cpus.append((time.process_time() - cpu) / (LATE[0] - 1))
        if server is not None and (now_server := backends.cpu()) is not None:
            servers.append((now_server - server) / (LATE[0] - 1))
        raw_rates.append(raw_insert_rate(service, scratch, args.raw, 1 + args.raw * (n + 1),
                                         backends=backends))
    ratios = [rate / ((raw_rates[i] + raw_rates[i + 1]) / 2) for i, rate in enumerate(rates)]
    # The same raw insert with 1 ms of Python before each: on a virtual machine a round trip
    # costs more when the client was busy in between (the service's Python is), so this is
    # the database's share of an append's time, the rest being the service's own.
    gapped = raw_insert_rate(service, scratch, args.raw // 4, 1 + args.raw * (len(matches) + 1),
                             gap=0.001)

    # Early against late: a new copy of each match at seq EARLY[0] - 1 and the long one at
    # LATE[0] - 1, appended to in alternation, so that drift in the machine hits both alike.
    early: list[float] = []
    late: list[float] = []
    for n, evs in enumerate(matches):
        copy = service.recording.create_match("bench", RULES, PLAYERS)["id"]
        for seq in range(EARLY[0] - 1):
            append(service, copy, seq, evs[seq], f"c{n}-{seq}")
        for e_seq, l_seq in zip(EARLY, LATE):
            early.append(append(service, copy, e_seq - 1, evs[e_seq - 1], f"c{n}-{e_seq}"))
            late.append(append(service, long_ids[n], l_seq - 1, evs[l_seq - 1], f"{n}-{l_seq}"))

    # Cache misses: a service that has not seen the match (another worker), at both ends.
    cold_early: list[float] = []
    cold_late: list[float] = []
    for n in range(len(matches)):
        cold = Service(engine)  # another worker's
        cold_late.append(append(cold, long_ids[n], LATE[-1],
                                {"type": "note", "text": "cold"}, f"cold-late-{n}"))
        cold.notifier.flush()
        short = service.recording.create_match("bench", RULES, PLAYERS)["id"]
        for seq in range(10):
            append(service, short, seq, matches[n][seq], f"s{n}-{seq}")
        cold = Service(engine)
        cold_early.append(append(cold, short, 10, {"type": "note", "text": "cold"},
                                 f"cold-early-{n}"))
        cold.notifier.flush()
    service.notifier.flush()  # before the scratch schema goes
    engine.dispose()

    quantiles = statistics.quantiles(latencies, n=100)
    ms = 1000
    return {
        "raw": statistics.median(raw_rates), "rate": statistics.median(rates),
        "raw_gapped_ms": ms / gapped,
        "cpu_ms": statistics.median(cpus) * ms, "raw_cpu_ms": statistics.median(RAW_CPU) * ms,
        # -1: not measured (SQLite, or a server on another machine)
        "server_ms": statistics.median(servers) * ms if servers else -1,
        "raw_server_ms": statistics.median(RAW_SERVER) * ms if RAW_SERVER else -1,
        "ratio": statistics.median(ratios), "ratio_min": min(ratios), "ratio_max": max(ratios),
        "p50": quantiles[49] * ms, "p99": quantiles[98] * ms, "appends": len(latencies),
        "early": statistics.median(early) * ms, "late": statistics.median(late) * ms,
        "cold_early": statistics.median(cold_early) * ms,
        "cold_late": statistics.median(cold_late) * ms,
    }


def report(name: str, r: dict[str, float]) -> None:
    print(f"{name}: {r['appends']} appends through the service (medians over blocks)")
    print(f"  raw single-row inserts  {r['raw']:9.0f} /s")
    print(f"  raw insert round trip   {1000 / r['raw']:.2f} ms back to back, "
          f"{r['raw_gapped_ms']:.2f} ms after 1 ms of Python")
    print(f"  service appends         {r['rate']:9.0f} /s   ratio service/raw {r['ratio']:.2f}"
          f" (blocks {r['ratio_min']:.2f} to {r['ratio_max']:.2f})")
    print(f"  CPU of this process     {r['cpu_ms']:.3f} ms an append, {r['raw_cpu_ms']:.3f} ms a raw "
          f"insert (load average {', '.join(f'{x:.1f}' for x in os.getloadavg())})")
    if r["server_ms"] >= 0:
        wall = 1000 / r["rate"]
        print(f"  server CPU              {r['server_ms']:.3f} ms an append, "
              f"{r['raw_server_ms']:.3f} ms a raw insert")
        print(f"  an append's wall time   {wall:.3f} ms: this process's CPU {r['cpu_ms']:.3f}, the "
              f"server's {r['server_ms']:.3f}, the rest (waiting) "
              f"{wall - r['cpu_ms'] - r['server_ms']:.3f}")
    print(f"  append latency          p50 {r['p50']:.2f} ms   p99 {r['p99']:.2f} ms")
    print(f"  append at seq ~10       {r['early']:.2f} ms   at seq ~1000 {r['late']:.2f} ms"
          f"   ratio {r['late'] / r['early']:.2f}")
    print(f"  cache miss at seq 11    {r['cold_early']:.2f} ms   "
          f"at seq 1006 {r['cold_late']:.2f} ms   ratio {r['cold_late'] / r['cold_early']:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pg", default=os.environ.get("DOMINO_TEST_DATABASE_URL"),
                        help="a PostgreSQL URL (postgresql+psycopg://...); default "
                             "DOMINO_TEST_DATABASE_URL; a scratch schema is made and dropped")
    parser.add_argument("--matches", type=int, default=6)
    parser.add_argument("--raw", type=int, default=1000, help="raw inserts a block")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline", metavar="DIR",
                        help="a directory holding another copy of the referee package")
    parser.add_argument("--rounds", type=int, default=2,
                        help="with --baseline: runs of each copy, in turn")
    parser.add_argument("--referee-from", help=argparse.SUPPRESS)  # a child's code
    parser.add_argument("--only", choices=("sqlite", "postgresql"), help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.baseline:
        compare(args)
        return
    if args.only:  # a child of --baseline: one database, its figures as one JSON line
        if args.only == "sqlite":
            with tempfile.TemporaryDirectory() as directory:
                figures = run(f"sqlite:///{directory}/bench.db", args)
        else:
            with scratch_schema(args.pg, prefix="bench") as url:
                figures = run(url, args)
        print(json.dumps(figures))
        return
    with tempfile.TemporaryDirectory() as directory:
        report("SQLite", run(f"sqlite:///{directory}/bench.db", args))
    if args.pg:
        with scratch_schema(args.pg, prefix="bench") as url:
            report("PostgreSQL", run(url, args))


def compare(args: argparse.Namespace) -> None:
    """Each database measured with the baseline's code and this tree's in turn, in child
    processes; each copy's figures are the medians over its runs."""
    here = str(Path(__file__).resolve().parent.parent)
    copies = {"baseline": str(Path(args.baseline).resolve()), "this tree": here}
    databases = ["sqlite"] + (["postgresql"] if args.pg else [])
    for database in databases:
        found: dict[str, list[dict[str, float]]] = {name: [] for name in copies}
        for _ in range(args.rounds):
            for name, code in copies.items():
                command = [sys.executable, __file__, "--only", database, "--referee-from", code,
                           "--matches", str(args.matches), "--raw", str(args.raw),
                           "--seed", str(args.seed)]
                if args.pg:
                    command += ["--pg", args.pg]
                out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
                found[name].append(json.loads(out.strip().splitlines()[-1]))
        title = "SQLite" if database == "sqlite" else "PostgreSQL"
        print(f"{title}: {args.rounds} runs of each copy, in turn (medians over the runs)")
        cpu = {}
        for name, runs in found.items():
            cpu[name] = statistics.median(r["cpu_ms"] for r in runs)
            print(f"  {name:10s} CPU {cpu[name]:.3f} ms an append (runs: "
                  f"{', '.join(format(r['cpu_ms'], '.3f') for r in runs)}), raw insert "
                  f"{statistics.median(r['raw_cpu_ms'] for r in runs):.3f} ms; ratio service/raw "
                  f"{statistics.median(r['ratio'] for r in runs):.2f} (runs: "
                  f"{', '.join(format(r['ratio'], '.2f') for r in runs)}); seq ~1000 "
                  f"{statistics.median(r['late'] for r in runs):.2f} ms")
            if all(r["server_ms"] >= 0 for r in runs):
                print(f"  {'':10s} server CPU {statistics.median(r['server_ms'] for r in runs):.3f}"
                      f" ms an append, a raw insert "
                      f"{statistics.median(r['raw_server_ms'] for r in runs):.3f} ms")
        print(f"  CPU an append, this tree / baseline: {cpu['this tree'] / cpu['baseline']:.3f}"
              f" (load average {', '.join(f'{x:.1f}' for x in os.getloadavg())})")


if __name__ == "__main__":
    main()
