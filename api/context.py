"""What the views share within one app: its Service (one connection pool). Nothing else is
kept between requests: who holds a token is read on each one (api.auth), so that a revocation
holds on every worker at once.

Also the request's own objects (:func:`this_app`, :func:`this_request`, :func:`request_globals`)
for the code every request runs: each attribute read through flask's proxies (``current_app``,
``request``, ``g``: werkzeug's ``LocalProxy``, a descriptor, a partial and the context
variable's lookup each time) is some 8,500 instructions; the object itself, taken once, some
1,700, and its attributes then cost what any object's do (callgrind, docs/performance.md,
"Over HTTP, 7 December (night), 23:30")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Flask, Request, current_app, g, request

from referee.service import Service

if TYPE_CHECKING:
    from flask.ctx import _AppCtxGlobals

EXTENSION = "domino-referee.service"


def init_context(app: Flask, service: Service) -> None:
    app.extensions[EXTENSION] = service


def this_app() -> Flask:
    """The app answering this request (``current_app``'s object)."""
    return current_app._get_current_object()  # type: ignore[attr-defined]


def this_request() -> Request:
    """The request being answered (``request``'s object)."""
    return request._get_current_object()  # type: ignore[attr-defined]


def request_globals() -> _AppCtxGlobals:
    """The app context's globals (``g``'s object)."""
    return g._get_current_object()  # type: ignore[attr-defined]


def service() -> Service:
    return this_app().extensions[EXTENSION]


def service_of(app: Flask) -> Service:
    """The app's Service, outside a request (the server's start and stop)."""
    return app.extensions[EXTENSION]
