"""A cup's draw: who gets which draw number, and so which place in the bracket, from a recorded
seed (anyone can draw it again and get the same) or from a ranking, or both (the best seeded by
the ranking, the rest drawn).

The draw, step by step (docs/leagues.md gives it for another implementation):

1. **The pot** is the entrants as listed: text ids, none twice, at least two. The first
   ``seeded`` of them are the seeds, best first (a ranking: an event's standing, ratings, last
   season's cup); the rest are drawn.
2. **The drawn ones are shuffled** by CPython's ``random.Random(seed).shuffle`` on them in the
   pot's order: the Mersenne Twister MT19937 initialised by ``init_by_array`` with the seed's
   32-bit words, least significant first (``[0]`` for seed 0); then, for ``i`` from the last
   index down to 1, ``j`` is a number below ``i + 1`` taken as ``next32() >> (32 - k)``, ``k``
   being the bit length of ``i + 1``, tried again while it is not below ``i + 1``; items ``i``
   and ``j`` are swapped.
3. **Draw numbers**: the seeds, in ranking order, take 1, 2, ...; then the drawn ones in their
   shuffled order.
4. **The bracket** has ``P`` places, the smallest power of two at least the entrants' number.
   Its places hold, in order, the draw numbers of :func:`bracket_order` (1 and 2 can meet only
   in the final, 1 to 4 only in the semi-finals, ...); a number past the entrants' number is a
   bye, so the byes go to the first numbers, each against nobody, all in the first round.
5. **Ties**: places 1 and 2 are the first round's first tie, 3 and 4 its second, and so on.
   In every tie, the entrant with the smaller draw number is at home.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ...core.vocab import CUP_FORMATS
from .checks import ENTRANTS, ids
from .errors import LeagueError

SEEDS = 2**64  # a seed is a whole number from 0 to SEEDS - 1


def bracket_order(size: int) -> tuple[int, ...]:
    """The draw numbers of a bracket of ``size`` places (a power of two), place by place:
    start from (1); each time, put after each number ``s`` its partner ``2m + 1 - s``, ``m``
    being the list's length then (so (1, 2); (1, 4, 2, 3); (1, 8, 4, 5, 2, 7, 3, 6); ...)."""
    order = [1]
    while len(order) < size:
        m = 2 * len(order)
        order = [x for s in order for x in (s, m + 1 - s)]
    return tuple(order)


@dataclass(frozen=True)
class Draw:
    """A cup's draw: the pot as listed, the seed and the number of seeds it was made with, the
    format (``single_elimination``, ``double_elimination``), the entrants in draw-number order
    (``order[0]`` has number 1) and the bracket's size."""

    entrants: tuple[str, ...]
    seed: int | None
    seeded: int
    format: str
    order: tuple[str, ...]
    size: int

    def number(self, entrant: str) -> int:
        return self.order.index(entrant) + 1

    def places(self) -> tuple[str | None, ...]:
        """The first round's places in bracket order, each an entrant or None (a bye)."""
        n = len(self.order)
        return tuple(self.order[k - 1] if k <= n else None for k in bracket_order(self.size))


def draw_cup(entrants: Sequence[str], seed: int | None = None, seeded: int = 0,
             format: str = "single_elimination") -> Draw:
    """The draw of ``entrants`` (see the module's text): ``seeded`` of them, the first listed,
    by ranking; the rest shuffled from ``seed``, which is needed when two or more are drawn.
    The same arguments always give the same draw. LeagueError for a pot that is
    not a list of ids (text, none twice, at least two), a format not known, more seeds than entrants, a seed that is not a
    whole number from 0 to 2**64 - 1, or no seed for a draw."""
    pot = ids(entrants, ENTRANTS)
    if format not in CUP_FORMATS:
        raise LeagueError("unknown cup format %(value)r: one of %(known)s", value=format,
                          known=", ".join(CUP_FORMATS))
    if type(seeded) is not int or not 0 <= seeded <= len(pot):
        raise LeagueError("the seeds are from 0 to the %(count)s entrants, not %(value)r",
                          count=len(pot), value=seeded)
    drawn = list(pot[seeded:])
    if seed is not None and (type(seed) is not int or not 0 <= seed < SEEDS):
        raise LeagueError("a draw's seed is a whole number from 0 to 2**64 - 1, not %(value)r",
                          value=seed)
    if len(drawn) > 1:
        if seed is None:
            raise LeagueError("a draw needs its seed, the number it is made from, recorded so "
                              "that anyone can make it again")
        random.Random(seed).shuffle(drawn)
    order = pot[:seeded] + tuple(drawn)
    size = 1 << (len(pot) - 1).bit_length()
    return Draw(pot, seed, seeded, format, order, size)
