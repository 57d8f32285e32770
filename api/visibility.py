"""What a token may see of the table: hands the table has not seen stay with the referees
until the round is over (the service and the core decide what that hides; this says who)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .auth import Principal, may_see_hands

if TYPE_CHECKING:  # the service hands positions over; the API never builds one
    from referee.position import Position


def as_table(who: Principal) -> bool:
    """Whether ``who`` gets the record as the table saw it (no unseen tiles while in play)."""
    return not may_see_hands(who)


def visible_position(who: Principal, pos: Position) -> dict[str, Any]:
    hidden = as_table(who) and pos.round_in_play
    return {**(pos.as_table_sees_it() if hidden else pos).as_dict(), "hands_hidden": hidden}
