"""The match screen: what a scorekeeper's screen shows of a match now, built once for the API,
the CLI and the pages: the line, the open ends, whose turn (seat and name) and what that seat
may do, hand counts, the boneyard, the round, the totals with side names, the open disputes and
the winner by name; hands the caller may not see are left out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ..core.position import Position
from ..core.rules import Rules


def side_names(rules: Rules | dict[str, Any], players: Sequence[str]) -> list[str]:
    """Each side's name: the player, or the two partners ("Ana & Carla")."""
    partnerships = rules["partnerships"] if isinstance(rules, dict) else rules.partnerships
    if partnerships:
        return [f"{players[0]} & {players[2]}", f"{players[1]} & {players[3]}"]
    return list(players)


@dataclass(frozen=True)
class Screen:
    summary: dict[str, Any]
    position: Position
    hands_hidden: bool
    disputes: tuple[dict[str, Any], ...]

    @property
    def players(self) -> list[str]:
        return self.summary["players"]

    @property
    def sides(self) -> list[str]:
        return side_names(self.summary["rules"], self.players)

    @property
    def turn_name(self) -> str | None:
        turn = self.position.turn
        return self.players[turn] if turn is not None else None

    @property
    def winner_name(self) -> str | None:
        winner = self.position.winner
        return self.sides[winner] if winner is not None else None

    def as_dict(self) -> dict[str, Any]:
        return {
            **self.summary, **self.position.as_dict(), "hands_hidden": self.hands_hidden,
            "turn_name": self.turn_name,
            "may_lead_names": [self.players[s] for s in self.position.may_lead],
            "sides": self.sides, "winner_name": self.winner_name,
            "disputes": list(self.disputes),
        }
