"""The live scoreboard: every table of a club night (or of a tournament's round), its score and
status, and the rows that change as events are appended, for a projector and for phones
(``docs/pages.md``, "The live scoreboard").

A row shows only what the table saw, whoever asks: it is built from the record as the club's
public reader sees it (:class:`.view.MatchView`: a round in play's hands taken out), and it holds
only the table label, the side names, the round, the totals, the status, whose turn and how
many tiles each seat holds. Never a tile of a hand: not for a viewer, not for a referee, whose
screen at the table is another page.

Who is told what changed, across processes: :mod:`referee.store.notify` (PostgreSQL
LISTEN/NOTIFY, sent once appends have committed; on SQLite, polling). In one
process one :class:`Hub` thread listens (or polls) for every scoreboard stream the process
serves and hands each its clubs' rows: fan-out in memory within a process is all there is, and
a stream served by any worker hears of an append made by any other.

A stream's position is a *cursor*: the time (microseconds since the epoch, UTC) of the latest
change it was sent. A client that comes back with it is sent the rows changed since (with a
margin for clocks of other machines; a row sent twice is harmless, as each carries its seq).
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
import time
from collections import Counter, OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable

from sqlalchemy import Row

from ..core.outcomes import IN_PROGRESS
from ..core.said import said_n
from ..core.vocab import ABANDONED, LIVE_STATUSES, side_names, whole_number
from ..store import notify
from ..store.codec import as_utc
from ..store.tournaments import tournament_of_match
from .access import PUBLIC, Caller, public_reader
from .clubs import reader
from .errors import Invalid, ServiceError
from .lookup import club_row
from .screen import shows_undealt
from .uow import PRIMARY, UnitOfWork, use_case
from .view import MatchView

if TYPE_CHECKING:
    from . import Service

log = logging.getLogger("domino.live")

POLL_SECONDS = 0.25  # SQLite: how often the tables are polled (a read of the board's rows)
# PostgreSQL: a poll now and then: tables created since (a match is announced by its first
# event), a notification lost (store.notify), anything missed while the listener was down.
RESYNC_SECONDS = 10.0
RECONNECT_SECONDS = (0.5, 1.0, 2.0, 5.0)  # the listener's waits between tries to reconnect
CLOCK_MARGIN = dt.timedelta(seconds=5)  # a resume re-sends this much before its cursor


@dataclass(frozen=True)
class StreamCaps:
    """How many scoreboard streams one process serves at once: in all, of one club, to one
    client address; beyond any of them, Busy. Served by the asynchronous front (api.asgi) a
    stream costs no request thread, only a socket and a queue, so the process cap is high; the
    club and client caps keep one club's crowd, or one client, from taking the others' share
    (docs/deploy.md, "Live scoreboards").

    ``reserved`` per cent of the process's streams and of each club's are kept for signed-in
    members (a stream opened with a token of the club): streams without a token (a public
    club's visitors) take at most the rest, so that no anonymous flood, from however many
    addresses, leaves a club's projector or referee without its board. Phones behind one router
    share its address: the client cap counts an address's streams with a token and without one
    apart, so visitors on a club's Wi-Fi never take its members' streams either."""

    process: int = 2000
    club: int = 500
    client: int = 32
    reserved: int = 25

    def anonymous(self, cap: int) -> int:
        """Of ``cap`` streams, how many may be opened without a token."""
        return cap - cap * min(max(self.reserved, 0), 100) // 100


STATUSES = LIVE_STATUSES


class Busy(ServiceError):
    """This process serves as many scoreboard streams as it may (HTTP 503, Retry-After)."""


def cursor_of(moment: dt.datetime) -> int:
    """A cursor: microseconds since the epoch, UTC."""
    return int(as_utc(moment).timestamp() * 1_000_000)


def moment_of(cursor: Any) -> dt.datetime:
    """The time a cursor names (Invalid for anything that is not one)."""
    text = str(cursor).strip()
    number = whole_number(text)
    if number is None or len(text) > 18:
        raise Invalid("a scoreboard cursor is a whole number of microseconds, not %(cursor)r",
                      cursor=cursor)
    return dt.datetime.fromtimestamp(number / 1_000_000, dt.timezone.utc)


def status_of(summary: dict[str, Any]) -> str:
    """live, finished or disputed (open disputes, in play or finished); abandoned for a match
    withdrawn, which the board no longer shows."""
    if summary["status"] == ABANDONED:
        return ABANDONED
    if summary["violations"]:
        return "disputed"
    return "finished" if summary["status"] == "finished" else "live"


def _club(row: Row) -> dict[str, Any]:
    return {"slug": row.slug, "name": row.name, "public": bool(row.public),
            "timezone": row.timezone}


def _table_key(row: dict[str, Any]) -> tuple[Any, ...]:
    """Tables in their number order (1, 2, 10; labels that are not numbers after, by text),
    then by match id."""
    label = row["table"]
    text = "" if label is None else str(label).strip()
    number = whole_number(text)  # (a label "²" is text: int() refuses it)
    if number is not None:
        return (0, number, "", row["match"])
    return (1 if text else 2, 0, text.casefold(), row["match"])


def _paired_round(uow: UnitOfWork, match_id: int) -> int | None:
    """The tournament's round the match was paired in, if it is a tournament's table."""
    paired = tournament_of_match(uow.conn, match_id)
    return paired.round if paired is not None else None


class Scoreboard:
    """The scoreboard's use cases; :attr:`hub` tells the streams of this process what moved."""

    def __init__(self, svc: "Service", *, poll_seconds: float = POLL_SECONDS,
                 resync_seconds: float = RESYNC_SECONDS, caps: StreamCaps = StreamCaps()) -> None:
        self.svc = svc
        self.matches = svc.matches
        self.units = svc.units  # the primary: its streams are told of the primary's appends
        self.hub = Hub(self, poll_seconds=poll_seconds, resync_seconds=resync_seconds, caps=caps)

    # ------------------------------------------------------------------------ reading


    def night_starts(self) -> str:
        """The first date (YYYY-MM-DD) a club night's finished tables are shown from:
        yesterday's, so that a night past midnight keeps its tables."""
        return (self.svc.clock().date() - dt.timedelta(days=1)).isoformat()

    @use_case(PRIMARY)
    def board(self, uow: UnitOfWork, club: str, *, who: Caller | None = None) -> dict[str, Any]:
        """The club night's scoreboard now: ``{"club", "rows", "cursor"}``, rows in table
        order (what the page and its JSON twin show). ``who`` must read the club; without a
        token, the public reader of a public club (Unauthorized otherwise), as its pages do."""
        reader(uow, club, who)
        found = club_row(uow, club)
        rows = self._rows(uow, notify.board_rows(uow.conn, found.id, self.night_starts()))
        return {"club": _club(found), "rows": rows,
                "cursor": max((r["cursor"] for r in rows), default=0)}

    @use_case(PRIMARY)
    def tournament_board(self, uow: UnitOfWork, club: str, tournament: str, *,
                         who: Caller | None = None) -> dict[str, Any]:
        """A tournament's scoreboard: the tables of its current round (the last one paired;
        ``svc.tournaments.round_tables``), finished or not: ``{"club", "tournament", "rows",
        "cursor"}``, ``tournament`` with its slug, name and ``round`` (None before the first
        is paired)."""
        who = reader(uow, club, who)
        shown = self.svc.tournaments.show.within(uow, club, tournament, who=who)
        paired = shown["paired_rounds"]
        number = paired[-1]["number"] if paired else None
        ids = [t["match"] for t in self.svc.tournaments.round_tables.within(
            uow, club, tournament, number, who=who)] if number is not None else []
        found = club_row(uow, club)
        rows = self._rows(uow, notify.board_rows(uow.conn, found.id, None, ids)) if ids else []
        rows = [r for r in rows if r["status"] != ABANDONED]  # a table withdrawn is not shown
        return {"club": _club(found),
                "tournament": {"slug": shown["slug"], "name": shown["name"], "round": number},
                "rows": rows, "cursor": max((r["cursor"] for r in rows), default=0)}

    @use_case(PRIMARY)
    def changed(self, uow: UnitOfWork, club: str, cursor: Any, *,
                who: Caller | None = None) -> list[dict[str, Any]]:
        """The rows of the club's scoreboard changed since ``cursor`` (a stream's Last-Event-ID),
        with a margin before it for the clocks of other machines."""
        reader(uow, club, who)
        since = moment_of(cursor) - CLOCK_MARGIN
        club_id = club_row(uow, club).id
        ids = notify.changed_since(uow.conn, club_id, self.night_starts(), since)
        return self.rows_of(uow, club_id, ids) if ids else []

    def rows_of(self, uow: UnitOfWork, club_id: int, ids: Iterable[int]) -> list[dict[str, Any]]:
        """The scoreboard rows of the club's matches ``ids``, whatever their date: a table
        the board showed gets its last update, finished or not (the page adds a table it did
        not show only while it is live)."""
        return self._rows(uow, notify.board_rows(uow.conn, club_id, None, ids))

    def _rows(self, uow: UnitOfWork, rows: Iterable[Row]) -> list[dict[str, Any]]:
        rows = list(rows)
        if not rows:
            return []
        reader = public_reader(rows[0].club)  # a row shows what the table saw, to anyone
        return sorted((self.row(MatchView(record, reader), _paired_round(uow, record.id))
                       for record in self.matches.get_many(uow, rows)), key=_table_key)

    @staticmethod
    def row(view: MatchView, tournament_round: int | None = None) -> dict[str, Any]:
        """One table's row, from its record as the club's public reader sees it: never a hand,
        whoever asks."""
        record = view.record
        summary, pos = view.summary(), view.position()
        players = list(record.players)
        sides = side_names(record.rules, players)
        in_play = summary["status"] == "in_progress"
        turn = pos.turn if in_play else None
        winner = summary["winner"]
        return {
            "match": record.id, "table": record.header.get("table"),
            "event": record.header.get("event"),
            # the tournament's round the table was paired in (not the match's own rounds)
            "tournament_round": tournament_round,
            "sides": sides, "players": players, "round": summary["round"],
            "totals": summary["totals"], "status": status_of(summary),
            "turn": turn, "turn_name": players[turn] if turn is not None else None,
            "may_lead_names": [players[s] for s in pos.may_lead] if in_play else [],
            "counts": list(pos.counts) if in_play else [],
            "boneyard": pos.boneyard if in_play else None,
            # the rules the card's words follow (what its undealt tiles are called, whether a
            # side is a partnership); the rest of them are the match's page's
            "rules": {k: summary["rules"].get(k) for k in ("partnerships", "scoring", "draw")},
            # the card says the undealt tiles while a round is in play, where the game has them
            "shows_undealt": (in_play and pos.phase == IN_PROGRESS
                              and shows_undealt(summary["rules"], pos.boneyard)),
            "phase": pos.phase, "winner": winner,
            "winner_name": sides[winner] if winner is not None else None,
            "disputes": summary["violations"], "seq": record.last_seq,
            "updated_at": as_utc(record.updated_at).isoformat(),
            "cursor": cursor_of(record.updated_at),
        }

    # ------------------------------------------------------------------------ streaming

    def subscribe(self, club: str, *, who: Caller | None = None,
                  client: str = "") -> "Subscription":
        """A stream's subscription to the club's rows as they change, for the client at address
        ``client`` (Busy when this process serves as many as it may, in all, of the club or to
        that address: StreamCaps). Taken before the stream reads its first rows, so that
        nothing between the two is missed. Close it when the stream ends."""
        with self.units.open(PRIMARY) as uow:
            who = reader(uow, club, who)
            club_id = club_row(uow, club).id
        return self.hub.subscribe(club, club_id, client, who.token_id,
                                  member=who.role != PUBLIC)


@dataclass(eq=False)  # each is its own: kept in sets by identity
class Subscription:
    """One stream's queue: the latest row of each table changed since it last took them
    (a slow client gets each table once, at its newest, however many events it missed)."""

    club: str
    hub: "Hub"
    client: str = ""
    token_id: int | None = None  # the token it was opened with: revoked, the stream ends
    member: bool = False  # opened by a reader of the club, not by a public club's visitor

    def __post_init__(self) -> None:
        self._pending: OrderedDict[int, dict[str, Any]] = OrderedDict()
        self._ready = threading.Condition()
        self._waker: Callable[[], None] | None = None
        self.closed = False

    def put(self, rows: Iterable[dict[str, Any]]) -> None:
        with self._ready:
            for row in rows:
                self._pending.pop(row["match"], None)
                self._pending[row["match"]] = row
            self._ready.notify_all()
            waker = self._waker
        if waker is not None:
            waker()

    def on_ready(self, waker: Callable[[], None]) -> None:
        """Call ``waker()`` (from the hub's thread) whenever rows come: how a stream served on
        an event loop learns of them without a thread waiting in :meth:`take`."""
        with self._ready:
            self._waker = waker

    def take(self, timeout: float = 0.0) -> list[dict[str, Any]]:
        """The rows changed since the last take, waiting up to ``timeout`` seconds for one
        (an empty list: none came; time for a heartbeat). 0: what has come, at once."""
        with self._ready:
            if not self._pending and not self.closed and timeout > 0:
                self._ready.wait(timeout)
            rows = list(self._pending.values())
            self._pending.clear()
            return rows

    def close(self) -> None:
        with self._ready:
            if self.closed:
                return
            self.closed = True
            self._ready.notify_all()
            waker = self._waker
        self.hub.unsubscribe(self)
        if waker is not None:
            waker()


def _less(counter: Counter[Any], key: Any) -> None:
    """One fewer of ``key`` (none left: gone from ``counter``)."""
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]


class Hub:
    """One thread a process: it listens (PostgreSQL) or polls (SQLite) for the clubs its
    streams watch, builds each changed table's row once, and puts it in each stream's queue.
    It starts with the first subscription and stops when the last one closes."""

    def __init__(self, board: Scoreboard, *, poll_seconds: float, resync_seconds: float,
                 caps: StreamCaps) -> None:
        self.board = board
        self.poll_seconds = poll_seconds
        self.resync_seconds = resync_seconds
        self.caps = caps
        self._lock = threading.Lock()
        self._subscribers: dict[str, set[Subscription]] = {}
        # (client address, opened with a token) -> its open subscriptions
        self._clients: Counter[tuple[str, bool]] = Counter()
        self._anonymous: Counter[str] = Counter()  # club -> its open subscriptions without a token
        self._club_ids: dict[str, int] = {}
        self._seen: dict[int, int] = {}  # match id -> the last seq its rows were built at
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        # Set once the thread listens (PostgreSQL) or has polled once (SQLite): from then on
        # every append reaches the streams without waiting for a resync.
        self.ready = threading.Event()

    @property
    def subscribed(self) -> int:
        """The subscriptions open now (streams being served)."""
        with self._lock:
            return sum(len(s) for s in self._subscribers.values())

    @property
    def listening(self) -> bool:
        return self.board.units.engine.dialect.name == "postgresql"

    def subscribe(self, club: str, club_id: int, client: str = "", token_id: int | None = None,
                  *, member: bool = False) -> Subscription:
        subscription = Subscription(club, self, client, token_id, member)
        with self._lock:
            if full := self._full(club, client, member):
                raise full
            self._clients[client, member] += 1
            if not member:
                self._anonymous[club] += 1
            if club not in self._subscribers:
                self._club_ids[club] = club_id
                self._seed(club_id)
            self._subscribers.setdefault(club, set()).add(subscription)
            # A thread told to stop (its last stream closed) may still be winding down.
            if self._thread is None or not self._thread.is_alive() or self._stop.is_set():
                self._stop = threading.Event()
                self.ready.clear()
                self._thread = threading.Thread(target=self._run, args=(self._stop,),
                                                name="domino-scoreboard", daemon=True)
                self._thread.start()
        return subscription

    def _full(self, club: str, client: str, member: bool) -> Busy | None:
        """Busy, saying which cap a new stream of ``club`` to ``client`` (opened with a token of
        the club: ``member``) would pass; None when it may open (under the lock)."""
        caps = self.caps
        if sum(len(s) for s in self._subscribers.values()) >= caps.process:  # as subscribed
            return Busy(said_n("this server streams %(num)s scoreboard at once already; the "
                               "page retries by itself", "this server streams %(num)s "
                               "scoreboards at once already; the page retries by itself",
                               caps.process))
        if not member and sum(self._anonymous.values()) >= caps.anonymous(caps.process):
            return Busy(said_n("this server streams %(num)s scoreboard without a token at "
                               "once already (the rest are kept for the clubs' members); the "
                               "page retries by itself", "this server streams %(num)s "
                               "scoreboards without a token at once already (the rest are kept "
                               "for the clubs' members); the page retries by itself",
                               caps.anonymous(caps.process)))
        if len(self._subscribers.get(club, ())) >= caps.club:
            return Busy(said_n("this server streams %(num)s scoreboard of this club at once "
                               "already; the page retries by itself", "this server streams "
                               "%(num)s scoreboards of this club at once already; the page "
                               "retries by itself", caps.club))
        if not member and self._anonymous[club] >= caps.anonymous(caps.club):
            return Busy(said_n("this server streams %(num)s scoreboard of this club without a "
                               "token at once already (the rest are kept for its members); the "
                               "page retries by itself", "this server streams %(num)s "
                               "scoreboards of this club without a token at once already (the "
                               "rest are kept for its members); the page retries by itself",
                               caps.anonymous(caps.club)))
        if self._clients[client, member] >= caps.client:
            return Busy(said_n("this server streams %(num)s scoreboard to your address at once "
                               "already; the page retries by itself", "this server streams "
                               "%(num)s scoreboards to your address at once already; the page "
                               "retries by itself", caps.client))
        return None

    def unsubscribe(self, subscription: Subscription) -> None:
        with self._lock:
            found = self._subscribers.get(subscription.club)
            if found is None or subscription not in found:
                return
            found.discard(subscription)
            _less(self._clients, (subscription.client, subscription.member))
            if not subscription.member:
                _less(self._anonymous, subscription.club)
            if not found:
                del self._subscribers[subscription.club]
                self._club_ids.pop(subscription.club, None)
            if not self._subscribers:
                self._stop.set()

    def end_all(self) -> None:
        """Every open stream ended now: its subscription closed, so that a thread waiting in
        :meth:`Subscription.take` returns at once rather than at its next heartbeat (for a
        plain WSGI server stopping: such a thread would hold its stop up to a heartbeat)."""
        with self._lock:
            open_now = [s for found in self._subscribers.values() for s in found]
        for subscription in open_now:
            subscription.close()  # unsubscribes, under the lock: not taken while it is held

    def close(self) -> None:
        """Stop the thread (the streams' queues are left as they are)."""
        with self._lock:
            self._stop.set()
            thread = self._thread
        if thread is not None:
            thread.join(timeout=10)

    # ------------------------------------------------------------------------ the thread

    def _seed(self, club_id: int) -> None:
        """What a poll compares with, for a club newly watched (under the lock)."""
        with self.board.units.open(PRIMARY) as uow:
            for r in notify.last_seqs(uow.conn, [club_id], self.board.night_starts()):
                self._seen[r.id] = r.last_seq

    def _run(self, stop: threading.Event) -> None:
        try:
            if self.listening:
                self._listen(stop)
            else:
                next_check = time.monotonic() + self.resync_seconds
                while not stop.wait(self.poll_seconds):
                    self._guarded(self._deliver, self._poll())
                    self.ready.set()
                    if time.monotonic() >= next_check:
                        self._guarded(self._end_revoked)
                        next_check = time.monotonic() + self.resync_seconds
        except Exception:  # pragma: no cover - a bug: the next subscription starts another
            log.exception("the scoreboard thread stopped")

    def _listen(self, stop: threading.Event) -> None:
        listener: notify.Listener | None = None
        failures = 0
        next_resync = 0.0
        try:
            while not stop.is_set():
                if listener is None:
                    try:
                        listener = notify.Listener(self.board.units.engine)
                        failures = 0
                        next_resync = 0.0  # catch up on what was appended while down
                    except Exception as error:
                        wait = RECONNECT_SECONDS[min(failures, len(RECONNECT_SECONDS) - 1)]
                        failures += 1
                        log.warning("scoreboard listener cannot connect (%s); again in %s s",
                                    type(error).__name__, wait)
                        stop.wait(wait)
                        continue
                notices: list[notify.Notice] = []
                if time.monotonic() >= next_resync:
                    notices += self._guarded(self._poll) or []
                    self._guarded(self._end_revoked)
                    next_resync = time.monotonic() + self.resync_seconds
                    self.ready.set()
                try:
                    notices += listener.wait(timeout=min(1.0, self.resync_seconds))
                except Exception as error:
                    log.warning("scoreboard listener lost its connection (%s)",
                                type(error).__name__)
                    listener.close()
                    listener = None
                self._guarded(self._deliver, notices)
        finally:
            if listener is not None:
                listener.close()

    def _guarded(self, work: Callable[..., Any], *args: Any) -> Any:
        """``work(*args)``; a database failure is logged and waited out (the next poll or
        resync catches up), never the end of the thread."""
        try:
            return work(*args)
        except Exception as error:
            log.warning("scoreboard: %s: %s", type(error).__name__, error)
            self._stop.wait(self.poll_seconds)
            return None

    def _end_revoked(self) -> None:
        """Close the subscriptions whose token was revoked since they opened (their streams
        end; a reconnection is refused 401): at most RESYNC_SECONDS after the revocation."""
        with self._lock:
            held = [s for found in self._subscribers.values() for s in found
                    if s.token_id is not None]
        revoked = self.board.svc.tokens.revoked_among(sorted({s.token_id for s in held}))  # type: ignore[misc]
        for subscription in held:
            if subscription.token_id in revoked:
                subscription.close()

    def _poll(self) -> list[notify.Notice]:
        """The watched tables whose last seq moved since they were last built."""
        with self._lock:
            clubs = dict(self._club_ids)
        if not clubs:
            return []
        slugs = {club_id: slug for slug, club_id in clubs.items()}
        with self.board.units.open(PRIMARY) as uow:
            found = notify.last_seqs(uow.conn, slugs, self.board.night_starts())
        return [notify.Notice(slugs[r.club_id], r.id, r.last_seq) for r in found
                if self._seen.get(r.id) != r.last_seq]

    def _deliver(self, notices: list[notify.Notice]) -> None:
        """Each changed table's row, built once, into the queues of its club's streams."""
        newest: dict[int, notify.Notice] = {}
        for n in notices:
            if n.match_id not in newest or n.seq > newest[n.match_id].seq:
                newest[n.match_id] = n
        with self._lock:
            by_club: dict[str, list[int]] = {}
            for n in newest.values():
                if n.club in self._subscribers and self._seen.get(n.match_id, -1) < n.seq:
                    by_club.setdefault(n.club, []).append(n.match_id)
            clubs = {c: self._club_ids[c] for c in by_club}
        if not by_club:
            return
        with self.board.units.open(PRIMARY) as uow:
            built = {club: self.board.rows_of(uow, clubs[club], ids)
                     for club, ids in by_club.items()}
        with self._lock:
            for club, rows in built.items():
                for row in rows:
                    self._seen[row["match"]] = max(self._seen.get(row["match"], -1), row["seq"])
                for subscription in self._subscribers.get(club, ()):
                    subscription.put(rows)
