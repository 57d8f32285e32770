"""Disputes: every violation of the record, known by the seq of its event, with its ruling.

A dispute is an event the referee refused but the table recorded anyway (``"disputed": true``)
or a foul proven in hindsight. A referee rules on it with an event naming it in ``target``:
``stands`` and a ``penalty`` settle it, ``void``, ``amend`` and ``annul`` take the event's effect
away (``forfeit`` ends the match). A ruled dispute stays listed with its ruling; its violation
stays among the report's violations only while it is open.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Iterable, Sequence

from .events import Violation
from .hindsight import Findings, findings
from .replay import Replay, replay
from .vocab import REWRITES, kind_of


def ruling_of(events: Sequence[Any], seq: int) -> dict[str, Any]:
    event = events[seq - 1]
    ruling = {"seq": seq, "type": event["type"], "reason": event.get("reason")}
    if event["type"] == "penalty":
        ruling["points"] = event["points"]
    return ruling


def violations_of(result: Replay, found: Findings | None = None) -> list[Violation]:
    """The record's violations: the events it refused and the fouls hindsight proves, by seq.
    ``found``: what hindsight found in ``result.match``, when the caller has it already."""
    if found is None:
        found = findings(result.match)
    proven = found.proven
    # One violation an event: a disputed event applied as played has its own already.
    refused = {v.seq for v in result.violations}
    return sorted((*result.violations, *(v for v in proven if v.seq not in refused)),
                  key=lambda v: (v.seq, v.found_at or 0))


def disputes(result: Replay, violations: Sequence[Violation]) -> list[dict[str, Any]]:
    """One entry per dispute, in seq order, open or ruled."""
    return [_entry(v, ruling) for v, ruling in ruled(result, violations)]


def ruled(result: Replay, violations: Sequence[Violation]
          ) -> list[tuple[Violation, dict[str, Any] | None]]:
    """Every dispute's violation (as found before any ruling took it away) and its ruling."""
    events, rulings = result.events, result.match.rulings
    found: dict[int, tuple[Violation, dict[str, Any] | None]] = {}
    for v in violations:
        ruling = rulings.get(v.seq)
        found[v.seq] = (v, ruling_of(events, ruling) if ruling is not None else None)
    # A void or an amend took its target's violation out of the record: it was a dispute if the
    # target had one just before the ruling came.
    for seq in sorted(set(result.struck) | set(result.amended)):
        ruling = _correction_of(events, seq, result)
        if ruling is None or seq in found:
            continue
        earlier = next((v for v in _violations_before(result, ruling) if v.seq == seq), None)
        if earlier is not None:
            found[seq] = (earlier, ruling_of(events, ruling))
    return [found[seq] for seq in sorted(found)]


def _violations_before(result: Replay, ruling: int) -> tuple[Violation, ...]:
    """The record's violations as they stood just before event ``ruling`` came."""
    match, prefix = result.match, result.events[:ruling - 1]
    try:
        return _judged(_Prefix(match.rules, match.players, prefix))
    except (TypeError, ValueError):  # not JSON (no stored record is): judged, not kept
        return tuple(violations_of(replay(match.rules, match.players, prefix)))


class _Prefix:
    """A record's prefix (rules, players, events), one with another of the same content: the
    SHA-256 of the three as JSON."""

    __slots__ = ("rules", "players", "events", "digest")

    def __init__(self, rules: Any, players: Sequence[str], events: Sequence[Any]) -> None:
        # (hashlib imported here, for a record with a void or an amend: its import, OpenSSL's
        # library loaded, is some 11.6 million instructions of every `domino validate`'s start)
        import hashlib

        self.rules, self.players, self.events = rules, players, events
        self.digest = hashlib.sha256(json.dumps(
            [rules.as_dict(), list(players), list(events)],
            separators=(",", ":")).encode()).digest()

    def __hash__(self) -> int:
        return hash(self.digest)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Prefix) and other.digest == self.digest


# Every report of a record with a void or an amend in it judges the record up to each of them
# again (the phone's undo is a void), and a page, its twin, the scoreboard and the events are
# read one after another over the same record: the latest prefixes' violations are kept.
@lru_cache(maxsize=256)
def _judged(prefix: _Prefix) -> tuple[Violation, ...]:
    found = tuple(violations_of(replay(prefix.rules, prefix.players, prefix.events)))
    prefix.events = ()  # kept as the key (its digest): the events themselves are not needed
    return found


def _correction_of(events: Sequence[Any], target: int, result: Replay) -> int | None:
    """The latest void or amend standing in the record that names ``target``."""
    for seq in range(len(events), target, -1):
        event = events[seq - 1]
        if (seq not in result.struck and kind_of(event) in REWRITES
                and event.get("target") == target):
            return seq
    return None


def _entry(v: Violation, ruling: dict[str, Any] | None) -> dict[str, Any]:
    return {"seq": v.seq, "code": v.code, "certainty": v.certainty, "seat": v.seat,
            "found_at": v.found_at if v.found_at is not None else v.seq, "ruling": ruling}


def open_count(match: Any, refused: Iterable[int]) -> int:
    """How many disputes stand open: refused events and proven fouls that no ruling names."""
    proven = {v.seq for v in findings(match).proven}
    return len((set(refused) | proven) - match.rulings.keys())


def open_violations(result: Replay, violations: Sequence[Violation]) -> list[Violation]:
    """The violations no ruling has settled."""
    return [v for v in violations if v.seq not in result.match.rulings]
