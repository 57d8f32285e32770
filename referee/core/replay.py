"""Replaying a match: settle which events a referee's voids strike, then judge the rest in order."""

from __future__ import annotations

from typing import Any, Iterator, Sequence

from .events import Violation, shape_error
from .family import Family
from .match import STRUCK, Match, RoundResult
from .records import Record, _set
from .rules import Rules
from .vocab import ON_THE_RECORD, REWRITES, WITHDRAWALS, kind_of


def corrections(rules: Rules, events: Sequence[Any]) -> tuple[set[int], dict[int, Any]]:
    """What the referee's voids strike from the record and its amends replace: (struck seqs,
    {seq: the corrected event}). Rulings act latest first, so a struck void strikes nothing, a
    void of a void restores its target, and of two rulings on one event the later decides.
    Rulings recorded after an abandon that stands change nothing (they are ``match_over``)."""
    return _corrections(rules, events)[:2]


def _corrections(rules: Rules,
                 events: Sequence[Any]) -> tuple[set[int], dict[int, Any], frozenset[int]]:
    """corrections(), and the abandons refused before the one that stands (see abandons())."""
    withdrawn, refused = abandons(rules, events)
    return (*_rulings(rules, events[:withdrawn - 1] if withdrawn else events), refused)


def _rulings(rules: Rules, events: Sequence[Any]) -> tuple[set[int], dict[int, Any]]:
    struck: set[int] = set()
    amended: dict[int, Any] = {}
    for seq in range(len(events), 0, -1):
        event = events[seq - 1]
        if (kind_of(event) in REWRITES and seq not in struck
                and shape_error(event, rules, seq) is None):
            target = event["target"]
            if event["type"] == "void":
                if target not in amended:
                    struck.add(target)
            elif (target not in struck and target not in amended
                  and not _is_ruling_on_the_record(events[target - 1])):
                amended[target] = {k: v for k, v in event["event"].items() if k != "seq"}
    return struck, amended


def placed_tiles(rules: Rules, events: Sequence[Any], seqs: Any) -> dict[int, str]:
    """The tile the play at each of ``seqs`` names as the record stands (an amend's
    correction's), by seq: what a report's scoring play (``scored``, whose fields leave the
    tile out) placed. A seq that names no play is left out."""
    _, amended = corrections(rules, events)
    tiles: dict[int, str] = {}
    for seq in seqs:
        event = amended.get(seq) or (events[seq - 1] if 0 < seq <= len(events) else None)
        if type(event) is dict and event.get("type") == "play" and isinstance(event.get("tile"), str):
            tiles[seq] = event["tile"]
    return tiles


def abandons(rules: Rules, events: Sequence[Any]) -> tuple[int | None, frozenset[int]]:
    """(the seq of the abandon that stands, or None; the abandons refused before it). Each is
    judged on the record as it stood when it was recorded (with the rulings before it): a
    ruling recorded later cannot reach past an abandon that stood, nor make one stand that was
    refused. Seats' names play no part in that judgement."""
    refused: set[int] = set()
    for seq, event in enumerate(events, start=1):
        if (kind_of(event) in WITHDRAWALS
                and shape_error(event, rules, seq) is None):
            # (no abandon before it stood: every ruling before it counts)
            struck, amended = _rulings(rules, events[:seq])
            before = _replay(rules, [""] * rules.seats, events[:seq], frozenset(struck), amended,
                             frozenset(), frozenset(refused))
            if before.violation_at(seq) is None:
                return seq, frozenset(refused)
            refused.add(seq)
    return None, frozenset(refused)


def _is_ruling_on_the_record(event: Any) -> bool:
    return kind_of(event) in ON_THE_RECORD


class Replay(Record):
    """The outcome of replaying a whole record."""

    __slots__ = ("match", "violations", "struck", "amended", "events")

    def __init__(self, match: Match, violations: tuple[Violation, ...], struck: frozenset[int],
                 amended: dict[int, Any], events: Sequence[Any] = ()) -> None:
        _set(self, "match", match)
        _set(self, "violations", violations)
        _set(self, "struck", struck)
        _set(self, "amended", amended)
        _set(self, "events", events)  # the record replayed, as given

    @property
    def valid(self) -> bool:
        return not self.violations

    def violation_at(self, seq: int) -> Violation | None:
        """The violation of event ``seq``, if it has one (one event, at most one violation)."""
        return next((v for v in reversed(self.violations) if v.seq == seq), None)

    @property
    def rounds(self) -> list[RoundResult]:
        return self.match.results()


def replay(rules: Rules, players: Sequence[str], events: Sequence[Any], *,
           skip: frozenset[int] = frozenset(), family: Family | None = None) -> Replay:
    """Judge a whole record. ``skip``: seqs to pass over as if struck (a view of the record
    that must refuse what the whole record refused, though it cannot see why). ``family``:
    the match's family when not the rules' (referee.core.family; a family being built)."""
    result = _replay(rules, players, events, frozenset(), {}, skip, family=family)
    if result.match.voided:  # rare: judge again with the struck events left out, amends in
        struck, amended, refused = _corrections(rules, events)
        result = _replay(rules, players, events, frozenset(struck), amended, skip, refused,
                         family)
    return result


def _replay(rules: Rules, players: Sequence[str], events: Sequence[Any],
            struck: frozenset[int], amended: dict[int, Any], skip: frozenset[int],
            refused_abandons: frozenset[int] = frozenset(),
            family: Family | None = None) -> Replay:
    match = Match(rules, players, family)
    match.refused_abandons = refused_abandons
    if struck or skip or amended:
        passed = struck | skip
        violations = match.push_all([STRUCK if seq in passed else amended.get(seq, event)
                                     for seq, event in enumerate(events, start=1)])
    else:
        violations = match.push_all(events)
    return Replay(match, tuple(violations), struck, amended, events)


def _has_void(events: Sequence[Any]) -> bool:
    return any(kind_of(e) in REWRITES for e in events)


def positions(rules: Rules, players: Sequence[str], events: Sequence[Any]) -> Iterator[tuple[int, Match, Violation | None]]:
    """After each event of the record as it stood when that event was recorded (only the voids
    recorded so far count): (seq, the match, that event's violation). The same Match object is
    yielded each time, moved on; take a snapshot of what you need before the next step."""
    match = Match(rules, players)
    if not _has_void(events):
        for seq, event in enumerate(events, start=1):
            yield seq, match, match.push(event)
        return
    for seq in range(1, len(events) + 1):
        result = replay(rules, players, events[:seq])
        own = next((v for v in result.violations if v.seq == seq), None)
        yield seq, result.match, own
