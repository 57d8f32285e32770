"""Hostile command lines: what a shell can hand ``domino`` that is not text. Bytes that are not
UTF-8 in an argument (a file name, a club's slug typed in Latin-1) reach Python as lone
surrogates, which no database, JSON or terminal takes: each was a traceback where it was stored
or printed. They are refused first, the argument named and its bytes shown, in the reader's
language, exit 2, and nothing is changed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import CLUB, Cli

ROOT = Path(__file__).resolve().parents[2]
LATIN1 = os.fsdecode(b"caf\xe9")  # 'caf\udce9': how Python hands over the byte 0xE9


@pytest.mark.parametrize("args", [
    ["club", "show", LATIN1],
    ["club", "create", LATIN1, "Café"],
    ["player", "add", LATIN1, "--club", CLUB],
    ["match", "import", "--club", CLUB, LATIN1],
    ["validate", LATIN1],
    ["verify", LATIN1],
    ["tournament", "show", LATIN1, "--club", CLUB],
    ["key", "init", "--club", LATIN1],
], ids=lambda args: " ".join(args[:2]))
def test_an_argument_that_is_not_utf8_is_refused_by_name(cli: Cli, args: list[str]) -> None:
    before = cli.run("player", "list", "--club", CLUB, "--json").stdout
    out = cli.run(*args, code=2).output
    assert f"Error: argument {args.index(LATIN1) + 1} is not UTF-8 text: caf\\xe9\n" in out
    out = cli.run("--lang", "it", *args, code=2).output
    assert f"l'argomento {args.index(LATIN1) + 3} non è testo UTF-8: caf\\xe9" in out
    assert cli.run("player", "list", "--club", CLUB, "--json").stdout == before


def test_the_fast_path_hands_such_a_line_to_click(tmp_path: Path) -> None:
    """``domino validate`` and ``show`` without click (cli.entry) decline it, and click
    refuses it as for every command: the bytes as a shell passes them."""
    for command in ("validate", "show"):
        done = subprocess.run([sys.executable, "-c", "from cli.entry import main; main()",
                               command, b"caf\xe9.jsonl"], cwd=tmp_path, capture_output=True,
                              env={**os.environ, "PYTHONPATH": str(ROOT), "LC_ALL": "es_ES.UTF-8",
                                   "PYTHONIOENCODING": "utf-8"}, check=False, timeout=60)
        assert done.returncode == 2, done.stderr
        assert b"Traceback" not in done.stderr
        assert "el argumento 2 no es texto UTF-8: caf\\xe9.jsonl" in done.stderr.decode()
