"""Why each table and bye: the plain-English reasons the formats attach to a pairing, and the
pairing written out for people (:func:`describe`, for the CLI and the pages)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Sequence

from ...core.vocab import side_name

if TYPE_CHECKING:  # field imports this module for ordinal(); these are only for type hints
    from .field import Entrant, Field, Pairing


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def rounds_text(rounds: Sequence[int]) -> str:
    """``round 2`` or ``rounds 1, 2 and 4``."""
    if len(rounds) == 1:
        return f"round {rounds[0]}"
    return "rounds " + ", ".join(map(str, rounds[:-1])) + f" and {rounds[-1]}"


def table_reason(field: Field, number: int, seated: Iterable[str], around_fixed: bool = False) -> str:
    """Why this table has this number: tables go in order of the best placed entrant at each,
    around the numbers the director fixed (``around_fixed``)."""
    best = field.best_first(seated)[0]
    if around_fixed:
        return (f"table {number}: {field.called(best)} is the best placed at the tables the "
                f"director has not fixed, after those numbered before it")
    if number == 1:
        return f"table 1, the leaders' table: {field.called(best)} is the best placed of those seated"
    higher = {2: "table 1", 3: "tables 1 and 2"}.get(number, f"tables 1 to {number - 1}")
    return f"table {number}: {field.called(best)} is the best placed of those not at {higher}"


def bye_reasons(field: Field, entrant: str, passed_over: Sequence[tuple[str, str]] = (),
                among: Sequence[str] | None = None) -> tuple[str, ...]:
    """Why ``entrant`` sits out: fewest byes, then lowest standing, among those who might
    (``among``: everyone present by default); ``passed_over`` holds those the queue put first
    and why each was passed over."""
    earlier = field.history.byes(entrant)
    count = len(earlier)
    fewest = "none" if not count else f"{count}, in {rounds_text(earlier)}"
    reasons = [f"bye: fewest byes so far among those present ({fewest})"]
    reasons += [f"{field.called(other)} was passed over: {why}" for other, why in passed_over]
    equal = [e for e in (field.order if among is None else among)
             if len(field.history.byes(e)) == count]
    below = [e for e in equal if field.position[e] > field.position[entrant]]
    if not below:
        reasons.append(f"the lowest placed of those with as few ({field.place(entrant)})")
    elif not passed_over:
        # the queue reached them past lower placed ones: they sit out alongside them
        reasons.append(f"next in line for a bye after {', '.join(field.called(e) for e in below)}")
    return tuple(reasons)


def requested_bye_reasons(field: Field, entrant: str) -> tuple[str, ...]:
    note = field.requested[entrant]
    return ("bye: requested, and granted by the director" + (f" ({note})" if note else ""),)


def describe(pairing: Pairing, entrants: Iterable[Entrant] = ()) -> str:
    """The pairing as text: each table with its sides and reasons, the byes, what was relaxed.
    Ids are written as the entrants' names where ``entrants`` holds them."""
    names = {e.id: e.name for e in entrants}

    def side(ids: Sequence[str]) -> str:
        return side_name([names.get(i, i) for i in ids])

    lines = [f"Round {pairing.round} ({pairing.format})"]
    for table in pairing.tables:
        lines.append(f"Table {table.number}: {side(table.sides[0])} v {side(table.sides[1])}")
        lines += [f"  - {reason}" for reason in table.reasons]
    for bye in pairing.byes:
        lines.append(f"Bye: {names.get(bye.entrant, bye.entrant)}")
        lines += [f"  - {reason}" for reason in bye.reasons]
    lines += [f"Relaxed: {what}" for what in pairing.relaxed]
    return "\n".join(lines)
