"""The match repository: a match's record loaded, replayed and appended to, written once.

Recording an event judges it against the replayed record. Replaying a long match for every
append would make an append's cost grow with the match, so the repository keeps the last few
:class:`Match` objects it built, keyed by match id and last seq, and pushes only the new event
onto the one that is current. A (match id, seq) pair always names the same record, because
events are never changed, so the cache is right in every process whatever the others write; a
miss, a void (it can change the past) or any failure means a replay from the database.
"""

from __future__ import annotations

import datetime as dt
import threading
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence

from sqlalchemy import Connection, Engine, Row

from .. import store
from ..core.disputes import open_count
from ..core.events import Violation
from ..core.match import Match
from ..core.position import Position, position
from ..core.replay import Replay, replay
from ..core.rules import Rules
from ..store import db, notify
from ..store.standings import transaction as standings_transaction
from . import checks
from .errors import Conflict, IdempotencyMismatch, IllegalEvent, NotFound
from .ratings import record_standing

CONFLICT_RETRIES = 10  # for appends that name no expected seq (the CLI)
CLUB_CACHE_SIZE = 100_000


@dataclass
class Loaded:
    """A match replayed up to its last event: the core's Match, the seqs of the events it
    refused (disputed events), its club (so a cached append needs no read to check access) and,
    once known, the chain link of its last stored event (so a cached append needs no read to
    chain the next digest; None: read it when appending)."""

    match: Match
    refused: set[int]
    club: str
    head: str | None = None

    @classmethod
    def of(cls, result: Replay, club: str) -> "Loaded":
        return cls(result.match, {v.seq for v in result.violations}, club)

    @property
    def violations(self) -> int:
        """Open disputes: refused events and proven fouls no ruling settled."""
        return open_count(self.match, self.refused)

    def push(self, event: Any) -> Violation | None:
        violation = self.match.push(event)
        if violation is not None:
            self.refused.add(violation.seq)
        return violation


@dataclass(frozen=True)
class Recorded:
    """The outcome of an append. ``replayed``: the record was replayed from the database (no
    cached match); ``duplicate``: a retry with a known client event id, nothing stored."""

    seq: int
    event: Any
    violation: Violation | None
    state: Position
    replayed: bool
    duplicate: bool = False
    club: str = ""
    hands_hidden: bool = False  # the state leaves out hands the caller may not see


class _Cache:
    """A small LRU of replayed matches. An entry is *taken* (removed) by whoever uses it, so a
    Match is never touched by two threads at once, and put back only after a successful commit."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._entries: OrderedDict[int, tuple[int, Loaded]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, match_id: int, seq: int) -> Loaded | None:
        """The match as it stood after event ``seq``, if cached; it is the caller's now."""
        with self._lock:
            found = self._entries.get(match_id)
            if found is None or found[0] != seq:
                return None
            del self._entries[match_id]
            return found[1]

    def put(self, match_id: int, seq: int, entry: Loaded) -> None:
        if self._size <= 0:
            return
        with self._lock:
            current = self._entries.get(match_id)
            if current is not None and current[0] > seq:
                return  # a newer state is cached already
            self._entries[match_id] = (seq, entry)
            self._entries.move_to_end(match_id)
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


class MatchRepository:
    def __init__(self, engine: Engine, cache_size: int = 256,
                 clock: Callable[[], dt.datetime] = store.utcnow) -> None:
        self.engine = engine
        self.clock = clock
        self._cache = _Cache(cache_size)
        self._clubs: dict[int, str] = {}  # a match's club never changes
        # Called with the match's id after a commit that leaves it finished (the acta's
        # signing, svc.transparency); each must never raise.
        self.finished_hooks: list[Callable[[int], None]] = []

    def committed(self, match_id: int, finished: bool) -> None:
        """What follows a commit: the hooks, when the match is finished."""
        if finished:
            for hook in self.finished_hooks:
                hook(match_id)


    def forget_all(self) -> None:
        self._cache.clear()

    def remember(self, match_id: int, entry: Loaded) -> None:
        self._cache.put(match_id, entry.match.seq, entry)

    # ------------------------------------------------------------------------------ reading

    def row(self, conn: Connection, match_id: Any, **kwargs: Any) -> Row:
        """The match's row (NotFound for an id that names none)."""
        number = checks.match_number(match_id)
        row = store.match_row(conn, number, **kwargs) if number is not None else None
        if row is None:
            raise NotFound(f"no match {match_id!r}")
        return row

    def club_of(self, match_id: Any) -> str:
        """The club a match belongs to (NotFound for none), cached: it never changes."""
        number = checks.match_number(match_id)
        club = self._clubs.get(number) if number is not None else None
        if club is None:
            with db.reading(self.engine) as conn:
                club = self.row(conn, match_id).club
            if len(self._clubs) >= CLUB_CACHE_SIZE:
                self._clubs.clear()
            self._clubs[number] = club
        return club

    @staticmethod
    def events(conn: Connection, row: Row, upto: int | None = None) -> list[Any]:
        return [store.load_json(t) for t in store.event_data(conn, row.id, upto=upto)]

    def replay(self, conn: Connection, row: Row, upto: int | None = None,
               extra: Sequence[Any] = ()) -> Replay:
        """The record (up to event ``upto``, then ``extra``) replayed from the database."""
        return replay(Rules(**row.rules), row.players, [*self.events(conn, row, upto), *extra])

    @contextmanager
    def current(self, conn: Connection, row: Row) -> Iterator[Loaded]:
        """The match as it stands (cached, or replayed and then cached), for a look only."""
        entry = (self._cache.take(row.id, row.last_seq)
                 or Loaded.of(self.replay(conn, row, row.last_seq), row.club))
        try:
            yield entry
        finally:
            self._cache.put(row.id, row.last_seq, entry)  # warm for the next append

    # ------------------------------------------------------------------------------ appending

    def append(self, match_id: int, event: Any, new: store.NewEvent, expected_seq: int | None,
               allow: Callable[[str], None]) -> Recorded:
        """Judge ``event`` against the record and store it as event expected_seq + 1 (``None``:
        at the end, whatever the end is). ``allow(club)`` raises if the caller may not record in
        the match's club. Illegal events raise IllegalEvent unless marked disputed; a lost race
        raises Conflict; a retry of a stored client event id answers the original result."""
        for attempt in range(CONFLICT_RETRIES + 1):
            try:
                return self._append(match_id, event, new, expected_seq, allow)
            except Conflict as conflict:
                if new.client_event_id is not None:
                    # A retry racing its own original: the original's result is the answer.
                    with db.reading(self.engine) as conn:
                        row = self.row(conn, match_id, client_event_id=new.client_event_id)
                        if row.duplicate_seq is not None:
                            return self._duplicate(conn, row, event)
                if expected_seq is None and attempt < CONFLICT_RETRIES:
                    continue
                if conflict.current_seq is None:
                    with db.reading(self.engine) as conn:
                        current = store.last_seq(conn, match_id)
                    raise Conflict(current, expected_seq) from None
                raise
        raise AssertionError("unreachable")

    def _append(self, match_id: int, event: Any, new: store.NewEvent, expected_seq: int | None,
                allow: Callable[[str], None]) -> Recorded:
        if expected_seq is not None and not checks.rewrites_the_record(event):
            entry = self._cache.take(match_id, expected_seq)
            if entry is not None:
                try:
                    allow(entry.club)
                except BaseException:
                    self._cache.put(match_id, expected_seq, entry)
                    raise
                return self._append_cached(match_id, event, new, expected_seq, entry)
        # A named expected seq is optimistic: read, judge, then one compare-and-set. "Append at
        # the end" takes the row lock first (PostgreSQL: FOR UPDATE) in a transaction, so such
        # writers queue instead of conflicting.
        scope = db.writing if expected_seq is None else db.optimistic
        with scope(self.engine) as conn:
            row = self.row(conn, match_id, client_event_id=new.client_event_id,
                           for_update=expected_seq is None)
            allow(row.club)
            if new.client_event_id is not None and row.duplicate_seq is not None:
                return self._duplicate(conn, row, event)
            last = row.last_seq
            if expected_seq is not None and expected_seq != last:
                raise Conflict(last, expected_seq)
            entry, violation, replayed = self._judge_next(conn, row, event)
            if violation is not None and not checks.disputed(event):
                raise IllegalEvent(violation)
            seq = self._store(conn, match_id, last, new, entry, row.status == "finished")
        self._cache.put(match_id, seq, entry)
        notify.send(self.engine, entry.club, match_id, seq)  # committed: the scoreboards hear
        self.committed(match_id, entry.match.finished)
        return Recorded(seq, event, violation, position(entry.match), replayed, club=entry.club)

    def _append_cached(self, match_id: int, event: Any, new: store.NewEvent, expected_seq: int,
                       entry: Loaded) -> Recorded:
        """The common case, in one statement: the match as it stood after ``expected_seq`` is
        cached, so nothing needs reading. The compare-and-set settles whether expected_seq is
        still the last (else Conflict, and append looks for an earlier copy of a retry)."""
        was_finished = entry.match.finished
        violation = entry.push(event)
        if violation is not None and not checks.disputed(event):
            # Before refusing, what the slow path checks first: a retry of a stored event gets
            # the original's result, and a stale client hears of the conflict.
            with db.reading(self.engine) as conn:
                row = self.row(conn, match_id, client_event_id=new.client_event_id)
                if new.client_event_id is not None and row.duplicate_seq is not None:
                    return self._duplicate(conn, row, event)
            if row.last_seq != expected_seq:
                raise Conflict(row.last_seq, expected_seq)
            raise IllegalEvent(violation)
        with db.optimistic(self.engine) as conn:
            seq = self._store(conn, match_id, expected_seq, new, entry, was_finished)
        self._cache.put(match_id, seq, entry)
        notify.send(self.engine, entry.club, match_id, seq)
        self.committed(match_id, entry.match.finished)
        return Recorded(seq, event, violation, position(entry.match), False, club=entry.club)

    def _store(self, conn: Connection, match_id: int, last: int, new: store.NewEvent,
               entry: Loaded, was_finished: bool) -> int:
        now = self.clock()
        projection = store.Projection.of(entry.match, entry.violations, now)
        # The link the new digest chains on from: the entry's (it stood at ``last``) or, for
        # a replayed one, the stored digest of event ``last``; the store's compare-and-set
        # refuses a wrong one.
        link = entry.head if entry.head is not None else store.chain_link(conn, match_id, last)
        try:
            if not (was_finished or entry.match.finished):  # nothing for the standings
                appended = store.append(conn, match_id, last, [new], projection, now, link)
            else:
                # The match finishes, or was finished: its standing rows and the club's ratings
                # change with the projection, in the same transaction (docs/standings.md).
                with standings_transaction(conn):
                    appended = store.append(conn, match_id, last, [new], projection, now, link)
                    record_standing(conn, match_id, entry.match, entry.violations, now,
                                    was_finished=was_finished)
        except store.StaleSeq:
            raise Conflict(None, last) from None
        entry.head = appended.head  # cached only once committed, by the callers
        return appended.seq

    def _judge_next(self, conn: Connection, row: Row, event: Any) -> tuple[Loaded, Violation | None, bool]:
        """The match with ``event`` pushed, the event's violation, and whether we replayed."""
        last = row.last_seq
        entry = None if checks.rewrites_the_record(event) else self._cache.take(row.id, last)
        if entry is not None:
            return entry, entry.push(event), False
        result = self.replay(conn, row, last, extra=[event])
        return Loaded.of(result, row.club), result.violation_at(last + 1), True

    def _duplicate(self, conn: Connection, row: Row, event: Any) -> Recorded:
        seq = row.duplicate_seq
        stored = store.load_json(store.event_by_seq(conn, row.id, seq).data)
        if store.canonical_json(stored) != store.canonical_json(event):
            raise IdempotencyMismatch(
                f"client event id already used for event {seq}, which was a different event")
        result = self.replay(conn, row, seq)
        return Recorded(seq, stored, result.violation_at(seq), position(result.match),
                        replayed=True, duplicate=True, club=row.club)
