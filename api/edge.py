"""The edge: what a request may be before the app reads it, and the answers given there.

One set of limits for every server the app runs under (``domino serve`` and gunicorn's workers
both run :mod:`api.server`'s protocol in front of :mod:`api.asgi`), each answered as
problem+json, never as a server's own text or HTML page (docs/deploy.md, "Limits at the edge"):

- a request head larger than HEAD_BYTES: 431 (414 when it is the request line that never
  ends), from the protocol, which also closes a connection whose head is not complete within
  HEAD_SECONDS of its first byte (or of connecting): a slow or idle connection holds a socket
  for seconds, never a thread;
- a request line (path and query) longer than REQUEST_LINE: 414; more than HEADER_FIELDS
  headers or one longer than HEADER_FIELD: 431 (from the front);
- a body that is not valid HTTP/1.1 (a chunk size ``zz``, say): 400, from the protocol;
- a request that says its body's length twice, with Content-Length and Transfer-Encoding: 400
  (from the front): the two could be read as two different bodies, by a proxy in front and by
  this server, which is how one request is smuggled inside another (RFC 9112, 6.1);
- a body larger than the app's MAX_CONTENT_LENGTH: 413; one that pauses longer than
  BODY_IDLE_SECONDS, or takes longer than BODY_SECONDS in all: 408 (from the front, which reads
  the whole body on its event loop before any thread of the app sees the request);
- a stream's write that waits longer than WRITE_SECONDS (a client that stopped reading): the
  connection is dropped.

The open connections of this process are kept here too (:data:`OPEN`, by the client's address
and port, as the ASGI scope names them), so that the front can drop one whose client stopped
reading, and end its streams when the server stops.
"""

from __future__ import annotations

import asyncio
import http
import json
from typing import Any, Awaitable, Callable, Protocol

from .errors import PROBLEM_MEDIA_TYPE, problem_document
from .headers import NO_CONTENT, SECURITY_HEADERS

HEAD_BYTES = 16 * 1024
HEAD_SECONDS = 10.0
REQUEST_LINE = 4094
HEADER_FIELDS = 50
HEADER_FIELD = 8190
BODY_IDLE_SECONDS = 10.0
BODY_SECONDS = 60.0
WRITE_SECONDS = 10.0

# What the edge says, one sentence a case.
TOO_LONG_LINE = f"the request line (method, path and query) is longer than {REQUEST_LINE} bytes"
TOO_LARGE_HEAD = f"the request's head is larger than {HEAD_BYTES} bytes"
TOO_MANY_FIELDS = f"the request has more than {HEADER_FIELDS} header fields"
TOO_LONG_FIELD = f"a header field of the request is longer than {HEADER_FIELD} bytes"
NOT_HTTP = ("the request is not valid HTTP/1.1: its head, or a chunk of its body (a chunk size "
            "that is not hexadecimal, say), could not be read")
TWO_LENGTHS = ("the request has both Content-Length and Transfer-Encoding: the length of its "
               "body is ambiguous; send one of them")
TOO_LARGE_BODY = "the body is larger than {limit} bytes"
TOO_SLOW_BODY = "the body did not arrive in time (a pause of {idle:g} s, or {total:g} s in all)"


class Connection(Protocol):
    """An open connection, as the server's protocol registers it."""

    stopping: asyncio.Event  # set when the server stops: the streams end
    hung_up: asyncio.Event  # set when the client sends its end (EOF): its stream ends

    def writing_paused(self) -> bool: ...

    def body_at_hand(self, scope: dict[str, Any]) -> bool: ...

    def abort(self) -> None: ...


OPEN: dict[tuple[str, int], Connection] = {}


def connection_of(scope: dict[str, Any]) -> Connection | None:
    client = scope.get("client")
    return OPEN.get(tuple(client)) if client else None  # type: ignore[arg-type]


def problem_bytes(status: int, detail: str) -> bytes:
    return json.dumps(problem_document(status, detail)).encode()


def problem_head(status: int, body: bytes) -> list[tuple[bytes, bytes]]:
    """The headers of an answer the edge gives itself: problem+json, the connection closed
    (what is left of the request is not read), the security headers every answer has."""
    return [(b"content-type", PROBLEM_MEDIA_TYPE.encode()),
            (b"content-length", str(len(body)).encode()), (b"connection", b"close"),
            (b"content-security-policy", NO_CONTENT.encode()),
            *((k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items())]


def refused_head(scope: dict[str, Any]) -> tuple[int, str] | None:
    """Why the front refuses a request's head (status, detail), or None."""
    line = len(scope["method"]) + len(scope.get("raw_path") or b"") + len(scope["query_string"]) + 12
    if line > REQUEST_LINE:
        return 414, TOO_LONG_LINE
    headers = scope["headers"]
    if len(headers) > HEADER_FIELDS:
        return 431, TOO_MANY_FIELDS
    # One pass over the fields, a plain loop: a generator for the lengths and a set of the
    # names were two passes and some 8 % of the front's own time a request (cProfile).
    length = chunked = False
    for name, value in headers:
        if len(name) + len(value) + 2 > HEADER_FIELD:
            return 431, TOO_LONG_FIELD
        if name == b"content-length":
            length = True
        elif name == b"transfer-encoding":
            chunked = True
    if length and chunked:
        return 400, TWO_LENGTHS
    return None


async def answer(send: Callable[[dict[str, Any]], Awaitable[None]], status: int,
                 detail: str) -> None:
    """A problem+json answer sent over ASGI."""
    body = problem_bytes(status, detail)
    await send({"type": "http.response.start", "status": status,
                "headers": problem_head(status, body)})
    await send({"type": "http.response.body", "body": body})


def raw_answer(status: int, detail: str) -> bytes:
    """The same answer as bytes on the wire (HTTP/1.1), for the protocol."""
    body = problem_bytes(status, detail)
    lines = [f"HTTP/1.1 {status} {http.HTTPStatus(status).phrase}".encode()]
    lines += [name + b": " + value for name, value in problem_head(status, body)]
    return b"\r\n".join(lines) + b"\r\n\r\n" + body
