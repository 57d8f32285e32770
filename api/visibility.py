"""What a token may see of a match: hands the table has not seen stay with the referees until
the round is over.

A round in progress hides every hand (a seat's own tiles are its secret; the line and the counts
are public) from viewers, scorekeepers and admins, in the match resource, in an append's answer,
and in the events and log, where the current round's deal and seen draws would give them away.
In closed recording the record holds no unseen tile anyway; once the round (or the match) is
over, everything shows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Sequence

from .auth import Principal, may_see_hands

if TYPE_CHECKING:  # the service hands positions over; the API never builds one
    from referee.position import Position


def round_open(pos: Position) -> bool:
    return pos.phase == "in_progress" and not pos.finished


def hides_hands(who: Principal, pos: Position) -> bool:
    return not may_see_hands(who) and round_open(pos)


def visible_position(who: Principal, pos: Position) -> dict[str, Any]:
    hidden = hides_hands(who, pos)
    shown = pos.hiding_hands(set()) if hidden else pos
    return {**shown.as_dict(), "hands_hidden": hidden}


def current_round_start(records: Sequence[dict[str, Any]]) -> int:
    """The sequence number of the deal that began the round in progress (0 if none).

    A deal some void targets may have been struck, so such deals are passed over and the search
    goes on back: that may hide an earlier deal too, never too little. Hiding too much until the
    round ends is the safe side here.
    """
    targets = {r["event"].get("target") for r in records
               if isinstance(r["event"], dict) and r["event"].get("type") == "void"}
    for record in reversed(records):
        event = record["event"]
        if isinstance(event, dict) and event.get("type") == "deal" and record["seq"] not in targets:
            return record["seq"]
    return 0


def redact(event: Any) -> Any:
    """The event as the table saw it: a deal's hands closed, a draw's tile unseen."""
    if not isinstance(event, dict):
        return event
    if event.get("type") == "deal" and isinstance(event.get("hands"), list):
        return {**event, "hands": [None] * len(event["hands"])}
    if event.get("type") == "draw" and "tile" in event:
        return {k: v for k, v in event.items() if k != "tile"}
    return event


def redacted_records(records: Sequence[dict[str, Any]], start: int) -> Iterable[dict[str, Any]]:
    """``records`` ({"seq", "event", ...}) with the events from ``start`` on redacted."""
    for record in records:
        if start and record["seq"] >= start:
            event = redact(record["event"])
            if event is not record["event"]:
                yield {**record, "event": event, "redacted": True}
                continue
        yield record
