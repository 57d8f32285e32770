"""The app as ASGI: what ``domino serve`` and gunicorn's workers run (docs/deploy.md).

    create_asgi()  # the flask app of api.create_app(), behind the front

One event loop a process holds every connection; the flask app runs in a pool of THREADS
threads (:class:`Bridge`). Each request:

1. its head is held to the edge's limits (:mod:`api.edge`: 414, 431 as problem+json);
2. its body is read whole on the loop, at most the app's MAX_CONTENT_LENGTH (413), within the
   body timeouts (408): a slow client holds a socket, never a thread;
3. the flask app answers it in a thread, the body handed over at once, its answer handed back
   whole: one hop to the thread and one back;
4. a scoreboard stream's view hands its feed over (:mod:`api.handoff`) and the loop serves it:
   a stream holds no thread, however long it is open. The stream ends when its client
   disconnects or sends its end (at once: the loop hears it), when a write waits longer than
   WRITE_SECONDS (a client that stopped reading; its connection is dropped), when the server
   stops, or after the stream's lifetime.

Why this and not gunicorn's threads, or gevent: a stream is a socket and a queue, which an event
loop keeps for nothing, where a thread a stream let 20 idle sockets take every worker; and the
app, SQLAlchemy and psycopg stay as they are (threads), with no monkey-patching.
"""

from __future__ import annotations

import asyncio
import contextvars
import io
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Awaitable, Callable

from a2wsgi.wsgi import build_environ
from flask import Flask

from referee.service.jobs import Background

from . import AROUND, create_app, edge
from .context import service_of
from .handoff import KEY, Handoff

THREADS = 16  # the flask app's threads a process (DOMINO_THREADS)

Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


class Bridge:
    """The flask app (WSGI) in a pool of threads, for the front: the request's body is whole
    already, and the answer comes back whole (the long-lived ones, the scoreboard's streams,
    are handed over to the loop, never streamed by a thread: :mod:`api.handoff`).

    a2wsgi's WSGIMiddleware, which this replaces, went from the thread to the loop and waited
    for it on each part of a request: the body read, the answer's start, each chunk and the
    end, four or five waits, each waking the loop and the thread across the GIL; under gunicorn
    as deployed these were the largest part of what an append cost over waitress
    (bench/api_bench.py). Here a request is one hop to a thread and one back. The WSGI environ
    is a2wsgi's (its ``build_environ``, ``asgi.scope`` included)."""

    def __init__(self, app: Callable[..., Any], threads: int) -> None:
        self.app = app
        self.executor = ThreadPoolExecutor(thread_name_prefix="WSGI", max_workers=threads)

    async def __call__(self, scope: Message, body: bytes, send: Send) -> None:
        environ = build_environ(scope, io.BytesIO(body))  # type: ignore[arg-type]
        # the loop's context variables, as a2wsgi gave them to the app
        run = contextvars.copy_context().run
        status, headers, chunks, exc_info = await asyncio.get_running_loop().run_in_executor(
            self.executor, run, self._answer, environ)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": b"".join(chunks), "more_body": False})
        if exc_info is not None:  # as a2wsgi did: the app's error, once its answer is sent
            raise exc_info[1].with_traceback(exc_info[2])

    def _answer(self, environ: dict[str, Any]) -> tuple[int, list[tuple[bytes, bytes]],
                                                         list[bytes], Any]:
        """In a thread: the app's status, headers and body, and the exc_info it gave with them."""
        started: list[Any] = []
        chunks: list[bytes] = []

        def start_response(status: str, headers: list[tuple[str, str]],
                           exc_info: Any = None) -> Callable[[bytes], None]:
            if not started or exc_info is not None:  # WSGI: a later call comes with exc_info
                started[:] = [status, headers, exc_info]
            return chunks.append

        iterable = self.app(environ, start_response)
        try:
            for chunk in iterable:
                if chunk:
                    chunks.append(chunk)
        finally:
            getattr(iterable, "close", lambda: None)()
        status, headers, exc_info = started
        return (int(status.split(" ", 1)[0]),
                [(name.strip().encode("latin1").lower(), value.strip().encode("latin1"))
                 for name, value in headers],
                chunks, exc_info)


class Front:
    """The ASGI application in front of the flask app (see the module's docstring)."""

    def __init__(self, app: Flask, threads: int = THREADS) -> None:
        self.app = app
        self.wsgi = Bridge(app, threads)
        around = app.extensions.get(AROUND)
        # The front's own answers, through what the app's go through (api.around): the access
        # log's line (and the trusted proxies' address in it), as under WSGI.
        self._logged = around(app, _answered) if around is not None else None

    async def _answer(self, scope: Message, send: Send, status: int, detail: str) -> None:
        """A refusal of the front's own (before the app), sent and logged as the app's are
        (the line's time is the app's: none)."""
        await edge.answer(send, status, detail)
        self.log_answer(scope, status)

    def log_answer(self, scope: Message | None, status: int,
                   client: tuple[str, int] | None = None) -> None:
        """The access-log line of an answer given before the app: the front's, or the HTTP
        parser's (api.server) to a request it could not read, whose method and path are then
        unknown ("-") unless its head was read (``scope``)."""
        if self._logged is None:
            return
        if scope is not None:
            environ = build_environ(scope, io.BytesIO())  # type: ignore[arg-type]
        else:
            environ = {"REQUEST_METHOD": "-", "SCRIPT_NAME": "", "PATH_INFO": "-",
                       "REMOTE_ADDR": client[0] if client else "-", "wsgi.url_scheme": "http"}
        environ[_STATUS] = status
        list(self._logged(environ, _ignore))

    async def __call__(self, scope: Message, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
        elif scope["type"] == "http":
            await self._http(scope, receive, send)
        # anything else (a websocket) is not served: returning closes it

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        """The server's start and stop: between them the service's jobs run in the background
        (the ratings' catch-up and the actas due, at start and every minute: they are never
        done inside a read)."""
        background: Background | None = None
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                background = Background(service_of(self.app).jobs).start()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                if background is not None:
                    await asyncio.to_thread(background.stop)
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def _http(self, scope: Message, receive: Receive, send: Send) -> None:
        if refused := edge.refused_head(scope):
            await self._answer(scope, send, *refused)
            return
        body = await self._body(scope, receive, send)
        if body is None:
            return  # answered already, or the client went away
        handoff = Handoff()
        headers = [(k, v) for k, v in scope["headers"]
                   if k not in (b"content-length", b"transfer-encoding")]
        headers.append((b"content-length", str(len(body)).encode()))
        scope = {**scope, "headers": headers,
                 "extensions": {**(scope.get("extensions") or {}), KEY: handoff}}

        async def relay(message: Message) -> None:
            # A stream's response does not end with the view: the front carries on with it.
            if (handoff.feed is not None and message["type"] == "http.response.body"
                    and not message.get("more_body", False)):
                if message.get("body"):
                    await send({**message, "more_body": True})
                return
            await send(message)

        await self.wsgi(scope, body, relay)
        if handoff.feed is not None:
            await self._stream(handoff.feed, scope, receive, send)

    async def _body(self, scope: Message, receive: Receive, send: Send) -> bytes | None:
        """The whole body, or None once the client has been answered (413, 408) or is gone."""
        limit = self.app.config.get("MAX_CONTENT_LENGTH")
        declared = next((v for k, v in scope["headers"] if k == b"content-length"), None)
        if limit is not None and declared is not None and declared.isdigit() and int(declared) > limit:
            await self._answer(scope, send, 413, edge.TOO_LARGE_BODY.format(limit=limit))
            return None
        loop = asyncio.get_running_loop()
        ends = loop.time() + edge.BODY_SECONDS
        connection = edge.connection_of(scope)
        chunks: list[bytes] = []
        size = 0
        while True:
            if connection is not None and connection.body_at_hand(scope):
                # Nothing to wait for, so no timer (one made, put on the loop's heap and
                # cancelled was some 29,000 instructions a request).
                message = await receive()
            else:
                try:
                    async with asyncio.timeout(min(edge.BODY_IDLE_SECONDS, ends - loop.time())):
                        message = await receive()
                except TimeoutError:
                    await self._answer(scope, send, 408, edge.TOO_SLOW_BODY.format(
                        idle=edge.BODY_IDLE_SECONDS, total=edge.BODY_SECONDS))
                    return None
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if limit is not None and size > limit:
                await self._answer(scope, send, 413, edge.TOO_LARGE_BODY.format(limit=limit))
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    async def _stream(self, feed: Any, scope: Message, receive: Receive, send: Send) -> None:
        """Serve a handed-over feed (api.scoreboard.Feed) until it ends, then end the response."""
        over = asyncio.Event()
        connection = edge.connection_of(scope)
        dropped = False

        async def hear_disconnect() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            over.set()

        async def ended(event: asyncio.Event) -> None:
            await event.wait()
            over.set()

        async def write(text: str) -> bool:
            nonlocal dropped
            message = {"type": "http.response.body", "body": text.encode(), "more_body": True}
            if connection is not None and not connection.writing_paused():
                # The transport takes it at once: no timer (with 1,000 streams of a club, a
                # timer a write was a tenth of the event loop's time on each append).
                await send(message)
                return True
            try:
                async with asyncio.timeout(edge.WRITE_SECONDS):
                    await send(message)
                return True
            except TimeoutError:  # the client stopped reading: its buffers are full
                dropped = True
                if connection is not None:
                    connection.abort()
                over.set()
                return False

        watchers = [asyncio.create_task(hear_disconnect())]
        if connection is not None:  # the server stopping; the client's end (its tab closed)
            watchers += [asyncio.create_task(ended(connection.stopping)),
                         asyncio.create_task(ended(connection.hung_up))]
        try:
            await feed.serve(write, over)
        finally:
            for task in watchers:
                task.cancel()
        if not dropped:
            try:
                async with asyncio.timeout(edge.WRITE_SECONDS):
                    await send({"type": "http.response.body", "body": b"", "more_body": False})
            except TimeoutError:
                if connection is not None:
                    connection.abort()


_STATUS = "domino.front_status"  # (in the environ _answered stands for)


def _answered(environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
    """A WSGI app standing for an answer the front gave already: its status, for the log."""
    start_response(f"{environ[_STATUS]} -", [])
    return []


def _ignore(*_: Any) -> None:
    return None


def create_asgi(config: dict[str, Any] | None = None) -> Front:
    """The ASGI app: ``create_app(config)`` behind the front, with ``DOMINO_THREADS`` (or
    config ``THREADS``) threads for it."""
    threads = int((config or {}).get("THREADS") or os.environ.get("DOMINO_THREADS") or THREADS)
    return Front(create_app({**(config or {}), "THREADS": threads}), threads)


__all__ = ["Front", "create_asgi"]
