"""The live scoreboard (docs/pages.md, "The live scoreboard"): the page for a projector and
for phones, its JSON twin, and its stream of server-sent events.

- ``/clubs/{club}/scoreboard``: the page, every table of the club night with its score and
  status, kept current by ``api/static/scoreboard.js``;
- ``GET /api/v1/clubs/{club}/scoreboard`` (also at the pages' twin path,
  ``/api/v1/pages/clubs/{club}/scoreboard``): the rows now and the cursor;
- ``/clubs/{club}/tournaments/{t}/scoreboard``, its JSON and its stream (the same paths under
  ``/api/v1/clubs/{club}/tournaments/{t}/``): the tables of the tournament's current round
  (``svc.tournaments.round_tables``), a new snapshot when the next round is paired;
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
from typing import Any, Callable, Iterator

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
ROUND_CHECK_SECONDS = 5.0  # a tournament's stream looks its round up again at most this often
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
    return _render(scoreboard().board(club, who=who), f"/api/v1/clubs/{club}/scoreboard")


@blp.route("/clubs/<string:club>/tournaments/<string:tournament>/scoreboard")
@page
def tournament_page(who: Any, club: str, tournament: str) -> str:
    board = scoreboard().tournament_board(club, tournament, who=who)
    return _render(board, f"/api/v1/clubs/{club}/tournaments/{tournament}/scoreboard")


def _render(board: dict[str, Any], twin: str) -> str:
    return render_template("pages/scoreboard.html", board=board, club=board["club"],
                           tournament=board.get("tournament"), twin=twin,
                           stream=twin + "/stream", signed_in="Authorization" in request.headers)


def _private(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"
    response.headers["Vary"] = "Authorization"
    return response


@blp.route("/api/v1/clubs/<string:club>/scoreboard")
@blp.route("/api/v1/pages/clubs/<string:club>/scoreboard")
def board_json(club: str) -> Response:
    """The scoreboard's rows now: ``{"club", "rows", "cursor"}``."""
    return _private(jsonify(scoreboard().board(club, who=page_caller())))


@blp.route("/api/v1/clubs/<string:club>/tournaments/<string:tournament>/scoreboard")
@blp.route("/api/v1/pages/clubs/<string:club>/tournaments/<string:tournament>/scoreboard")
def tournament_json(club: str, tournament: str) -> Response:
    """The current round's rows: ``{"club", "tournament", "rows", "cursor"}``."""
    return _private(jsonify(scoreboard().tournament_board(club, tournament, who=page_caller())))


def _event(kind: str, data: Any, cursor: int | None = None) -> str:
    head = f"id: {cursor}\n" if cursor is not None else ""
    return f"{head}event: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


@blp.route("/api/v1/clubs/<string:club>/scoreboard/stream")
def board_stream(club: str) -> Response:
    return _stream(club, lambda board, who: board.board(club, who=who), tables=None)


@blp.route("/api/v1/clubs/<string:club>/tournaments/<string:tournament>/scoreboard/stream")
def tournament_stream(club: str, tournament: str) -> Response:
    """The club's stream, kept to the current round's tables; when a row of another table of
    the club comes (a new round paired, say), the round is looked up again (at most every
    ROUND_CHECK_SECONDS) and, if it changed, a new snapshot sent."""
    return _stream(club, lambda board, who: board.tournament_board(club, tournament, who=who),
                   tables=set())


def _stream(club: str, load: Callable[[Scoreboard, Any], dict[str, Any]],
            tables: set[int] | None) -> Response:
    """``load(board, who)``: the board the stream follows (called in the stream too, where
    there is no app context); ``tables``: None for every table of the
    club, else a set this fills with the board's match ids (a tournament's round)."""
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
    recheck = float(config.get("SCOREBOARD_ROUND_CHECK_SECONDS", ROUND_CHECK_SECONDS))

    def snapshot() -> tuple[str, int]:
        first = load(board, who)
        if tables is not None:
            tables.clear()
            tables.update(r["match"] for r in first["rows"])
        return _event("snapshot", {"rows": first["rows"], "cursor": first["cursor"]},
                      first["cursor"]), first["cursor"]

    def shown(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return rows if tables is None else [r for r in rows if r["match"] in tables]

    try:
        # Read after subscribing, so nothing appended in between is missed (it may come twice:
        # each row carries its seq).
        if resume is None or tables is not None and not tables:
            opening, cursor = snapshot()
            if resume is not None:  # a tournament's resume: the round, then what changed
                rows = shown(board.changed(club, resume, who=who))
                opening += "".join(_event("row", r, cursor) for r in rows)
        else:
            rows = shown(board.changed(club, resume, who=who))
            cursor = max([int(resume), *(r["cursor"] for r in rows)])
            opening = "".join(_event("row", r, cursor) for r in rows)
    except BaseException:
        subscription.close()
        raise

    def stream() -> Iterator[str]:
        nonlocal cursor
        ends = time.monotonic() + lifetime
        checked = said = time.monotonic()
        try:
            yield f"retry: {RETRY_MS}\n\n" + opening
            while (left := ends - time.monotonic()) > 0:
                rows = subscription.take(min(heartbeat, left))
                out = []
                kept = shown(rows)
                if len(kept) < len(rows) and time.monotonic() - checked >= recheck:
                    checked = time.monotonic()
                    before = set(tables or ())
                    fresh, fresh_cursor = snapshot()
                    if tables != before:
                        out.append(fresh)
                        cursor = max(cursor, fresh_cursor)
                        kept = []
                for row in kept:
                    cursor = max(cursor, row["cursor"])
                    out.append(_event("row", row, cursor))
                if out:
                    yield "".join(out)
                    said = time.monotonic()
                elif time.monotonic() - said >= heartbeat:
                    yield ": still here\n\n"  # a comment: the client ignores it
                    said = time.monotonic()
        finally:
            subscription.close()  # the client went away, or the stream's time is up

    response = Response(stream(), mimetype="text/event-stream")
    response.headers["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return _private(response)
