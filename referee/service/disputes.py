"""Disputes and rulings: the club's and a match's disputes, a ruling previewed before it is
stored, the rules' standard penalty for a proven foul, and the dispute sheet a referee hands to
both sides.

A dispute is a violation of the record (an event refused but recorded as disputed, or a foul
proven in hindsight), known by the seq of its event; the rules core finds them and their
rulings (``referee.core.disputes``). What a caller is told follows ``views``: a caller who may
not see a hand hears of a foul without the hidden tiles.
"""

from __future__ import annotations

from typing import Any, Sequence

from .. import store
from ..core.disputes import ruled, violations_of
from ..core.replay import replay
from ..core.report import build_report, report_changes
from ..core.rules import Rules
from ..core.vocab import DISPUTE_FILTERS, side_names
from ..store import db
from . import checks
from .access import OPERATOR, Action, Caller, require
from .errors import Invalid, NotFound
from .lookup import club_row
from .reading import Reading, summary
from .recording import Recording
from .repository import MatchRepository, Recorded
from .undo import action_for
from .views import seen_position, seen_report, sight

STATUSES = DISPUTE_FILTERS


class Disputes:
    def __init__(self, matches: MatchRepository, reading: Reading, recording: Recording) -> None:
        self.matches, self.reading, self.recording = matches, reading, recording
        self.engine = matches.engine

    # ------------------------------------------------------------------------------ listing

    def for_match(self, match_id: int | str, *, status: str = "all",
                  who: Caller = OPERATOR) -> list[dict[str, Any]]:
        """The match's disputes, open first, then by seq."""
        status = checks.one_of(status, STATUSES, "status")
        players = self.reading.get_match(match_id, who=who)["players"]
        found = [{**d, "seat_name": players[d["seat"]] if d["seat"] is not None else None}
                 for d in self.reading.report(match_id, who=who)["disputes"]]
        return _ordered(found, status)

    def for_club(self, club: str, *, status: str = "open", limit: int = 50, offset: int = 0,
                 who: Caller = OPERATOR) -> tuple[list[dict[str, Any]], int]:
        """Every dispute of the club's matches (each with its ``match``), open first."""
        require(who, club, Action.READ)
        status = checks.one_of(status, STATUSES, "status")
        limit, offset = checks.count(limit, "limit"), checks.count(offset, "offset")
        with db.reading(self.engine) as conn:
            ids = store.disputed_match_ids(conn, club_row(conn, club).id)
        found = []
        for match_id in ids:
            found += [{**d, "match": match_id} for d in self.for_match(match_id, who=who)]
        listed = _ordered(found, status)
        return listed[offset:offset + limit], len(listed)

    # ------------------------------------------------------------------------------ rulings

    def preview(self, match_id: int | str, events: Sequence[dict[str, Any]], *,
                who: Caller = OPERATOR) -> dict[str, Any]:
        """What recording ``events`` (a ruling, or several) would do, storing nothing: the report
        as it would be, the violation of each event, and what changes."""
        with db.reading(self.engine) as conn:
            row = self.matches.row(conn, match_id)
            for event in events:
                require(who, row.club, action_for(conn, row, who, event))  # an undo is play
            recorded = self.matches.events(conn, row)
            with self.matches.current(conn, row) as entry:
                view = sight(conn, row, who, entry)
        rules = Rules(**row.rules)
        before = build_report(replay(rules, row.players, recorded))
        after_replay = replay(rules, row.players, [*recorded, *events])
        after = build_report(after_replay)
        refused = [after_replay.violation_at(row.last_seq + i) for i in range(1, len(events) + 1)]
        return {
            "stored": False,
            "events": [{"seq": row.last_seq + i, "event": e,
                        "violation": view.told(v, row.players).as_dict() if v else None}
                       for i, (e, v) in enumerate(zip(events, refused), start=1)],
            "report": seen_report(after, view, row.players),
            "changes": report_changes(seen_report(before, view, row.players),
                                      seen_report(after, view, row.players)),
        }

    def standard_penalty(self, match_id: int | str, seq: int, *, reason: str | None = None,
                         who: Caller = OPERATOR) -> list[dict[str, Any]]:
        """The penalty events the match's rules award for dispute ``seq``: the rules' points to
        each side opposing the seat at fault, each naming the dispute."""
        seq = checks.count(seq, "seq")
        with db.reading(self.engine) as conn:
            row = self.matches.row(conn, match_id)
        require(who, row.club, Action.RULE)
        rules = Rules(**row.rules)
        dispute = self._dispute(match_id, seq, who)
        points = rules.foul_penalty()
        if points is None:
            raise Invalid("these rules name no standard penalty (foul_points, foul_share): "
                          "record a penalty with its points")
        if dispute["seat"] is None:
            raise Invalid(f"dispute {seq} names no seat at fault: record a penalty with its side")
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
        the foul and its evidence event by event, the ruling, and the score before and after."""
        seq = checks.count(seq, "seq")
        with db.reading(self.engine) as conn:
            row = self.reading.readable_row(conn, match_id, who)
            result = self.matches.replay(conn, row)
            found = next(((v, r) for v, r in ruled(result, violations_of(result)) if v.seq == seq),
                         None)
            if found is None:
                raise NotFound(f"event {seq} of match {row.id} is not a dispute")
            ruling = found[1]
            with self.matches.current(conn, row) as entry:
                view = sight(conn, row, who, entry)

                def state(at: int) -> Any:  # the table after event ``at``, as ``who`` sees it
                    return seen_position(self.matches, conn, row, view, entry, max(at, 0))

                moment = state(seq - 1)
                before = state((ruling["seq"] if ruling else row.last_seq + 1) - 1)
                after = state(ruling["seq"]) if ruling else None
        events = view.events(result.events)
        violation = view.told(found[0], row.players)
        details = violation.as_dict()
        return {
            "match": summary(row),
            "dispute": {**details, "found_at": violation.found_at or violation.seq},
            "event": events[seq - 1],
            "moment": {"seq": seq - 1, "round": moment.round, "line": list(moment.line),
                       "ends": list(moment.ends) if moment.ends else None,
                       "turn": moment.turn,
                       "turn_name": row.players[moment.turn] if moment.turn is not None else None},
            "evidence": [{**fact, "event": events[fact["seq"] - 1]}
                         for fact in details.get("evidence", [])],
            "ruling": ruling,
            "ruling_event": events[ruling["seq"] - 1] if ruling else None,
            "sides": side_names(row.rules, row.players),
            "score": {"before": list(before.totals),
                      "after": list(after.totals) if after is not None else None},
        }

    def _dispute(self, match_id: int | str, seq: int, who: Caller) -> dict[str, Any]:
        found = next((d for d in self.for_match(match_id, who=who) if d["seq"] == seq), None)
        if found is None:
            raise NotFound(f"event {seq} of match {match_id} is not a dispute")
        return found


def _ordered(found: list[dict[str, Any]], status: str) -> list[dict[str, Any]]:
    if status == "open":
        found = [d for d in found if d["ruling"] is None]
    elif status == "ruled":
        found = [d for d in found if d["ruling"] is not None]
    return sorted(found, key=lambda d: (d["ruling"] is not None, d.get("match", 0), d["seq"]))

