"""The console script's click-free fast path (cli/entry.py) answers exactly as click does.

Each command line runs twice in a fresh interpreter, once through ``cli.entry:main`` (the
``domino`` script) and once through the click group itself, under the same program name; the
two must print the same stdout and stderr and exit alike: reports, errors, usage errors, help,
a closed pipe, a terminal. The fast path must also be taken where it should (no click loaded)
and declined where click has to answer.
"""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow  # every test starts the command as a process
EXAMPLES = ROOT / "examples"
GOOD = str(EXAMPLES / "parejas.jsonl")
RENEGE = str(EXAMPLES / "parejas-renege.jsonl")
CLOSED = str(EXAMPLES / "veracruz-closed.jsonl")

# the same program name both ways (click names it from argv[0]); the modules loaded, at exit
PRELUDE = """
import atexit, json, os, sys
if os.environ.get("MODULES_TO"):
    atexit.register(lambda: open(os.environ["MODULES_TO"], "w").write(json.dumps(sorted(sys.modules))))
sys.argv[0] = "domino"
"""
ENTRY = PRELUDE + "from cli.entry import main\nmain()\n"
CLICK = PRELUDE + "from cli.main import main\nmain()\n"


def run(script: str, args: list[str], cwd: Path, stdin: str = "",
        modules_to: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_COMPLETE")}
    env.update(COLUMNS="100", PYTHONIOENCODING="utf-8")
    if modules_to is not None:
        env["MODULES_TO"] = str(modules_to)
    return subprocess.run([sys.executable, "-c", script, *args], cwd=cwd, input=stdin, env=env,
                          capture_output=True, text=True, timeout=120)


def both(args: list[str], cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    fast, slow = run(ENTRY, args, cwd, stdin), run(CLICK, args, cwd, stdin)
    assert (fast.returncode, fast.stdout, fast.stderr) == (slow.returncode, slow.stdout, slow.stderr), args
    return fast


@pytest.fixture
def logs(tmp_path: Path) -> Path:
    header = {"format": "domino-log/1", "rules": "mano-a-mano", "players": ["Ana", ":smile:"]}
    (tmp_path / "broken.jsonl").write_text(json.dumps(header) + "\n{not json\n", encoding="utf-8")
    (tmp_path / "blank.jsonl").write_text(json.dumps(header) + "\n\n", encoding="utf-8")
    (tmp_path / "names.jsonl").write_text(json.dumps(header) + "\n", encoding="utf-8")
    (tmp_path / "dir.jsonl").mkdir()
    return tmp_path


VALIDATE = [
    ["validate", GOOD],
    ["validate", "--json", GOOD, RENEGE, CLOSED],
    ["validate", RENEGE, "--suspicions", CLOSED, "--json"],
    ["validate", "--suspicions", CLOSED, RENEGE],
    ["validate", "broken.jsonl", "blank.jsonl", "missing.jsonl", "dir.jsonl", "", "names.jsonl"],
    ["validate", "--json", "broken.jsonl", "missing.jsonl", GOOD, "dir.jsonl/"],
    ["validate", "--json", "--json", GOOD],
    ["validate"], ["validate", "--json"], ["validate", "--help"], ["validate", "-h"],
    ["validate", "--jsn", GOOD], ["validate", "--json=1", GOOD], ["validate", "--", GOOD],
    ["validate", "-x", GOOD], ["validate", GOOD, "--bogus"],
]
SHOW = [
    ["show", GOOD], ["show", GOOD, "--at", "12"], ["show", "--at=3", RENEGE], ["show", "--at", "0", GOOD],
    ["show", "--at", "007", GOOD], ["show", GOOD, "--at", "999"], ["show", GOOD, "--at", "-1"],
    ["show", GOOD, "--at", "x"], ["show", GOOD, "--at", " 3"], ["show", GOOD, "--at", "+3"],
    ["show", GOOD, "--at", "99999999999"], ["show", GOOD, "--at", "2", "--at", "3"],
    ["show", GOOD, "--at"], ["show", "names.jsonl"], ["show", "broken.jsonl"], ["show", "dir.jsonl"],
    ["show", "missing.jsonl"], ["show", "12ab"], ["show", GOOD, RENEGE], ["show"], ["show", "-h"],
    ["show", "--", GOOD], ["show", ""],
]


@pytest.mark.parametrize("args", VALIDATE + SHOW, ids=lambda a: " ".join(a) or "-")
def test_the_fast_path_answers_as_click_does(args: list[str], logs: Path) -> None:
    both(args, logs)


def test_validate_reads_stdin_both_ways(logs: Path) -> None:
    done = both(["validate", "--json", "-"], logs, stdin=Path(RENEGE).read_text(encoding="utf-8"))
    assert done.returncode == 1 and json.loads(done.stdout)["violations"]


@pytest.mark.parametrize("args, fast", [
    (["validate", "--json", GOOD], True), (["validate", GOOD, RENEGE], True),
    (["show", GOOD, "--at", "5"], True), (["validate", "missing.jsonl"], True),
    (["validate", "--help"], False), (["show", "missing.jsonl"], False),
    (["show", GOOD, "--at", "999"], False), (["--help"], False),
], ids=lambda a: " ".join(a) if isinstance(a, list) else str(a))
def test_the_fast_path_is_taken_only_where_it_can_answer(args: list[str], fast: bool,
                                                         logs: Path) -> None:
    modules = logs / "modules.json"
    run(ENTRY, args, logs, modules_to=modules)
    loaded = json.loads(modules.read_text())
    assert ("click" in loaded) is not fast
    assert not [m for m in loaded if m.split(".")[0] in ("sqlalchemy", "flask", "alembic")]


def test_a_closed_pipe_ends_both_ways_quietly_with_status_1(logs: Path) -> None:
    # more than a pipe holds (64 KiB), so the writer meets the closed end
    args = ["validate", "--json", *[GOOD] * 200]
    results = []
    for script in (ENTRY, CLICK):
        with subprocess.Popen([sys.executable, "-c", script, *args], cwd=logs, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
            assert proc.stdout is not None and proc.stderr is not None
            first = proc.stdout.readline()
            proc.stdout.close()
            results.append((json.loads(first)["valid"], proc.wait(timeout=120), proc.stderr.read()))
    assert results[0] == results[1] == (True, 1, "")


def on_a_terminal(script: str, args: list[str], cwd: Path) -> bytes:
    """What the command writes to a terminal (a pty, 100 columns)."""
    leader, follower = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM")}
    env.update(COLUMNS="100", LINES="50", TERM="xterm-256color")
    proc = subprocess.Popen([sys.executable, "-c", script, *args], cwd=cwd, env=env,
                            stdin=subprocess.DEVNULL, stdout=follower, stderr=follower)
    os.close(follower)
    out = b""
    while True:
        ready, _, _ = select.select([leader], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the command ended: the terminal is gone
            break
        if not chunk:
            break
        out += chunk
    os.close(leader)
    assert proc.wait(timeout=60) == 2
    return out


def test_on_a_terminal_both_ways_print_the_same_colours(logs: Path) -> None:
    args = ["validate", "missing.jsonl", RENEGE]
    fast = on_a_terminal(ENTRY, args, logs)
    assert b"\x1b[31m" in fast and b"missing.jsonl" in fast  # the unreadable file, in red
    assert fast == on_a_terminal(CLICK, args, logs)
