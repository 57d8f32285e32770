"""The live scoreboard (docs/pages.md, "The live scoreboard"): the page for a projector and
for phones, its JSON twin, and its stream of server-sent events.

- ``/clubs/{club}/scoreboard``: the page, every table of the club night with its score and
  status, kept current by ``api/static/scoreboard.js``;
- ``GET /api/v1/clubs/{club}/scoreboard`` (also at the pages' twin path,
  ``/api/v1/pages/clubs/{club}/scoreboard``): the rows now and the cursor;
- ``GET /api/v1/clubs/{club}/scoreboard/stream``: ``text/event-stream``. A ``snapshot`` event
  first (all the rows), or, for a client that sends ``Last-Event-ID`` (a cursor), the rows
  changed since; then a ``row`` event for each table that changes, its ``id:`` the cursor to
  resume from; a comment every 15 s to keep proxies and the client sure the line is alive. A
  stream ends after ten minutes (the client reconnects with its cursor, and its token is
  checked again); a process already serving its share of streams answers 503 with
  Retry-After.

Access is the club pages': a public club is read without a token, a private one with a token
of the club as a bearer header. The page's script reads the stream with fetch(), so that the
header can be sent (EventSource cannot send one); the token never goes into a URL. Nothing
here decides what a row shows: that is :mod:`referee.service.live`.
"""

from __future__ import annotations

import json
import os
import threading
import time
from typing import Any, Iterator

from flask import Blueprint, Flask, Response, current_app, jsonify, render_template, request

from referee.service import Invalid, Service
from referee.service.live import Busy, Scoreboard

from .context import service
from .errors import problem
from .pages.common import page_caller
from .pages.views import page

blp = Blueprint("scoreboard", __name__)

EXTENSION = "domino-referee.scoreboard"
HEARTBEAT_SECONDS = 15.0
STREAM_SECONDS = 600.0
RETRY_MS = 2000  # what the client waits before reconnecting
BUSY_RETRY_SECONDS = 10
_lock = threading.Lock()


def scoreboard() -> Scoreboard:
    """This app's scoreboard (one hub thread a process), made on first use: after a fork."""
    app = current_app
    with _lock:
        found = app.extensions.get(EXTENSION)
        if found is None:
            found = app.extensions[EXTENSION] = _make(app, service())
    return found


def _make(app: Flask, svc: Service) -> Scoreboard:
    streams = app.config.get("SCOREBOARD_STREAMS") or os.environ.get("DOMINO_SCOREBOARD_STREAMS")
    kwargs: dict[str, Any] = {}
    if streams:
        kwargs["streams"] = int(streams)
    if app.config.get("SCOREBOARD_POLL_SECONDS"):
        kwargs["poll_seconds"] = float(app.config["SCOREBOARD_POLL_SECONDS"])
    return Scoreboard(svc, **kwargs)


@blp.route("/clubs/<string:club>/scoreboard")
@page
def board_page(who: Any, club: str) -> str:
    board = scoreboard().board(club, who=who)
    return render_template("pages/scoreboard.html", board=board, club=board["club"],
                           twin=f"/api/v1/clubs/{club}/scoreboard",
                           stream=f"/api/v1/clubs/{club}/scoreboard/stream",
                           signed_in="Authorization" in request.headers)


def _private(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"
    response.headers["Vary"] = "Authorization"
    return response


@blp.route("/api/v1/clubs/<string:club>/scoreboard")
@blp.route("/api/v1/pages/clubs/<string:club>/scoreboard")
def board_json(club: str) -> Response:
    """The scoreboard's rows now: ``{"club", "rows", "cursor"}``."""
    return _private(jsonify(scoreboard().board(club, who=page_caller())))


def _event(kind: str, data: Any, cursor: int | None = None) -> str:
    head = f"id: {cursor}\n" if cursor is not None else ""
    return f"{head}event: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


@blp.route("/api/v1/clubs/<string:club>/scoreboard/stream")
def board_stream(club: str) -> Response:
    board = scoreboard()
    who = page_caller()
    resume = request.headers.get("Last-Event-ID", "").strip() or None
    if resume is not None:
        try:
            int(resume)
        except ValueError:
            raise Invalid(f"Last-Event-ID is a scoreboard cursor, not {resume!r}") from None
    try:
        subscription = board.subscribe(club, who=who)
    except Busy as error:
        return problem(503, error.message, kind="busy",
                       headers={"Retry-After": str(BUSY_RETRY_SECONDS)})
    config = current_app.config
    heartbeat = float(config.get("SCOREBOARD_HEARTBEAT_SECONDS", HEARTBEAT_SECONDS))
    lifetime = float(config.get("SCOREBOARD_STREAM_SECONDS", STREAM_SECONDS))
    try:
        # Read after subscribing, so nothing appended in between is missed (it may come twice:
        # each row carries its seq).
        if resume is None:
            first = board.board(club, who=who)
            opening = _event("snapshot", {"rows": first["rows"], "cursor": first["cursor"]},
                             first["cursor"])
            cursor = first["cursor"]
        else:
            rows = board.changed(club, resume, who=who)
            cursor = max([int(resume), *(r["cursor"] for r in rows)])
            opening = "".join(_event("row", r, cursor) for r in rows)
    except BaseException:
        subscription.close()
        raise

    def stream() -> Iterator[str]:
        nonlocal cursor
        ends = time.monotonic() + lifetime
        try:
            yield f"retry: {RETRY_MS}\n\n" + opening
            while (left := ends - time.monotonic()) > 0:
                rows = subscription.take(min(heartbeat, left))
                if not rows:
                    yield ": still here\n\n"  # a comment: the client ignores it
                    continue
                out = []
                for row in rows:
                    cursor = max(cursor, row["cursor"])
                    out.append(_event("row", row, cursor))
                yield "".join(out)
        finally:
            subscription.close()  # the client went away, or the stream's time is up

    response = Response(stream(), mimetype="text/event-stream")
    response.headers["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return _private(response)

