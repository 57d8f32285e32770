"""``domino serve`` as a process, for the tests that start it (tests/cli/test_cli_serve.py,
tests/pages/test_setup_browser.py): its stderr lines read as they come, waits with generous
deadlines (never a timing assertion)."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

DOMINO = str(Path(sys.executable).with_name("domino"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serving(port: int, env: dict[str, str]) -> tuple[list[str], subprocess.Popen]:
    """``domino serve`` on ``port``; the lines it writes on stderr, as they come."""
    server = subprocess.Popen([DOMINO, "serve", "--port", str(port)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    lines: list[str] = []

    def read() -> None:
        for line in server.stderr:
            lines.append(line.rstrip("\n"))

    threading.Thread(target=read, daemon=True).start()
    return lines, server


def wait_for(lines: list[str], text: str) -> str:
    """The first line holding ``text``, waited for with a generous deadline."""
    deadline = time.monotonic() + 60
    while True:
        found = next((line for line in list(lines) if text in line), None)
        if found is not None:
            return found
        assert time.monotonic() < deadline, (text, lines)
        time.sleep(0.1)


def answered(address: str) -> None:
    """Wait (a generous deadline) until the server answers ``address``."""
    deadline = time.monotonic() + 60
    while True:
        try:
            httpx.get(address, timeout=2)
            return
        except httpx.TransportError:
            assert time.monotonic() < deadline, "the server did not come up"
            time.sleep(0.2)
