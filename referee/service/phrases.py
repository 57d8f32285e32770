"""The small phrases the pairing's reasons are made of, with nothing of a field in them: an
ordinal, a list of rounds, a list of names (each a sentence that remembers its template and
values, ``referee.core.said``)."""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from ..core.said import Said, said, unpacked
from .errors import N_

# A table's seats, as pairing.seating says them: its sides are partnerships, as the tables head
# them (words.events.side_word), counted from 1 for people.
SEATS_TIED = N_("seats: %(name)s as partnership 1 (seats 1 and 3): times as partnership 1 less "
                "times as partnership 2 so far is %(leads)s for both, so the better placed has it")
SEATS_LEAD = N_("seats: %(name)s as partnership 1 (seats 1 and 3): times as partnership 1 less "
                "times as partnership 2 so far is %(leads)s for them, %(trails)s for the other "
                "partnership")

# Templates a stored round may hold that have since been reworded (old -> new, the same
# values): a round paired before seats were counted from 1 for people, or before its sides were
# called partnerships, says its seats anew.
RENAMED = {
    "seats: %(name)s on side 0 (seats 0 and 2): side 0 less side 1 held so far is %(leads)s "
    "for both, so the better placed has it": SEATS_TIED,
    "seats: %(name)s on side 0 (seats 0 and 2): side 0 less side 1 held so far is %(leads)s "
    "for them, %(trails)s for the other side": SEATS_LEAD,
    "seats: %(name)s on side 1 (seats 1 and 3): side 1 less side 2 held so far is %(leads)s "
    "for both, so the better placed has it": SEATS_TIED,
    "seats: %(name)s on side 1 (seats 1 and 3): side 1 less side 2 held so far is %(leads)s "
    "for them, %(trails)s for the other side": SEATS_LEAD,
}


def unpack(value: Any) -> Any:
    """A stored reason, a sentence again (:func:`referee.core.said.unpacked`), in today's words."""
    return unpacked(value, RENAMED)


def ordinal(n: int) -> Said:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    if suffix == "st":
        return said("%(n)sst", n=n)
    if suffix == "nd":
        return said("%(n)snd", n=n)
    if suffix == "rd":
        return said("%(n)srd", n=n)
    return said("%(n)sth", n=n)


def rounds_text(rounds: Sequence[int]) -> Said:
    """``round 2`` or ``rounds 1, 2 and 4``."""
    if len(rounds) == 1:
        return said("round %(round)s", round=rounds[0])
    return said("rounds %(rounds)s and %(last)s", rounds=", ".join(map(str, rounds[:-1])),
                last=rounds[-1])


def joined(items: Iterable[str], separator: str = ", ") -> Said:
    """Names (or sentences) in a list, each said in the reader's language: "Ana (1st), Beto (2nd)"."""
    items = list(items)
    # the template is made, not written: a list has no words of its own to translate
    template = separator.join("%%(i%d)s" % n for n in range(len(items)))
    return said(template, **{"i%d" % n: item for n, item in enumerate(items)})
