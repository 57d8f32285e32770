"""The test server helper itself: stopping it while a response still streams must not leave a
thread writing to file descriptors it no longer owns (a PostgreSQL connection opened after it
once received waitress's trigger byte, b"x", and failed: "invalid frontend message type 120")."""

from __future__ import annotations

import select
import socket
import threading
import time
from typing import Iterator

from api_helpers import served
from flask import Flask


def test_a_server_stopped_mid_stream_writes_nothing_to_sockets_opened_after() -> None:
    app = Flask(__name__)
    streaming = threading.Event()
    ended = threading.Event()

    @app.get("/stream")
    def stream() -> object:
        def chunks() -> Iterator[bytes]:
            try:
                for _ in range(40):  # 8 s at most, long after the server stopped
                    streaming.set()
                    yield b"row\n"
                    time.sleep(0.2)
            finally:
                ended.set()
        return app.response_class(chunks(), mimetype="text/plain")

    with served(app) as base:
        port = int(base.rsplit(":", 1)[1])
        client = socket.create_connection(("127.0.0.1", port))
        client.sendall(b"GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
        assert client.recv(4096)
        assert streaming.wait(10)
    # The server is stopped; the descriptors it freed are taken by new sockets at once.
    pairs = [socket.socketpair() for _ in range(16)]
    try:
        ended.wait(10)  # the stream's task ends (told its client went away, or done)
        time.sleep(0.5)
        ends = [end for pair in pairs for end in pair]
        readable, _, _ = select.select(ends, [], [], 0)
        assert readable == [], "a stopped server's thread wrote to a socket it did not open"
    finally:
        for a, b in pairs:
            a.close()
            b.close()
        client.close()
