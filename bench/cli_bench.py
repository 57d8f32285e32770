"""How long `domino` takes to start: a few commands timed as whole processes against the bare
interpreter.

Each command runs as a subprocess (spawn to exit, output thrown away), the commands taken in
turn round after round so that a busy machine slows them all alike; the table shows each one's
median and best wall-clock time and its median's ratio to the median of ``python -c pass`` (the
same interpreter, with the same site-packages); ``python -c 'import sqlalchemy'``, SQLAlchemy
Core's import alone, is the floor of any command on the database. ``match list`` runs on a
scratch SQLite database made with ``domino db upgrade`` and ``domino club create`` in a temp dir
(DOMINO_DATA_DIR; DOMINO_DATABASE_URL is unset for every command). Compiled modules are kept
in a scratch folder (PYTHONPYCACHEPREFIX; nothing is written beside the sources), as an installed
package has them, even where PYTHONDONTWRITEBYTECODE is set; --no-bytecode-cache times the
environment as it is. Goals: every command within 5x the bare interpreter; every database
command (``match list``, ``standings``) within 1.5x ``python -c 'import sqlalchemy'`` (the last
column: its median over that one's, from the same run).

``--baseline DIR`` times the database commands of another checkout too (DIR/.venv/bin/domino,
its own editable install: main beside a branch, say) in the same rounds, so that a change is
compared with the code before it in one run on a shared machine.

    python bench/cli_bench.py [--runs 15] [--no-bytecode-cache] [--baseline DIR]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOAL_RATIO = 5.0
DB_GOAL_RATIO = 1.5  # a database command against importing SQLAlchemy alone
FLOOR = "python -c 'import sqlalchemy'"
DATABASE_COMMANDS = ("domino match list --club x", "domino standings --club x")

sys.path.insert(0, str(Path(__file__).resolve().parent))
from validate_bench import domino_command  # noqa: E402  (how a user runs domino, shared)


def run(cmd: list[str], env: dict[str, str]) -> tuple[float, int, float]:
    """Wall-clock seconds, exit status, and CPU seconds (user and system) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, env=env, cwd=ROOT, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, done.returncode, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--no-bytecode-cache", action="store_true",
                        help="leave the environment's bytecode setting as it is")
    parser.add_argument("--baseline", type=Path, default=None, metavar="DIR",
                        help="another checkout whose .venv/bin/domino runs the database "
                             "commands too, in the same rounds")
    args = parser.parse_args()

    domino = domino_command()
    example = str(ROOT / "examples" / "parejas.jsonl")
    with tempfile.TemporaryDirectory(prefix="domino-cli-bench-") as data:
        env = {k: v for k, v in os.environ.items() if k != "DOMINO_DATABASE_URL"}
        env["DOMINO_DATA_DIR"] = data
        if not args.no_bytecode_cache:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "domino-bench-pycache")
        for setup in (["db", "upgrade"], ["club", "create", "x", "--name", "X"]):
            done = subprocess.run([*domino, *setup], env=env, cwd=ROOT, capture_output=True,
                                  text=True)
            if done.returncode != 0:
                sys.exit(f"domino {' '.join(setup)} failed:\n{done.stderr}")

        commands = {
            "python -c pass": [sys.executable, "-c", "pass"],
            # the floor of every database command: SQLAlchemy Core's own import
            FLOOR: [sys.executable, "-c", "import sqlalchemy"],
            "domino --help": [*domino, "--help"],
            "domino validate examples/parejas.jsonl": [*domino, "validate", example],
            "domino validate --json examples/parejas.jsonl": [*domino, "validate", "--json", example],
            "domino show examples/parejas.jsonl": [*domino, "show", example],
            "domino match list --club x": [*domino, "match", "list", "--club", "x"],
            "domino standings --club x": [*domino, "standings", "--club", "x"],
        }
        database_commands = list(DATABASE_COMMANDS)
        if args.baseline is not None:
            other = str(args.baseline.resolve() / ".venv" / "bin" / "domino")
            for name in DATABASE_COMMANDS:
                commands[f"baseline: {name}"] = [other, *commands[name][len(domino):]]
                database_commands.append(f"baseline: {name}")
        times: dict[str, list[float]] = {name: [] for name in commands}
        cpus: dict[str, list[float]] = {name: [] for name in commands}
        for name, cmd in commands.items():  # one untimed run each: warm the disk cache, check
            _, code, _ = run(cmd, env)
            if code != 0:
                sys.exit(f"{name} exited {code}")
        for _ in range(args.runs):
            for name, cmd in commands.items():
                wall, _, cpu = run(cmd, env)
                times[name].append(wall)
                cpus[name].append(cpu)

    base = statistics.median(times["python -c pass"])
    floor = statistics.median(times[FLOOR])
    floor_cpu = statistics.median(cpus[FLOOR])
    rows = []
    for name, samples in times.items():
        median = statistics.median(samples)
        rows.append((name, median * 1e3, min(samples) * 1e3, median / base,
                     median / floor if name in database_commands else None))
    # CPU time (user and system, median): what a busy machine stretches least
    cpu_rows = [(name, statistics.median(cpus[name]) * 1e3, statistics.median(cpus[name]) / floor_cpu)
                for name in database_commands]
    title = (f"start-up, {args.runs} runs each (goals: within {GOAL_RATIO:g}x python -c pass; "
             f"a database command within {DB_GOAL_RATIO:g}x {FLOOR})")
    caption = (f"{sys.executable} (Python {sys.version.split()[0]}); "
               + ("bytecode cached" if not args.no_bytecode_cache else
                  "bytecode as the environment has it"
                  + (" (PYTHONDONTWRITEBYTECODE: every start compiles the project's modules)"
                     if os.environ.get("PYTHONDONTWRITEBYTECODE") else "")))
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        print(title)
        print(caption)
        print(f"  {'command':<48} {'median ms':>9} {'best ms':>8} {'x bare':>7} {'x sqlalchemy':>12}")
        for name, median, best, ratio, db in rows:
            flag = "" if ratio <= GOAL_RATIO or name.startswith("python") else "  over"
            flag += "" if db is None or db <= DB_GOAL_RATIO else "  over (database)"
            shown = "" if db is None else f"{db:.2f}x"
            print(f"  {name:<48} {median:>9.1f} {best:>8.1f} {ratio:>6.1f}x {shown:>12}{flag}")
        _print_cpu(cpu_rows, statistics.median(cpus[FLOOR]) * 1e3)
        return
    table = Table(title=title, title_justify="left", caption=caption, caption_justify="left")
    for column in ("command", "median ms", "best ms", "x bare", "x sqlalchemy"):
        table.add_column(column, justify="left" if column == "command" else "right")
    for name, median, best, ratio, db in rows:
        over = ratio > GOAL_RATIO and not name.startswith("python")
        table.add_row(name, f"{median:.1f}", f"{best:.1f}",
                      f"[red]{ratio:.1f}x[/]" if over else f"{ratio:.1f}x",
                      "" if db is None else (f"[red]{db:.2f}x[/]" if db > DB_GOAL_RATIO
                                             else f"{db:.2f}x"))
    Console().print(table)
    _print_cpu(cpu_rows, statistics.median(cpus[FLOOR]) * 1e3)


def _print_cpu(rows: list[tuple[str, float, float]], floor_ms: float) -> None:
    print(f"CPU time (user + system, median), against {FLOOR}'s {floor_ms:.1f} ms "
          f"(goal: within {DB_GOAL_RATIO:g}x):")
    for name, ms, ratio in rows:
        flag = "" if ratio <= DB_GOAL_RATIO else "  over"
        print(f"  {name:<48} {ms:>8.1f} ms {ratio:>6.2f}x{flag}")


if __name__ == "__main__":
    main()
