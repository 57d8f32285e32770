"""Where the tables of a round go and who sits where: the tables' numbers (the director's fixed
tables first, then in order of their best placed entrant) and each table's seats, balanced over
the event.

A table's side 0 takes seats 0 and 2, side 1 seats 1 and 3 (partners sit opposite). Over an
event each entrant should hold side 0 about as often as side 1, and in ``rotating`` each
player the first seat of their side as often as the second: each table gives side 0 to the
side that has held it less, and (``rotating``) the first seat of a side to the partner who has
held it less. Ties go to the better placed, so that the same inputs seat the same way.
"""

from __future__ import annotations

from typing import Sequence

from ...core.said import said
from ...core.vocab import side_name
from ..phrases import SEATS_LEAD, SEATS_TIED
from .explain import table_reason
from .field import Field, Side


def balance(field: Field, entrant: str) -> int:
    """Side 0 held minus side 1 held, so far."""
    seats = field.history.seats(entrant)
    return seats[0] - seats[1]


def _within(field: Field, side: Side) -> Side:
    """A rotating partnership in seat order: the first seat to the partner who has held it less."""
    if len(side) == 1:
        return side
    first_less = {p: field.history.seats(p)[2] - field.history.seats(p)[3] for p in side}
    return tuple(sorted(side, key=lambda p: (first_less[p], field.position[p])))


def orient(field: Field, one: Side, other: Side) -> tuple[tuple[Side, Side], str]:
    """The two sides in seat order (side 0 first), and the reason."""
    one, other = _within(field, one), _within(field, other)

    def key(side: Side) -> tuple[int, int]:
        return sum(balance(field, e) for e in side), min(field.position[e] for e in side)

    first, second = sorted((one, other), key=key)
    name = side_name([field.name(e) for e in first])
    leads, trails = key(first)[0], key(second)[0]
    if leads == trails:
        return (first, second), said(SEATS_TIED, name=name, leads="%+d" % leads)
    return (first, second), said(SEATS_LEAD, name=name, leads="%+d" % leads, trails="%+d" % trails)


def number(field: Field, tables: Sequence[tuple[Side, Side]]
           ) -> list[tuple[int, tuple[Side, Side], str]]:
    """Each table with its number and the reason for it: a table holding an entrant the
    director fixed has that number; the others take the lowest numbers left, in order of
    their best placed entrant (so table 1 is the leaders' when no one is fixed there)."""
    def best(sides: tuple[Side, Side]) -> int:
        return min(field.position[e] for side in sides for e in side)

    ordered = sorted(tables, key=best)
    taken: dict[int, int] = {}
    for n, sides in enumerate(ordered):
        for e in (e for side in sides for e in side):
            if e in field.fixed:
                taken[n] = field.fixed[e][0]
    fixed = set(taken.values())
    free = (t for t in range(1, len(ordered) + len(fixed) + 1) if t not in fixed)
    out = []
    for n, sides in enumerate(ordered):
        if n in taken:
            who = next(e for side in sides for e in side if e in field.fixed)
            note = field.fixed[who][1]
            reason = (said("table %(table)s: fixed for %(name)s by the director (%(note)s)",
                           table=taken[n], name=field.name(who), note=note) if note else
                      said("table %(table)s: fixed for %(name)s by the director",
                           table=taken[n], name=field.name(who)))
            out.append((taken[n], sides, reason))
        else:
            t = next(free)
            out.append((t, sides, table_reason(field, t, (e for s in sides for e in s),
                                               bool(fixed))))
    return sorted(out, key=lambda item: item[0])
