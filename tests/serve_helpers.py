"""``domino serve`` as a process, for the tests that start it (tests/cli/test_cli_serve.py,
tests/pages/test_setup_browser.py, tests/replica/test_replica_servers.py): on a port it binds
itself and prints, its stderr lines read as they come, waits with generous deadlines (never a
timing assertion)."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

DOMINO = str(Path(sys.executable).with_name("domino"))


def free_port() -> int:
    """A port free now, for what cannot be told to bind port 0 itself (the standby's
    PostgreSQL, which starts again on another when it was taken): another process may take it
    before it is used. A server this suite starts binds port 0 and says its port
    (:func:`serving`); a port that must refuse is held bound and not listening."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


SERVING = re.compile(r"http://127\.0\.0\.1:(\d+)/")  # the address `domino serve` prints


def serving(env: dict[str, str]) -> tuple[str, list[str], subprocess.Popen]:
    """``domino serve --port 0``: its address (the port it bound, as it printed it; waited for
    with a generous deadline), the lines it writes on stderr as they come, the process."""
    server = subprocess.Popen([DOMINO, "serve", "--port", "0"], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    lines: list[str] = []

    def read() -> None:
        for line in server.stderr:
            lines.append(line.rstrip("\n"))

    threading.Thread(target=read, daemon=True).start()
    try:
        said = wait_for(lines, "http://127.0.0.1:", server)
        port = int(SERVING.search(said).group(1))  # type: ignore[union-attr]
        assert port != 0, said
    except BaseException:
        server.terminate()
        server.wait(timeout=30)
        raise
    return f"http://127.0.0.1:{port}", lines, server


def wait_for(lines: list[str], text: str, server: subprocess.Popen | None = None) -> str:
    """The first line holding ``text``, waited for with a generous deadline (and no longer than
    ``server`` runs, when given)."""
    deadline = time.monotonic() + 60
    while True:
        found = next((line for line in list(lines) if text in line), None)
        if found is not None:
            return found
        assert server is None or server.poll() is None, ("the server ended", lines)
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
