"""Why each table and bye: the reasons the formats attach to a pairing, and the pairing written
out for people (:func:`describe`, for the CLI and the pages). Each reason is a sentence that
remembers its template and values (``referee.core.said``), kept so in the stored round
(:func:`referee.core.said.packed`), so that a page or the API says it in its reader's language."""

from __future__ import annotations

from typing import Iterable, Sequence

from ...core.said import said
from ...core.vocab import side_name
from ..phrases import joined, rounds_text
from .field import Entrant, Field, Pairing


def table_reason(field: Field, number: int, seated: Iterable[str], around_fixed: bool = False) -> str:
    """Why this table has this number: tables go in order of the best placed entrant at each,
    around the numbers the director fixed (``around_fixed``)."""
    best = field.best_first(seated)[0]
    if around_fixed:
        return said("table %(table)s: %(entrant)s is the best placed at the tables the director "
                    "has not fixed, after those numbered before it", table=number,
                    entrant=field.called(best))
    if number == 1:
        return said("table 1, the leaders' table: %(entrant)s is the best placed of those seated",
                    entrant=field.called(best))
    if number == 2:
        return said("table 2: %(entrant)s is the best placed of those not at table 1",
                    entrant=field.called(best))
    return said("table %(table)s: %(entrant)s is the best placed of those not at tables 1 to "
                "%(last)s", table=number, entrant=field.called(best), last=number - 1)


def bye_reasons(field: Field, entrant: str, passed_over: Sequence[tuple[str, str]] = (),
                among: Sequence[str] | None = None) -> tuple[str, ...]:
    """Why ``entrant`` sits out: fewest byes, then lowest standing, among those who might
    (``among``: everyone present by default); ``passed_over`` holds those the queue put first
    and why each was passed over."""
    earlier = field.history.byes(entrant)
    count = len(earlier)
    reasons: list[str] = [
        said("bye: fewest byes so far among those present (none)") if not count else
        said("bye: fewest byes so far among those present (%(count)s, in %(rounds)s)",
             count=count, rounds=rounds_text(earlier))]
    reasons += [said("%(entrant)s was passed over: %(why)s", entrant=field.called(other), why=why)
                for other, why in passed_over]
    equal = [e for e in (field.order if among is None else among)
             if len(field.history.byes(e)) == count]
    below = [e for e in equal if field.position[e] > field.position[entrant]]
    if not below:
        reasons.append(said("the lowest placed of those with as few (%(place)s)",
                            place=field.place(entrant)))
    elif not passed_over:
        # the queue reached them past lower placed ones: they sit out alongside them
        reasons.append(said("next in line for a bye after %(entrants)s",
                            entrants=joined(field.called(e) for e in below)))
    return tuple(reasons)


def requested_bye_reasons(field: Field, entrant: str) -> tuple[str, ...]:
    note = field.requested[entrant]
    return (said("bye: requested, and granted by the director (%(note)s)", note=note) if note
            else said("bye: requested, and granted by the director"),)


def describe(pairing: Pairing, entrants: Iterable[Entrant] = ()) -> str:
    """The pairing as text: each table with its sides and reasons, the byes, what was relaxed.
    Ids are written as the entrants' names where ``entrants`` holds them."""
    names = {e.id: e.name for e in entrants}

    def side(ids: Sequence[str]) -> str:
        return side_name([names.get(i, i) for i in ids])

    lines: list[str] = [said("Round %(round)s (%(format)s)", round=pairing.round,
                             format=pairing.format)]
    for table in pairing.tables:
        lines.append(said("Table %(table)s: %(one)s v %(other)s", table=table.number,
                          one=side(table.sides[0]), other=side(table.sides[1])))
        lines += [said("  - %(reason)s", reason=reason) for reason in table.reasons]
    for bye in pairing.byes:
        lines.append(said("Bye: %(entrant)s", entrant=names.get(bye.entrant, bye.entrant)))
        lines += [said("  - %(reason)s", reason=reason) for reason in bye.reasons]
    lines += [said("Relaxed: %(what)s", what=what) for what in pairing.relaxed]
    return joined(lines, "\n")
