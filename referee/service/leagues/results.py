"""A fixture's result, derived from its legs: each leg won by the side that reaches
``best_of // 2 + 1`` games (or conceded, or void), the legs won by each team, and a walkover at
the league's walkover score.

What goes in is what was recorded (:class:`FixtureResult`, :class:`LegResult`: each game's
winner in the order played, the players, who conceded); what comes out is what it means
(:class:`Outcome`, :class:`LegOutcome`). The table (:mod:`.table`), the points
(:mod:`.points`) and the averages (:mod:`.averages`) read outcomes only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...core.vocab import SIDES
from .errors import LeagueError
from .format import FixtureFormat, check_sheet

OTHER = {"home": "away", "away": "home"}


@dataclass(frozen=True, slots=True)
class LegResult:
    """A leg as recorded: ``games``, each game's winner in the order played (``"home"``,
    ``"away"``, or None for a drawn game); the players of each team (``home``, ``away``);
    ``conceded_by``: the team or teams that conceded it (``"home"``, ``"away"``, both), and
    why."""

    games: tuple[str | None, ...] = ()
    home: tuple[str, ...] = ()
    away: tuple[str, ...] = ()
    conceded_by: tuple[str, ...] = ()
    reason: str = ""


@dataclass(frozen=True, slots=True)
class FixtureResult:
    """A fixture as recorded: its teams, home first, and either its legs in the format's order
    (none yet: every leg still in play) or ``walkover_by``, the team (``"home"`` or
    ``"away"``) that did not turn up."""

    home: str
    away: str
    legs: tuple[LegResult, ...] = ()
    walkover_by: str | None = None
    reason: str = ""

    @property
    def key(self) -> tuple[str, str]:
        return (self.home, self.away)


@dataclass(frozen=True, slots=True)
class Decision:
    """A series of games of ``best_of``: ``status`` ``won`` (``winner`` reached ``best_of // 2
    + 1`` games), ``drawn`` (neither side can reach it any more) or ``in_play``, and the games
    each side won."""

    status: str
    winner: str | None
    home_games: int
    away_games: int
    drawn_games: int = 0


def decide(games: Sequence[str | None], best_of: int) -> Decision:
    """The state of a leg (or of a cup tie of ``best_of`` matches) from its games' winners.
    LeagueError for more games than ``best_of`` or a winner that is not a side."""
    if type(games) is not tuple and (isinstance(games, str) or not isinstance(games, Sequence)):
        raise LeagueError("a leg's games are a list of their winners, not %(value)r",
                          value=games)
    for winner in games:
        if winner is not None and winner not in SIDES:
            raise LeagueError("a game is won by home or away (or drawn), not %(value)r",
                              value=winner)
    if len(games) > best_of:
        raise LeagueError("a series of best of %(best_of)s has no more games than that, and "
                          "this one has %(count)s", best_of=best_of, count=len(games))
    home, away = games.count("home"), games.count("away")
    drawn = len(games) - home - away
    need = best_of // 2 + 1
    left = best_of - len(games)
    if home >= need or away >= need:
        return Decision("won", "home" if home >= need else "away", home, away, drawn)
    if home + left < need and away + left < need:
        return Decision("drawn", None, home, away, drawn)
    return Decision("in_play", None, home, away, drawn)


@dataclass(frozen=True, slots=True)
class LegOutcome:
    """What a leg came to: its number (from 1), kind and best-of; ``status`` (``won``:
    decided by its games; ``conceded``: to the team that did not concede it; ``drawn``;
    ``void``: conceded by both; ``in_play``); the ``winner`` side, if any; the games each side
    won; each team's players; who conceded it; the games drawn."""

    number: int
    kind: str
    best_of: int
    status: str
    winner: str | None
    home_games: int
    away_games: int
    home: tuple[str, ...]
    away: tuple[str, ...]
    conceded_by: tuple[str, ...] = ()
    drawn_games: int = 0

    def players(self, side: str) -> tuple[str, ...]:
        return self.home if side == "home" else self.away

    def games(self, side: str) -> int:
        return self.home_games if side == "home" else self.away_games

    @property
    def counts_for_players(self) -> bool:
        """Whether the leg counts in its players' averages: played out (won or drawn by its
        games), not conceded, not void, not still in play."""
        return self.status in ("won", "drawn")


@dataclass(frozen=True)
class Outcome:
    """What a fixture came to: its legs, the legs won by each team, whether it is
    ``complete`` (every leg decided, drawn, conceded or void; or a walkover), and
    ``walkover_by``, the team that gave a walkover."""

    home: str
    away: str
    legs: tuple[LegOutcome, ...]
    home_legs: int
    away_legs: int
    complete: bool
    walkover_by: str | None = None

    @property
    def key(self) -> tuple[str, str]:
        return (self.home, self.away)

    def side(self, team: str) -> str:
        return "home" if team == self.home else "away"

    def legs_won(self, side: str) -> int:
        return self.home_legs if side == "home" else self.away_legs

    @property
    def winner(self) -> str | None:
        """The side that won more legs (None: drawn, or not complete)."""
        if not self.complete or self.home_legs == self.away_legs:
            return None
        return "home" if self.home_legs > self.away_legs else "away"

    def result(self, side: str) -> str:
        """``won``, ``drawn`` or ``lost`` for ``side`` (a complete outcome's)."""
        winner = self.winner
        if winner is None:
            return "drawn"
        return "won" if winner == side else "lost"


def _sides(value: object, what: str) -> tuple[str, ...]:
    if value == ():
        return ()
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise LeagueError("%(what)s is a list of home and away, not %(value)r", what=what,
                          value=value)
    if any(side not in SIDES for side in value) or len(set(value)) != len(value):
        raise LeagueError("%(what)s is home, away or both, once each, not %(value)r",
                          what=what, value=value)
    return tuple(value)


def _leg(leg: LegResult, best_of: int) -> Decision:
    """A leg's status, winner and games (a conceded leg's games are kept as played)."""
    conceded = _sides(leg.conceded_by, "conceded_by")
    found = decide(leg.games, best_of)
    if conceded:
        status, winner = ("void", None) if len(conceded) == 2 else ("conceded",
                                                                     OTHER[conceded[0]])
        return Decision(status, winner, found.home_games, found.away_games, found.drawn_games)
    return found


def outcome(result: FixtureResult, format: FixtureFormat, *,
            sheets_checked: bool = False) -> Outcome:
    """What ``result`` comes to under ``format``. LeagueError for: a fixture of one team, a
    walkover by someone else than home or away or with legs, legs that are not the format's
    (in number), games past a leg's best-of, a team's players against the format (as
    :func:`check_sheet`), a player on both sides, a leg played out with its players not named.
    ``sheets_checked``: the teams' players were checked as each leg was recorded (the store's
    fixtures, read back for a table), so the sheets are not checked again; the same outcome,
    sooner."""
    if not isinstance(result, FixtureResult):
        raise LeagueError("a fixture's result is needed, not %(value)r", value=result)
    if result.home == result.away:
        raise LeagueError("a fixture is between two teams, and %(team)r is both",
                          team=result.home)
    if result.walkover_by is not None:
        if result.walkover_by not in SIDES:
            raise LeagueError("a walkover is given by home or away, not %(value)r",
                              value=result.walkover_by)
        if result.legs:
            raise LeagueError("%(home)r v %(away)r: a walkover has no legs", home=result.home,
                              away=result.away)
        won, lost = format.walkover  # type: ignore[misc]
        giver = result.walkover_by
        home_legs, away_legs = (lost, won) if giver == "home" else (won, lost)
        return Outcome(result.home, result.away, (), home_legs, away_legs, True, giver)
    recorded = result.legs or tuple(LegResult() for _ in format.legs)
    if isinstance(recorded, (str, LegResult)) or len(recorded) != len(format.legs):
        raise LeagueError("%(home)r v %(away)r: a result lists each of the fixture's %(legs)s "
                          "legs, in order", home=result.home, away=result.away,
                          legs=len(format.legs))
    for number, leg in enumerate(recorded, start=1):
        if not isinstance(leg, LegResult):
            raise LeagueError("leg %(leg)s is not a leg's result: %(value)r", leg=number,
                              value=leg)
    if not sheets_checked:
        for side in SIDES:
            check_sheet(format, [getattr(leg, side) for leg in recorded])
        home_players = {p for leg in recorded for p in leg.home}
        both = sorted(home_players & {p for leg in recorded for p in leg.away})
        if both:
            raise LeagueError("%(player)r plays for both teams of %(home)r v %(away)r",
                              player=both[0], home=result.home, away=result.away)
    legs: list[LegOutcome] = []
    for number, (leg, shape) in enumerate(zip(recorded, format.legs, strict=True), start=1):
        found = _leg(leg, shape.best_of)
        if found.status in ("won", "drawn") and not (leg.home and leg.away):
            raise LeagueError("leg %(leg)s of %(home)r v %(away)r has been played, and the "
                              "players of both teams are to be named", leg=number,
                              home=result.home, away=result.away)
        legs.append(LegOutcome(number, shape.kind, shape.best_of, found.status, found.winner,
                               found.home_games, found.away_games, tuple(leg.home),
                               tuple(leg.away), tuple(leg.conceded_by), found.drawn_games))
    return Outcome(result.home, result.away, tuple(legs),
                   sum(1 for leg in legs if leg.winner == "home"),
                   sum(1 for leg in legs if leg.winner == "away"),
                   all(leg.status != "in_play" for leg in legs))
