"""The fixture format: the legs a fixture is made of, in order, each ``singles`` (one player a
side) or ``pairs`` (two), with its ``best_of`` games; how many legs of each kind a player may
play in one fixture; and the league's walkover score. And a team's sheet for a fixture checked
against it (:func:`check_sheet`)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from ...core.vocab import LEG_KINDS
from .checks import count
from .errors import LeagueError

PLAYERS = {"singles": 1, "pairs": 2}  # a leg's players a side, by kind


@dataclass(frozen=True, slots=True)
class LegFormat:
    """A leg: its ``kind`` (``singles`` or ``pairs``) and its ``best_of`` games (a side wins
    the leg on reaching ``best_of // 2 + 1`` games)."""

    kind: str
    best_of: int = 1

    def __post_init__(self) -> None:
        if self.kind not in LEG_KINDS:
            raise LeagueError("a leg is singles or pairs, not %(kind)r", kind=self.kind)
        count(self.best_of, 1, "best_of")


@dataclass(frozen=True)
class FixtureFormat:
    """``legs`` in the order they are played; ``singles_each`` and ``pairs_each``: the legs of
    each kind one player may play in a fixture; ``walkover``: the legs a walkover scores
    (to the team that turned up, to the team that gave it), by default the narrowest win,
    ``(legs // 2 + 1, the rest)`` (5-4 for nine legs)."""

    legs: tuple[LegFormat, ...]
    singles_each: int = 1
    pairs_each: int = 1
    walkover: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        if (isinstance(self.legs, (str, LegFormat)) or not isinstance(self.legs, Sequence)
                or not self.legs or not all(isinstance(leg, LegFormat) for leg in self.legs)):
            raise LeagueError("a fixture format lists one leg or more, not %(value)r",
                              value=self.legs)
        object.__setattr__(self, "legs", tuple(self.legs))
        count(self.singles_each, 1, "singles_each")
        count(self.pairs_each, 1, "pairs_each")
        total = len(self.legs)
        score = self.walkover
        if score is None:
            score = (total // 2 + 1, total - total // 2 - 1)
        if (not isinstance(score, Sequence) or len(score) != 2
                or not all(type(s) is int and s >= 0 for s in score)
                or score[0] <= score[1] or sum(score) > total):
            raise LeagueError("a walkover scores more legs to the team that turned up than to "
                              "the team that gave it, %(legs)s legs at most in all; not "
                              "%(value)r", legs=total, value=self.walkover)
        object.__setattr__(self, "walkover", (score[0], score[1]))

    @classmethod
    def of(cls, singles: int, pairs: int, best_of: int = 1, **options: object) -> FixtureFormat:
        """``singles`` singles legs, then ``pairs`` pairs legs, each of ``best_of`` games
        (British fives and threes: ``of(6, 3)``, walkovers 5-4)."""
        legs = [LegFormat("singles", best_of)] * count(singles, 0, "singles")
        legs += [LegFormat("pairs", best_of)] * count(pairs, 0, "pairs")
        return cls(tuple(legs), **options)  # type: ignore[arg-type]

    def most(self, kind: str) -> int:
        """The legs of ``kind`` one player may play in a fixture."""
        return self.singles_each if kind == "singles" else self.pairs_each


def check_sheet(format: FixtureFormat, legs: Sequence[Sequence[str]],
                squad: Collection[str] | None = None) -> tuple[tuple[str, ...], ...]:
    """A team's sheet for a fixture: for each leg of the format, in order, the players it
    names (none: the leg is not named, and will be conceded). Returned as tuples. LeagueError
    for a sheet of another length, a leg naming the wrong number of players or one player
    twice, a player named for more legs of a kind than the format allows, or (``squad``
    given) a player not in the squad."""
    if isinstance(legs, str) or not isinstance(legs, Sequence) or len(legs) != len(format.legs):
        raise LeagueError("a team sheet names the players of each of the fixture's %(legs)s "
                          "legs, in order", legs=len(format.legs))
    sheet: list[tuple[str, ...]] = []
    played: dict[tuple[str, str], int] = {}
    for number, (leg, named) in enumerate(zip(format.legs, legs, strict=True), start=1):
        if type(named) is not tuple:
            if isinstance(named, str) or not isinstance(named, Sequence):
                raise LeagueError("leg %(leg)s: the players are a list, not %(value)r",
                                  leg=number, value=named)
            named = tuple(named)
        if not named:
            sheet.append(named)
            continue
        for player in named:
            if type(player) is not str or not player.strip():
                raise LeagueError("leg %(leg)s: a player is a non-empty text, not %(value)r",
                                  leg=number, value=player)
        if len(named) != PLAYERS[leg.kind]:
            if leg.kind == "singles":
                raise LeagueError("leg %(leg)s is a singles leg: it takes 1 player a team, not "
                                  "%(count)s", leg=number, count=len(named))
            raise LeagueError("leg %(leg)s is a pairs leg: it takes 2 players a team, not "
                              "%(count)s", leg=number, count=len(named))
        if len(named) == 2 and named[0] == named[1]:
            raise LeagueError("leg %(leg)s names %(player)r twice", leg=number, player=named[0])
        for player in named:
            if squad is not None and player not in squad:
                raise LeagueError("leg %(leg)s names %(player)r, who is not in the team's "
                                  "squad", leg=number, player=player)
            key = (player, leg.kind)
            played[key] = played.get(key, 0) + 1
        sheet.append(named)
    over = [item for item in played.items() if item[1] > format.most(item[0][1])]
    for (player, kind), legs_played in sorted(over)[:1]:  # the first, by name, is said
            if kind == "singles":
                raise LeagueError("%(player)r is named for %(legs)s singles legs, and a player "
                                  "may play %(most)s in a fixture", player=player,
                                  legs=legs_played, most=format.most(kind))
            raise LeagueError("%(player)r is named for %(legs)s pairs legs, and a player may "
                              "play %(most)s in a fixture", player=player, legs=legs_played,
                              most=format.most(kind))
    return tuple(sheet)
