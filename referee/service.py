"""The use cases, shared by the API and the CLI (``docs/service.md`` is the contract).

Every decision about a match is the rules core's: the service loads the record, asks the core,
and stores what the core accepted. Every query is the store's. What is here is the glue: input
checks, transactions, retries, and a small cache of replayed matches.

Recording an event judges it against the replayed record. Replaying a long match for every
append would make an append's cost grow with the match, so the service keeps the last few
:class:`Match` objects it built, keyed by match id and last seq, and pushes only the new event
onto the one that is current. A (match id, seq) pair always names the same record, because
events are never changed, so the cache is right in every process whatever the others write; a
miss, a void (it can change the past) or any failure means a replay from the database.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import hashlib
import re
import secrets
import threading
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable, Iterable, NamedTuple, Sequence

from sqlalchemy import Engine

from . import db, store
from .errors import (
    Conflict, Duplicate, Forbidden, IdempotencyMismatch, IllegalEvent, Invalid, NotFound,
    ServiceError, Unauthorized,
)
from .events import EVENT_TYPES, Violation, as_table_saw_it
from .log import (
    FORMAT, OPTIONAL_HEADER_FIELDS, LogError, iso_date, make_log, parse_header, read_log,
    write_log,
)
from .match import Match
from .position import Position, position
from .replay import replay, struck_events
from .report import build_report
from .rules import Rules
from .schema import NAME_LENGTH, ROLES, STATUSES

__all__ = [
    "Service", "open_service", "Recorded", "TokenInfo", "ServiceError", "NotFound", "Invalid",
    "IllegalEvent", "Conflict", "IdempotencyMismatch", "Duplicate", "Forbidden", "Unauthorized",
    "ROLES", "STANDING_COLUMNS",
]

SLUG = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")
MAX_EVENT_BYTES = 4 * 1024 * 1024  # a 1 MB note must fit; an event is a line of a log
MAX_ID = 2**31 - 1  # the id and seq columns are 32-bit integers on PostgreSQL
CONFLICT_RETRIES = 10
STANDING_COLUMNS = ("player", "played", "won", "lost", "points_for")  # for appends that name no expected seq (the CLI)


class TokenInfo(NamedTuple):
    club: str
    role: str
    token_id: int
    label: str | None


@dataclass(frozen=True)
class Recorded:
    """The outcome of ``record_event``. ``replayed``: the record was replayed from the database
    (no cached match); ``duplicate``: a retry with a known client event id, nothing stored."""

    seq: int
    event: Any
    violation: Violation | None
    state: Position
    replayed: bool
    duplicate: bool = False


@dataclass
class _Entry:
    match: Match
    violations: int  # how many violations the record holds (disputed events)


class _MatchCache:
    """A small LRU of replayed matches. An entry is *taken* (removed) by whoever uses it, so a
    Match is never touched by two threads at once, and put back only after a successful commit."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._entries: OrderedDict[int, tuple[int, _Entry]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, match_id: int, seq: int) -> _Entry | None:
        """The match as it stood after event ``seq``, if cached; it is the caller's now."""
        with self._lock:
            found = self._entries.get(match_id)
            if found is None or found[0] != seq:
                return None
            del self._entries[match_id]
            return found[1]

    def put(self, match_id: int, seq: int, entry: _Entry) -> None:
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


def open_service(url: str | None = None) -> "Service":
    """A service over DOMINO_DATABASE_URL, or ``url``, or the embedded SQLite file. It runs no
    migration: call ``upgrade()`` (``domino db upgrade``) for that."""
    return Service(db.make_engine(url))


class Service:
    def __init__(self, engine: Engine, *, cache_size: int = 256,
                 clock: Callable[[], dt.datetime] = store.utcnow) -> None:
        self.engine = engine
        self._cache = _MatchCache(cache_size)
        self._clock = clock

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> "Service":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -------------------------------------------------------------------------- the database

    def upgrade(self) -> None:
        """Apply every migration (alembic upgrade head)."""
        db.upgrade(self.engine)
        self._cache.clear()

    def schema_is_current(self) -> bool:
        """Whether the database has every migration (else ``upgrade`` is due)."""
        return db.current_revision(self.engine) == db.head_revision()

    def rebuild(self) -> int:
        """Recompute every match's projection from its events; returns how many matches."""
        self._cache.clear()
        with db.reading(self.engine) as conn:
            ids = store.match_ids(conn)
        for match_id in ids:
            # One transaction a match, the row locked first (FOR UPDATE on PostgreSQL) so that
            # an append cannot slip in between reading the events and writing their sum.
            with db.writing(self.engine) as conn:
                row = store.match_row(conn, match_id, for_update=True)
                header = parse_header(store.load_json(row.header))
                events = [store.load_json(t) for t in store.event_data(conn, match_id)]
                result = replay(header.rules, header.players, events)
                updated = store.last_recorded_at(conn, match_id) or row.created_at
                projection = store.Projection.of(result.match, len(result.violations), updated)
                store.update_projection(conn, match_id, projection, rules=header.rules.as_dict())
        return len(ids)

    # ------------------------------------------------------------------------------- clubs

    def create_club(self, slug: str, name: str) -> dict[str, Any]:
        if not isinstance(slug, str) or not SLUG.fullmatch(slug):
            raise Invalid("a club slug is 1 to 64 lowercase letters, digits and dashes, "
                          "starting with a letter or digit")
        name = _name(name, "club name")
        with db.writing(self.engine) as conn:
            store.insert_club(conn, slug, name, self._clock())
            return _club(store.club_row(conn, slug))

    def get_club(self, slug: str) -> dict[str, Any]:
        with db.reading(self.engine) as conn:
            return _club(self._club_row(conn, slug))

    def _club_row(self, conn: Any, slug: str) -> Any:
        row = store.club_row(conn, slug) if isinstance(slug, str) else None
        if row is None:
            raise NotFound(f"no club {slug!r}")
        return row

    # ----------------------------------------------------------------------------- players

    def create_player(self, club: str, name: str) -> dict[str, Any]:
        name = _name(name, "player name")
        with db.writing(self.engine) as conn:
            club_row = self._club_row(conn, club)
            store.insert_player(conn, club_row.id, name, self._clock())
            return _player(store.player_row(conn, club_row.id, name))

    def list_players(self, club: str, limit: int = 50,
                     offset: int = 0) -> tuple[list[dict[str, Any]], int]:
        limit, offset = _count(limit, "limit"), _count(offset, "offset")
        with db.reading(self.engine) as conn:
            rows, total = store.list_players(conn, self._club_row(conn, club).id, limit, offset)
            return [_player(r) for r in rows], total

    # ------------------------------------------------------------------------------ tokens

    def create_token(self, club: str, role: str, label: str | None = None) -> str:
        """A new token (the plaintext, shown once: only its sha256 is stored)."""
        if role not in ROLES:
            raise Invalid(f"role must be one of {', '.join(ROLES)}, not {role!r}")
        if label is not None:
            label = _name(label, "token label")
        token = "dr_" + secrets.token_urlsafe(32)
        with db.writing(self.engine) as conn:
            club_row = self._club_row(conn, club)
            store.insert_token(conn, club_row.id, role, label, _digest(token), self._clock())
        return token

    def authenticate(self, token: str, club: str | None = None,
                     roles: Iterable[str] | None = None) -> TokenInfo:
        """Who holds ``token``. Unauthorized for an unknown token; with ``club`` or ``roles``
        given, Forbidden for a token of another club or of a role not among them."""
        if not isinstance(token, str) or not token or len(token) > 200:
            raise Unauthorized("no valid token")
        with db.reading(self.engine) as conn:
            row = store.token_row(conn, _digest(token))
        if row is None:
            raise Unauthorized("no valid token")
        info = TokenInfo(row.club, row.role, row.id, row.label)
        if club is not None and info.club != club:
            raise Forbidden(f"this token belongs to another club, not {club!r}")
        if roles is not None and info.role not in set(roles):
            raise Forbidden(f"a {info.role} token may not do this")
        return info

    # ----------------------------------------------------------------------------- matches

    def create_match(self, club: str, rules: Any, players: Sequence[str],
                     **header_fields: Any) -> dict[str, Any]:
        """A new match; the players are registered in the club if new. ``header_fields`` are the
        optional log header fields (match, table, date, event)."""
        unknown = set(header_fields) - set(OPTIONAL_HEADER_FIELDS)
        if unknown:
            raise Invalid(f"unknown header fields: {', '.join(sorted(unknown))}; "
                          f"known: {', '.join(OPTIONAL_HEADER_FIELDS)}")
        if not isinstance(players, (list, tuple)):
            raise Invalid("players must be a list of player names")
        header_fields = {k: v for k, v in header_fields.items() if v is not None}
        header = {"format": FORMAT, "rules": rules, "players": list(players),
                  **header_fields, "club": club}
        try:
            parsed = parse_header(header)
        except LogError as error:
            raise Invalid(error.message) from None
        return self._create(club, header, parsed, [], recorded_by=None)

    def import_log(self, club: str, text: str | bytes, *,
                   recorded_by: str | None = None) -> dict[str, Any]:
        """A whole domino-log/1, stored atomically. Invalid (with ``line``) for a log that
        cannot be read; IllegalEvent for the first event the referee refuses that is not
        ``"disputed": true``; either way nothing is stored."""
        if not isinstance(text, (str, bytes)):
            raise Invalid("a log is text")
        try:
            log = read_log(text)
        except LogError as error:
            raise Invalid(error.message, line=error.line) from None
        return self._create(club, log.header.fields, log.header, list(log.events),
                            recorded_by=_optional_name(recorded_by, "recorded_by"))

    def _create(self, club: str, header: dict[str, Any], parsed: Any, events: list[Any],
                recorded_by: str | None) -> dict[str, Any]:
        names = [_name(p, "player name", line=1) for p in parsed.players]
        if len(set(names)) != len(names):
            raise Invalid("a player is seated twice", line=1)
        try:
            header_text = store.dump_json(header)
        except (TypeError, ValueError) as error:
            raise Invalid(f"the header is not JSON: {error}", line=1) from None
        new = [self._new_event(e, recorded_by=recorded_by, line=seq + 1)
               for seq, e in enumerate(events, start=1)]
        match, violations = _judge_all(parsed.rules, parsed.players, events)
        now = self._clock()
        with db.writing(self.engine) as conn:
            club_row = self._club_row(conn, club)
            ids = store.ensure_players(conn, club_row.id, names, now)
            match_id = store.insert_match(
                conn, club_id=club_row.id, header=header_text,
                played_on=_played_on(header.get("date"), now), rules=parsed.rules.as_dict(),
                player_names=names, player_ids=[ids[n] for n in names],
                sides=[parsed.rules.side_of(s) for s in range(parsed.rules.seats)],
                projection=store.Projection.of(match, violations, now), created_at=now)
            store.insert_events(conn, match_id, new, now)
            summary = _summary(store.match_row(conn, match_id))
        self._cache.put(match_id, match.seq, _Entry(match, violations))
        return summary

    def get_match(self, match_id: int | str) -> dict[str, Any]:
        with db.reading(self.engine) as conn:
            return _summary(self._match_row(conn, match_id))

    def _match_row(self, conn: Any, match_id: Any, **kwargs: Any) -> Any:
        number = _match_number(match_id)
        row = store.match_row(conn, number, **kwargs) if number is not None else None
        if row is None:
            raise NotFound(f"no match {match_id!r}")
        return row

    def list_matches(self, club: str, status: str | None = None, player: str | None = None,
                     date_from: str | dt.date | None = None, date_to: str | dt.date | None = None,
                     limit: int = 50, offset: int = 0) -> tuple[list[dict[str, Any]], int]:
        if status is not None and status not in STATUSES:
            raise Invalid(f"status must be one of {', '.join(STATUSES)}, not {status!r}")
        date_from, date_to = _date(date_from, "date_from"), _date(date_to, "date_to")
        limit, offset = _count(limit, "limit"), _count(offset, "offset")
        with db.reading(self.engine) as conn:
            club_row = self._club_row(conn, club)
            player_id = None
            if player is not None:
                player_row = store.player_row(conn, club_row.id, player) \
                    if isinstance(player, str) else None
                if player_row is None:
                    return [], 0  # nobody of that name has played here
                player_id = player_row.id
            rows, total = store.list_matches(conn, club_row.id, status=status,
                                             player_id=player_id, date_from=date_from,
                                             date_to=date_to, limit=limit, offset=offset)
            return [_summary(r) for r in rows], total

    def standings(self, club: str) -> list[dict[str, Any]]:
        """Per player: played, won, lost, points_for, over the club's finished matches."""
        with db.reading(self.engine) as conn:
            return store.standings(conn, self._club_row(conn, club).id)

    def standings_csv(self, club: str) -> str:
        """The standings as CSV (RFC 4180): a header line, then one player a line."""
        out = io.StringIO()
        writer = csv.DictWriter(out, STANDING_COLUMNS, extrasaction="ignore", lineterminator="\r\n")
        writer.writeheader()
        writer.writerows(self.standings(club))
        return out.getvalue()

    # ------------------------------------------------------------------------------ events

    def record_event(self, match_id: int | str, event: dict, *, expected_seq: int | None,
                     client_event_id: str | None = None,
                     recorded_by: str | None = None) -> Recorded:
        """Judge ``event`` against the record and append it as event expected_seq + 1."""
        if expected_seq is not None:
            expected_seq = _count(expected_seq, "expected_seq")
        if client_event_id is not None:
            client_event_id = _name(client_event_id, "client event id")
        new = self._new_event(event, recorded_by=_optional_name(recorded_by, "recorded_by"),
                              client_event_id=client_event_id)
        number = _match_number(match_id)
        if number is None:
            raise NotFound(f"no match {match_id!r}")
        for attempt in range(CONFLICT_RETRIES + 1):
            try:
                return self._record(number, event, new, expected_seq)
            except Conflict as conflict:
                if client_event_id is not None:
                    # A retry racing its own original: the original's result is the answer.
                    with db.reading(self.engine) as conn:
                        row = self._match_row(conn, number, client_event_id=client_event_id)
                        if row.duplicate_seq is not None:
                            return self._duplicate(conn, row, event)
                if expected_seq is None and attempt < CONFLICT_RETRIES:
                    continue
                if conflict.current_seq is None:
                    with db.reading(self.engine) as conn:
                        current = store.last_seq(conn, number)
                    raise Conflict(current, expected_seq) from None
                raise
        raise AssertionError("unreachable")

    def _new_event(self, event: Any, *, recorded_by: str | None, client_event_id: str | None = None,
                   line: int | None = None) -> store.NewEvent:
        try:
            data = store.dump_json(event)
        except (TypeError, ValueError) as error:
            raise Invalid(f"the event is not JSON: {error}", line=line) from None
        if len(data) > MAX_EVENT_BYTES:
            raise Invalid(f"the event is larger than {MAX_EVENT_BYTES} bytes", line=line)
        kind = event.get("type") if isinstance(event, dict) else None
        return store.NewEvent(data=data, type=kind if kind in EVENT_TYPES else None,
                              client_event_id=client_event_id, recorded_by=recorded_by)

    def _record(self, match_id: int, event: Any, new: store.NewEvent,
                expected_seq: int | None) -> Recorded:
        if expected_seq is not None and not _is_void(event):
            entry = self._cache.take(match_id, expected_seq)
            if entry is not None:
                return self._record_cached(match_id, event, new, expected_seq, entry)
        # A named expected seq is optimistic: read, judge, then one compare-and-set. "Append at
        # the end" takes the row lock first (PostgreSQL: FOR UPDATE) in a transaction, so such
        # writers queue instead of conflicting.
        scope = db.writing if expected_seq is None else db.optimistic
        with scope(self.engine) as conn:
            row = self._match_row(conn, match_id, client_event_id=new.client_event_id,
                                  for_update=expected_seq is None)
            if new.client_event_id is not None and row.duplicate_seq is not None:
                return self._duplicate(conn, row, event)
            last = row.last_seq
            if expected_seq is not None and expected_seq != last:
                raise Conflict(last, expected_seq)
            entry, violation, replayed = self._judge_next(conn, row, event)
            if violation is not None and not _disputed(event):
                raise IllegalEvent(violation)
            now = self._clock()
            projection = store.Projection.of(entry.match, entry.violations, now)
            seq = store.append(conn, match_id, last, [new], projection, now)
        self._cache.put(match_id, seq, entry)
        return Recorded(seq, event, violation, position(entry.match), replayed)

    def _record_cached(self, match_id: int, event: Any, new: store.NewEvent, expected_seq: int,
                       entry: _Entry) -> Recorded:
        """The common case, in one statement: the match as it stood after ``expected_seq`` is
        cached, so nothing needs reading. The compare-and-set settles whether expected_seq is
        still the last (else Conflict, and record_event looks for an earlier copy of a retry)."""
        violation = entry.match.push(event)
        entry.violations += violation is not None
        if violation is not None and not _disputed(event):
            # Before refusing, what the slow path checks first: a retry of a stored event gets
            # the original's result, and a stale client hears of the conflict.
            with db.reading(self.engine) as conn:
                row = self._match_row(conn, match_id, client_event_id=new.client_event_id)
                if new.client_event_id is not None and row.duplicate_seq is not None:
                    return self._duplicate(conn, row, event)
            if row.last_seq != expected_seq:
                raise Conflict(row.last_seq, expected_seq)
            raise IllegalEvent(violation)
        now = self._clock()
        projection = store.Projection.of(entry.match, entry.violations, now)
        with db.optimistic(self.engine) as conn:
            seq = store.append(conn, match_id, expected_seq, [new], projection, now)
        self._cache.put(match_id, seq, entry)
        return Recorded(seq, event, violation, position(entry.match), False)

    def _judge_next(self, conn: Any, row: Any, event: Any) -> tuple[_Entry, Violation | None, bool]:
        """The match with ``event`` pushed, the event's violation, and whether we replayed."""
        last = row.last_seq
        entry = None if _is_void(event) else self._cache.take(row.id, last)
        if entry is not None:
            violation = entry.match.push(event)
            entry.violations += violation is not None
            return entry, violation, False
        events = [store.load_json(t) for t in store.event_data(conn, row.id, upto=last)]
        events.append(event)
        result = replay(Rules(**row.rules), row.players, events)
        return (_Entry(result.match, len(result.violations)),
                result.violation_at(last + 1), True)

    def _duplicate(self, conn: Any, row: Any, event: Any) -> Recorded:
        seq = row.duplicate_seq
        stored = store.load_json(store.event_by_seq(conn, row.id, seq).data)
        if store.canonical_json(stored) != store.canonical_json(event):
            raise IdempotencyMismatch(
                f"client event id already used for event {seq}, which was a different event")
        events = [store.load_json(t) for t in store.event_data(conn, row.id, upto=seq)]
        result = replay(Rules(**row.rules), row.players, events)
        return Recorded(seq, stored, result.violation_at(seq),
                        position(result.match), replayed=True, duplicate=True)

    def list_events(self, match_id: int | str, after: int = 0, limit: int | None = None, *,
                    as_table: bool = False) -> list[dict[str, Any]]:
        """The events after ``after``. ``as_table``: the round in play's deal and draws as the
        table saw them (hands and drawn tiles taken out; such records say "redacted": true)."""
        after = _count(after, "after")
        if limit is not None:
            limit = _count(limit, "limit")
        with db.reading(self.engine) as conn:
            row = self._match_row(conn, match_id)
            rows = store.event_rows(conn, row.id, after=after, limit=limit)
            secret_since = self._secret_since(conn, row) if as_table else None
        records = []
        for r in rows:
            record = {"seq": r.seq, "event": store.load_json(r.data),
                      "recorded_at": store.iso(r.recorded_at), "recorded_by": r.recorded_by}
            if secret_since is not None and r.seq >= secret_since:
                seen = as_table_saw_it(record["event"])
                if seen is not record["event"]:
                    record.update(event=seen, redacted=True)
            records.append(record)
        return records

    def state(self, match_id: int | str, at: int | None = None, *,
              as_table: bool = False) -> Position:
        """The table after event ``at`` (the record as it stood then), or now. ``as_table``:
        no hand shows while a round is in play."""
        with db.reading(self.engine) as conn:
            row = self._match_row(conn, match_id)
            last = row.last_seq
            if at is not None:
                at = _count(at, "at")
                if at > last:
                    raise Invalid(f"at is {at} but the match has {last} events")
            if at is None or at == last:
                snapshot = self._with_current(conn, row, position)
            else:
                snapshot = position(self._replayed(conn, row, at).match)
        return snapshot.as_table_sees_it() if as_table else snapshot

    def _with_current(self, conn: Any, row: Any, look: Callable[[Match], Any]) -> Any:
        """``look`` at the match as it stands (cached, or replayed and then cached)."""
        entry = self._cache.take(row.id, row.last_seq)
        if entry is None:
            entry = self._replayed(conn, row, row.last_seq)
        try:
            return look(entry.match)
        finally:
            self._cache.put(row.id, row.last_seq, entry)  # warm for the next append

    def _secret_since(self, conn: Any, row: Any) -> int | None:
        return self._with_current(conn, row, Match.secret_since)

    def _replayed(self, conn: Any, row: Any, upto: int) -> _Entry:
        events = [store.load_json(t) for t in store.event_data(conn, row.id, upto=upto)]
        result = replay(Rules(**row.rules), row.players, events)
        return _Entry(result.match, len(result.violations))

    def report(self, match_id: int | str) -> dict[str, Any]:
        with db.reading(self.engine) as conn:
            row = self._match_row(conn, match_id)
            events = [store.load_json(t) for t in store.event_data(conn, row.id)]
        return build_report(replay(Rules(**row.rules), row.players, events))

    def struck(self, match_id: int | str) -> frozenset[int]:
        """The sequence numbers the match's voids strike from the record now."""
        with db.reading(self.engine) as conn:
            row = self._match_row(conn, match_id)
            events = [store.load_json(t) for t in store.event_data(conn, row.id)]
        return frozenset(struck_events(Rules(**row.rules), events))

    def export_log(self, match_id: int | str, *, as_table: bool = False) -> str:
        """The match as a domino-log/1: its header as stored and the same events back.
        ``as_table``: the round in play's deal and draws as the table saw them."""
        with db.reading(self.engine) as conn:
            row = self._match_row(conn, match_id)
            events = [store.load_json(t) for t in store.event_data(conn, row.id)]
            secret_since = self._secret_since(conn, row) if as_table else None
        if secret_since is not None:
            events[secret_since - 1:] = map(as_table_saw_it, events[secret_since - 1:])
        return write_log(make_log(store.load_json(row.header), events))


# ----------------------------------------------------------------------------------- helpers

def _is_void(event: Any) -> bool:
    return type(event) is dict and event.get("type") == "void"


def _disputed(event: Any) -> bool:
    return type(event) is dict and event.get("disputed") is True


def _judge_all(rules: Rules, players: Sequence[str], events: list[Any]) -> tuple[Match, int]:
    """Judge a whole record event by event, as if each had been recorded in turn (only the
    voids recorded so far count). Raises IllegalEvent for the first refused event."""
    match = Match(rules, players)
    violations = 0
    for seq, event in enumerate(events, start=1):
        if _is_void(event):
            result = replay(rules, players, events[:seq])
            match, violations = result.match, len(result.violations)
            own = result.violation_at(seq)
        else:
            own = match.push(event)
            violations += own is not None
        if own is not None and not _disputed(event):
            raise IllegalEvent(own)
    return match, violations


def _name(value: Any, what: str, line: int | None = None) -> str:
    """A name people typed: text, not blank, at most NAME_LENGTH characters, no control
    characters (PostgreSQL cannot store a NUL in a text column, and none belongs in a name)."""
    if not isinstance(value, str) or not value.strip():
        raise Invalid(f"a {what} must be non-empty text", line=line)
    if len(value) > NAME_LENGTH:
        raise Invalid(f"a {what} is at most {NAME_LENGTH} characters", line=line)
    if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in value):
        raise Invalid(f"a {what} may not contain control characters", line=line)
    return value


def _optional_name(value: Any, what: str) -> str | None:
    return None if value is None else _name(value, what)


def _count(value: Any, what: str) -> int:
    if type(value) is not int or not 0 <= value <= MAX_ID:
        raise Invalid(f"{what} must be a whole number from 0 to {MAX_ID}, not {value!r}")
    return value


def _match_number(value: Any) -> int | None:
    if type(value) is str and value.isascii() and value.isdigit():
        value = int(value)
    if type(value) is int and 1 <= value <= MAX_ID:
        return value
    return None


def _date(value: Any, what: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    parsed = iso_date(value) if isinstance(value, str) else None
    if parsed is None:
        raise Invalid(f"{what} must be an ISO 8601 date, not {value!r}")
    return parsed.isoformat()


def _played_on(date: Any, now: dt.datetime) -> str:
    """The header's date (parse_header has checked it), else the day the match was created."""
    day = iso_date(date) if isinstance(date, str) else None
    return (day or now.date()).isoformat()


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _club(row: Any) -> dict[str, Any]:
    return {"slug": row.slug, "name": row.name, "created_at": store.iso(row.created_at)}


def _player(row: Any) -> dict[str, Any]:
    return {"id": row.id, "name": row.name, "created_at": store.iso(row.created_at)}


def _summary(row: Any) -> dict[str, Any]:
    header = store.load_json(row.header)
    return {
        # Rules(...).as_dict() puts the parameters back in their order (JSONB sorts keys).
        "id": row.id, "club": row.club, "rules": Rules(**row.rules).as_dict(),
        "players": list(row.players),
        "status": row.status, "round": row.round, "totals": list(row.totals),
        "winner": row.winner, "last_seq": row.last_seq, "violations": row.violations,
        **{name: header.get(name) for name in ("match", "table", "date", "event")},
        "created_at": store.iso(row.created_at), "updated_at": store.iso(row.updated_at),
    }
