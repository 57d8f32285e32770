"""Disputes: every violation of the record, known by the seq of its event, with its ruling.

A dispute is an event the referee refused but the table recorded anyway (``"disputed": true``)
or a foul proven in hindsight. A referee rules on it with an event naming it in ``target``:
``stands`` and a ``penalty`` settle it, ``void``, ``amend`` and ``annul`` take the event's effect
away (``forfeit`` ends the match). A ruled dispute stays listed with its ruling; its violation
stays among the report's violations only while it is open.
"""

from __future__ import annotations

from typing import Any, Sequence

from .events import Violation
from .hindsight import findings
from .replay import Replay, replay


def ruling_of(events: Sequence[Any], seq: int) -> dict[str, Any]:
    event = events[seq - 1]
    ruling = {"seq": seq, "type": event["type"], "reason": event.get("reason")}
    if event["type"] == "penalty":
        ruling["points"] = event["points"]
    return ruling


def violations_of(result: Replay) -> list[Violation]:
    """The record's violations: the events it refused and the fouls hindsight proves, by seq."""
    proven = findings(result.match).proven
    return sorted((*result.violations, *proven), key=lambda v: (v.seq, v.found_at or 0))


def disputes(result: Replay, violations: Sequence[Violation]) -> list[dict[str, Any]]:
    """One entry per dispute, in seq order, open or ruled."""
    events, rulings = result.events, result.match.rulings
    entries = {}
    for v in violations:
        ruling = rulings.get(v.seq)
        entries[v.seq] = _entry(v, ruling_of(events, ruling) if ruling is not None else None)
    # A void or an amend took its target's violation out of the record: it was a dispute if the
    # target had one just before the ruling came.
    for seq in sorted(set(result.struck) | set(result.amended)):
        ruling = _correction_of(events, seq, result)
        if ruling is None or seq in entries:
            continue
        before = replay(result.match.rules, result.match.players, events[:ruling - 1])
        found = next((v for v in violations_of(before) if v.seq == seq), None)
        if found is not None:
            entries[seq] = _entry(found, ruling_of(events, ruling))
    return [entries[seq] for seq in sorted(entries)]


def _correction_of(events: Sequence[Any], target: int, result: Replay) -> int | None:
    """The latest void or amend standing in the record that names ``target``."""
    for seq in range(len(events), target, -1):
        event = events[seq - 1]
        if (seq not in result.struck and type(event) is dict
                and event.get("type") in ("void", "amend") and event.get("target") == target):
            return seq
    return None


def _entry(v: Violation, ruling: dict[str, Any] | None) -> dict[str, Any]:
    return {"seq": v.seq, "code": v.code, "certainty": v.certainty, "seat": v.seat,
            "found_at": v.found_at if v.found_at is not None else v.seq, "ruling": ruling}


def open_violations(result: Replay, violations: Sequence[Violation]) -> list[Violation]:
    """The violations no ruling has settled."""
    return [v for v in violations if v.seq not in result.match.rulings]
