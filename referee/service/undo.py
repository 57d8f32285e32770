"""Undo at the table: a scorekeeper takes back its own last entry by recording a ``void`` of it.

Rulings are a referee's, a ``void`` among them, with one exception a scorekeeper's screen needs
(issue 12): the token that recorded an entry may void it while nothing but its own undos came
after it, and while the match is in play: once it has ended, only a referee changes its record
(issue 31). Repeated, undo walks back through that token's entries; it stops at anything
another token (or the operator) recorded, and never takes back a ruling. What this module decides is
which event that is (:func:`undo_target`) and so what recording an event takes
(:func:`action_for`, asked by recording and by a preview); the match screen offers the undo
(``Screen.undo``). Both read the record the repository holds, not the database.
"""

from __future__ import annotations

from typing import Any

from ..core.match import Match
from ..core.vocab import RULINGS, WITHDRAWALS
from .access import (
    Action,
    Caller,
    action_for_event,
    is_withdrawal,
    may,
    require_abandon,
    require_match,
)
from .errors import Forbidden
from .record import MatchRecord


def is_void(event: Any) -> bool:
    return type(event) is dict and event.get("type") == "void" and type(event.get("target")) is int


def undo_target(record: MatchRecord, who: Caller, upto: int | None = None,
                match: Match | None = None) -> int | None:
    """The seq a void by ``who`` may take back now (or right after event ``upto``, ``match``
    being the match then): while the match is in play, walking back from the end past the
    voids its token recorded (and what they strike; voids are resolved latest first, so a
    struck void strikes nothing), the first event still standing, if that token recorded it
    and it is no ruling."""
    token = who.token_id
    if token is None or (match if match is not None else record.match).finished:
        return None
    struck: set[int] = set()
    for seq in range(record.last_seq if upto is None else upto, 0, -1):
        if seq in struck:
            continue
        if record.marks[seq - 1].token_id != token:
            return None
        event = record.events[seq - 1]
        if is_void(event):
            struck.add(event["target"])
            continue
        kind = event.get("type") if type(event) is dict else None
        # a ruling is never taken back, nor an abandon (nothing but a note follows one)
        return seq if kind not in RULINGS and kind not in WITHDRAWALS else None
    return None


def action_for(record: MatchRecord, who: Caller, event: Any) -> Action:
    """What recording ``event`` in the match takes of ``who``: its type's action, except that a
    scorekeeper's void of its own last entry is play, not a ruling."""
    action = action_for_event(event)
    if (action is Action.RULE and is_void(event) and who.token_id is not None
            and may(who, record.club, Action.RECORD) and not may(who, record.club, Action.RULE)
            and undo_target(record, who) == event["target"]):
        return Action.RECORD
    return action


def authorize(record: MatchRecord, who: Caller, event: Any) -> None:
    """Whether ``who`` may record ``event`` in the match (Forbidden, or NotFound for a caller
    who may not read it): what :func:`action_for` takes, and for an ``abandon`` a referee or
    the token that created the match (:func:`access.may_abandon`)."""
    if is_withdrawal(event):
        require_abandon(who, record.club, record.created_by, record.id)
        return
    action = action_for(record, who, event)
    if (action is Action.RULE and is_void(event) and record.match.finished
            and may(who, record.club, Action.RECORD) and not may(who, record.club, Action.RULE)):
        # a scorekeeper's undo, once the match is over: said as such, not as any ruling
        require_match(who, record.club, Action.READ, record.id)
        raise Forbidden("the match is over: only a referee changes its record now, with a "
                        "ruling; a scorekeeper's undo is for a match in play")
    require_match(who, record.club, action, record.id)
