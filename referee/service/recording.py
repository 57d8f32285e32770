"""Recording: creating a match, importing a whole log, appending one event.

Every decision about an event is the rules core's: this loads the record (through the
repository), asks the core, and stores what the core accepted.
"""

from __future__ import annotations

import datetime as dt
from contextlib import contextmanager
from dataclasses import replace
from typing import Any, Iterator, Sequence

from .. import store
from ..core.disputes import open_count, violations_of
from ..core.vocab import EVENT_TYPES, MAX_EVENT_BYTES, SETTLING
from ..core.log import FORMAT, OPTIONAL_HEADER_FIELDS, LogError, iso_date, parse_header, read_log
from ..core.match import Match
from ..core.replay import replay
from ..core.rules import Rules
from ..core.sight import told_unseen
from ..store import db
from . import checks
from .access import OPERATOR, Action, Caller, action_for_event, require, sees_hands
from .errors import IdempotencyMismatch, IllegalEvent, Invalid, NotFound, TooLarge
from .lookup import club_row
from .players import seat_ids, seating
from .ratings import record_standing
from .reading import summary
from .undo import action_for, may_be_undo
from .repository import Loaded, MatchRepository, Recorded
from .views import seen_position, seen_replay, sight


class Created(dict):
    """A created match's summary; ``replayed`` when it answers a retry (nothing was stored)."""

    def __init__(self, summary: dict[str, Any], replayed: bool = False) -> None:
        super().__init__(summary)
        self.replayed = replayed


class Recording:
    def __init__(self, matches: MatchRepository) -> None:
        self.matches = matches
        self.engine = matches.engine

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
        require(who, club, Action.RECORD)
        if client_key is not None:
            client_key = checks.name(client_key, "idempotency key")
        unknown = set(header_fields) - set(OPTIONAL_HEADER_FIELDS)
        if unknown:
            raise Invalid(f"unknown header fields: {', '.join(sorted(unknown))}; "
                          f"known: {', '.join(OPTIONAL_HEADER_FIELDS)}")
        if not isinstance(players, (list, tuple)):
            raise Invalid("players must be a list of player names")
        header_fields = {k: v for k, v in header_fields.items() if v is not None}
        dated = "date" in header_fields
        header_fields.setdefault("date", self.matches.clock().date().isoformat())
        header = {"format": FORMAT, "rules": rules, "players": list(players),
                  **header_fields, "club": club}
        try:
            parsed = parse_header(header)
        except LogError as error:
            raise Invalid(error.message) from None
        if client_key is not None:
            return self._create_once(club, header, parsed, who, client_key, dated, confirm_new)
        return Created(self._create(club, header, parsed, [], who, recorded_by=who.recorded_by,
                                    confirm_new=confirm_new))

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
        return self._create(club, log.header.fields, log.header, list(log.events), who,
                            recorded_by=by, confirm_new=confirm_new)

    def _create(self, club: str, header: dict[str, Any], parsed: Any, events: list[Any],
                who: Caller, recorded_by: str | None,
                client_key: str | None = None, confirm_new: bool = False) -> dict[str, Any]:
        names = list(parsed.players)  # as typed: the match keeps them so
        keyed = seating(names)
        try:
            header_text = store.dump_json(header)
        except (TypeError, ValueError) as error:
            raise Invalid(f"the header is not JSON: {error}", line=1) from None
        new = [new_event(e, recorded_by=recorded_by, token_id=who.token_id, line=seq + 1)
               for seq, e in enumerate(events, start=1)]
        with too_large():  # before judging them all (the store checks again as it writes)
            store.check_room(db.match_limits(self.engine), len(new), sum(e.size for e in new))
        match, refused = _judge_all(parsed.rules, parsed.players, events)
        now = self.matches.clock()
        with too_large(), db.writing(self.engine) as conn:
            club_id = club_row(conn, club).id
            ids = seat_ids(conn, club, club_id, keyed, now, confirm_new=confirm_new)
            match_id = store.insert_match(
                conn, club_id=club_id, header=header_text,
                played_on=_played_on(header.get("date"), now), rules=parsed.rules.as_dict(),
                player_names=names, player_ids=ids,
                sides=[parsed.rules.side_of(s) for s in range(parsed.rules.seats)],
                projection=store.Projection.of(match, open_count(match, refused), now),
                created_at=now, client_key=client_key)
            head = store.insert_events(conn, match_id, new, now, header_text)
            record_standing(conn, match_id, match, open_count(match, refused), now,
                            was_finished=False)  # a log that ends finished is rated at once
            created = summary(store.match_row(conn, match_id))
        self.matches.remember(match_id, Loaded(match, refused, club, head))
        return created

    def _create_once(self, club: str, header: dict[str, Any], parsed: Any, who: Caller,
                     client_key: str, dated: bool, confirm_new: bool = False) -> "Created":
        """create_match under an idempotency key: the first answer again for a retry."""
        with db.reading(self.engine) as conn:
            first = store.match_by_client_key(conn, club, client_key)
        if first is None:
            try:
                return Created(self._create(club, header, parsed, [], who,
                                            recorded_by=who.recorded_by, client_key=client_key,
                                            confirm_new=confirm_new))
            except store.AlreadyExists:  # a retry racing its original, which won
                with db.reading(self.engine) as conn:
                    first = store.match_by_client_key(conn, club, client_key)
                if first is None:
                    raise
        stored = store.load_json(first.header)
        if not dated:  # the first one's date was today then: it is not the client's to repeat
            stored.pop("date", None)
            header = {k: v for k, v in header.items() if k != "date"}
        if store.canonical_json(stored) != store.canonical_json(header):
            raise IdempotencyMismatch(
                f"idempotency key already used for match {first.id}, which was created with "
                f"another request")
        # As it was answered then: the match before any event (events may have come since).
        initial = store.Projection.of(Match(parsed.rules, parsed.players), 0, first.created_at)
        answer = {**summary(first), **initial.values(), "updated_at": store.iso(first.created_at)}
        return Created({k: answer[k] for k in summary(first)}, replayed=True)

    def may_record(self, match_id: int | str, event: Any, *, who: Caller,
                   client_event_id: str | None = None) -> None:
        """Forbidden (or NotFound) unless ``who`` may record ``event`` in the match: to ask before
        anything else about a request (record_event checks again)."""
        key = _scoped(client_event_id, who) if client_event_id is not None else None
        require(who, self.matches.club_of(match_id), self._action(match_id, event, who, key)[0])

    def _action(self, match_id: int | str, event: Any, who: Caller,
                client_event_id: str | None) -> tuple[Action, int | None]:
        """What recording ``event`` takes of ``who``: its type's action, except that a void of
        the caller's own last entry (an undo, :mod:`.undo`) is play, not a ruling; then also
        the last seq it was judged at (the undo holds only if nothing came since)."""
        action = action_for_event(event)
        if may_be_undo(event):  # only then is there anything to read
            with db.reading(self.engine) as conn:
                row = self.matches.row(conn, match_id)
                if action_for(conn, row, who, event, client_event_id) is not action:
                    return Action.RECORD, row.last_seq
        return action, None

    def record_event(self, match_id: int | str, event: dict, *, expected_seq: int | None,
                     client_event_id: str | None = None, who: Caller = OPERATOR,
                     recorded_by: str | None = None) -> Recorded:
        """Judge ``event`` against the record and append it as event expected_seq + 1
        (``expected_seq=None``: at the end, as the CLI does). The answer, and a refusal, say only
        what ``who`` may see of the match."""
        if expected_seq is not None:
            expected_seq = checks.count(expected_seq, "expected_seq")
        if client_event_id is not None:
            client_event_id = _scoped(client_event_id, who)
        by = checks.optional_name(recorded_by, "recorded_by") or who.recorded_by
        new = new_event(event, recorded_by=by, client_event_id=client_event_id,
                        token_id=who.token_id)
        number = checks.match_number(match_id)
        if number is None:
            raise NotFound(f"no match {match_id!r}")
        action, undo_at = self._action(number, event, who, client_event_id)
        if undo_at is not None and expected_seq is None:
            expected_seq = undo_at  # an undo appends right after what it was judged on
        if _names_a_dispute(event):
            self._check_dispute(number, event["target"])
        try:
            with too_large():
                recorded = self.matches.append(number, event, new, expected_seq,
                                               allow=lambda club: require(who, club, action))
        except IllegalEvent as refusal:
            raise self._refusal_for(number, event, refusal, who) from None
        if sees_hands(who, recorded.club):
            return recorded
        with db.reading(self.engine) as conn:
            row = self.matches.row(conn, number)
            with self.matches.current(conn, row) as entry:
                view = sight(conn, row, who, entry)
                if recorded.seq == entry.match.seq and view.whole:
                    return recorded
                state = seen_position(self.matches, conn, row, view, entry, recorded.seq)
        return replace(recorded, state=state, hands_hidden=not view.whole)

    def _check_dispute(self, match_id: int, target: Any) -> None:
        """A stands, or a penalty, annul or forfeit naming a target, rules on a dispute: the
        target must be one (an event the record refused, or a foul proven in hindsight)."""
        with db.reading(self.engine) as conn:
            result = self.matches.replay(conn, self.matches.row(conn, match_id))
        if target not in {v.seq for v in violations_of(result)}:
            raise Invalid(f"event {target} is not a dispute: a ruling names an event the record "
                          f"refused or a foul proven in hindsight")

    def _refusal_for(self, match_id: int, event: Any, refusal: IllegalEvent,
                     who: Caller) -> IllegalEvent:
        """The refusal as ``who`` may hear it: judged on the record as ``who`` sees it when that
        record refuses the event too, else the referee's code with a message naming no tile."""
        with db.reading(self.engine) as conn:
            row = self.matches.row(conn, match_id)
            if sees_hands(who, row.club):
                return refusal
            with self.matches.current(conn, row) as entry:
                view = sight(conn, row, who, entry)
                if view.whole:
                    return refusal
                seen = seen_replay(self.matches, conn, row, view, entry, extra=[event])
        own = seen.violation_at(row.last_seq + 1)
        return IllegalEvent(own or told_unseen(refusal.violation, row.players))


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


def _names_a_dispute(event: Any) -> bool:
    return (type(event) is dict and type(event.get("target")) is int
            and event.get("type") in SETTLING)


def new_event(event: Any, *, recorded_by: str | None, client_event_id: str | None = None,
              token_id: int | None = None, line: int | None = None) -> store.NewEvent:
    try:
        data = store.dump_json(event)
    except (TypeError, ValueError) as error:
        raise Invalid(f"the event is not JSON: {error}", line=line) from None
    if len(data) > MAX_EVENT_BYTES:
        raise Invalid(f"the event is larger than {MAX_EVENT_BYTES} bytes", line=line)
    kind = event.get("type") if isinstance(event, dict) else None
    return store.NewEvent(data=data, type=kind if kind in EVENT_TYPES else None,
                          client_event_id=client_event_id, recorded_by=recorded_by,
                          token_id=token_id)


def _judge_all(rules: Rules, players: Sequence[str],
               events: list[Any]) -> tuple[Match, set[int]]:
    """Judge a whole record event by event, as if each had been recorded in turn (only the
    voids recorded so far count): the match and the seqs refused. Raises IllegalEvent for the
    first refused event not marked disputed."""
    match = Match(rules, players)
    refused: set[int] = set()
    for seq, event in enumerate(events, start=1):
        if checks.rewrites_the_record(event):
            result = replay(rules, players, events[:seq])
            match, refused = result.match, {v.seq for v in result.violations}
            own = result.violation_at(seq)
        else:
            own = match.push(event)
            if own is not None:
                refused.add(seq)
        if own is not None and not checks.disputed(event):
            raise IllegalEvent(own)
    return match, refused


def _played_on(date: Any, now: dt.datetime) -> str:
    """The header's date (parse_header has checked it), else the day the match was created."""
    day = iso_date(date) if isinstance(date, str) else None
    return (day or now.date()).isoformat()
