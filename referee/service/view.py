"""One match as one caller may see it: the only place that decides it (``docs/visibility.md``).

While a round is in play the record may hold tiles the table has not seen: hands dealt open and
tiles drawn in sight. A caller who may not see hands (``access.sees_hands``) gets the record
with those tiles taken out, except in the events its own token recorded: *its* record. Every
answer it gets is worked out by the rules core from that record alone: the table and its legal
moves, the events and the log, the report with its violations, suspicions and disputes, the
disputes desk, a preview, the judgement of what it records. So two records that differ only in
what the caller may not see give it the same answers (non-interference), and no message has to
be reworded to hide a tile: the record it was judged on never held it.

A :class:`MatchView` is built once per use case from the repository's :class:`MatchRecord` and
asked for what the use case answers; it reads nothing from the database.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any, Sequence

from .. import store
from ..core.disputes import open_count
from ..core.events import RULINGS, Violation, disputed, unsighted
from ..core.log import make_log, write_log
from ..core.match import Match
from ..core.outcomes import IN_PROGRESS
from ..core.position import Position, position
from ..core.replay import Replay, corrections, replay
from ..core.report import build_report, report_changes
from ..core.vocab import kind_of, side_names
from .access import Caller, may_abandon, sees_hands
from .record import MatchRecord
from .screen import Screen, leads, places, round_results, unseen, unseen_plays
from .summary import HEADER_FIELDS
from .undo import undo_target
from .uow import UnitOfWork


class MatchView:
    """``record`` as ``who`` may see it now."""

    def __init__(self, record: MatchRecord, who: Caller, uow: UnitOfWork | None = None) -> None:
        self.record = record
        self.who = who
        self.uow = uow  # the unit of work it was read in, for a use case that reads more
        self.referee = sees_hands(who, record.club)
        self.withheld: dict[int, Any] = {}  # seq -> the event as this caller sees it
        own_secret = False  # the caller recorded some of what the table has not seen
        if not self.referee:
            marks, token = record.marks, who.token_id
            for seq, shown in record.secrets():
                if token is not None and marks[seq - 1].token_id == token:
                    own_secret = True  # the scorekeeper who typed it sees it
                else:
                    self.withheld[seq] = shown
        # The caller sees exactly what the table saw: the record keeps that view warm.
        self._as_table = bool(self.withheld) and not own_secret

    @property
    def whole(self) -> bool:
        """Whether the caller sees the whole record."""
        return not self.withheld

    @property
    def club(self) -> str:
        return self.record.club

    @property
    def players(self) -> tuple[str, ...]:
        return self.record.players

    @cached_property
    def _judged(self) -> list[Any]:
        """The caller's record: the events with what it may not see taken out."""
        events = self.record.events
        if self.whole:
            return events
        return [self.withheld.get(seq, e) for seq, e in enumerate(events, start=1)]

    @cached_property
    def events(self) -> list[Any]:
        """The record's events as the caller sees them: its record, where an event of the
        round in play marked ``"unsighted": true`` or ``"disputed": true`` that the record
        allows shows without the mark (the mark would say that a hand the caller may not see
        contradicts it; applied or not, the caller's record is the same)."""
        events = self._judged
        since = self.record.match.secret_since()
        if self.whole or since is None or not any(map(_marked, events[since - 1:])):
            return events
        refused = {v.seq for v in self.replayed.violations}
        return [e if seq < since or seq in refused or not _marked(e)
                else {k: v for k, v in e.items() if k not in MARKS}
                for seq, e in enumerate(events, start=1)]

    @cached_property
    def replayed(self) -> Replay:
        """The caller's record, judged by the rules core."""
        if self.whole:
            return self.record.replayed()
        if self._as_table and (table := self.record.table_view()) is not None:
            return table.replayed(self._judged)
        if self.typist is not None:  # its own hidden tiles and not the others': kept too
            return self.record.typist_view(self.typist).replayed(self._judged)
        return replay(self.record.rules, self.players, self._judged)

    @property
    def typist(self) -> int | None:
        """The caller's token where its record is the record as that token sees it
        (:meth:`MatchRecord.typist_view`): a caller with a token who may not see hands."""
        return None if self.referee else self.who.token_id

    @property
    def match(self) -> Match:
        """The table now, as the caller sees it (look, never push)."""
        return self.replayed.match

    def position(self, at: int | None = None) -> Position:
        """The table after event ``at`` (None: now), as the caller sees it."""
        return position(self.replayed_at(at).match)

    # ------------------------------------------------------------------------ answers

    def summary(self, at: int | None = None) -> dict[str, Any]:
        """The match's summary (after event ``at``; None: now): the projection the matches row
        keeps, or, for a caller who does not see the whole record, the same worked out from
        the caller's record."""
        record = self.record
        if self.whole and (at is None or at == record.last_seq):
            return summary_of(record, record.match, record.violations)
        result = self.replayed_at(at)
        return summary_of(record, result.match,
                          open_count(result.match, {v.seq for v in result.violations}), at)

    def replayed_at(self, at: int | None) -> Replay:
        """The caller's record up to event ``at`` (None: all of it), judged."""
        if at is None or at == self.record.last_seq:
            return self.replayed
        return replay(self.record.rules, self.players, self.events[:at])

    def report(self) -> dict[str, Any]:
        """The domino-report/1 of the caller's record."""
        return build_report(self.replayed)

    def disputes(self) -> list[dict[str, Any]]:
        """The match's disputes in the caller's record, each with its seat's name."""
        players = self.players
        return [{**d, "seat_name": players[d["seat"]] if d["seat"] is not None else None}
                for d in self.report()["disputes"]]

    def screen(self, at: int | None = None) -> Screen:
        """The match as a scorekeeper's screen shows it to the caller: now, or as it stood
        right after event ``at`` (the disputes open then, the entry it could take back then):
        what the append of that event answered."""
        result = self.replayed_at(at)
        match = result.match
        pos = position(match)
        summary = self.summary(at)
        disputes = build_report(result)["violations"] if summary["violations"] else []
        head = self.published_head() if at is None or at == self.record.last_seq else None
        marks = self.record.marks
        # the clock of a timed match runs from its first event (the first deal, as a rule)
        started = store.iso(marks[0].recorded_at) if marks and (at is None or at >= 1) else None
        players = summary["players"]
        undo = undo_target(self.record, self.who, upto=at, match=match)
        return Screen(summary, pos, hands_hidden(pos), tuple(disputes),
                      undo=undo, undo_event=self.events[undo - 1] if undo is not None else None,
                      unseen=unseen(match), unseen_plays=unseen_plays(match), leads=leads(match),
                      places=places(match),
                      chain_head=head,
                      rounds=round_results(match, players, side_names(summary["rules"], players),
                                           self.record.said_rounds(match)),
                      started_at=started, time_called=match.timed,
                      can_abandon=(match.withdrawable
                                   and may_abandon(self.who, self.record.club,
                                                   self.record.created_by)))

    def event_records(self, after: int = 0, limit: int | None = None) -> list[dict[str, Any]]:
        """The events after ``after`` (at most ``limit``), each with when and by whom it was
        recorded (and for the club's referees, the token's id), as the caller sees them."""
        end = len(self.events) if limit is None else min(len(self.events), after + limit)
        records = []
        for seq in range(after + 1, end + 1):
            mark = self.record.marks[seq - 1]
            entry = {"seq": seq, "event": self.events[seq - 1],
                     "recorded_at": store.iso(mark.recorded_at), "recorded_by": mark.recorded_by}
            if self.referee:  # who recorded what is the club's referees' to see
                entry["token_id"] = mark.token_id
            records.append(entry)
        return records

    def published_head(self) -> str | None:
        """The match's chain head, where the caller may have it (docs/verify.md): a digest of
        a record holding a hand the caller may not see would let it find the hand by trying
        each candidate, so only a finished match's whole record has one (the operator's
        always)."""
        record = self.record
        if not self.who.is_operator and (not record.match.finished or not self.whole):
            return None
        return record.head

    def log(self) -> str:
        """The match as a domino-log/1: its header as stored and the events as the caller sees
        them."""
        return write_log(make_log(self.record.header, self.events))

    def struck(self) -> frozenset[int]:
        return frozenset(corrections(self.record.rules, self.events)[0])

    def lines(self) -> list[dict[str, Any]]:
        """Each round's line of play as it lay when the round ended (the round in play's: as it
        lies now), worked out from the caller's record."""
        refused = frozenset(v.seq for v in self.replayed.violations)
        return round_lines(self.record.rules, self.players, self.events, refused)

    def judge(self, event: Any) -> Violation | None:
        """What the caller's record says of ``event`` recorded next (nothing is kept)."""
        return self.preview_replay([event]).violation_at(self.record.last_seq + 1)

    def judged_pushed(self, since: int | None) -> Violation | None:
        """What :meth:`judge` said of the record's last event before it was pushed, asked
        after the push (``since``: the record's ``secret_since()`` before it). While the push
        left the round's hidden tiles as they were, the caller's record is the record's own
        (:meth:`MatchRecord.typist_view`, pushed on with the event: its own hidden tiles, and
        the event, in it; the others' out), not a replay of the record on every append; else
        (the round over, a new deal) the caller's record as it was, with the event, replayed."""
        record = self.record
        if self.typist is not None and record.match.secret_since() == since:
            return record.typist_view(self.typist).violation_at(record.last_seq)
        withheld = self.withheld  # as the caller saw the record before the push
        events = [withheld.get(seq, e) for seq, e in enumerate(record.events, start=1)]
        return replay(record.rules, self.players, events).violation_at(record.last_seq)

    def preview_replay(self, events: Sequence[Any]) -> Replay:
        return replay(self.record.rules, self.players, [*self.events, *events])

    def preview(self, events: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """What recording ``events`` would do to the caller's record, storing nothing: each
        event's violation, the report as it would be and what changes."""
        after_replay = self.preview_replay(events)
        after = build_report(after_replay)
        last = self.record.last_seq
        return {
            "stored": False,
            "events": [{"seq": last + i, "event": e,
                        "violation": v.as_dict() if (v := after_replay.violation_at(last + i))
                        else None}
                       for i, e in enumerate(events, start=1)],
            "report": after,
            "changes": report_changes(self.report(), after),
        }


MARKS = ("unsighted", "disputed")


def _marked(event: Any) -> bool:
    return unsighted(event) or disputed(event)


def refused_by_a_typist(record: MatchRecord, recorder: int | None) -> bool:
    """Whether the record's last event is refused by the record as another token that typed
    some of the round's hidden tiles sees it (not ``recorder``'s). Such a record knows tiles the
    whole record has given way on, or lacks tiles it holds, so it may refuse what the others
    allow: the event is then stored unsighted, and applied there too (docs/visibility.md).
    Each such record is the record's own, kept in step with it (:meth:`MatchRecord.typist_view`),
    not a replay on every append."""
    marks, last = record.marks, record.last_seq
    for token in {marks[seq - 1].token_id for seq, _ in record.secrets()} - {recorder, None}:
        if record.typist_view(token).violation_at(last) is not None:
            return True
    return False


def hands_hidden(pos: Position) -> bool:
    """Whether the screen leaves a hand out: some seat's tiles during the round in play are
    not all shown (not recorded open, or not the caller's to see). A function of the screen
    alone, so that it tells nobody which of the two it is."""
    return pos.phase == IN_PROGRESS and not pos.finished and any(h is None for h in pos.hands)


def summary_of(record: MatchRecord, match: Match, violations: int,
               at: int | None = None) -> dict[str, Any]:
    """A match's summary from its record and the Match the caller sees of it (after event
    ``at``: the record then, last recorded to then)."""
    header = record.header
    if at is None or at == record.last_seq:
        last, updated = record.last_seq, record.updated_at
    else:
        last = at
        updated = record.marks[at - 1].recorded_at if at else record.created_at
    return {
        "id": record.id, "club": record.club, "rules": record.rules.as_dict(),
        "players": list(record.players),
        "status": match.status,
        "round": match.round.number if match.round is not None else None,
        "totals": list(match.totals), "winner": match.winner, "last_seq": last,
        "violations": violations,
        **{name: header.get(name) for name in HEADER_FIELDS},
        "created_at": store.iso(record.created_at), "updated_at": store.iso(updated),
    }


def round_lines(rules: Any, players: Any, events: Sequence[Any],
                refused: frozenset[int] = frozenset()) -> list[dict[str, Any]]:
    """The record replayed as :func:`referee.core.replay.replay` does (its voids striking,
    its amends replacing, ``refused`` passed over), the line taken as each round ends (when
    the next deal is accepted, and at the end of the record); and each round's rulings, where
    they count: a ruling naming an event (``target``) in that event's round, another in the
    round in play when it was recorded (one before the first deal, in the first round). So a
    round's points and its penalties add up, round by round, to the match's totals. Each round
    also gives the spinner and its arms where there is one (:func:`_laid`) and ``plays``, the
    tile of each play that stands in it, by seq (what a scoring play placed)."""
    struck, amended = corrections(rules, events)
    passed = set(struck) | refused
    match = Match(rules, players)
    lines: list[dict[str, Any]] = []
    round_at: dict[int, int] = {}  # each event's round (0: before the first deal)
    rulings: list[tuple[int, dict[str, Any]]] = []
    tiles: dict[int, str] = {}  # each play's tile as applied (an amend's correction's)
    for seq, event in enumerate(events, start=1):
        if seq in passed:
            match.skip()
            round_at[seq] = len(match.rounds)
            continue
        event = amended.get(seq, event)
        if type(event) is dict and event.get("type") == "deal" and match.rounds:
            dealt, laid = len(match.rounds), _laid(match)
            match.push(event)
            if len(match.rounds) > dealt:
                lines.append(laid)
        else:
            match.push(event)
        round_at[seq] = len(match.rounds)
        if type(event) is dict and event.get("type") == "play":
            tiles[seq] = event.get("tile")  # type: ignore[assignment]
        if kind_of(event) in RULINGS:
            target = event.get("target")
            at = round_at.get(target, round_at[seq]) if type(target) is int else round_at[seq]
            rulings.append((max(at, 1), _ruling(seq, event)))
    if match.rounds:
        lines.append(_laid(match))
    return [{"round": r.number, **laid,
             "plays": {seq: tile for seq, tile in tiles.items() if round_at[seq] == r.number},
             "rulings": [ruling for at, ruling in rulings if at == r.number]}
            for r, laid in zip(match.rounds, lines)]


def _laid(match: Match) -> dict[str, Any]:
    """The tiles on the table now: the line (left to right), and where the points family's
    spinner lies its tile and its up and down arms' tiles (from it outward, each written with
    the pip toward it first; None until both its sides hold a tile)."""
    pos = position(match)
    return {"line": list(pos.line), "spinner": pos.spinner,
            "arms": {"up": list(pos.arms[0]), "down": list(pos.arms[1])} if pos.arms else None}


def _ruling(seq: int, event: dict[str, Any]) -> dict[str, Any]:
    """A ruling as a round line names it: seq, type, target, reason; side and points where it
    has them (a penalty's points go to its side's total)."""
    ruling = {"seq": seq, "type": event["type"], "target": event.get("target"),
              "reason": event.get("reason")}
    for name in ("side", "points"):
        if name in event:
            ruling[name] = event[name]
    return ruling
