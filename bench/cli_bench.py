"""How long `domino` takes to start: a few commands timed as whole processes against the bare
interpreter.

Each command runs as a subprocess (spawn to exit, output thrown away), the commands taken in
turn round after round, forward in one round and backward in the next, so that a busy machine
slows them all alike and no command always follows the same one; the table shows each one's
median and best wall-clock time and its median's ratio to the median of ``python -c pass`` (the
same interpreter, with the same site-packages); ``python -c 'import sqlalchemy'``, SQLAlchemy
Core's import alone, is the floor of any command on the database. ``match list`` runs on a
scratch SQLite database made with ``domino db upgrade`` and ``domino club create`` in a temp dir.
Goals: every command within 5x the bare interpreter; every database command (``match list``,
``standings``) within 1.5x ``python -c 'import sqlalchemy'`` in CPU time (user and system, from
the children's rusage): each round's command over the floor of the same round, the median of
those ratios, with their quartiles and each half of the run's median, so that one run says how
far it can be trusted.

Both sides on the same terms:
- The environment is pinned, the floor's and the commands' alike: the caller's without its
  PYTHON*, locale and DOMINO_* settings (a PYTHONPATH, a PYTHONHASHSEED, a language would change
  what a process imports or does), LANG=C.UTF-8, DOMINO_DATA_DIR the scratch folder.
- Compiled modules are kept in the run's own scratch folder (PYTHONPYCACHEPREFIX; nothing is
  written beside the sources, and no other process writes there), as an installed package has
  them, even where PYTHONDONTWRITEBYTECODE is set; --no-bytecode-cache times the environment as
  it is (with PYTHONDONTWRITEBYTECODE set, the floor loads SQLAlchemy from site-packages'
  caches while the commands compile the project's modules at every start: not the goal's
  measure, and the run says so). ``--warmup`` untimed rounds of every
  command come first (default 2): every module of either side compiled into that folder, every
  file read once, the database opened. Then one run of each side under ``python -v`` must load
  every module from the folder (else NOT ON EQUAL TERMS), and no module may be compiled while
  timed (else NOT A FAIR RUN: a source changed under the bench, a landing on the checkout).
  A listing that compiles its modules at every start costs 1.6x the floor, not 1.4x
  (docs/performance.md, 7 December 05:00-06:00: why a first run looked dearer).

``--baseline DIR`` times the database commands of another checkout too (DIR/.venv/bin/domino,
its own editable install: main beside a branch, say) in the same rounds, so that a change is
compared with the code before it in one run on a shared machine.

    python bench/cli_bench.py [--runs 15] [--warmup 2] [--no-bytecode-cache] [--baseline DIR]
"""

from __future__ import annotations

import argparse
import os
import re
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
COMPILED = re.compile(r"^# code object from (\S+\.py)$", re.MULTILINE)
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


def pinned_env(data: str, pycache: Path | None) -> dict[str, str]:
    """The environment of every timed process, the floor's and the commands' alike: the caller's
    without its Python, locale and domino settings (PYTHONPATH, PYTHONHASHSEED, a language...,
    any of which changes what a process imports or how), English, and the bytecode cache."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTHON", "DOMINO_", "LC_")) and k not in ("LANG", "LANGUAGE")}
    env["LANG"] = "C.UTF-8"
    env["DOMINO_DATA_DIR"] = data
    if pycache is None:  # --no-bytecode-cache: the caller's bytecode setting
        if os.environ.get("PYTHONDONTWRITEBYTECODE"):
            env["PYTHONDONTWRITEBYTECODE"] = os.environ["PYTHONDONTWRITEBYTECODE"]
    else:
        env["PYTHONPYCACHEPREFIX"] = str(pycache)
    return env


def compiled(pycache: Path | None) -> dict[str, int]:
    """Each compiled module in the cache and its file's mtime (ns): what a run wrote shows."""
    if pycache is None or not pycache.exists():
        return {}
    return {str(p): p.stat().st_mtime_ns for p in pycache.rglob("*.pyc")}


def compiled_at_start(cmd: list[str], env: dict[str, str]) -> list[str]:
    """The modules one run of ``cmd`` compiles from their source rather than load from a cache
    (``python -v`` says "code object from" the .py file itself, not its .pyc)."""
    done = subprocess.run(cmd, env={**env, "PYTHONVERBOSE": "1"}, cwd=ROOT,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return COMPILED.findall(done.stderr)


def round_order(names: list[str], round_: int) -> list[str]:
    """Forward in even rounds, backward in odd ones: no command always runs after the same one,
    and each is as often early as late in a round."""
    return names if round_ % 2 == 0 else names[::-1]


def paired_ratios(cpus: dict[str, list[float]], name: str) -> list[float]:
    """A command's CPU over the floor's in each round: both taken within seconds of each other."""
    return [mine / floor for mine, floor in zip(cpus[name], cpus[FLOOR])]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--warmup", type=int, default=2,
                        help="untimed rounds of every command first (default 2)")
    parser.add_argument("--no-bytecode-cache", action="store_true",
                        help="leave the environment's bytecode setting as it is")
    parser.add_argument("--baseline", type=Path, default=None, metavar="DIR",
                        help="another checkout whose .venv/bin/domino runs the database "
                             "commands too, in the same rounds")
    args = parser.parse_args()

    domino = domino_command()
    example = str(ROOT / "examples" / "parejas.jsonl")
    with tempfile.TemporaryDirectory(prefix="domino-cli-bench-") as scratch:
        # the run's own bytecode folder: no other process writes there while it is timed
        pycache = None if args.no_bytecode_cache else Path(scratch) / "pycache"
        data = str(Path(scratch) / "data")
        os.mkdir(data)
        env = pinned_env(data, pycache)
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
        # Untimed rounds first: every module compiled into the cache, every file in the page
        # cache, the scratch database opened, before either side is timed.
        for _ in range(args.warmup):
            for name, cmd in commands.items():
                _, code, _ = run(cmd, env)
                if code != 0:
                    sys.exit(f"{name} exited {code}")
        unfair = {name: found for name in (FLOOR, *database_commands)
                  if (found := compiled_at_start(commands[name], env))}
        warm = compiled(pycache)
        for round_ in range(args.runs):
            for name in round_order(list(commands), round_):
                wall, _, cpu = run(commands[name], env)
                times[name].append(wall)
                cpus[name].append(cpu)
        written = compiled(pycache).items() - warm.items()

    base = statistics.median(times["python -c pass"])
    floor = statistics.median(times[FLOOR])
    rows = []
    for name, samples in times.items():
        median = statistics.median(samples)
        rows.append((name, median * 1e3, min(samples) * 1e3, median / base,
                     median / floor if name in database_commands else None))
    # CPU time (user and system): what a busy machine stretches least; the ratio of each
    # round's pair, so that the load's drift over the run moves both sides of each ratio alike
    cpu_rows = [(name, statistics.median(cpus[name]) * 1e3, paired_ratios(cpus, name))
                for name in database_commands]
    title = (f"start-up, {args.runs} runs each (goals: within {GOAL_RATIO:g}x python -c pass; "
             f"a database command within {DB_GOAL_RATIO:g}x {FLOOR})")
    caption = (f"{sys.executable} (Python {sys.version.split()[0]}); {args.warmup} untimed "
               "round(s) first; "
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
    else:
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
    for name, found in unfair.items():
        print(f"NOT ON EQUAL TERMS: {name} compiles {len(found)} module(s) at every start "
              f"(e.g. {found[0]})")
    if written:
        print(f"NOT A FAIR RUN: {len(written)} module(s) compiled while timed "
              f"(e.g. {min(written)[0]}): a source changed under the bench")


def _print_cpu(rows: list[tuple[str, float, list[float]]], floor_ms: float) -> None:
    print(f"CPU time (user + system), against {FLOOR}'s {floor_ms:.1f} ms (median); the ratio is "
          f"the median of each round's pair, its quartiles, and the median of the first and "
          f"the second half of the rounds (goal: within {DB_GOAL_RATIO:g}x):")
    for name, ms, ratios in rows:
        median = statistics.median(ratios)
        low, _, high = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else (median,) * 3
        half = len(ratios) // 2
        halves = (f"; halves {statistics.median(ratios[:half]):.2f}x, "
                  f"{statistics.median(ratios[half:]):.2f}x" if half else "")
        flag = "" if median <= DB_GOAL_RATIO else "  over"
        print(f"  {name:<48} {ms:>8.1f} ms {median:>6.2f}x  (quartiles {low:.2f}x-{high:.2f}x"
              f"{halves}){flag}")


if __name__ == "__main__":
    main()
