"""Who opens a round, and with what: ``first_opener``, ``later_opener`` and
``later_opening_tile``.

A round's opening is a mask of the seats that may lead and the tile the lead must be (or None
for any). It depends on the hands dealt (None for a closed hand), whether the deal used every
tile, and the previous round that counted (annulled rounds are passed over by the caller).
"""

from __future__ import annotations

from typing import Any, Sequence

from .outcomes import BLOCKED, DOMINO
from .rules import Rules
from .tiles import TileSet


def opening(rules: Rules, tiles: TileSet, masks: Sequence[int | None], all_dealt: bool,
            previous: Any) -> tuple[int, int | None]:
    """(mask of seats that may lead, tile the lead must be or None) for a new deal; ``previous``
    is the last round not annulled (None before the first)."""
    if previous is None or rules.later_opener == "first_rule":
        seats, tile = first_rule_opening(rules, tiles, masks, all_dealt)
        if previous is not None and rules.later_opening_tile == "free":
            tile = None
        return seats, tile
    everyone = (1 << rules.seats) - 1
    if previous.ended == BLOCKED and previous.pips is None and rules.later_opener in (
            "winner", "puerto_rico"):
        # Who won that block is unknown (its reveals never came; or, scored at once as one
        # that needs no hand, its winner is still to be shown): any seat may open.
        return everyone, None
    seat = later_opener(rules, previous)
    tile = None
    hand = masks[seat]
    if rules.later_opening_tile == "forced" and rules.first_opener != "free" and hand is not None:
        six = tiles.double[6] if rules.max_pip >= 6 else None
        if rules.first_opener == "double_six" and six is not None and hand >> six & 1:
            tile = six
        else:
            tile = tiles.heaviest(hand)
    return 1 << seat, tile


def first_rule_opening(rules: Rules, tiles: TileSet, masks: Sequence[int | None],
                       all_dealt: bool) -> tuple[int, int | None]:
    """Round 1's rule: the 6-6 holder, the highest double (or heaviest tile), or anyone."""
    everyone = (1 << rules.seats) - 1
    if rules.first_opener == "free":
        return everyone, None
    closed = any(m is None for m in masks)
    if rules.first_opener == "double_six":
        six = tiles.double[6]
        for seat, mask in enumerate(masks):
            if mask is not None and mask >> six & 1:
                return 1 << seat, six  # a known 6-6 leads, whatever else is unseen
        if closed:
            if not all_dealt:
                return everyone, None
            return sum(1 << s for s, m in enumerate(masks) if m is None), six
    if closed:
        return everyone, None
    dealt = 0
    for mask in masks:
        dealt |= mask
    tile = tiles.heaviest(dealt)
    holder = next(s for s, m in enumerate(masks) if m >> tile & 1)
    return 1 << holder, tile


def later_opener(rules: Rules, previous: Any) -> int:
    """The seat that opens rounds 2+ under ``next``, ``winner`` or ``puerto_rico``."""
    seats = rules.seats
    opener = previous.opener if previous.opener is not None else 0
    rule = rules.later_opener
    if rule == "next":
        return (opener + 1) % seats
    if previous.ended == DOMINO:
        return previous.seat_out
    winner = previous.winner if previous.outcome == BLOCKED else None
    if winner is None:
        return opener
    if rule == "winner":
        partners = rules.seats_of(winner)
        return min(partners, key=lambda s: (previous.pips[s], (s - opener) % seats))
    blocker = previous.blocked_by
    return blocker if rules.side_of(blocker) == winner else (blocker + 1) % seats
