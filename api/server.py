"""The HTTP server: uvicorn, with h11 as its parser and the edge's answers (:mod:`api.edge`).

:func:`run` is ``domino serve``; :mod:`api.worker` is the same server as a gunicorn worker
(``deploy/gunicorn.conf.py``). Both serve :func:`api.asgi.create_asgi` with :class:`Protocol`:

- what h11 refuses (a malformed chunked body, a head past HEAD_BYTES) is answered as
  problem+json (400, 431, or 414 when the request line itself never ended), where uvicorn
  would write text/plain;
- a connection whose request head is not complete HEAD_SECONDS after its first byte (or after
  connecting) is closed: thousands of slow or idle connections cost sockets, no thread, and
  none lasts;
- a client that half-closes after its request gets its answer, then the connection closes;
  but a stream's client that sends its end has gone (a browser's tab closed, a phone leaving):
  its stream ends and its slot is free at once, not when a heartbeat finds the socket dead;
- every open connection is in :data:`api.edge.OPEN` while it is open, so that the front can
  drop a stream whose client stopped reading and end the streams when the server stops.

The client's address is the socket's: uvicorn's proxy headers are off, as X-Forwarded-For is
believed only as far as the app's TRUSTED_PROXIES say (werkzeug's ProxyFix).
"""

from __future__ import annotations

import asyncio
import resource
import socket
import sys
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from . import edge


class Protocol(H11Protocol):
    """uvicorn's h11 protocol, with the edge's answers and the head timeout."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.stopping = asyncio.Event()
        self.hung_up = asyncio.Event()  # the client sent its end (EOF): a stream is over
        self._head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if self.client:
            edge.OPEN[tuple(self.client)] = self  # type: ignore[assignment]
        self._arm_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.client and edge.OPEN.get(tuple(self.client)) is self:  # type: ignore[comparison-overlap]
            del edge.OPEN[tuple(self.client)]
        self._disarm_head_timer()
        super().connection_lost(exc)

    def _in_request(self) -> bool:
        return self.cycle is not None and not self.cycle.response_complete

    def data_received(self, data: bytes) -> None:
        if not self._in_request() and self._head_timer is None:
            self._arm_head_timer()  # the first byte of a request: its head has HEAD_SECONDS
        super().data_received(data)
        if self._in_request():
            self._disarm_head_timer()

    def _arm_head_timer(self) -> None:
        self._disarm_head_timer()
        self._head_timer = self.loop.call_later(edge.HEAD_SECONDS, self._head_too_slow)

    def _disarm_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if not self._in_request() and not self.transport.is_closing():
            self.transport.close()

    def eof_received(self) -> bool | None:  # type: ignore[override]
        """A client that half-closes once its request is sent (``shutdown(SHUT_WR)``, as
        ``nc -N`` and some proxies do) still gets its answer: the connection stays open for
        writing while a request is being answered, and closes after it. (uvicorn's own returns
        None, and asyncio then closes the transport: the answer was lost.) A stream being
        served ends at once (:attr:`hung_up`, heard by the front): a client closing its socket
        sends the same end, and a stream has no answer to finish, only heartbeats that would
        find the socket dead 15 to 30 s later, holding its slot meanwhile."""
        self.hung_up.set()
        if self._in_request():
            self.cycle.keep_alive = False
            return True
        return None

    def on_response_complete(self) -> None:
        super().on_response_complete()
        # An idle keep-alive connection is uvicorn's timeout_keep_alive's (gunicorn's
        # keepalive); the head timer starts again with the next request's first byte.
        self._disarm_head_timer()

    def send_400_response(self, msg: str) -> None:
        # uvicorn calls this from its `except h11.RemoteProtocolError`: the error is at hand.
        error = sys.exc_info()[1]
        status = getattr(error, "error_status_hint", 400)
        if status == 431:
            pending, _ = self.conn.trailing_data
            status, detail = ((414, edge.TOO_LONG_LINE) if b"\n" not in pending[:edge.HEAD_BYTES]
                              else (431, edge.TOO_LARGE_HEAD))
        else:
            status, detail = 400, edge.NOT_HTTP
        if self._in_request() and self.cycle.response_started:
            self.transport.close()  # mid-answer: nothing more can be said on this connection
            return
        if self.cycle is not None:
            self.cycle.disconnected = True  # the app's answer, if any, is not sent after this
        # its access-log line, as every answer has (api.asgi.Front.log_answer)
        log_answer = getattr(self.app, "log_answer", None)
        if log_answer is not None:
            log_answer(self.cycle.scope if self.cycle is not None else None, status,
                       client=self.client)
        self.transport.write(edge.raw_answer(status, detail))
        self.transport.close()

    def shutdown(self) -> None:
        self.stopping.set()  # the streams end (api.asgi), then the connection closes
        super().shutdown()

    def writing_paused(self) -> bool:
        """Whether the client's buffers are full (uvicorn's flow control): a write would wait."""
        return self.flow is not None and self.flow.write_paused

    def body_at_hand(self, scope: dict[str, Any]) -> bool:
        """Whether the next body message of ``scope``'s request is here already: uvicorn's
        ``receive`` then returns it (or the client's disconnect) without waiting, so the front
        reads it without arming a timer (a body sent with its head, as nearly every request's)."""
        cycle = self.cycle
        return cycle is not None and cycle.scope is scope and cycle.message_event.is_set()

    def abort(self) -> None:
        """Drop the connection at once, with what it still buffers (a stream's client that
        stopped reading). The answer in progress is over: its last writes are not attempted,
        nor is it reported as unfinished (asyncio tells the protocol of the loss later)."""
        if self.cycle is not None:
            self.cycle.disconnected = True
        self.transport.abort()


def options() -> dict[str, Any]:
    """uvicorn's settings for this app, for domino serve and gunicorn's workers alike."""
    return {"http": Protocol, "loop": "asyncio", "lifespan": "on", "proxy_headers": False,
            "h11_max_incomplete_event_size": edge.HEAD_BYTES, "access_log": False,
            "server_header": False, "timeout_graceful_shutdown": 10}


def more_files() -> None:
    """The open files' soft limit raised to the hard one: each connection is a file, and the
    default of 1,024 is less than a room of scoreboard screens and their phones."""
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft != hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (ValueError, OSError):  # a limit the process may not raise: it keeps its own
        pass


def listening(host: str, port: int) -> list[socket.socket]:
    """Sockets bound to every address of ``host`` at ``port``, as asyncio's ``create_server``
    binds them (uvicorn's own way): bound here, so that the caller knows the port before it
    says where it serves. Port 0 is one the system picks, free at that moment and held from
    then on (the same port for each address); a port picked by the caller and bound later can
    be taken meanwhile by another process. An address that cannot be bound (the port in use,
    an unknown host) raises OSError, every socket closed."""
    found = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                               flags=socket.AI_PASSIVE)
    sockets: list[socket.socket] = []
    try:
        for family, kind, proto, _, address in dict.fromkeys(found):
            sock = socket.socket(family, kind, proto)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:  # as asyncio: the IPv4 address is bound on its own
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            if port == 0 and len(sockets) > 1:
                address = (address[0], sockets[0].getsockname()[1], *address[2:])
            sock.bind(address)
    except OSError:
        for sock in sockets:
            sock.close()
        raise
    return sockets


def run(app: Any, *, sockets: list[socket.socket], keep_alive: float = 5.0) -> None:
    """Serve ``app`` (an ASGI app) on ``sockets`` (:func:`listening`) until interrupted:
    ``domino serve``."""
    import uvicorn

    more_files()
    uvicorn.Server(uvicorn.Config(app, timeout_keep_alive=keep_alive, log_level="warning",
                                  **options())).run(sockets=sockets)


__all__ = ["Protocol", "listening", "options", "run"]
