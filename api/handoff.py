"""How a view hands a long-lived answer over to the asynchronous front (:mod:`api.asgi`).

The front puts a :class:`Handoff` in each request's ASGI scope (under ``extensions``); a2wsgi,
which runs the flask app in its threads, passes the scope on in the WSGI environ
(``asgi.scope``). A scoreboard stream's view opens the stream in its thread (who asks, the
subscription, what is sent first), leaves its :class:`api.scoreboard.Feed` here and returns;
the front then serves the feed on its event loop, and the thread goes back to its pool. Under a
plain WSGI server there is no handoff and the view streams as any WSGI body does."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

KEY = "domino.handoff"


@dataclass(eq=False)
class Handoff:
    feed: Any = None  # an api.scoreboard.Feed, once a view has handed one over


def handoff_of(environ: Mapping[str, Any]) -> Handoff | None:
    """The request's handoff, when the front serves it (None under a plain WSGI server)."""
    scope = environ.get("asgi.scope")
    extensions = scope.get("extensions") if isinstance(scope, dict) else None
    found = (extensions or {}).get(KEY)
    return found if isinstance(found, Handoff) else None
