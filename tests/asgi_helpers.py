"""The app as production serves it, in this process: the ASGI front (api.asgi) under uvicorn
with the edge's protocol (api.server), in a thread, on a free port of 127.0.0.1."""

from __future__ import annotations

import socket
import threading
import time
from contextlib import contextmanager
from typing import Any, Iterator

import uvicorn
from flask import Flask

from api.asgi import Front
from api.server import options


@contextmanager
def served_asgi(app: Flask, threads: int = 8, **settings: Any) -> Iterator[str]:
    """``app`` behind the front under uvicorn; yields the base URL, stops the server after."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(Front(app, threads), log_level="warning",
                            **{**options(), "timeout_graceful_shutdown": 5, **settings})
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()
