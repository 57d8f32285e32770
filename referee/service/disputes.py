"""Disputes and rulings: the club's and a match's disputes, a ruling previewed before it is
stored, the rules' standard penalty for a proven foul, and the dispute sheet a referee hands to
both sides.

A dispute is a violation of the record (an event refused but recorded as disputed, or a foul
proven in hindsight), known by the seq of its event; the rules core finds them and their
rulings (``referee.core.disputes``). What a caller is told is what its record says
(:class:`.view.MatchView`): a foul only a hand it may not see proves is not in it.
"""

from __future__ import annotations

from typing import Any, Sequence

from .. import store
from ..core.disputes import ruled, violations_of
from ..core.position import position
from ..core.replay import replay
from ..core.vocab import DISPUTE_FILTERS, side_names
from . import checks
from .access import OPERATOR, Action, Caller, require
from .errors import Invalid, NotFound
from .lookup import club_row
from .reading import Reading
from .recording import Recorded, Recording
from .undo import authorize
from .uow import UnitOfWork
from .view import MatchView

STATUSES = DISPUTE_FILTERS


class Disputes:
    def __init__(self, reading: Reading, recording: Recording) -> None:
        self.reading, self.recording = reading, recording
        self.engine = reading.engine

    # ------------------------------------------------------------------------------ listing

    def for_match(self, match_id: int | str, *, status: str = "all",
                  who: Caller = OPERATOR) -> list[dict[str, Any]]:
        """The match's disputes, open first, then by seq."""
        status = checks.one_of(status, STATUSES, "status")
        with self.reading.view(match_id, who=who) as view:
            return ordered(view.disputes(), status)

    def for_club(self, club: str, *, status: str = "open", limit: int = 50, offset: int = 0,
                 who: Caller = OPERATOR) -> tuple[list[dict[str, Any]], int]:
        """Every dispute of the club's matches (each with its ``match``), open first."""
        require(who, club, Action.READ)
        status = checks.one_of(status, STATUSES, "status")
        limit, offset = checks.count(limit, "limit"), checks.count(offset, "offset")
        found = []
        with UnitOfWork.reading(self.engine) as uow:
            for match_id in store.disputed_match_ids(uow.conn, club_row(uow.conn, club).id):
                view = self.reading.view_in(uow, match_id, who)
                found += [{**d, "match": match_id} for d in view.disputes()]
        listed = ordered(found, status)
        return listed[offset:offset + limit], len(listed)

    # ------------------------------------------------------------------------------ rulings

    def preview(self, match_id: int | str, events: Sequence[dict[str, Any]], *,
                who: Caller = OPERATOR) -> dict[str, Any]:
        """What recording ``events`` (a ruling, or several) would do to the record as ``who``
        sees it, storing nothing: the report as it would be, the violation of each event, and
        what changes. ``who`` must be one who may record them (an undo is play)."""
        with self.reading.view(match_id, who=who) as view:
            for event in events:
                authorize(view.record, who, event)
            return view.preview(events)

    def standard_penalty(self, match_id: int | str, seq: int, *, reason: str | None = None,
                         who: Caller = OPERATOR) -> list[dict[str, Any]]:
        """The penalty events the match's rules award for dispute ``seq``: the rules' points to
        each side opposing the seat at fault, each naming the dispute."""
        seq = checks.count(seq, "seq")
        with self.reading.view(match_id, who=who) as view:
            require(who, view.club, Action.RULE)
            rules = view.record.rules
            dispute = _dispute(view, seq)
        points = rules.foul_penalty()
        if points is None:
            raise Invalid("these rules name no standard penalty (foul_points, foul_share): "
                          "record a penalty with its points")
        if dispute["seat"] is None:
            raise Invalid("dispute %(seq)s names no seat at fault: record a penalty with its side",
                          seq=seq)
        at_fault = rules.side_of(dispute["seat"])
        reason = checks.optional_name(reason, "reason") or (
            f"the rules' penalty for {dispute['code']} at event {seq}")
        return [{"type": "penalty", "side": side, "points": points, "target": seq,
                 "reason": reason} for side in range(rules.sides) if side != at_fault]

    def apply_standard_penalty(self, match_id: int | str, seq: int, *,
                               expected_seq: int | None, reason: str | None = None,
                               who: Caller = OPERATOR) -> list[Recorded]:
        """Record the rules' penalty for dispute ``seq`` (one event per opposing side)."""
        events = self.standard_penalty(match_id, seq, reason=reason, who=who)
        recorded = []
        for event in events:
            recorded.append(self.recording.record_event(match_id, event,
                                                        expected_seq=expected_seq, who=who))
            expected_seq = recorded[-1].seq if expected_seq is not None else None
        return recorded

    # ------------------------------------------------------------------------ the sheet

    def sheet(self, match_id: int | str, seq: int, *, who: Caller = OPERATOR) -> dict[str, Any]:
        """The dispute sheet: the match and table, the moment (the line, the ends, whose turn),
        the foul and its evidence event by event, the ruling, and the score before and after,
        all from the record as ``who`` sees it."""
        seq = checks.count(seq, "seq")
        with self.reading.view(match_id, who=who) as view:
            return self.sheet_of(view, seq)

    @staticmethod
    def sheet_of(view: MatchView, seq: int) -> dict[str, Any]:
        """:meth:`sheet` of a view a use case holds (a page's)."""
        return _sheet(view, seq)


def _dispute(view: MatchView, seq: int) -> dict[str, Any]:
    found = next((d for d in view.disputes() if d["seq"] == seq), None)
    if found is None:
        raise NotFound("event %(seq)s of match %(match)s is not a dispute", seq=seq,
                       match=view.record.id)
    return found


def _sheet(view: MatchView, seq: int) -> dict[str, Any]:
    result = view.replayed
    found = next(((v, r) for v, r in ruled(result, violations_of(result)) if v.seq == seq), None)
    if found is None:
        raise NotFound("event %(seq)s of match %(match)s is not a dispute", seq=seq,
                       match=view.record.id)
    violation, ruling = found
    record, events = view.record, view.events

    def state(at: int) -> Any:  # the table after event ``at``, as the caller sees it
        at = max(at, 0)
        return position(replay(record.rules, record.players, events[:at]).match)

    moment = state(seq - 1)
    before = state((ruling["seq"] if ruling else record.last_seq + 1) - 1)
    after = state(ruling["seq"]) if ruling else None
    details = violation.as_dict()
    return {
        "match": view.summary(),
        "dispute": {**details, "found_at": violation.found_at or violation.seq},
        "event": events[seq - 1],
        "moment": {"seq": seq - 1, "round": moment.round, "line": list(moment.line),
                   "ends": list(moment.ends) if moment.ends else None,
                   "turn": moment.turn,
                   "turn_name": record.players[moment.turn] if moment.turn is not None else None},
        "evidence": [{**fact, "event": events[fact["seq"] - 1]}
                     for fact in details.get("evidence", [])],
        "ruling": ruling,
        "ruling_event": events[ruling["seq"] - 1] if ruling else None,
        "sides": side_names(record.rules, list(record.players)),
        "score": {"before": list(before.totals),
                  "after": list(after.totals) if after is not None else None},
    }


def ordered(found: list[dict[str, Any]], status: str) -> list[dict[str, Any]]:
    if status == "open":
        found = [d for d in found if d["ruling"] is None]
    elif status == "ruled":
        found = [d for d in found if d["ruling"] is not None]
    return sorted(found, key=lambda d: (d["ruling"] is not None, d.get("match", 0), d["seq"]))

