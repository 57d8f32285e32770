"""A family of games: what sets it apart from the others, as values the match is given.

python-chess makes a variant a Board subclass that overrides a few hooks; here a family is the
few parts the match consults where families differ: the layout the tiles are laid on (its class
says where a tile goes and what the open ends are: referee.core.layout) and the scoring policy
(when points are made and how many: referee.core.scoring). Everything else (deals, turns, draws,
passes, reveals, rulings, the record) is every family's. ``run`` is push_all's run of moves
for the family (referee.core.fastpath: hand-made copies of the appliers, ``run_moves`` for the
line and its two ends with nothing scored during play, ``run_counted`` for the points family),
``fast`` whether it has one; a family none fits has none, and every move is applied by the
appliers. How a family is added: docs/core.md.
"""

from __future__ import annotations

from typing import Callable

from .counting import COUNTED, SPINNER, CountedLine, SpinnerLine
from .fastpath import lead_counted, lead_line, run_counted, run_moves
from .layout import EMPTY, Layout
from .points import POINTS_DURING_PLAY, PointsDuringPlay
from .records import Record, _set
from .rules import Rules
from .scoring import PIPS_AT_ROUND_END, ScoringPolicy


class Family(Record):
    """A family: its name, its empty layout (each round starts from it), its scoring policy,
    whether a hand-made run of moves may apply its moves, and which (``run``: None when not),
    and the hand-made lead that lays a round's plainly legal lead (``lead``: None when the
    judges lay every lead)."""

    __slots__ = ("name", "layout", "scoring", "fast", "run", "lead")

    def __init__(self, name: str, layout: Layout, scoring: ScoringPolicy, fast: bool = False) -> None:
        _set(self, "name", name)
        _set(self, "layout", layout)
        _set(self, "scoring", scoring)
        run = _run_for(layout, scoring) if fast else None
        _set(self, "fast", run is not None)
        _set(self, "run", run)
        _set(self, "lead", lead_line if run is run_moves else lead_counted if run else None)


def _run_for(layout: Layout, scoring: ScoringPolicy) -> Callable[..., None] | None:
    """The hand-made run of moves (referee.core.fastpath) that restates the rules of a family
    laid on ``layout`` and scored by ``scoring``, if one does: ``run_moves`` for the seeds'
    line, nothing scored during play; ``run_counted`` for the points family's counted lines
    and policy. A layout or policy of any other class (a subclass too) has none."""
    if type(layout) is Layout and not scoring.scores_plays:
        return run_moves
    if type(layout) in (CountedLine, SpinnerLine) and type(scoring) is PointsDuringPlay:
        return run_counted
    return None



# The seeds' family: a line with two open ends, the round's winner scoring the pips left.
HANDS = Family("hands", EMPTY, PIPS_AT_ROUND_END, fast=True)


# The points family (docs/rules.md, "Points during play"): the open ends counted after every
# play, on a line (Fives and Threes, Muggins) or a line with a spinner (All Fives).
POINTS = Family("ends", COUNTED, POINTS_DURING_PLAY, fast=True)
POINTS_SPINNER = Family("ends", SPINNER, POINTS_DURING_PLAY, fast=True)
# A spinner in a game scored from the hands: the seeds' scoring on the spinner's layout.
HANDS_SPINNER = Family("hands", SPINNER, PIPS_AT_ROUND_END)


def family_of(rules: Rules) -> Family:
    """The family a match's rules choose: ``scoring: ends`` the points family, else the
    seeds'; ``spinner: first_double`` lays the tiles with a spinner in either."""
    spinner = rules.spinner == "first_double"
    if rules.scoring == "ends":
        return POINTS_SPINNER if spinner else POINTS
    return HANDS_SPINNER if spinner else HANDS
