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
here decides what a row shows: that is :mod:`referee.service.live`; only the word a card says
its undealt tiles with (``undealt``, :class:`SaidScoreboard`) is added here, where words are.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import threading
import time
import weakref
from typing import Any, Awaitable, Callable, Iterable, Iterator

from flask import Blueprint, Flask, Response, current_app, jsonify, render_template, request
from marshmallow import Schema, fields, validate

from referee.core.vocab import whole_number
from referee.service import DatabaseError, Invalid, Service
from referee.service.live import STATUSES, Busy, Scoreboard, StreamCaps, Subscription
from referee.service.view import MatchView
from words.events import sleeping

from .context import service
from .errors import problem
from .handoff import handoff_of
from .openapi import Blueprint as ApiBlueprint
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
_log = logging.getLogger("api")  # the app's logger (Flask's, by the app's name): no app context here


def scoreboard() -> Scoreboard:
    """This app's scoreboard (one hub thread a process), made on first use: after a fork."""
    app = current_app
    with _lock:
        found = app.extensions.get(EXTENSION)
        if found is None:
            found = app.extensions[EXTENSION] = _make(app, service())
    return found


# StreamCaps' fields: the config key and the environment variable that set each.
CAPS = {"process": "SCOREBOARD_STREAMS", "club": "SCOREBOARD_STREAMS_PER_CLUB",
        "client": "SCOREBOARD_STREAMS_PER_CLIENT", "reserved": "SCOREBOARD_STREAMS_RESERVED"}


UNDEALT_WORDS = ("sleeping_tiles", "boneyard")


class SaidScoreboard(Scoreboard):
    """The service's scoreboard, each row with the word its card says the undealt tiles with:
    ``undealt`` is ``sleeping_tiles`` (Fives and Threes: nobody draws them), ``boneyard``, or
    null where the card says none (``shows_undealt`` false). Chosen once, by
    :func:`words.events.sleeping` (the rule the CLI and the pages follow), for every row the
    page, its twin and the stream send, so that the page's script renders the word, never
    choosing it."""

    @staticmethod
    def row(view: MatchView, tournament_round: int | None = None) -> dict[str, Any]:
        row = Scoreboard.row(view, tournament_round)
        row["undealt"] = (UNDEALT_WORDS[0] if sleeping(row["rules"]) else UNDEALT_WORDS[1]
                          ) if row["shows_undealt"] else None
        return row


def _make(app: Flask, svc: Service) -> Scoreboard:
    caps = {field: int(value) for field, key in CAPS.items()
            if (value := app.config.get(key, os.environ.get("DOMINO_" + key))) not in (None, "")}
    kwargs: dict[str, Any] = {"caps": StreamCaps(**caps)}
    if app.config.get("SCOREBOARD_POLL_SECONDS"):
        kwargs["poll_seconds"] = float(app.config["SCOREBOARD_POLL_SECONDS"])
    return SaidScoreboard(svc, **kwargs)


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


class NoArgsSchema(Schema):
    """The scoreboard's JSON and streams define no query parameter."""


def _no_query() -> None:
    """A query parameter refused (422, each named, in the caller's language), as the API's
    other views refuse those they do not define: the scoreboard's views are a plain flask
    blueprint, so this asks the API's own parser (a stream opened with ?club=other or a
    misspelt ?tournament= once quietly showed the whole club's tables)."""
    if request.args:
        ApiBlueprint.ARGUMENTS_PARSER.parse(NoArgsSchema(), request, location="query")


@blp.route("/api/v1/clubs/<string:club>/scoreboard")
@blp.route("/api/v1/pages/clubs/<string:club>/scoreboard")
def board_json(club: str) -> Response:
    """The scoreboard's rows now: ``{"club", "rows", "cursor"}``."""
    _no_query()
    return _private(jsonify(scoreboard().board(club, who=page_caller())))


@blp.route("/api/v1/clubs/<string:club>/tournaments/<string:tournament>/scoreboard")
@blp.route("/api/v1/pages/clubs/<string:club>/tournaments/<string:tournament>/scoreboard")
def tournament_json(club: str, tournament: str) -> Response:
    """The current round's rows: ``{"club", "tournament", "rows", "cursor"}``."""
    _no_query()
    return _private(jsonify(scoreboard().tournament_board(club, tournament, who=page_caller())))


def _event(kind: str, data: Any, cursor: int | None = None) -> str:
    head = f"id: {cursor}\n" if cursor is not None else ""
    return f"{head}event: {kind}\ndata: {_json(data)}\n\n"


# The hub hands one row object to every stream of its club: its JSON is written once, not once
# a stream (the row is kept with its text, so that its id is not another's meanwhile).
_written: dict[int, tuple[Any, str]] = {}
WRITTEN_ROWS = 512


def _json(data: Any) -> str:
    found = _written.get(id(data))
    if found is not None and found[0] is data:
        return found[1]
    text = json.dumps(data, separators=(",", ":"))
    if len(_written) >= WRITTEN_ROWS:
        _written.clear()
    _written[id(data)] = (data, text)
    return text


class Wakeups:
    """The streams of one event loop woken together: the hub's thread puts a change into many
    subscriptions at once, and a call into the loop for each (a write to its wake-up pipe)
    would cost more than the streams' own work. One call a batch wakes them all."""

    _of: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Wakeups]" = weakref.WeakKeyDictionary()
    _made = threading.Lock()

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._lock = threading.Lock()
        self._pending: list[asyncio.Event] = []

    @classmethod
    def of(cls, loop: asyncio.AbstractEventLoop) -> "Wakeups":
        with cls._made:
            found = cls._of.get(loop)
            if found is None:
                found = cls._of[loop] = cls(loop)
            return found

    def wake(self, event: asyncio.Event) -> None:
        """Set ``event`` on the loop (from any thread)."""
        with self._lock:
            self._pending.append(event)
            if len(self._pending) > 1:
                return  # a call is on its way already
        self.loop.call_soon_threadsafe(self._run)

    # Streams woken an iteration of the loop: between two batches the loop reads requests and
    # hands out answers, so that a change to a club of 1,000 screens does not hold up every
    # request until all 1,000 have been written to (bench/stream_bench.py).
    BATCH = 50

    def _run(self) -> None:
        with self._lock:
            batch, self._pending = self._pending[:self.BATCH], self._pending[self.BATCH:]
            more = bool(self._pending)
        for event in batch:
            event.set()
        if more:
            self.loop.call_soon(self._run)  # the rest, after what is waiting meanwhile


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
    club, else a set this fills with the board's match ids (a tournament's round).

    Served by the asynchronous front (:mod:`api.asgi`), the view only opens the stream (who
    asks, the subscription, what is sent first) and hands the :class:`Feed` over: the front
    serves it on its event loop, holding no thread. Under a plain WSGI server the feed is the
    response's body, and holds one of its threads while it is open."""
    _no_query()
    board = scoreboard()
    who = page_caller()
    resume = request.headers.get("Last-Event-ID", "").strip() or None
    if resume is not None and whole_number(resume) is None:  # (not "２": moment_of's reading)
        raise Invalid("Last-Event-ID is a scoreboard cursor, not %(cursor)r", cursor=resume)
    try:
        subscription = board.subscribe(club, who=who, client=request.remote_addr or "")
    except Busy as error:
        return problem(503, error.message, kind="busy",
                       headers={"Retry-After": str(BUSY_RETRY_SECONDS)})
    config = current_app.config
    feed = Feed(board, subscription, lambda: load(board, who), tables,
                heartbeat=float(config.get("SCOREBOARD_HEARTBEAT_SECONDS", HEARTBEAT_SECONDS)),
                lifetime=float(config.get("SCOREBOARD_STREAM_SECONDS", STREAM_SECONDS)),
                recheck=float(config.get("SCOREBOARD_ROUND_CHECK_SECONDS", ROUND_CHECK_SECONDS)))
    try:
        opening = feed.open(club, resume, who)
    except BaseException:
        subscription.close()
        raise
    handoff = handoff_of(request.environ)
    if handoff is not None:
        handoff.feed = feed
        body: Iterable[str] = iter([opening])
    else:
        body = feed.lines(opening)
    response = Response(body, mimetype="text/event-stream")
    response.headers["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return _private(response)


class Feed:
    """One stream: its subscription, what it shows (a tournament's: the round's tables) and
    its cursor; the text to send for the rows the hub hands it. Two ways to serve it, one
    logic: :meth:`lines` (a thread waits in the subscription) and :meth:`serve` (a coroutine
    on the front's event loop)."""

    def __init__(self, board: Scoreboard, subscription: Subscription,
                 load: Callable[[], dict[str, Any]], tables: set[int] | None, *,
                 heartbeat: float, lifetime: float, recheck: float) -> None:
        self.board, self.subscription, self.load, self.tables = board, subscription, load, tables
        self.heartbeat, self.lifetime, self.recheck = heartbeat, lifetime, recheck
        self.cursor = 0
        self.checked = time.monotonic()
        self._fresh: tuple[str, int] | None = None  # a new round's snapshot, still to send

    def _snapshot(self) -> tuple[str, int]:
        first = self.load()
        if self.tables is not None:
            self.tables.clear()
            self.tables.update(r["match"] for r in first["rows"])
        return _event("snapshot", {"rows": first["rows"], "cursor": first["cursor"]},
                      first["cursor"]), first["cursor"]

    def _shown(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return rows if self.tables is None else [r for r in rows if r["match"] in self.tables]

    def open(self, club: str, resume: str | None, who: Any) -> str:
        """What the stream sends first (reads the database: call it after subscribing, so
        nothing appended in between is missed; it may come twice: each row carries its seq)."""
        board, tables = self.board, self.tables
        if resume is None or tables is not None and not tables:
            opening, self.cursor = self._snapshot()
            if resume is not None:  # a tournament's resume: the round, then what changed
                rows = self._shown(board.changed(club, resume, who=who))
                opening += "".join(_event("row", r, self.cursor) for r in rows)
        else:
            rows = self._shown(board.changed(club, resume, who=who))
            self.cursor = max([int(resume), *(r["cursor"] for r in rows)])
            opening = "".join(_event("row", r, self.cursor) for r in rows)
        return f"retry: {RETRY_MS}\n\n" + opening

    def due(self, rows: list[dict[str, Any]]) -> bool:
        """Whether ``rows`` call for looking the round up again (:meth:`lookup`, a read): a row
        of a table the stream does not show, and the last look long enough ago."""
        return (self.tables is not None and len(self._shown(rows)) < len(rows)
                and time.monotonic() - self.checked >= self.recheck)

    def lookup(self) -> bool:
        """Look the round up again. False when the database failed meanwhile (out of reach,
        damaged): the stream ends there, a whole response, and its client, reconnecting after
        ``retry:``, is answered as every request is then (503), not left on a stream cut with a
        traceback in the log."""
        self.checked = time.monotonic()
        before = set(self.tables or ())
        try:
            fresh = self._snapshot()
        except DatabaseError as error:
            _log.warning("scoreboard stream ended: the database failed as it looked the round "
                         "up: %s", str(error).splitlines()[0] if str(error) else type(error).__name__)
            return False
        if self.tables != before:
            self._fresh = fresh
        return True

    def text(self, rows: list[dict[str, Any]]) -> str:
        """The events for ``rows`` (and a new round's snapshot, if one was looked up)."""
        out = []
        kept = self._shown(rows)
        if self._fresh is not None:
            out.append(self._fresh[0])
            self.cursor = max(self.cursor, self._fresh[1])
            self._fresh, kept = None, []
        for row in kept:
            self.cursor = max(self.cursor, row["cursor"])
            out.append(_event("row", row, self.cursor))
        return "".join(out)

    def lines(self, opening: str) -> Iterator[str]:
        """The stream as a WSGI body: a thread waits in the subscription between events."""
        ends = time.monotonic() + self.lifetime
        said = time.monotonic()
        try:
            yield opening
            while (left := ends - time.monotonic()) > 0 and not self.subscription.closed:
                rows = self.subscription.take(min(self.heartbeat, left))
                if self.due(rows) and not self.lookup():
                    break
                if out := self.text(rows):
                    yield out
                    said = time.monotonic()
                elif time.monotonic() - said >= self.heartbeat:
                    yield HEARTBEAT
                    said = time.monotonic()
        finally:
            self.subscription.close()  # the client went away, or the stream's time is up

    async def serve(self, write: Callable[[str], Awaitable[bool]], over: asyncio.Event) -> None:
        """The stream after its opening, on an event loop: ``write(text)`` sends (False: the
        client is gone or stopped reading, the stream ends); ``over`` is set when the client
        disconnects or the server stops. Rows wake it through the subscription; only a
        tournament's round lookup goes to a thread."""
        loop = asyncio.get_running_loop()
        wake = asyncio.Event()
        wakeups = Wakeups.of(loop)
        self.subscription.on_ready(lambda: wakeups.wake(wake))
        watcher = loop.create_task(over.wait())
        watcher.add_done_callback(lambda _: wake.set())
        ends = loop.time() + self.lifetime
        said = loop.time()
        beat = False  # the clock says a heartbeat is due

        def tick() -> None:
            # The heartbeat's clock, one timer a heartbeat rather than one a wake-up (with
            # 1,000 streams of a club, those timers were a fifth of the event loop's time on
            # each append): once the stream has said nothing for a heartbeat (give or take the
            # loop's clock, which may run a timer a little early) a heartbeat is due; else it
            # looks again a heartbeat after the stream last spoke. At the stream's end it wakes
            # the stream for the last time.
            nonlocal clock, beat
            now = loop.time()
            if now >= ends:
                wake.set()
                return
            due = said + self.heartbeat
            if now + 0.001 >= due:
                beat = True
                wake.set()
                due = now + self.heartbeat
            clock = loop.call_at(min(due, ends), tick)

        clock = loop.call_at(min(said + self.heartbeat, ends), tick)
        try:
            while loop.time() < ends and not over.is_set():
                await wake.wait()
                wake.clear()
                if over.is_set() or self.subscription.closed:
                    break  # the client went, the server stops, or the token was revoked
                rows = self.subscription.take()
                if self.due(rows) and not await asyncio.to_thread(self.lookup):
                    break
                if out := self.text(rows):
                    said, beat = loop.time(), False
                    if not await write(out):
                        break
                elif beat:
                    said, beat = loop.time(), False
                    if not await write(HEARTBEAT):
                        break
        finally:
            clock.cancel()
            watcher.cancel()
            self.subscription.close()


HEARTBEAT = ": still here\n\n"  # a comment: the client ignores it


# ------------------------------------------------------------------------ the OpenAPI document

class _Club(Schema):
    slug = fields.String(required=True)
    name = fields.String(required=True)
    public = fields.Boolean(required=True)
    timezone = fields.String(required=True, allow_none=True, metadata={
        "description": "the club's time zone (an IANA name; null: UTC), the one the board says "
                       "its times in"})


class ScoreboardRowSchema(Schema):
    """One table of the board: what the table saw, never a tile of a hand."""

    match = fields.Integer(required=True)
    table = fields.Raw(allow_none=True, required=True, metadata={"description": "the table's label"})
    event = fields.String(allow_none=True, required=True)
    tournament_round = fields.Integer(allow_none=True, required=True, metadata={
        "description": "the tournament's round the table was paired in; null for a table of "
                       "no tournament"})
    sides = fields.List(fields.String(), required=True)
    players = fields.List(fields.String(), required=True)
    round = fields.Integer(allow_none=True, required=True, metadata={
        "description": "the last dealt round; null before the first deal"})
    totals = fields.List(fields.Integer(), required=True)
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    turn = fields.Integer(allow_none=True, required=True)
    turn_name = fields.String(allow_none=True, required=True)
    may_lead_names = fields.List(fields.String(), required=True)
    counts = fields.List(fields.Integer(), required=True, metadata={
        "description": "tiles each seat holds (in play); never which"})
    boneyard = fields.Integer(allow_none=True, required=True)
    rules = fields.Dict(required=True, metadata={
        "description": "the match's rules a card's words follow: partnerships, scoring, draw "
                       "(Fives and Threes' undealt tiles are sleeping tiles, not a boneyard)"})
    shows_undealt = fields.Boolean(required=True, metadata={
        "description": "whether the card says the undealt tiles (boneyard): while a round is in "
                       "play, where the game has them (the match screen's shows_undealt)"})
    undealt = fields.String(allow_none=True, required=True, validate=validate.OneOf(UNDEALT_WORDS),
                            metadata={"description": "the word the card says the undealt tiles "
                                      "with: sleeping_tiles (Fives and Threes), boneyard; null "
                                      "where it says none (shows_undealt false)"})
    phase = fields.String(required=True)
    winner = fields.Integer(allow_none=True, required=True)
    winner_name = fields.String(allow_none=True, required=True)
    disputes = fields.Integer(required=True)
    seq = fields.Integer(required=True)
    updated_at = fields.String(required=True, metadata={"format": "date-time"})
    cursor = fields.Integer(required=True, metadata={"description": "Last-Event-ID to resume from"})


class _Round(Schema):
    slug = fields.String(required=True)
    name = fields.String(required=True)
    round = fields.Integer(allow_none=True, required=True)


class ScoreboardSchema(Schema):
    club = fields.Nested(_Club, required=True)
    tournament = fields.Nested(_Round, metadata={"description": "a tournament's board only"})
    rows = fields.List(fields.Nested(ScoreboardRowSchema), required=True)
    cursor = fields.Integer(required=True)


STREAM_DESCRIPTION = (
    "Server-sent events (text/event-stream): `snapshot` (all the rows) first, or with "
    "`Last-Event-ID` the rows changed since that cursor; then a `row` event for each table that "
    "changes, its `id:` the cursor; a comment every 15 s; the stream ends after ten minutes. "
    "A public club is read without a token. 503 with Retry-After past this server's caps of "
    "streams in all, of the club, or to the client's address; a share of each is kept for "
    "streams opened with a token of the club, which no stream without one takes "
    "(docs/deploy.md).")


def document(api: Any, app: Flask) -> None:
    """The scoreboard's JSON and streams in the OpenAPI document (its views are a plain flask
    blueprint: the pages' and the streams' answers are not marshalled)."""
    rules = {r.rule.replace("<string:", "{").replace(">", "}"): r for r in app.url_map.iter_rules()
             if r.endpoint.startswith(blp.name + ".")}

    class Spec:  # apispec's flask plugin names a path by its werkzeug rule
        @staticmethod
        def path(path: str, operations: dict[str, Any]) -> None:
            api.spec.path(rule=rules[path], operations=operations)

    spec = Spec
    api.spec.components.schema("ScoreboardRow", schema=ScoreboardRowSchema)
    api.spec.components.schema("Scoreboard", schema=ScoreboardSchema)
    club = {"name": "club", "in": "path", "required": True, "schema": {"type": "string"}}
    tournament = {"name": "tournament", "in": "path", "required": True,
                  "schema": {"type": "string"}}
    problem_ = {"$ref": "#/components/responses/DEFAULT_ERROR"}
    errors = {**{str(code): problem_ for code in (401, 403, 404)}, "default": problem_}
    board = {"200": {"description": "the rows now and the cursor",
                     "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Scoreboard"}}}},
             **errors}
    stream = {"200": {"description": "the stream", "content": {"text/event-stream": {
        "schema": {"type": "string"}}}}, **errors, "422": problem_, "503": problem_}
    resume = {"name": "Last-Event-ID", "in": "header", "required": False,
              "schema": {"type": "string", "pattern": "^[0-9]{1,18}$"},
              "description": "the cursor of the last event received"}
    for base in ("/api/v1/clubs/{club}", "/api/v1/pages/clubs/{club}"):
        tag = ["scoreboard"]
        spec.path(path=base + "/scoreboard", operations={"get": {
            "tags": tag, "summary": "The club night's scoreboard: its tables now",
            "parameters": [club], "responses": board, "security": [{"bearer": []}, {}]}})
        spec.path(path=base + "/tournaments/{tournament}/scoreboard", operations={"get": {
            "tags": tag, "summary": "A tournament's scoreboard: its current round's tables",
            "parameters": [club, tournament], "responses": board,
            "security": [{"bearer": []}, {}]}})
    spec.path(path="/api/v1/clubs/{club}/scoreboard/stream", operations={"get": {
        "tags": ["scoreboard"], "summary": "The club night's scoreboard as it changes",
        "description": STREAM_DESCRIPTION, "parameters": [club, resume], "responses": stream,
        "security": [{"bearer": []}, {}]}})
    spec.path(path="/api/v1/clubs/{club}/tournaments/{tournament}/scoreboard/stream",
              operations={"get": {
                  "tags": ["scoreboard"], "summary": "A tournament's scoreboard as it changes",
                  "description": STREAM_DESCRIPTION + " A new round paired: a new snapshot.",
                  "parameters": [club, tournament, resume], "responses": stream,
                  "security": [{"bearer": []}, {}]}})
