"""Who wins a finished round and what it scores, from the pips left in each seat's hand."""

from __future__ import annotations

from typing import Sequence

from .rules import Rules


def side_totals(rules: Rules, pips: Sequence[int]) -> list[int]:
    totals = [0] * rules.sides
    for seat, count in enumerate(pips):
        totals[rules.side_of(seat)] += count
    return totals


def score_domino(rules: Rules, pips: Sequence[int], seat_out: int) -> tuple[int, int]:
    """(winning side, points) when ``seat_out`` played its last tile."""
    side = rules.side_of(seat_out)
    if rules.domino_points == "all":
        return side, sum(pips)
    return side, sum(p for s, p in enumerate(pips) if rules.side_of(s) != side)


def score_block(rules: Rules, pips: Sequence[int], blocker: int, opener: int) -> tuple[int | None, int]:
    """(winning side or None, points) for a blocked round."""
    totals = side_totals(rules, pips)
    if rules.blocked_compare == "side_total":
        measure = totals
    else:
        measure = [min(pips[s] for s in rules.seats_of(side)) for side in range(rules.sides)]
    best = min(measure)
    tied = [side for side in range(rules.sides) if measure[side] == best]
    winner = tied[0] if len(tied) == 1 else _break_tie(rules, tied, blocker, opener)
    if winner is None:
        return None, 0
    opponents = [totals[side] for side in range(rules.sides) if side != winner]
    if rules.blocked_points == "opponents":
        return winner, sum(opponents)
    if rules.blocked_points == "all":
        return winner, sum(totals)
    return winner, max(0, sum(total - totals[winner] for total in opponents))


def _break_tie(rules: Rules, tied: list[int], blocker: int, opener: int) -> int | None:
    if rules.blocked_tie == "none":
        return None
    if rules.blocked_tie == "blocker_loses":
        remaining = [side for side in tied if side != rules.side_of(blocker)]
        return remaining[0] if len(remaining) == 1 else None
    # mano: the tied side whose seat comes first in turn order from the opener
    return min(tied, key=lambda side: min((s - opener) % rules.seats for s in rules.seats_of(side)))


def match_winner(totals: Sequence[int]) -> int | None:
    """The side with the highest total, or None when two share it."""
    best = max(totals)
    leaders = [side for side, total in enumerate(totals) if total == best]
    return leaders[0] if len(leaders) == 1 else None


def forfeit_winner(totals: Sequence[int], forfeiting: int) -> int | None:
    if len(totals) == 2:
        return 1 - forfeiting
    remaining = [t if side != forfeiting else None for side, t in enumerate(totals)]
    best = max(t for t in remaining if t is not None)
    leaders = [side for side, t in enumerate(remaining) if t == best]
    return leaders[0] if len(leaders) == 1 else None
