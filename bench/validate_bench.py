"""How fast the referee validates whole matches, in process and as a whole `domino validate`.

Builds a corpus of random legal matches for every preset (open and closed recording), writes
them as domino-log/1 text, and times the referee over them: from text (what `domino validate`
does: parse, replay, report) and from already-parsed events (the replay alone).

Then it compares whole processes with the `dominoes` package (PyPI, 6.1.0), whose
``Game.make_move`` checks every move: ``domino validate`` over N log files against a small
driver that replays the same N games with that package, each timed by the wall clock from
process start to exit (interpreter start-up, imports, reading the files, the replay, the
output). The package goes into a scratch venv under the temp dir, kept there keyed by its
version and the Python version, so reruns are fast; it is no dependency of the product. With
no package index to install it from, the comparison says why and is skipped (exit 0). Both
sides run with compiled modules cached in a scratch folder (PYTHONPYCACHEPREFIX), as installed
packages have them, even where PYTHONDONTWRITEBYTECODE is set (--no-bytecode-cache: as is).
A last row times the referee core alone in a bare script (no CLI): the floor for the CLI.

With ``--baseline DIR`` (the folder holding another copy of the ``referee`` package, say
``git archive main referee | tar -x -C DIR``), the in-process rows are measured for that copy
and for this one, in child processes taken in turn, on the same corpus files, and printed side
by side: a change is compared with what it changes in one run. ``--callgrind`` counts each
child's instructions with valgrind's callgrind instead of timing it (PYTHONHASHSEED=0, compiled
modules cached): the same count on every run, whatever else the machine is doing.

The same games: the package plays one game (``dominoes.Series``: four seats in two teams,
the double-six set dealt seven each, no boneyard, the holder of [6|6] opens the first game,
later games opened by the player its rule names with any tile, every domino scores all the
pips left, a stuck game's lower team scores both teams' pips, a tie scores nothing, a series
is won at 200). That is exactly the referee's ``puerto-rico`` preset, so the corpus is random
``puerto-rico`` matches recorded in the open, notes left out. The driver reads each log
(``json.loads`` a line), deals each round's recorded hands into the package (it patches
``dominoes.game._randomized_hands``, the package's only source of hands, to hand out the
recorded deal), lets ``Series`` start every game (so the package itself chooses the opener and
plays the forced [6|6]), makes every recorded play with ``Game.make_move``, checks each
recorded pass against the passes the package records itself, and scores with
``Series.next_game``. Before timing, the bench checks that the driver's final scores equal the
referee's totals for every file.

    python bench/validate_bench.py [--matches 400] [--seed 1] [--runs 5] [--files 200]
                                   [--no-bytecode-cache] [--no-compare]
                                   [--baseline DIR [--callgrind]]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from referee import build_report, read_log, replay
from referee.core.family import HANDS, Family, family_of
from referee.core.simulate import random_match

TABLES = [("mano-a-mano", 2), ("parejas", 4), ("veracruz", 2), ("veracruz", 3), ("veracruz", 4),
          ("sircle", 2), ("puerto-rico", 4)]

# The points family's presets (scoring during play), at every seat count each allows: their
# corpus is timed beside the seeds' (the goal: no more cost per event).
POINTS_TABLES = [("fives-and-threes", 2), ("fives-and-threes", 3), ("fives-and-threes", 4),
                 ("all-fives", 2), ("all-fives", 3), ("all-fives", 4), ("muggins", 2),
                 ("muggins", 3), ("muggins", 4)]

DOMINOES_VERSION = "6.1.0"
GOAL_RATIO = 5.0  # `domino validate` should run at least this many times the package's speed

DRIVER = r'''
"""Replay domino-log/1 files of puerto-rico matches with the `dominoes` package; print one
{"file", "scores", "games", "over"} line per file. Exit 1 on the first move the package refuses."""

import json
import sys

import dominoes
import dominoes.game

_deal = None
dominoes.game._randomized_hands = lambda: _deal  # the package deals the recorded hands


_tiles = {}  # "6-3" -> Domino(6, 3), made once


def _tile(text):
    d = _tiles.get(text)
    if d is None:
        a, b = text.split("-")
        d = _tiles[text] = dominoes.Domino(int(a), int(b))
    return d


def replay(path):
    global _deal
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    header = json.loads(lines[0])
    assert header["rules"] == "puerto-rico" and len(header["players"]) == 4, path
    series = game = None
    done = 0  # how many of game.moves the log has accounted for
    for number, line in enumerate(lines[1:], start=2):
        event = json.loads(line)
        kind = event["type"]
        if kind == "play":
            d = _tile(event["tile"])
            if done < len(game.moves):  # the package made the forced opening itself
                assert game.moves[done][0] == d, (path, number)
            else:
                assert event["seat"] == game.turn, (path, number, "not this seat's turn")
                board = game.board
                if len(board) == 0:
                    left = True
                else:
                    end = event.get("end")
                    left = board.left_end() in d if end is None else end == board.left_end()
                game.make_move(d, left)
            done += 1
        elif kind == "pass":
            assert done < len(game.moves) and game.moves[done] is None, (path, number, "no pass")
            done += 1
        elif kind == "deal":
            _deal = [dominoes.Hand([_tile(t) for t in hand]) for hand in event["hands"]]
            if series is None:
                series = dominoes.Series(starting_domino=dominoes.Domino(6, 6))
            else:
                assert series.next_game() is not None, (path, number, "deal after the series")
            game = series.games[-1]
            done = 0
        else:
            raise AssertionError((path, number, f"unexpected event {kind!r}"))
    series.next_game()  # scores the last game
    return {"file": path, "scores": series.scores, "games": len(series.games),
            "over": series.is_over()}


for path in sys.argv[1:]:
    print(json.dumps(replay(path)))
'''


# what `domino validate --json` does with no CLI around it: the floor the CLI can reach
CORE_ONLY = """
import json, sys
from referee.core import build_report, read_log
from referee.core.replay import replay
for path in sys.argv[1:]:
    with open(path, "rb") as f:
        log = read_log(f.read())
    print(json.dumps(build_report(replay(log.header.rules, log.header.players, log.events))))
"""


def corpus(matches: int, seed: int, tables: list[tuple[str, int]] = TABLES) -> list[str]:
    rng = random.Random(seed)
    texts = []
    for i in range(matches):
        preset, seats = tables[i % len(tables)]
        players = [f"P{s}" for s in range(seats)]
        hidden = list(range(seats)) if i % 3 == 0 else ()
        header, events = random_match(preset, players, rng, hidden=hidden)
        texts.append("".join(json.dumps(v) + "\n" for v in (header, *events)))
    return texts


def twins(matches: int, seed: int) -> tuple[list[str], list[str]]:
    """The same games as open recordings and as closed ones (every seat hidden)."""
    opened, closed = [], []
    for i in range(matches):
        preset, seats = TABLES[i % len(TABLES)]
        players = [f"P{s}" for s in range(seats)]
        for hidden, out in (((), opened), (tuple(range(seats)), closed)):
            header, events = random_match(preset, players, random.Random(seed * 100_003 + i),
                                          hidden=hidden)
            out.append("".join(json.dumps(v) + "\n" for v in (header, *events)))
    return opened, closed


def validate_texts(texts: list[str]) -> None:
    for text in texts:
        log = read_log(text)
        build_report(replay(log.header.rules, log.header.players, log.events))


def best_of(runs: int, work) -> float:
    """The least CPU time of ``runs`` runs of ``work`` (this process's: on a machine shared
    with other work, the wall clock also counts the time spent waiting for a core, which made
    the closed-twin ratio swing by a third from one run to the next)."""
    times = []
    for _ in range(runs):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return min(times)


def in_process(args: argparse.Namespace) -> None:
    texts = corpus(args.matches, args.seed)
    logs = [read_log(t) for t in texts]
    events = sum(len(log.events) for log in logs)
    print(f"corpus: {len(logs)} matches, {events} events "
          f"({events / len(logs):.0f} per match on average)")

    def from_text() -> None:
        for text in texts:
            log = read_log(text)
            build_report(replay(log.header.rules, log.header.players, log.events))

    def replay_only() -> None:
        for log in logs:
            replay(log.header.rules, log.header.players, log.events)

    # The same replay with push_all's run of moves turned off (referee.core.fastpath, a
    # hand-made copy of the move judges and appliers): every event judged by its kind's judge
    # and applied by its applier. What the copy is worth.
    slow = Family(HANDS.name, HANDS.layout, HANDS.scoring, fast=False)

    def replay_slow() -> None:
        for log in logs:
            replay(log.header.rules, log.header.players, log.events, family=slow)

    t_text = best_of(args.runs, from_text)
    t_replay = best_of(args.runs, replay_only)
    t_slow = best_of(args.runs, replay_slow)
    print(f"validate from text (parse + replay + report): {events / t_text:,.0f} events/s")
    print(f"replay of parsed events:                      {events / t_replay:,.0f} events/s")
    print(f"  the same, the run of moves off (slow path): {events / t_slow:,.0f} events/s "
          f"(the run {t_slow / t_replay:.2f}x as fast)")

    # The closed twin of an open corpus: the same games, recorded as a table sees them (hands
    # null, draws unseen, reveals after each round), so that hindsight has every pass to reason
    # about. The goal: validating the twin costs at most twice the open corpus.
    opened, closed = twins(args.matches, args.seed)
    t_open = best_of(args.runs, lambda: validate_texts(opened))
    t_closed = best_of(args.runs, lambda: validate_texts(closed))
    print(f"open corpus ({len(opened)} matches) validated from text:  {t_open * 1e3:,.0f} ms")
    print(f"its closed twin, hindsight included:               {t_closed * 1e3:,.0f} ms "
          f"({t_closed / t_open:.2f}x the open one; goal at most 2x)")

    # The points family (Fives and Threes, All Fives, Muggins: the open ends counted after
    # every play), its own corpus of the same size and mix of open and closed recordings,
    # against the seeds' corpus above: the goal, no more cost per event.
    points = corpus(args.matches, args.seed, POINTS_TABLES)
    points_events = sum(len(read_log(t).events) for t in points)
    t_points = best_of(args.runs, lambda: validate_texts(points))
    seeds_cost, points_cost = t_text / events * 1e6, t_points / points_events * 1e6
    print(f"points family ({len(points)} matches, {points_events} events) from text: "
          f"{points_events / t_points:,.0f} events/s, {points_cost:.1f} us an event against "
          f"the seeds' {seeds_cost:.1f} ({points_cost / seeds_cost:.2f}x; goal at most 1x)")
    # each preset of the family on its own (its share of the corpus above), against the seeds'
    for preset in dict.fromkeys(name for name, _ in POINTS_TABLES):
        own = [text for i, text in enumerate(points)
               if POINTS_TABLES[i % len(POINTS_TABLES)][0] == preset]
        own_events = sum(text.count("\n") - 1 for text in own)
        t_own = best_of(args.runs, lambda own=own: validate_texts(own))
        cost = t_own / own_events * 1e6
        print(f"  {preset} ({len(own)} matches, {own_events} events): {cost:.1f} us an event "
              f"({cost / seeds_cost:.2f}x the seeds')")
    # its replay alone, with its run of moves (referee.core.fastpath.run_counted) and without
    points_logs = [read_log(t) for t in points]
    slow_families = {}

    def points_replay(off: bool) -> None:
        for log in points_logs:
            rules = log.header.rules
            family = None
            if off:
                own = family_of(rules)
                family = slow_families.get(own.layout)
                if family is None:
                    family = slow_families[own.layout] = Family(own.name, own.layout,
                                                                own.scoring, fast=False)
            replay(rules, log.header.players, log.events, family=family)

    t_points_replay = best_of(args.runs, lambda: points_replay(False))
    t_points_slow = best_of(args.runs, lambda: points_replay(True))
    print(f"  its replay of parsed events:                {points_events / t_points_replay:,.0f} "
          f"events/s, {t_points_replay / points_events * 1e6:.1f} us an event against the "
          f"seeds' {t_replay / events * 1e6:.1f}")
    print(f"  the same, the run of moves off (slow path): {points_events / t_points_slow:,.0f} "
          f"events/s (the run {t_points_slow / t_points_replay:.2f}x as fast)")

    # one 200-event match, the size of a long club game
    rng = random.Random(args.seed)
    while True:
        header, evs = random_match("veracruz", ["A", "B", "C"], rng)
        if len(evs) >= 200:
            break
    text = "".join(json.dumps(v) + "\n" for v in (header, *evs[:200]))
    samples = []
    for _ in range(200):
        start = time.perf_counter()
        log = read_log(text)
        build_report(replay(log.header.rules, log.header.players, log.events))
        samples.append(time.perf_counter() - start)
    print(f"one 200-event match from text: median {statistics.median(samples) * 1e3:.3f} ms, "
          f"best {min(samples) * 1e3:.3f} ms")


# --- whole processes against the dominoes package ------------------------------------------

def scratch_python() -> tuple[Path | None, str]:
    """The scratch venv's python with dominoes installed, or (None, why not)."""
    tag = f"domino-bench-dominoes-{DOMINOES_VERSION}-py{sys.version_info[0]}{sys.version_info[1]}"
    venv = Path(tempfile.gettempdir()) / tag
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    check = [str(python), "-c", "import importlib.metadata as m, dominoes; print(m.version('dominoes'))"]

    def installed() -> bool:
        if not python.exists():
            return False
        done = subprocess.run(check, capture_output=True, text=True)
        return done.returncode == 0 and done.stdout.strip() == DOMINOES_VERSION

    if installed():
        return python, ""
    shutil.rmtree(venv, ignore_errors=True)
    print(f"installing dominoes=={DOMINOES_VERSION} into the scratch venv {venv} ...", flush=True)
    base = getattr(sys, "_base_executable", sys.executable)
    steps = [[base, "-m", "venv", str(venv)],
             [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
              f"dominoes=={DOMINOES_VERSION}"]]
    for step in steps:
        try:
            done = subprocess.run(step, capture_output=True, text=True, timeout=300)
        except (OSError, subprocess.TimeoutExpired) as error:
            return None, f"{' '.join(step[:3])}: {error}"
        if done.returncode != 0:
            said = (done.stderr or done.stdout).strip().splitlines()
            tail = [line for line in said if not line.startswith("WARNING")][-2:] or said[-2:]
            shutil.rmtree(venv, ignore_errors=True)
            return None, f"{' '.join(step[:4])} failed: " + " / ".join(tail)
    if not installed():
        return None, "the scratch venv was made but does not import dominoes"
    return python, ""


def domino_command() -> list[str]:
    """How a user runs `domino` with this interpreter: its console script, else the module."""
    script = Path(sys.executable).with_name("domino.exe" if os.name == "nt" else "domino")
    if script.exists():
        return [str(script)]
    found = shutil.which("domino")
    if found:
        return [found]
    return [sys.executable, "-c", "from cli.main import main; main()"]


def process_env(bytecode_cache: bool) -> dict[str, str]:
    """The environment of the timed processes. With ``bytecode_cache``, compiled modules are
    kept in a scratch folder (PYTHONPYCACHEPREFIX, so nothing is written beside the sources),
    as an installed package has them, even where PYTHONDONTWRITEBYTECODE is set."""
    env = dict(os.environ)
    if bytecode_cache:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "domino-bench-pycache")
    return env


def whole_processes(commands: dict[str, list[str]], runs: int, env: dict[str, str]) -> dict[str, float]:
    """Median wall-clock seconds of each command from spawn to exit, its output thrown away.
    One untimed run each first; then the commands are taken in turn, round after round, so a
    busy machine slows them alike."""
    times: dict[str, list[float]] = {name: [] for name in commands}
    for round_ in range(runs + 1):
        for name, cmd in commands.items():
            start = time.perf_counter()
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
            if round_:
                times[name].append(time.perf_counter() - start)
    return {name: statistics.median(samples) for name, samples in times.items()}


def puerto_rico_corpus(files: int, seed: int, folder: Path) -> tuple[list[str], int]:
    rng = random.Random(seed)
    paths, events = [], 0
    for i in range(files):
        header, evs = random_match("puerto-rico", ["Ana", "Beto", "Carla", "Dani"], rng)
        evs = [e for e in evs if e["type"] != "note"]
        events += len(evs)
        path = folder / f"pr-{i:04d}.jsonl"
        path.write_text("".join(json.dumps(v) + "\n" for v in (header, *evs)), encoding="utf-8")
        paths.append(str(path))
    return paths, events


def compare(args: argparse.Namespace) -> None:
    print()
    print(f"whole processes: domino validate vs the dominoes package {DOMINOES_VERSION}")
    python, why = scratch_python()
    if python is None:
        print(f"skipped: the dominoes package cannot be installed ({why})")
        return
    with tempfile.TemporaryDirectory(prefix="domino-bench-") as tmp:
        folder = Path(tmp)
        paths, events = puerto_rico_corpus(args.files, args.seed, folder)
        driver = folder / "dominoes_driver.py"
        driver.write_text(DRIVER, encoding="utf-8")
        domino = domino_command()
        commands = {
            "dominoes": [str(python), str(driver), *paths],
            "validate --json": [*domino, "validate", "--json", *paths],
            "validate": [*domino, "validate", *paths],
            "core": [sys.executable, "-c", CORE_ONLY, *paths],
        }

        # the same games: both sides must score every match alike
        env = process_env(not args.no_bytecode_cache)
        theirs = subprocess.run(commands["dominoes"], capture_output=True, text=True, env=env)
        ours = subprocess.run(commands["validate --json"], capture_output=True, text=True, env=env)
        if theirs.returncode != 0 or ours.returncode != 0:
            print(f"FAILED: dominoes driver exit {theirs.returncode}, domino validate exit "
                  f"{ours.returncode}\n{theirs.stderr[-2000:]}{ours.stderr[-2000:]}")
            sys.exit(1)
        their_scores = [json.loads(line)["scores"] for line in theirs.stdout.splitlines()]
        reports = [json.loads(line) for line in ours.stdout.splitlines()]
        our_scores = [r["totals"] for r in reports]
        if their_scores != our_scores or not all(r["valid"] and r["finished"] for r in reports):
            print("FAILED: the dominoes package and the referee disagree on the scores")
            sys.exit(1)
        print(f"corpus: {len(paths)} puerto-rico logs, {events} events; both sides agree on "
              f"every final score")

        timed = whole_processes({**commands,
                                 "bare scratch": [str(python), "-c", "pass"],
                                 "bare ours": [sys.executable, "-c", "pass"]}, args.runs, env)
    cache = ("bytecode cached" if not args.no_bytecode_cache else
             "bytecode as the environment has it" + (
                 " (PYTHONDONTWRITEBYTECODE: every start compiles the project's modules)"
                 if os.environ.get("PYTHONDONTWRITEBYTECODE") else ""))
    print(f"median of {args.runs} runs, wall clock of the whole process, {cache}; bare "
          f"interpreter start-up: {timed['bare scratch'] * 1e3:.0f} ms in the scratch venv, "
          f"{timed['bare ours'] * 1e3:.0f} ms in this one")
    print(f"  {'':<36} {'seconds':>8} {'events/s':>10} {'vs dominoes':>12}")
    labels = {"dominoes": f"python driver.py (dominoes {DOMINOES_VERSION})",
              "validate --json": "domino validate --json FILES",
              "validate": "domino validate FILES (rich text)",
              "core": "referee core alone, no CLI (floor)"}
    for name in commands:
        seconds = timed[name]
        ratio = timed["dominoes"] / seconds
        print(f"  {labels[name]:<36} {seconds:>8.3f} {events / seconds:>10,.0f} {ratio:>11.2f}x")
    ratio = timed["dominoes"] / timed["validate --json"]
    verdict = "meets" if ratio >= GOAL_RATIO else "misses"
    print(f"ratio (domino validate --json vs dominoes): {ratio:.2f}x, {verdict} the goal of "
          f"{GOAL_RATIO:g}x")


# --- `domino validate --json` against the bare parse (the floor) ----------------------------

# The floor: a whole process that reads each log and parses every line with json.loads, and
# does nothing else (no referee, no output). Lines read as text: json.loads of bytes spends a
# third more (it detects and decodes them first), so this is the lower of the two floors.
FLOOR = """
import json, sys
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        for line in f:
            json.loads(line)
"""


def child_cpu(command: list[str], env: dict[str, str]) -> float:
    """The CPU seconds (user and system) of one child process, from spawn to exit."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):  # 1: some log holds violations (planted or found)
        sys.exit(f"FAILED: {' '.join(command[:3])} ... exit {done.returncode}\n"
                 f"{done.stderr.decode()[-2000:]}")
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def floor(args: argparse.Namespace) -> None:
    """``domino validate --json`` over a corpus the size of the reference one (``--floor-files``
    logs: every preset of both families, a third recorded closed), and over the closed twins of
    an open corpus, against the whole-process json.loads of the same files, in CPU time (the
    median of ``--runs`` runs of each, taken in turn)."""
    print()
    print("whole processes, CPU time: domino validate --json against the bare parse (json.loads)")
    env = process_env(not args.no_bytecode_cache)
    domino = domino_command()
    with tempfile.TemporaryDirectory(prefix="domino-bench-floor-") as tmp:
        sets: dict[str, list[str]] = {}
        counts: dict[str, int] = {}
        half = args.floor_files // 2
        opened, closed = twins(half, args.seed + 7)
        corpora = {"mixed corpus": corpus(args.floor_files, args.seed + 3, TABLES + POINTS_TABLES),
                   "open corpus": opened, "its closed twin": closed}
        for label, texts in corpora.items():
            folder = Path(tmp) / label.replace(" ", "-")
            folder.mkdir()
            sets[label] = []
            counts[label] = sum(text.count("\n") - 1 for text in texts)
            for i, text in enumerate(texts):
                path = folder / f"{i:05d}.jsonl"
                path.write_text(text, encoding="utf-8")
                sets[label].append(str(path))
        commands = {}
        for label, paths in sets.items():
            commands[(label, "floor")] = [sys.executable, "-c", FLOOR, *paths]
            commands[(label, "validate")] = [*domino, "validate", "--json", *paths]
        for command in commands.values():  # once each untimed: compiled modules cached
            child_cpu(command, env)
        times: dict[tuple[str, str], list[float]] = {key: [] for key in commands}
        for _ in range(args.runs):
            for key, command in commands.items():
                times[key].append(child_cpu(command, env))
    cpu = {key: statistics.median(values) for key, values in times.items()}
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"median of {args.runs} runs each, load average {load:.1f} "
          f"on {os.cpu_count()} cores")
    for label, paths in sets.items():
        events = counts[label]
        bare, ours = cpu[(label, "floor")], cpu[(label, "validate")]
        print(f"  {label} ({len(paths)} logs, {events} events): json.loads {bare * 1e3:.0f} ms, "
              f"domino validate --json {ours * 1e3:.0f} ms: {ours / bare:.2f}x the floor "
              f"(goal at most 1.5x)")
    twin = cpu[("its closed twin", "validate")] / cpu[("open corpus", "validate")]
    print(f"  the closed twin against the open corpus, domino validate --json: {twin:.2f}x "
          f"(goal at most 2x)")


# --- this copy of the referee against another (--baseline) -----------------------------------

# What a child does with the corpus files, in the copy of the package first on its path:
# "read" reads the files only, "parse" parses them, "replay" parses and replays, "validate"
# parses, replays and builds each report (as JSON). Timed, it prints the least CPU seconds of
# RUNS runs of that work (after the reading); under callgrind its whole run is counted. Each
# row is the difference of two modes, so start-up and reading drop out.
CHILD = r"""
import glob, json, sys, time
root, folder, mode, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
sys.path.insert(0, root)
from referee.core import build_report, read_log
from referee.core.replay import replay
import referee.core
assert referee.core.__file__.startswith(root), referee.core.__file__
texts = [open(p, "rb").read() for p in sorted(glob.glob(folder + "/*.jsonl"))]

def work():
    for data in texts:
        if mode == "read":
            continue
        log = read_log(data)
        if mode != "parse":
            result = replay(log.header.rules, log.header.players, log.events)
            if mode == "validate":
                json.dumps(build_report(result))

best = None
for _ in range(runs):
    start = time.process_time()
    work()
    spent = time.process_time() - start
    best = spent if best is None else min(best, spent)
print(json.dumps(best))
"""

MODES = ("read", "parse", "replay", "validate")


def child_figure(root: str, folder: str, mode: str, env: dict[str, str], *, runs: int,
                 callgrind: bool) -> float:
    """Seconds (timed) or instructions (``callgrind``) of one child's run."""
    command = [sys.executable, "-c", CHILD, root, folder, mode, "1" if callgrind else str(runs)]
    if not callgrind:
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
        return json.loads(done.stdout)
    with tempfile.TemporaryDirectory(prefix="domino-bench-cg-") as tmp:
        out = Path(tmp) / "callgrind.out"
        done = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                               *command], capture_output=True, text=True, env=env, check=True)
    collected = [line for line in done.stderr.splitlines() if "Collected :" in line]
    return float(collected[-1].rsplit(":", 1)[1])


def against_baseline(args: argparse.Namespace) -> None:
    here = str(Path(__file__).resolve().parents[1])
    sides = {"baseline": str(Path(args.baseline).resolve()), "this copy": here}
    for name, root in sides.items():
        if not (Path(root) / "referee" / "core" / "__init__.py").exists():
            sys.exit(f"{name}: no referee package under {root}")
    if args.callgrind and shutil.which("valgrind") is None:
        sys.exit("--callgrind needs valgrind")
    env = process_env(bytecode_cache=True)
    env["PYTHONHASHSEED"] = "0"  # the same dicts, the same instructions, run after run
    unit = "instructions" if args.callgrind else "CPU seconds, best of %d" % args.runs
    with tempfile.TemporaryDirectory(prefix="domino-bench-base-") as tmp:
        corpora = {"mixed corpus": corpus(args.matches, args.seed),
                   "closed twins": twins(args.matches, args.seed)[1],
                   "points family": corpus(args.matches, args.seed, POINTS_TABLES)}
        figures: dict[tuple[str, str, str], float] = {}
        for label, texts in corpora.items():
            folder = Path(tmp) / label.replace(" ", "-")
            folder.mkdir()
            for i, text in enumerate(texts):
                (folder / f"{i:05d}.jsonl").write_text(text, encoding="utf-8")
            for root in sides.values():  # an untimed run of each first: compiled modules cached
                child_figure(root, str(folder), "read", env, runs=1, callgrind=False)
            rounds = 1 if args.callgrind else args.rounds
            for _ in range(rounds):  # the sides in turn, so that a busy machine slows both alike
                for mode in MODES:
                    for name, root in sides.items():
                        value = child_figure(root, str(folder), mode, env, runs=args.runs,
                                             callgrind=args.callgrind)
                        key = (label, mode, name)
                        figures[key] = min(figures.get(key, value), value)
        print(f"this copy against {sides['baseline']} ({unit}):")
        for label, texts in corpora.items():
            print(f"  {label}: {len(texts)} matches, "
                  f"{sum(text.count(chr(10)) - 1 for text in texts)} events")
        print(f"  {'':<46} {'baseline':>14} {'this copy':>14} {'change':>8}")
        rows = (("parse", "parse", "read"), ("replay of parsed events", "replay", "parse"),
                ("validate (parse, replay, report)", "validate", "read"))
        for label in corpora:
            for row, mode, floor in rows:
                old, new = (figures[(label, mode, name)] - figures[(label, floor, name)]
                            for name in sides)
                shown = f"{old:,.0f} {new:>14,.0f}" if args.callgrind else f"{old:.4f} {new:>14.4f}"
                change = (new / old - 1) * 100
                print(f"  {label + ': ' + row:<46} {shown:>29} {change:>+7.1f}%")
        # the goal of the points family: no more cost per event than the seeds' (the mixed
        # corpus, a third closed like it)
        events = {label: sum(text.count(chr(10)) - 1 for text in texts)
                  for label, texts in corpora.items()}
        for row, mode, floor in rows[1:]:
            ratios = []
            for name in sides:
                per = {label: (figures[(label, mode, name)] - figures[(label, floor, name)])
                       / events[label] for label in ("points family", "mixed corpus")}
                ratios.append(f"{per['points family']:,.0f} against {per['mixed corpus']:,.0f}"
                              f" ({per['points family'] / per['mixed corpus']:.2f}x)")
            print(f"  points family against the seeds' (mixed corpus), an event, {row}: "
                  f"baseline {ratios[0]}, this copy {ratios[1]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=400, help="matches in the in-process corpus")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--files", type=int, default=200,
                        help="log files in the whole-process comparison")
    parser.add_argument("--no-bytecode-cache", action="store_true",
                        help="time the processes with the environment's bytecode setting as is "
                             "(by default compiled modules are cached in a scratch folder)")
    parser.add_argument("--no-compare", action="store_true",
                        help="skip the whole-process comparison with the dominoes package")
    parser.add_argument("--floor-files", type=int, default=430,
                        help="logs in the corpus timed against the bare parse (the reference "
                             "corpus's size)")
    parser.add_argument("--no-floor", action="store_true",
                        help="skip `domino validate --json` against the bare parse")
    parser.add_argument("--only-floor", action="store_true",
                        help="only `domino validate --json` against the bare parse")
    parser.add_argument("--baseline", metavar="DIR",
                        help="compare the in-process rows with the referee package under DIR")
    parser.add_argument("--callgrind", action="store_true",
                        help="with --baseline: count instructions (valgrind) instead of timing")
    parser.add_argument("--rounds", type=int, default=3,
                        help="with --baseline, timed: how many times each side is run in turn")
    args = parser.parse_args()
    if args.baseline:
        against_baseline(args)
        return
    if args.only_floor:
        floor(args)
        return
    in_process(args)
    if not args.no_floor:
        floor(args)
    if not args.no_compare:
        compare(args)


if __name__ == "__main__":
    main()
