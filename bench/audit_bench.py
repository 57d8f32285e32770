"""How long ``domino db audit`` takes, and what signing an acta into its club's log costs.

For each database (a fresh SQLite file always; PostgreSQL with --pg URL or when
DOMINO_TEST_DATABASE_URL is set, in a scratch schema dropped afterwards): one club with its
key, N finished random parejas matches imported (each import signs its acta after commit, one
leaf and one head). Printed: the imports' time with and without the signing (the same logs
into a second club that has no key: their actas wait), the audit's wall time over every match
(chains, projections replayed, leaves and heads), per match and per event; and ``sign-due``
signing the waiting club's actas one by one (what a key put right costs).

    python bench/audit_bench.py [--pg URL] [--matches 300]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from migrations.runner import upgrade  # noqa: E402
from referee import write_log  # noqa: E402
from referee.core.log import make_log  # noqa: E402
from referee.core.simulate import random_match  # noqa: E402
from referee.service import Service  # noqa: E402
from referee.store.db import make_engine, scratch_schema  # noqa: E402

PLAYERS = ["Ana", "Beto", "Carla", "Dani"]


def run(url: str, count: int, name: str) -> None:
    service = Service(make_engine(url))
    upgrade(service.engine)
    for club in ("signed", "waiting"):
        service.clubs.create_club(club, club)
    service.keys.init("signed")
    rng = random.Random(1)
    logs = [write_log(make_log(*random_match("parejas", PLAYERS, rng))) for _ in range(count)]
    timed = {}
    for club in ("signed", "waiting"):
        start = time.perf_counter()
        for text in logs:
            service.recording.import_log(club, text)
        timed[club] = time.perf_counter() - start
    start = time.perf_counter()
    found = service.audit.run()
    audit = time.perf_counter() - start
    service.keys.init("waiting")
    start = time.perf_counter()
    signed, failed = service.transparency.sign_due("waiting")
    signing = time.perf_counter() - start
    assert not failed and len(signed) == count, failed
    print(f"{name}: {count} finished matches a club, {found.events // 2:,} events each club")
    print(f"  imports, acta signed after each:  {timed['signed'] * 1000 / count:7.2f} ms a match")
    print(f"  imports, no key (acta waits):     {timed['waiting'] * 1000 / count:7.2f} ms a match")
    print(f"  db audit over {found.matches} matches, {found.events:,} events, {found.leaves} "
          f"leaves, {found.heads} heads: {audit:.2f} s ({audit * 1000 / found.matches:.2f} ms "
          f"a match), {len(found.problems)} problems ({found.unsigned} unsigned)")
    print(f"  sign-due of {count} waiting actas: {signing:.2f} s "
          f"({signing * 1000 / count:.2f} ms an acta)")
    service.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pg", default=os.environ.get("DOMINO_TEST_DATABASE_URL"))
    parser.add_argument("--matches", type=int, default=300)
    args = parser.parse_args()
    os.environ.setdefault("DOMINO_KEYS_DIR", tempfile.mkdtemp(prefix="audit-bench-keys-"))
    with tempfile.TemporaryDirectory() as folder:
        run(f"sqlite:///{folder}/bench.db", args.matches, "SQLite")
    if args.pg:
        with scratch_schema(args.pg, prefix="bench") as url:
            run(url, args.matches, "PostgreSQL")


if __name__ == "__main__":
    main()
