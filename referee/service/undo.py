"""Undo at the table: a scorekeeper takes back its own last entry by recording a ``void`` of it.

Rulings are a referee's, a ``void`` among them, with one exception a scorekeeper's screen needs
(issue 12): the token that recorded an entry may void it while nothing but its own undos came
after it. Repeated, undo walks back through that token's entries; it stops at anything another
token (or the operator) recorded, and never takes back a ruling. What this module decides is
which event that is (:func:`own_last_entry`) and so what recording an event takes
(:func:`action_for`, asked by recording and by a preview); the match screen offers the undo
(``Screen.undo``).
"""

from __future__ import annotations

from typing import Any, Sequence

from sqlalchemy import Connection, Row

from .. import store
from ..core.vocab import RULINGS
from .access import Action, Caller, action_for_event, may

# How far back undo looks: the record's last events (a void strikes only earlier events, so
# whether an event in this tail stands is settled by the tail alone). A screen asks every time,
# so the last few are read first, and more only when those are all the token's own undos.
FIRST_REACH = 8
REACH = 200


def is_void(event: Any) -> bool:
    return type(event) is dict and event.get("type") == "void" and type(event.get("target")) is int


def own_last_entry(rows: Sequence[Row], token_id: int | None) -> int | None:
    """The seq a void by token ``token_id`` may take back, given the record's last rows (oldest
    first): walking back from the end past the voids that token recorded (and what they
    strike), the first event still standing, if that token recorded it and it is no ruling."""
    return _walk(rows, token_id)[0]


def _walk(rows: Sequence[Row], token_id: int | None) -> tuple[int | None, bool]:
    """own_last_entry, and whether the walk ran past the first of ``rows`` undecided."""
    if token_id is None:
        return None, False
    struck: set[int] = set()
    for r in reversed(rows):
        if r.seq in struck:
            continue  # voids are resolved latest first: a struck void strikes nothing
        if r.token_id != token_id:
            return None, False
        event = store.load_json(r.data)
        if is_void(event):
            struck.add(event["target"])
            continue
        kind = event.get("type") if type(event) is dict else None
        return (r.seq if kind not in RULINGS else None), False
    return None, True


def undo_target(conn: Connection, row: Row, who: Caller) -> int | None:
    """The event ``who`` may take back now in the match of ``row`` (None: none)."""
    if who.token_id is None or row.last_seq == 0:
        return None
    for reach in (FIRST_REACH, REACH):
        rows = store.event_rows(conn, row.id, after=max(0, row.last_seq - reach))
        found, undecided = _walk(rows, who.token_id)
        if not undecided or len(rows) < reach:
            return found
    return None


def may_be_undo(event: Any) -> bool:
    """Whether ``event`` is a void, the one ruling an undo may be (nothing to read otherwise)."""
    return action_for_event(event) is Action.RULE and is_void(event)


def action_for(conn: Connection, row: Row, who: Caller, event: Any,
               client_event_id: str | None = None) -> Action:
    """What recording ``event`` in the match of ``row`` takes of ``who``: its type's action,
    except that a scorekeeper's void of its own last entry is play, not a ruling; and so is the
    retry of such an undo, under the (token-scoped) ``client_event_id`` it was stored with,
    whose answer is the first one's (the undo is no longer the last entry by then)."""
    action = action_for_event(event)
    if not (may_be_undo(event) and who.token_id is not None
            and may(who, row.club, Action.RECORD) and not may(who, row.club, Action.RULE)):
        return action
    if undo_target(conn, row, who) == event["target"]:
        return Action.RECORD
    if client_event_id is not None:
        stored = store.match_row(conn, row.id, client_event_id=client_event_id)
        if stored is not None and stored.duplicate_seq is not None:
            return Action.RECORD  # a retry: answered as first, or refused if another event
    return action
