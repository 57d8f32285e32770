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

from .counting import COUNTED, SPINNER
from .layout import EMPTY, Layout
from .points import POINTS_DURING_PLAY
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


# The points family (docs/rules.md, "Points during play"): the open ends counted after every
# play, on a line (Fives and Threes, Muggins) or a line with a spinner (All Fives).
POINTS = Family("ends", COUNTED, POINTS_DURING_PLAY)
POINTS_SPINNER = Family("ends", SPINNER, POINTS_DURING_PLAY)
# A spinner in a game scored from the hands: the seeds' scoring on the spinner's layout.
HANDS_SPINNER = Family("hands", SPINNER, PIPS_AT_ROUND_END)


def family_of(rules: Rules) -> Family:
    """The family a match's rules choose: ``scoring: ends`` the points family, else the
    seeds'; ``spinner: first_double`` lays the tiles with a spinner in either."""
    spinner = rules.spinner == "first_double"
    if rules.scoring == "ends":
        return POINTS_SPINNER if spinner else POINTS
    return HANDS_SPINNER if spinner else HANDS
