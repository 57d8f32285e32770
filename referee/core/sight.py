"""What the table has seen: the record as someone sees it who saw only the table (and what they
recorded themselves), and violations told without naming a tile the table has not seen.

During a round, a hand dealt open or a tile drawn in sight is *known* to the record but not
*seen* by the table. :meth:`referee.core.match.Match.secret_since` says from which event on the
record may hold such tiles; :func:`as_seen` takes them out of every event from there on, except
the ones ``own`` says the viewer recorded.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from .events import Violation, as_table_saw_it

# For a violation that only tiles the table has not seen could prove: what was wrong, in words
# that name no tile.
UNSEEN_REASONS = {
    "renege": "passed holding a tile that fits",
    "illegal_draw": "drew while holding a tile that fits",
    "must_draw": "passed while a draw was allowed",
    "not_in_hand": "does not hold that tile",
    "tile_already_played": "does not hold that tile",
    "reveal_mismatch": "revealed what does not match the hand recorded",
    "wrong_opener": "may not open this round",
    "wrong_opening_tile": "must open with another tile",
}


def as_seen(events: Sequence[Any], secret_since: int | None,
            own: Callable[[int], bool] = lambda seq: False) -> Sequence[Any]:
    """The record with the deals' hands and drawn tiles from ``secret_since`` on taken out,
    except in events ``own(seq)``. The same sequence back when nothing had to go."""
    if secret_since is None:
        return events
    seen = list(events)
    changed = False
    for seq in range(secret_since, len(seen) + 1):
        event = seen[seq - 1]
        if not own(seq):
            shown = as_table_saw_it(event)
            if shown is not event:
                seen[seq - 1] = shown
                changed = True
    return seen if changed else events


# Violations found before any hand is looked at (the check order: shape, match over, round
# over, the tile's name, whose turn): their messages name no hidden tile.
TABLE_CODES = frozenset({"match_over", "round_over", "unknown_tile", "out_of_turn"})


def told_unseen(violation: Violation, players: Sequence[str]) -> Violation:
    """``violation`` as told to someone who may not see the hand: the same event, code and seat,
    and a message that names no tile."""
    if violation.code in TABLE_CODES:
        return violation
    reason = UNSEEN_REASONS.get(violation.code, "contradicts tiles the table has not seen")
    who = (f"{players[violation.seat]} (seat {violation.seat})"
           if violation.seat is not None else "the event")
    return violation._replace(message=f"{who} {reason}", evidence=())
