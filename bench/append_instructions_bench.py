"""Instructions an append costs through the service, counted by callgrind: the figure a shared,
noisy machine does not stretch, for comparing two copies of the code in one sitting.

Each copy of the ``referee`` package (this tree's, and with ``--baseline DIR`` another, say
main's: ``git archive main referee api cli words | tar -x -C DIR``) is run in a child process
under ``valgrind --tool=callgrind``: a fresh SQLite file (or, with ``--pg URL``, a scratch
schema dropped afterwards), one long ``mano-a-mano`` match to 5,000, the operator recording
with an expected seq and a client event id each (what the API does); ``--warm`` appends first
(imports, prepared statements, the first rounds), then ``--blocks`` blocks of ``--appends``
appends, callgrind dumping its counts before each block (``--dump-before=os_getppid``: the
child calls ``os.getppid()`` between blocks and nowhere else). The events are made once, here,
and handed to both copies, so the two run the very same appends.

    python bench/append_instructions_bench.py [--baseline DIR] [--pg URL] [--blocks 3]
        [--appends 200] [--warm 200]

It prints each block's instructions an append and their median for each copy, and this copy's
median over the baseline's. The blocks of one copy agree within about 1 %; a difference
smaller than that is noise. A block that costs 15 to 25 % more than its neighbours, in either
copy, has happened (a periodic cost of the process's: on PostgreSQL likely the notification
batches' thread): the median passes it by.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PLAYERS = ["Ana", "Beto"]
RULES = {"preset": "mano-a-mano", "target": 5000}


def child(args: argparse.Namespace) -> None:
    """Under callgrind: the appends, the counts dumped before each block."""
    sys.path.insert(0, str(ROOT))  # migrations (not part of a copy), then the copy measured
    sys.path.insert(0, args.referee_from)
    import referee
    from migrations.runner import upgrade
    from referee.service import Service
    from referee.store.db import make_engine, scratch_schema

    if not Path(referee.__file__).resolve().is_relative_to(Path(args.referee_from).resolve()):
        raise SystemExit(f"referee imported from {referee.__file__}, not {args.referee_from}")
    events = json.loads(Path(args.events).read_text())

    def run(url: str) -> None:
        engine = make_engine(url)
        service = Service(engine)
        upgrade(service.engine)
        service.clubs.create_club("bench", "Bench")
        match_id = service.recording.create_match("bench", RULES, PLAYERS)["id"]

        def append(seq: int) -> None:
            service.recording.record_event(match_id, events[seq], expected_seq=seq,
                                           client_event_id=f"k{seq}", recorded_by="bench")

        try:
            for seq in range(args.warm):
                append(seq)
            for block in range(args.blocks):
                os.getppid()  # callgrind dumps the counts so far: the next block starts clean
                start = args.warm + block * args.appends
                for seq in range(start, start + args.appends):
                    append(seq)
            os.getppid()
        finally:
            service.notifier.flush()
            engine.dispose()

    if args.pg:
        with scratch_schema(args.pg, prefix="bench") as url:
            run(url)
    else:
        with tempfile.TemporaryDirectory() as folder:
            run(f"sqlite:///{Path(folder) / 'domino.db'}")


def measure(code: Path, events: Path, out: Path, args: argparse.Namespace) -> list[float]:
    """Instructions an append, block by block, of the copy of the code in ``code``."""
    out.mkdir(parents=True)
    command = ["valgrind", "--tool=callgrind", "--dump-before=os_getppid",
               f"--callgrind-out-file={out / 'callgrind.out.%p'}", sys.executable, __file__,
               "--child", "--referee-from", str(code), "--events", str(events),
               "--blocks", str(args.blocks), "--appends", str(args.appends),
               "--warm", str(args.warm)] + (["--pg", args.pg] if args.pg else [])
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"the run of {code} failed:\n{done.stderr[-3000:]}")
    # callgrind.out.PID.1 is the start-up and the warm appends; .2 ... the blocks, in order
    dumps = sorted((p for p in out.iterdir() if p.suffix.lstrip(".").isdigit()),
                   key=lambda p: int(p.suffix[1:]))
    blocks = []
    for dump in dumps[1:args.blocks + 1]:
        for line in dump.read_text(errors="replace").splitlines():
            if line.startswith("summary:"):
                blocks.append(int(line.split()[1]) / args.appends)
                break
    if len(blocks) != args.blocks:
        raise SystemExit(f"found {len(blocks)} blocks of {args.blocks} in {out}")
    return blocks


def long_match(events: int, seed: int) -> list[Any]:
    sys.path.insert(0, str(ROOT))
    import random

    from referee.core.simulate import random_match

    rng = random.Random(seed)
    while True:
        _, evs = random_match(RULES, PLAYERS, rng, max_rounds=400)
        if len(evs) >= events:
            return evs[:events]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", metavar="DIR",
                        help="a folder holding another copy of the referee package")
    parser.add_argument("--pg", metavar="URL", help="PostgreSQL (a scratch schema), not SQLite")
    parser.add_argument("--blocks", type=int, default=3)
    parser.add_argument("--appends", type=int, default=200, help="appends a block")
    parser.add_argument("--warm", type=int, default=200, help="appends before the first block")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--referee-from", help=argparse.SUPPRESS)
    parser.add_argument("--events", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed: this bench counts instructions with callgrind")
    if args.blocks < 1 or args.appends < 1 or args.warm < 0:
        raise SystemExit("--blocks and --appends take at least 1, --warm at least 0")
    copies = [("this tree", ROOT)]
    if args.baseline:
        if not (Path(args.baseline) / "referee" / "__init__.py").is_file():
            raise SystemExit(f"{args.baseline} holds no referee package")
        copies.insert(0, ("baseline", Path(args.baseline)))
    with tempfile.TemporaryDirectory() as folder:
        events = Path(folder) / "events.json"
        events.write_text(json.dumps(long_match(args.warm + args.blocks * args.appends,
                                                args.seed)))
        found = {}
        for n, (name, code) in enumerate(copies):
            found[name] = measure(code, events, Path(folder) / f"copy{n}", args)
    where = "PostgreSQL" if args.pg else "SQLite"
    print(f"instructions an append through the service, {where}, blocks of {args.appends} "
          f"after {args.warm} (callgrind)")
    for name, blocks in found.items():
        print(f"  {name:<10} median {statistics.median(blocks) / 1e6:.4f} million  (blocks "
              f"{', '.join(f'{b / 1e6:.4f}' for b in blocks)})")
    if args.baseline:
        ratio = statistics.median(found["this tree"]) / statistics.median(found["baseline"])
        print(f"  this tree / baseline: {ratio:.4f}")


if __name__ == "__main__":
    main()
