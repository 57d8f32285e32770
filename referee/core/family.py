"""A family of games: what sets it apart from the others, as values the match is given.

python-chess makes a variant a Board subclass that overrides a few hooks; here a family is the
few parts the match consults where families differ: the layout the tiles are laid on (its class
says where a tile goes and what the open ends are: referee.core.layout) and the scoring policy
(when points are made and how many: referee.core.scoring). Everything else (deals, turns, draws,
passes, reveals, rulings, the record) is every family's. ``fast`` says whether push_all's run of
moves (referee.core.fastpath, a hand-made copy of the appliers for the line and its two ends,
nothing scored during play) restates this family's rules; a family it does not fit leaves it
False, and every move is applied by the appliers. How a family is added: docs/core.md.
"""

from __future__ import annotations

from .layout import EMPTY, Layout
from .records import Record, _set
from .rules import Rules
from .scoring import PIPS_AT_ROUND_END, ScoringPolicy


class Family(Record):
    """A family: its name, its empty layout (each round starts from it), its scoring policy, and
    whether the hand-made run of moves may apply its moves."""

    __slots__ = ("name", "layout", "scoring", "fast")

    def __init__(self, name: str, layout: Layout, scoring: ScoringPolicy, fast: bool = False) -> None:
        _set(self, "name", name)
        _set(self, "layout", layout)
        _set(self, "scoring", scoring)
        _set(self, "fast", fast and type(layout) is Layout and not scoring.scores_plays)


# The seeds' family: a line with two open ends, the round's winner scoring the pips left.
HANDS = Family("hands", EMPTY, PIPS_AT_ROUND_END, fast=True)


def family_of(rules: Rules) -> Family:
    """The family a match's rules choose. Every rule set the core resolves today is of the
    seeds' family; the points family adds its rule parameter and its family here."""
    return HANDS
