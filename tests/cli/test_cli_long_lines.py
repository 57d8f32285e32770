"""A log's line longer than MAX_LINE_BYTES (an event's own limit) stops ``domino validate``,
``domino show``, ``domino verify`` and ``domino match import`` at that line, in the caller's
language and before the line is held whole (a 200 MB line took some 1 GB to read)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from cli_helpers import Cli

from cli.logfiles import CHUNK, read_capped
from cli.main import main
from referee.core import LogError, read_log
from referee.core.log import MAX_LINE_BYTES
from referee.core.vocab import MAX_EVENT_BYTES

HEADER = json.dumps({"format": "domino-log/1", "rules": "mano-a-mano", "players": ["Ana", "Beto"]})
PLAY = json.dumps({"type": "draw", "seat": 1})


def long_event(size: int) -> str:
    """An event line of exactly ``size`` bytes."""
    start = '{"type": "note", "text": "'
    return start + "x" * (size - len(start) - 2) + '"}'


def log_file(tmp_path: Path, long_size: int) -> Path:
    path = tmp_path / "long.jsonl"
    path.write_text("\n".join([HEADER, PLAY, long_event(long_size), PLAY]) + "\n")
    return path


def test_the_limit_is_an_events() -> None:
    assert MAX_LINE_BYTES == MAX_EVENT_BYTES


@pytest.mark.parametrize("lang, words", [
    ("en", "long.jsonl: cannot read line 3: the line is longer than 4194304 bytes"),
    ("es", "long.jsonl: no se puede leer la línea 3: la línea ocupa más de 4194304 bytes"),
    ("it", "long.jsonl: impossibile leggere la riga 3: la riga supera i 4194304 byte")])
def test_validate_show_and_verify_name_the_line_and_the_limit(cli: Cli, tmp_path: Path, lang: str,
                                                               words: str) -> None:
    path = str(log_file(tmp_path, MAX_LINE_BYTES + 1))
    assert words in cli.run("--lang", lang, "validate", path, code=2).output
    report = json.loads(cli.run("--lang", lang, "validate", "--json", path, code=2).output)
    assert report["error"] == {"line": 3, "message": words.split(": ", 2)[2]}
    assert words in cli.run("--lang", lang, "show", path, code=1).output
    assert words in cli.run("--lang", lang, "verify", path, code=2).output
    imported = cli.run("--lang", lang, "match", "import", "--club", "casino", path, code=1).output
    assert words.split(": ", 2)[2] in imported


def test_a_line_at_the_limit_is_read(cli: Cli, tmp_path: Path) -> None:
    path = str(log_file(tmp_path, MAX_LINE_BYTES))
    report = json.loads(cli.run("validate", "--json", path, code=None).output)
    assert "error" not in report


def test_stdin_is_read_the_same_way(cli: Cli, tmp_path: Path) -> None:
    data = log_file(tmp_path, MAX_LINE_BYTES + 1).read_bytes()
    result = cli.runner.invoke(main, ["validate", "--json", "-"], input=data)
    assert json.loads(result.output)["error"]["line"] == 3


class Endless(io.RawIOBase):
    """A header, then one line that never ends; counts the bytes read."""

    def __init__(self) -> None:
        self.given = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray) -> int:  # type: ignore[override]
        head = (HEADER + "\n").encode()[self.given:]
        chunk = head[: len(buffer)] + b"x" * max(0, len(buffer) - len(head))
        buffer[: len(chunk)] = chunk
        self.given += len(chunk)
        return len(chunk)


def test_a_line_that_never_ends_is_not_read_whole() -> None:
    stream = Endless()
    with pytest.raises(LogError) as caught:
        read_capped(io.BufferedReader(stream))
    assert caught.value.line == 2
    assert stream.given <= MAX_LINE_BYTES + 2 * CHUNK + io.DEFAULT_BUFFER_SIZE


@pytest.mark.parametrize("data", [
    "\n".join([HEADER, PLAY, long_event(MAX_LINE_BYTES + 1)]),
    # more characters than a quarter of the limit, more bytes than it
    "\n".join([HEADER, PLAY, long_event(MAX_LINE_BYTES // 3 + 100).replace("x", "€")])])
def test_read_log_refuses_the_line_in_bytes_and_in_text(data: str) -> None:
    for given in (data, data.encode()):
        with pytest.raises(LogError) as caught:
            read_log(given)
        assert caught.value.line == 3 and "longer than 4194304 bytes" in str(caught.value)
