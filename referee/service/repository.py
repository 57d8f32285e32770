"""The match repository: gets a match's record and puts a new event onto it; nothing else.

Judging an event needs the match replayed to its last event, and replaying a long match for
every append would make an append's cost grow with the match. So the repository keeps the last
few records it built (:class:`MatchRecord`), keyed by match id and last seq. A (match id, seq)
pair always names the same record, because events are never changed, so a cached record is
right in every process whatever the others write. A record is *taken* by the use case that gets
it (so no two threads ever touch one) and put back by the unit of work once it has committed,
never after a failure: a refused event, a lost race or a rollback leave the cache without it,
and the next use case reads the record afresh.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from sqlalchemy import Row

from .. import store
from ..store.macs import row_key
from . import checks
from .errors import Conflict, NotFound
from .lookup import match_row
from .record import MatchRecord
from .rowcheck import require_record, require_row
from .uow import UnitOfWork

CLUB_CACHE_SIZE = 100_000


class _Cache:
    """A small LRU of records, each taken (removed) by whoever uses it."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._entries: OrderedDict[int, MatchRecord] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, match_id: int, seq: int) -> MatchRecord | None:
        """The record as it stood after event ``seq``, if cached; it is the caller's now."""
        with self._lock:
            found = self._entries.get(match_id)
            if found is None or found.last_seq != seq:
                return None
            del self._entries[match_id]
            return found

    def put(self, record: MatchRecord) -> None:
        if self._size <= 0:
            return
        with self._lock:
            current = self._entries.get(record.id)
            if current is not None and current.last_seq > record.last_seq:
                return  # a newer record is cached already
            self._entries[record.id] = record
            self._entries.move_to_end(record.id)
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


class MatchRepository:
    """Holds no engine: every get and put is in the unit of work its use case was given."""

    def __init__(self, cache_size: int = 256) -> None:
        self._cache = _Cache(cache_size)
        self._clubs: dict[int, str] = {}  # a match's club never changes

    def forget_all(self) -> None:
        self._cache.clear()

    # ------------------------------------------------------------------------------ get

    def row(self, uow: UnitOfWork, match_id: Any, **kwargs: Any) -> Row:
        """The match's row (NotFound for an id that names none); read once in a read-only unit
        of work (``kwargs``, what an append asks besides, read it afresh)."""
        number = checks.match_number(match_id)
        row = match_row(uow, number, **kwargs) if number is not None else None
        if row is None:
            raise NotFound("no match %(match)r", match=match_id)
        require_row(row_key(uow.conn), row)  # a row changed behind the service: read nothing
        if number not in self._clubs and len(self._clubs) < CLUB_CACHE_SIZE:
            self._clubs[number] = row.club
        return row

    def club_of(self, match_id: Any) -> str | None:
        """The club of a match this process has seen (it never changes), else None."""
        number = checks.match_number(match_id)
        return self._clubs.get(number) if number is not None else None

    def cached(self, match_id: int, seq: int) -> MatchRecord | None:
        """The record at ``seq`` if this process holds it, taken: no database read. The caller
        gives it back through :meth:`keep` once its unit of work commits."""
        return self._cache.take(match_id, seq)

    def get(self, uow: UnitOfWork, row: Row) -> MatchRecord:
        """The record of the match of ``row`` (read in ``uow``), taken from the cache when it
        is there at the row's last seq, else read and replayed; back in the cache once ``uow``
        has committed. Asked again in a read-only ``uow``, the same record (a writing one
        pushes events onto it)."""
        key = ("record", row.id, row.last_seq)
        if key in uow.memo:
            return uow.memo[key]
        record = self._cache.take(row.id, row.last_seq)
        if record is None:
            # Up to the row's last seq: a writer that committed since the row was read (PostgreSQL
            # reads committed data statement by statement) is not this record's.
            rows = store.event_rows(uow.conn, row.id, upto=row.last_seq)
            require_record(row_key(uow.conn), row, rows)
            record = MatchRecord.load(row, rows)
        self.keep(uow, record)
        if not uow.writes:
            uow.memo[key] = record
        return record

    def get_many(self, uow: UnitOfWork, rows: list[Row]) -> list[MatchRecord]:
        """:meth:`get` for each of ``rows``, the records not cached read in one query."""
        records: dict[int, MatchRecord] = {}
        for row in rows:
            if (record := self._cache.take(row.id, row.last_seq)) is not None:
                records[row.id] = record
        missing = [row for row in rows if row.id not in records]
        if missing:
            found = store.event_rows_of(uow.conn, [row.id for row in missing])
            key = row_key(uow.conn)
            for row in missing:  # up to each row's last seq, as get reads them
                held = [e for e in found[row.id] if e.seq <= row.last_seq]
                require_record(key, row, held)
                records[row.id] = MatchRecord.load(row, held)
        for record in records.values():
            self.keep(uow, record)
        return [records[row.id] for row in rows]

    def give_back(self, record: MatchRecord) -> None:
        """A record taken with :meth:`cached` and left untouched (the use case was refused
        before it changed anything): still right at its seq."""
        self._cache.put(record)

    def keep(self, uow: UnitOfWork, record: MatchRecord) -> None:
        """Put ``record`` back in the cache once ``uow`` has committed (never on failure)."""
        uow.after_commit(lambda: self._cache.put(record))

    # ------------------------------------------------------------------------------ put

    def put(self, uow: UnitOfWork, record: MatchRecord, new: store.NewEvent,
            projection: store.Projection) -> int:
        """Store ``new`` as the record's last event (``record.push`` has judged it): one
        compare-and-set of the match's projection from the seq before it, and the insert.
        Conflict when another writer came first."""
        last = record.last_seq - 1
        try:
            # Chained on from the record's head (it stood at ``last``): the store's
            # compare-and-set refuses a wrong link.
            appended = store.append(uow.conn, record.id, last, [new], projection,
                                    projection.updated_at, record.head)
        except store.StaleSeq:
            raise Conflict(None, last) from None
        record.stored(appended.seq, appended.head, projection.updated_at)
        return appended.seq
