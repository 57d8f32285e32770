"""Recording: creating a match, importing a whole log, appending one event.

Every decision about an event is the rules core's: this gets the match's record (through the
repository), asks the core, and stores what the core accepted, with the projections, in one
unit of work (:mod:`.uow`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence

from .. import store
from ..core.disputes import open_count, violations_of
from ..core.events import Violation, unsighted
from ..core.log import FORMAT, OPTIONAL_HEADER_FIELDS, LogError, iso_date, parse_header, read_log
from ..core.match import Match
from ..core.position import Position
from ..core.replay import Replay, positions, replay
from ..core.rules import Rules
from ..core.vocab import EVENT_TYPES, MAX_EVENT_BYTES, SETTLING, kind_of
from ..store import db
from ..store.notify import Notifier
from . import checks
from .access import OPERATOR, Action, Caller, require, require_match
from .checks import rewrites_the_record
from .errors import N_, Conflict, IdempotencyMismatch, IllegalEvent, Invalid, NotFound, TooLarge
from .lookup import club_row
from .players import seat_ids, seating
from .projectors import PROJECTORS, Change, Projector, run, wanted, writes
from .record import Mark, MatchRecord
from .repository import MatchRepository
from .screen import Screen
from .summary import row_summary as summary
from .undo import authorize
from .uow import PRIMARY, SINGLE, WRITE, UnitOfWork, Units
from .view import MatchView, refused_by_a_typist, summary_of

CONFLICT_RETRIES = 10  # for appends that name no expected seq (the CLI)


@dataclass(frozen=True)
class Recorded:
    """The outcome of an append, as its caller may see it: the event's seq, the event, its
    violation (a disputed event's, in the caller's record) and the match's screen after it.
    ``duplicate``: a retry with a known client event id, nothing stored now."""

    seq: int
    event: Any
    violation: Violation | None
    screen: Screen
    duplicate: bool = False

    @property
    def state(self) -> Position:
        return self.screen.position

    @property
    def hands_hidden(self) -> bool:
        return self.screen.hands_hidden

    @property
    def club(self) -> str:
        return self.screen.summary["club"]


@dataclass(frozen=True)
class _Judged:
    """A new match's record as :meth:`Recording._judged` checked it: header, events (as given
    and as stored), the seats keyed, and the replay."""

    header: dict[str, Any]
    parsed: Any
    events: list[Any]
    new: list[store.NewEvent]
    header_text: str
    keyed: dict[str, str]
    result: Replay


class Created(dict):
    """A created match's summary; ``replayed`` when it answers a retry (nothing was stored)."""

    def __init__(self, summary: dict[str, Any], replayed: bool = False) -> None:
        super().__init__(summary)
        self.replayed = replayed


class Recording:
    def __init__(self, matches: MatchRepository, units: Units, clock: Callable[[], dt.datetime],
                 notifier: Notifier) -> None:
        self.matches = matches
        self.units = units
        self.clock = clock
        self.notifier = notifier
        self.projectors: tuple[Projector, ...] = PROJECTORS  # the service adds its own

    def create_match(self, club: str, rules: Any, players: Sequence[str], *,
                     who: Caller = OPERATOR, client_key: str | None = None,
                     confirm_new: bool = False, **header_fields: Any) -> "Created":
        """A new match; the players are registered in the club if new. ``header_fields`` are the
        optional log header fields (match, table, date, event); the date defaults to today.

        ``client_key`` (an HTTP Idempotency-Key) makes a retry safe: the club's match created
        under that key already is answered as it was created (``replayed`` set) when the request
        is the same (rules, players and header fields; a date left out is the first one's), and
        IdempotencyMismatch when it is not. Concurrent retries create one match.

        Names are matched by key (``players.seating``): "ana" sits the player Ana, and the match
        keeps the names as typed. A new name close to a player's is refused (Unconfirmed, "did
        you mean ...?") unless ``confirm_new``."""
        header, parsed, client_key, dated = self._new_match(club, rules, players, who,
                                                            client_key, header_fields)
        if client_key is not None:
            return self._create_once(club, header, parsed, who, client_key, dated, confirm_new)
        judged = self._judged(header, parsed, [], who, who.recorded_by)
        with too_large(), self.units.open(WRITE) as uow:
            return Created(self._create(uow, club, judged, who, confirm_new=confirm_new))

    def create_in(self, uow: UnitOfWork, club: str, rules: Any, players: Sequence[str], *,
                  who: Caller, client_key: str, confirm_new: bool = False,
                  **header_fields: Any) -> "Created":
        """:meth:`create_match` under ``client_key`` in the caller's writing unit of work (a
        tournament's pairing creates its tables' matches in its own): the club's match
        created under that key already is answered again."""
        header, parsed, key, dated = self._new_match(club, rules, players, who, client_key,
                                                     header_fields)
        first = store.match_by_client_key(uow.conn, club, key)
        if first is None:
            judged = self._judged(header, parsed, [], who, who.recorded_by)
            with too_large():
                return Created(self._create(uow, club, judged, who, client_key=key,
                                            confirm_new=confirm_new))
        return _created_before(first, header, parsed, dated)

    def _new_match(self, club: str, rules: Any, players: Sequence[str], who: Caller,
                   client_key: str | None, header_fields: dict[str, Any],
                   ) -> tuple[dict[str, Any], Any, str | None, bool]:
        """A new match's header (dated today when no date is given), parsed; its client key
        checked; and whether the date was given. Refused as :meth:`create_match` says."""
        require(who, club, Action.RECORD)
        if client_key is not None:
            client_key = checks.name(client_key, "idempotency key")
        unknown = set(header_fields) - set(OPTIONAL_HEADER_FIELDS)
        if unknown:
            raise Invalid("unknown header fields: %(unknown)s; known: %(known)s",
                          unknown=", ".join(sorted(unknown)),
                          known=", ".join(OPTIONAL_HEADER_FIELDS))
        if not isinstance(players, (list, tuple)):
            raise Invalid("players must be a list of player names")
        header_fields = {k: v for k, v in header_fields.items() if v is not None}
        dated = "date" in header_fields
        header_fields.setdefault("date", self.clock().date().isoformat())
        header = {"format": FORMAT, "rules": rules, "players": list(players),
                  **header_fields, "club": club}
        try:
            parsed = parse_header(header)
        except LogError as error:
            raise Invalid(error.message) from None
        return header, parsed, client_key, dated

    def import_log(self, club: str, text: str | bytes, *, who: Caller = OPERATOR,
                   recorded_by: str | None = None, confirm_new: bool = False) -> dict[str, Any]:
        """A whole domino-log/1, stored atomically. Invalid (with ``line``) for a log that
        cannot be read; IllegalEvent for the first event the referee refuses that is not
        ``"disputed": true``; either way nothing is stored. The header's players are seated as
        create_match seats them: a new name close to a player's is refused (Unconfirmed, line
        1) unless ``confirm_new``."""
        require(who, club, Action.RULE)  # a log may carry rulings and disputed events
        if not isinstance(text, (str, bytes)):
            raise Invalid("a log is text")
        try:
            log = read_log(text)
        except LogError as error:
            raise Invalid(error.message, line=error.line) from None
        by = checks.optional_name(recorded_by, "recorded_by") or who.recorded_by
        try:
            judged = self._judged(_of_club(log.header.fields, club), log.header,
                                  list(log.events), who, by)
            with too_large(), self.units.open(WRITE) as uow:
                return self._create(uow, club, judged, who, confirm_new=confirm_new)
        except IllegalEvent as error:
            # An import is refused whole; the refusal says how to keep such an event instead,
            # as the table does: marked disputed, an open dispute for a referee (docs/log.md);
            # a repeat of the disputed event before it is recorded once.
            v = error.violation
            if v.code == "repeat":
                raise IllegalEvent(v, N_('event %(seq)s (line %(line)s): %(code)s: %(why)s; '
                                         'remove that line'),
                                   seq=v.seq, line=v.seq + 1, code=v.code,
                                   why=v.message) from None
            raise IllegalEvent(v, N_('event %(seq)s (line %(line)s): %(code)s: %(why)s; to '
                                     'import the log with it as an open dispute, mark that line '
                                     '"disputed": true'),
                               seq=v.seq, line=v.seq + 1, code=v.code, why=v.message) from None

    def _judged(self, header: dict[str, Any], parsed: Any, events: list[Any], who: Caller,
                recorded_by: str | None) -> "_Judged":
        """A new match's record checked and judged, before any unit of work opens (a long log
        is replayed without holding a write lock)."""
        names = list(parsed.players)  # as typed: the match keeps them so
        keyed = seating(names)
        try:
            header_text = store.dump_json(header)
        except (TypeError, ValueError) as error:
            raise Invalid("the header is not JSON: %(error)s", line=1, error=str(error)) from None
        new = [new_event(e, recorded_by=recorded_by, token_id=who.token_id, line=seq + 1)
               for seq, e in enumerate(events, start=1)]
        with too_large():  # before judging them all (the store checks again as it writes)
            store.check_room(db.match_limits(self.units.engine), len(new),
                             sum(e.size for e in new))
        return _Judged(header, parsed, list(events), new, header_text, keyed,
                       judge_all(parsed.rules, parsed.players, events))

    def _create(self, uow: UnitOfWork, club: str, judged: "_Judged", who: Caller,
                client_key: str | None = None, confirm_new: bool = False) -> dict[str, Any]:
        """The match stored with its events in the writing unit of work ``uow``, its players
        seated, its projections written; its summary."""
        parsed, result, new, header_text = (judged.parsed, judged.result, judged.new,
                                            judged.header_text)
        names = list(parsed.players)
        now = self.clock()
        club_id = club_row(uow, club).id
        ids = seat_ids(uow.conn, club, club_id, judged.keyed, now, confirm_new=confirm_new)
        violations = open_count(result.match, {v.seq for v in result.violations})
        match_id = store.insert_match(
            uow.conn, club_id=club_id, header=header_text,
            played_on=_played_on(judged.header.get("date"), now), rules=parsed.rules.as_dict(),
            player_names=names, player_ids=ids,
            sides=[parsed.rules.side_of(s) for s in range(parsed.rules.seats)],
            projection=store.Projection.of(result.match, violations, now),
            created_at=now, client_key=client_key, created_by=who.token_id)
        head = store.insert_events(uow.conn, match_id, new, now, header_text)
        record = MatchRecord.new(
            match_id=match_id, club=club, club_id=club_id, rules=parsed.rules,
            players=names, header_text=header_text, created_at=now, events=judged.events,
            marks=[Mark(e.token_id, e.recorded_by, now) for e in new], result=result,
            head=head, created_by=who.token_id)
        # A log that ends finished counts (and is rated) at once.
        change = Change(match_id, club, len(judged.events), result.match, violations, False,
                        now)
        run(uow, change, wanted(change, self.projectors))
        self.matches.keep(uow, record)
        return summary_of(record, result.match, violations)

    def _create_once(self, club: str, header: dict[str, Any], parsed: Any, who: Caller,
                     client_key: str, dated: bool, confirm_new: bool = False) -> "Created":
        """create_match under an idempotency key: the first answer again for a retry."""
        with self.units.open(PRIMARY) as uow:
            first = store.match_by_client_key(uow.conn, club, client_key)
        if first is None:
            judged = self._judged(header, parsed, [], who, who.recorded_by)
            try:
                with too_large(), self.units.open(WRITE) as uow:
                    return Created(self._create(uow, club, judged, who, client_key=client_key,
                                                confirm_new=confirm_new))
            except store.AlreadyExists:  # a retry racing its original, which won
                with self.units.open(PRIMARY) as uow:
                    first = store.match_by_client_key(uow.conn, club, client_key)
                if first is None:
                    raise
        return _created_before(first, header, parsed, dated)

    # ------------------------------------------------------------------------ appending

    def record_event(self, match_id: int | str, event: Any, *, expected_seq: int | None,
                     client_event_id: str | None = None, who: Caller = OPERATOR,
                     recorded_by: str | None = None) -> Recorded:
        """Judge ``event`` against the record and append it as event expected_seq + 1
        (``expected_seq=None``: at the end, whatever the end is, as the CLI does).

        The steps, each written once (docs/service.md draws them): *authorize* the caller for
        what the event takes; *judge* it against the record as the caller sees it (refused with
        IllegalEvent unless marked disputed; an event the caller's record allows but a hand it
        may not see contradicts is stored all the same, a dispute for the referees and the
        hand's scorekeeper); *append* it with one compare-and-set (Conflict when another came
        first; a retry of a stored client event id answers the original's result); *project*
        it (standings, ratings: :mod:`.projectors`) in the same transaction; *commit*; *answer*
        from the same record, as the caller may see it; then *tell* the scoreboards."""
        if expected_seq is not None:
            expected_seq = checks.count(expected_seq, "expected_seq")
        if unsighted(event) or (type(event) is dict and unsighted(event.get("event"))):
            # The mark is the service's (below, in _record): sent by a caller it would apply a
            # refused event as the table's and skip the repeat refusal. An import keeps it.
            raise Invalid('"unsighted" is the referee\'s own mark: record the event without it, '
                          'or with "disputed": true')
        if client_event_id is not None:
            client_event_id = _scoped(client_event_id, who)
        by = checks.optional_name(recorded_by, "recorded_by") or who.recorded_by
        new = new_event(event, recorded_by=by, client_event_id=client_event_id,
                        token_id=who.token_id)
        number = checks.match_number(match_id)
        if number is None:
            raise NotFound("no match %(match)r", match=match_id)
        for attempt in range(CONFLICT_RETRIES + 1):
            try:
                with too_large():
                    return self._append(number, event, new, expected_seq, who)
            except Conflict:
                if expected_seq is None and attempt < CONFLICT_RETRIES:
                    continue  # "at the end": try again at the new end
                with self.units.open(PRIMARY) as uow:
                    row = self.matches.row(uow, number, client_event_id=new.client_event_id)
                    if new.client_event_id is not None and row.duplicate_seq is not None:
                        # A retry racing its own original: the original's result is the answer.
                        return self._duplicate(uow, row, event, who)
                raise Conflict(row.last_seq, expected_seq) from None
        raise AssertionError("unreachable")

    def _append(self, number: int, event: Any, new: store.NewEvent, expected_seq: int | None,
                who: Caller) -> Recorded:
        record = (self.matches.cached(number, expected_seq)
                  if expected_seq is not None and not rewrites_the_record(event) else None)
        if record is not None:
            # The common case: the record at the expected seq is in this process, so nothing
            # needs reading and the append is one compare-and-set.
            return self._record(None, record, event, new, who, expected_seq)
        # A named expected seq is optimistic: read, judge, then one compare-and-set. "Append at
        # the end" takes the row lock first (PostgreSQL: FOR UPDATE), so such writers queue
        # instead of conflicting.
        with self.units.open(WRITE) as uow:
            row = self.matches.row(uow, number, client_event_id=new.client_event_id,
                                   for_update=expected_seq is None)
            if new.client_event_id is not None and row.duplicate_seq is not None:
                return self._duplicate(uow, row, event, who)
            if expected_seq is not None and expected_seq != row.last_seq:
                raise Conflict(row.last_seq, expected_seq)
            return self._record(uow, self.matches.get(uow, row), event, new, who, expected_seq)

    def _record(self, uow: UnitOfWork | None, record: MatchRecord, event: Any,
                new: store.NewEvent, who: Caller, expected_seq: int | None) -> Recorded:
        """The steps of :meth:`record_event` on ``record`` (taken from the repository): in
        ``uow``, or, for a cached record, in the unit of work the event needs."""
        try:
            # authorize: another club's token hears of no such match
            authorize(record, who, event)
            if names_a_dispute(event):
                self._check_dispute(record, event["target"])
            before = MatchView(record, who)
            since = None if before.whole else record.match.secret_since()
        except BaseException:
            if uow is None:
                self.matches.give_back(record)  # untouched: still right at its seq
            raise
        now = self.clock()
        was_finished = record.match.finished
        violation = record.push(event, Mark(new.token_id, new.recorded_by, now))
        # judged as the caller sees (its record as it stood, with the event)
        seen = None if before.whole else before.judged_pushed(since)
        told = violation if before.whole else seen
        if told is None and not unsighted(event) and (
                violation is not None or refused_by_a_typist(record, who.token_id)):
            # The caller's record allows it, a hand it may not see contradicts it: stored all
            # the same, marked so that the whole record (and the record as the token that
            # typed the hand sees it) applies it as the caller's does (docs/visibility.md,
            # point 3); the mark is shown only to those whose record refuses it.
            marked = {**event, "unsighted": True}
            new = dataclasses.replace(new, data=store.dump_json(marked))
            violation = record.replace_last(marked)
        if told is not None and not checks.kept(event, told):
            if uow is None:
                self._confirm_refusal(record.id, new, expected_seq)
            raise IllegalEvent(told)
        projection = record.projection(now)
        change = Change(record.id, record.club, record.last_seq, record.match,
                        projection.violations, was_finished, now)
        projectors = wanted(change, self.projectors)
        if uow is not None:
            seq = self._write(uow, record, new, projection, change, projectors)
        else:
            with self.units.open(WRITE if writes(projectors) else SINGLE) as uow:
                seq = self._write(uow, record, new, projection, change, projectors)
        return Recorded(seq, event, told, MatchView(record, who).screen())

    def _write(self, uow: UnitOfWork, record: MatchRecord, new: store.NewEvent,
               projection: store.Projection, change: Change,
               projectors: list[Projector]) -> int:
        """Append, project; once committed the record goes back to the repository's cache and
        the scoreboards hear of it."""
        seq = self.matches.put(uow, record, new, projection)
        run(uow, change, projectors)
        self.matches.keep(uow, record)
        uow.after_commit(lambda: self.notifier.tell(record.club, record.id, seq))
        return seq

    def _confirm_refusal(self, number: int, new: store.NewEvent, expected_seq: int | None) -> None:
        """Before refusing on a cached record, what the database path checks first: a retry of
        a stored event gets the original's result (Conflict sends record_event there), and a
        client behind another process's append hears of the conflict."""
        with self.units.open(PRIMARY) as uow:
            row = self.matches.row(uow, number, client_event_id=new.client_event_id)
        if ((new.client_event_id is not None and row.duplicate_seq is not None)
                or row.last_seq != expected_seq):
            raise Conflict(None, expected_seq)

    def _check_dispute(self, record: MatchRecord, target: Any) -> None:
        """A stands, or a penalty, annul or forfeit naming a target, rules on a dispute: the
        target must be one (an event the record refused, or a foul proven in hindsight)."""
        if target not in {v.seq for v in violations_of(record.replayed())}:
            raise Invalid("event %(target)s is not a dispute: a ruling names an event the record "
                          "refused or a foul proven in hindsight", target=target)

    def _duplicate(self, uow: UnitOfWork, row: Any, event: Any, who: Caller) -> Recorded:
        """The answer to a retry of a stored event (its client event id is the caller's token's
        own): the first answer again, as the caller sees the match."""
        seq = row.duplicate_seq
        record = self.matches.get(uow, row)
        require_match(who, record.club, Action.READ, record.id)
        stored = record.events[seq - 1]
        if unsighted(stored) and not unsighted(event):  # the mark is the service's, not sent
            stored = {k: v for k, v in stored.items() if k != "unsighted"}
        if store.canonical_json(stored) != store.canonical_json(event):
            raise IdempotencyMismatch("client event id already used for event %(seq)s, which was a "
                                      "different event", seq=seq)
        view = MatchView(record, who)
        told = view.replayed_at(seq).violation_at(seq)
        return Recorded(seq, stored, told, view.screen(at=seq), duplicate=True)


def _created_before(first: Any, header: dict[str, Any], parsed: Any, dated: bool) -> Created:
    """The answer to a retry of the creation of match ``first`` (its row), as it was answered
    then; IdempotencyMismatch when the request is another."""
    stored = store.load_json(first.header)
    if not dated:  # the first one's date was today then: it is not the client's to repeat
        stored.pop("date", None)
        header = {k: v for k, v in header.items() if k != "date"}
    if store.canonical_json(stored) != store.canonical_json(header):
        raise IdempotencyMismatch("idempotency key already used for match %(match)s, which "
                                  "was created with another request", match=first.id)
    # As it was answered then: the match before any event (events may have come since).
    initial = store.Projection.of(Match(parsed.rules, parsed.players), 0, first.created_at)
    answer = {**summary(first), **initial.values(), "updated_at": store.iso(first.created_at)}
    return Created({k: answer[k] for k in summary(first)}, replayed=True)


def _of_club(header: dict[str, Any], club: str) -> dict[str, Any]:
    """The header as the club stores it: naming the club, as the chain's link 0 and so the acta
    must (docs/verify.md). A log naming another club is refused: its record would say it was
    played elsewhere."""
    named = header.get("club")
    if named is not None and named != club:
        raise Invalid("the log's header names club %(named)r, not %(club)r, the club it is "
                      "imported into: change its \"club\" or leave it out", line=1, named=named,
                      club=club)
    return {**header, "club": club}


def _scoped(client_event_id: Any, who: Caller) -> str:
    """A client event id as stored: a key is the token's own, so another token reusing it
    learns nothing of the event."""
    key = checks.name(client_event_id, "client event id")
    return f"token {who.token_id}: {key}" if who.token_id is not None else key


@contextmanager
def too_large() -> Iterator[None]:
    """The store's MatchFull as the service's TooLarge."""
    try:
        yield
    except store.MatchFull as full:
        raise TooLarge(full.limit, full.maximum, full.would_be) from None


def names_a_dispute(event: Any) -> bool:
    return kind_of(event) in SETTLING and type(event.get("target")) is int


def new_event(event: Any, *, recorded_by: str | None, client_event_id: str | None = None,
              token_id: int | None = None, line: int | None = None) -> store.NewEvent:
    try:
        data = store.dump_json(event)
    except (TypeError, ValueError) as error:
        raise Invalid("the event is not JSON: %(error)s", line=line, error=str(error)) from None
    if len(data) > MAX_EVENT_BYTES:
        raise Invalid("the event is larger than %(limit)s bytes", line=line,
                      limit=MAX_EVENT_BYTES)
    kind = event.get("type") if isinstance(event, dict) else None
    return store.NewEvent(data=data, type=kind if kind in EVENT_TYPES else None,
                          client_event_id=client_event_id, recorded_by=recorded_by,
                          token_id=token_id)


def judge_all(rules: Rules, players: Sequence[str], events: list[Any]) -> Replay:
    """A whole record judged event by event, as if each had been recorded in turn (only the
    voids recorded so far count); raises IllegalEvent for the first refused event not marked
    disputed (or marked, but a repeat: checks.kept), else answers the record's replay."""
    for seq, _, own in positions(rules, players, events):
        if own is not None and not checks.kept(events[seq - 1], own):
            raise IllegalEvent(own)
    return replay(rules, players, events)


def _played_on(date: Any, now: dt.datetime) -> str:
    """The header's date (parse_header has checked it), else the day the match was created."""
    day = iso_date(date) if isinstance(date, str) else None
    return (day or now.date()).isoformat()
