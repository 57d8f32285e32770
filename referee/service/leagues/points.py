"""The points a fixture earns each team, and the league's points deductions.

A team earns, for a complete fixture: ``win``, ``draw`` or ``loss`` points by its result; plus
``per_leg`` for each leg it won; plus, for a loss by at most ``bonus_margin`` legs, ``bonus``.
British fives and threes: 3 a win and 1 for losing 5-4 (``PointsRule(win=3, draw=1,
bonus=1, bonus_margin=1)``), or 2 a win and 1 a leg (``PointsRule(win=2, draw=1,
per_leg=1)``). A walkover is a win at the walkover score for the team that turned up (its
win points, and its legs' points); the team that gave it scores nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from .checks import count
from .errors import LeagueError
from .results import Outcome


@dataclass(frozen=True, slots=True)
class PointsRule:
    """What a fixture is worth (see the module's text)."""

    win: int = 3
    draw: int = 1
    loss: int = 0
    per_leg: int = 0
    bonus: int = 0
    bonus_margin: int = 0

    def __post_init__(self) -> None:
        for name in ("win", "draw", "loss", "per_leg", "bonus", "bonus_margin"):
            count(getattr(self, name), 0, name)
        if self.bonus and not self.bonus_margin:
            raise LeagueError("a bonus for a narrow loss needs the margin it is earned within "
                              "(bonus_margin, 1 leg or more)")

    def points(self, outcome: Outcome, side: str) -> int:
        """The points ``side`` earns from a complete ``outcome``."""
        if not outcome.complete:
            raise LeagueError("%(home)r v %(away)r is not complete: it earns no points yet",
                              home=outcome.home, away=outcome.away)
        if outcome.walkover_by == side:
            return 0
        legs = outcome.legs_won(side)
        result = outcome.result(side)
        earned = {"won": self.win, "drawn": self.draw, "lost": self.loss}[result]
        if result == "lost":  # (the team that gave a walkover has had its nothing above)
            margin = outcome.legs_won("away" if side == "home" else "home") - legs
            if margin <= self.bonus_margin:
                earned += self.bonus
        return earned + self.per_leg * legs


@dataclass(frozen=True, slots=True)
class Deduction:
    """A points deduction the league ruled (a late result sheet): ``points`` taken from
    ``team``'s total, and the ruling's ``reason``, which is required."""

    team: str
    points: int
    reason: str

    def __post_init__(self) -> None:
        count(self.points, 1, "points")
        if not isinstance(self.reason, str) or not self.reason.strip():
            raise LeagueError("a points deduction is a ruling of the league, and says why: "
                              "its reason is missing")
