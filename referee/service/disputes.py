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
from ..core.vocab import DISPUTE_FILTERS, RULINGS, kind_of, side_names
from . import checks
from .access import OPERATOR, Action, Caller, desk_caller, require
from .clubs import reader_in
from .errors import Conflict, Invalid, NotFound
from .lookup import club_row, find_club
from .reading import Reading
from .recording import Recorded, Recording
from .undo import authorize
from .uow import PRIMARY, UnitOfWork, use_case
from .view import MatchView

STATUSES = DISPUTE_FILTERS
# The rulings a referee picks at the desk: the rules' standard penalty, or one of the ruling
# events (referee.core.vocab.RULINGS) naming the dispute.
DESK_RULINGS = ("standard", "penalty", "void", "annul", "forfeit", "stands", "amend")
# Open disputes a page of the disputes desk shows, each with its evidence.
DESK_PAGE = 20


class Disputes:
    """A match's disputes and rulings are its referee's: each read the primary (a referee rules
    on what it reads, and reads again right after ruling)."""

    def __init__(self, reading: Reading, recording: Recording) -> None:
        self.reading, self.recording = reading, recording
        self.units = reading.units

    # ------------------------------------------------------------------------------ listing

    @use_case(PRIMARY)
    def for_match(self, uow: UnitOfWork, match_id: int | str, *, status: str = "all",
                  who: Caller = OPERATOR) -> list[dict[str, Any]]:
        """The match's disputes, open first, then by seq."""
        status = checks.one_of(status, STATUSES, "status")
        view = self.reading.view_in(uow, match_id, who)
        return ordered(view.disputes(), status)

    @use_case(PRIMARY)
    def for_club(self, uow: UnitOfWork, club: str, *, status: str = "open", limit: int = 50,
                 offset: int = 0, who: Caller = OPERATOR) -> tuple[list[dict[str, Any]], int]:
        """Every dispute of the club's matches (each with its ``match``), open first."""
        require(who, club, Action.READ)
        status = checks.one_of(status, STATUSES, "status")
        limit, offset = checks.count(limit, "limit"), checks.count(offset, "offset")
        found = []
        for match_id in store.disputed_match_ids(uow.conn, club_row(uow, club).id):
            view = self.reading.view_in(uow, match_id, who)
            found += [{**d, "match": match_id} for d in view.disputes()]
        listed = ordered(found, status)
        return listed[offset:offset + limit], len(listed)

    @use_case(PRIMARY)
    def desk(self, uow: UnitOfWork, club: str, *, page: Any = 1, ruled: int = 10,
             who: Caller | None = OPERATOR) -> dict[str, Any]:
        """The referee's disputes desk, in one snapshot: the club; one page of its open
        disputes (:data:`DESK_PAGE` a page, the oldest match first, then by seq; a page past
        the last is the last), each as its sheet has it (the moment, the event, the evidence
        with each fact's event, the sides and the score) with the match's last seq (what a
        ruling's If-Match names), the rules' standard penalty (None when the rules name none)
        and the match's suspicions (what its record allows but does not prove, each with its
        event); ``open_total``, ``page``, ``pages``, ``per_page``; and the ``ruled`` disputes
        ruled last (for their sheets). Only the matches shown are replayed: which ones a page
        holds comes from each match's count of open disputes, kept with it. ``who`` must be a
        referee of the club (no token, or the public reader: Unauthorized, whether the club is
        public or not; a viewer or scorekeeper: Forbidden)."""
        page = checks.page_number(page)
        who, info = reader_in(uow, club, desk_caller(who))
        require(who, club, Action.RULE)
        club_id = club_row(uow, club).id
        counts = store.open_dispute_counts(uow.conn, club_id)
        total = sum(n for _, n in counts)
        pages = max(1, -(-total // DESK_PAGE))
        page = min(page, pages)
        open_ = self._open_page(uow, counts, (page - 1) * DESK_PAGE, who)
        done = self._ruled_last(uow, club_id, ruled, who)
        return {"club": info, "open": open_, "open_total": total, "page": page,
                "pages": pages, "per_page": DESK_PAGE, "ruled": done}

    def _open_page(self, uow: UnitOfWork, counts: list[tuple[int, int]], start: int,
                   who: Caller) -> list[dict[str, Any]]:
        """The open disputes ``start`` to ``start + DESK_PAGE`` of the club's, in order: only
        the matches holding them are replayed."""
        found: list[dict[str, Any]] = []
        before = 0  # open disputes in the matches passed over
        for match_id, count in counts:
            if before + count <= start:
                before += count
                continue
            view = self.reading.view_in(uow, match_id, who)
            penalty = view.record.rules.foul_penalty()
            report = view.report()
            unruled = [d for d in report["disputes"] if d["ruling"] is None]
            # what the record suggests without proving, on the same match
            suspicions = [{**s, "event": view.events[s["seq"] - 1]} for s in report["suspicions"]]
            for dispute in unruled[max(0, start - before):]:
                sheet = _sheet(view, dispute["seq"])
                found.append({**sheet, **_named_by_ruling(view.record.rules, sheet),
                              "last_seq": view.record.last_seq,
                              "standard_penalty": penalty, "suspicions": suspicions})
                if len(found) == DESK_PAGE:
                    return found
            before += count
        return found

    def _ruled_last(self, uow: UnitOfWork, club_id: int, ruled: int,
                    who: Caller) -> list[dict[str, Any]]:
        """The ``ruled`` disputes ruled last: by their match's last change, then by the
        ruling's event. The matches are read the one changed last first, and no further than
        the one that completes the list, so a club's long history is not replayed."""
        done: list[dict[str, Any]] = []
        for row in store.ruled_match_rows(uow.conn, club_id):
            if len(done) >= ruled and row.updated_at < done[ruled - 1]["changed"]:
                break  # every dispute of this match and those after it comes later
            view = self.reading.view_in(uow, row.id, who)
            summary = view.summary()
            mine = [{**d, "match": summary, "changed": row.updated_at}
                    for d in view.disputes() if d["ruling"] is not None]
            done += sorted(mine, key=lambda d: d["ruling"]["seq"], reverse=True)
        done.sort(key=lambda d: (d["changed"], d["ruling"]["seq"]), reverse=True)
        return [{k: v for k, v in d.items() if k != "changed"} for d in done[:ruled]]

    # ------------------------------------------------------------------------------ rulings

    @use_case(PRIMARY)
    def preview(self, uow: UnitOfWork, match_id: int | str, events: Sequence[dict[str, Any]], *,
                who: Caller = OPERATOR) -> dict[str, Any]:
        """What recording ``events`` (a ruling, or several) would do to the record as ``who``
        sees it, storing nothing: the report as it would be, the violation of each event, and
        what changes. ``who`` must be one who may record them (an undo is play)."""
        view = self.reading.view_in(uow, match_id, who)
        for event in events:
            authorize(view.record, who, event)
        return view.preview(events)

    @use_case(PRIMARY)
    def standard_penalty(self, uow: UnitOfWork, match_id: int | str, seq: int, *,
                         reason: str | None = None, who: Caller = OPERATOR) -> list[dict[str, Any]]:
        """The penalty events the match's rules award for dispute ``seq``: the rules' points to
        each side opposing the seat at fault, each naming the dispute."""
        seq = checks.count(seq, "seq")
        view = self.reading.view_in(uow, match_id, who)
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

    @use_case(PRIMARY)
    def ruling(self, uow: UnitOfWork, match_id: int | str, seq: int, kind: str, *, reason: Any,
               points: Any = None, event: Any = None, expected_seq: int | None = None,
               who: Caller = OPERATOR) -> list[dict[str, Any]]:
        """The events a referee's ruling ``kind`` (one of :data:`DESK_RULINGS`) on the open
        dispute ``seq`` records, built from the record, storing nothing: ``standard`` the rules'
        penalty (:meth:`standard_penalty`); ``penalty`` ``points`` to each side opposing the
        seat at fault; ``forfeit`` the match lost by the side at fault; ``void``, ``annul``,
        ``stands`` the dispute named; ``amend`` the line read as ``event``. A dispute already
        ruled is a Conflict: another desk ruled first."""
        kind = checks.one_of(kind, DESK_RULINGS, "ruling")
        seq = checks.count(seq, "seq")
        reason = checks.name(reason, "reason")
        view = self.reading.view_in(uow, match_id, who)
        require(who, view.club, Action.RULE)
        last = view.record.last_seq
        if expected_seq is not None and expected_seq != last:
            raise Conflict(last, expected_seq)
        dispute = _dispute(view, seq)
        if dispute["ruling"] is not None:
            raise Conflict(None)
        rules = view.record.rules
        if kind == "standard":
            return self.standard_penalty.within(uow, match_id, seq, reason=reason, who=who)
        if kind in ("void", "annul", "stands"):
            return [{"type": kind, "target": seq, "reason": reason}]
        if kind == "amend":
            if not isinstance(event, dict):
                raise Invalid("an amend needs the event the line is to be read as")
            return [{"type": "amend", "target": seq, "event": event, "reason": reason}]
        if dispute["seat"] is None:
            raise Invalid("dispute %(seq)s names no seat at fault: record a penalty with its side",
                          seq=seq)
        at_fault = rules.side_of(dispute["seat"])
        if kind == "forfeit":
            return [{"type": "forfeit", "side": at_fault, "target": seq, "reason": reason}]
        if type(points) is not int or points < 1:
            raise Invalid("a penalty needs its points: a whole number above 0")
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

    @use_case(PRIMARY)
    def sheet(self, uow: UnitOfWork, match_id: int | str, seq: int, *,
              who: Caller = OPERATOR) -> dict[str, Any]:
        """The dispute sheet: the match and table, the moment (the line, the ends, whose turn),
        the foul and its evidence event by event, the ruling, and the score before and after,
        all from the record as ``who`` sees it."""
        seq = checks.count(seq, "seq")
        return self.sheet_of(self.reading.view_in(uow, match_id, who), seq)

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
    club = find_club(view.uow, record.club) if view.uow is not None else None
    return {
        "match": view.summary(),
        "club": {"slug": record.club, "name": club.name if club is not None else record.club},
        "dispute": {**details, "found_at": violation.found_at or violation.seq},
        "event": events[seq - 1],
        "moment": {"seq": seq - 1, "round": moment.round, "line": list(moment.line),
                   "ends": list(moment.ends) if moment.ends else None,
                   # the points family's: every open end by side (the spinner's arms too), and
                   # the count (a knock is judged against them all)
                   "open_ends": [{"side": side, "pip": pip} for side, pip, _ in moment.open_ends],
                   "count": moment.count,
                   "turn": moment.turn,
                   "turn_name": record.players[moment.turn] if moment.turn is not None else None},
        "evidence": [{**fact, "event": events[fact["seq"] - 1]}
                     for fact in details.get("evidence", [])],
        "ruling": ruling,
        "ruling_event": events[ruling["seq"] - 1] if ruling else None,
        # every ruling event naming the dispute (a standard penalty is one per opposing side)
        "ruling_events": [{"seq": n, "event": e} for n, e in enumerate(events, start=1)
                          if kind_of(e) in RULINGS
                          and e.get("target") == seq and n > seq],
        "sides": side_names(record.rules, list(record.players)),
        "score": {"before": list(before.totals),
                  "after": list(after.totals) if after is not None else None},
    }


def _named_by_ruling(rules: Any, sheet: dict[str, Any]) -> dict[str, Any]:
    """The sides a ruling on the dispute names, by name: ``at_fault``, the side of the seat the
    dispute names (what a forfeit loses), and ``opposing``, every other side (where a penalty's
    points go: one a side, the standard penalty's too); None and [] when it names no seat (the
    penalties and the forfeit are refused then)."""
    seat = sheet["dispute"]["seat"]
    if not isinstance(seat, int):
        return {"at_fault": None, "opposing": []}
    fault = rules.side_of(seat)
    return {"at_fault": sheet["sides"][fault],
            "opposing": [name for side, name in enumerate(sheet["sides"]) if side != fault]}


def ordered(found: list[dict[str, Any]], status: str) -> list[dict[str, Any]]:
    if status == "open":
        found = [d for d in found if d["ruling"] is None]
    elif status == "ruled":
        found = [d for d in found if d["ruling"] is not None]
    return sorted(found, key=lambda d: (d["ruling"] is not None, d.get("match", 0), d["seq"]))

