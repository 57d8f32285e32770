"""Players' averages: each player's singles and pairs legs played and won, win rate and games,
from the outcomes given (a season's, or one division's: the caller chooses which).

A leg counts for its players when it was played out: won or drawn by its games. A conceded leg
counts for no player (neither the team that conceded it nor the one it went to), nor does a
void leg, a leg still in play, or a walkover. A drawn leg is played and not won. Games are the
games of the legs that count, played and won by the player's side.

**Ranking.** Players with at least ``minimum`` legs are ranked by win rate (legs won over legs
played), then legs won, more first; players equal on both share a rank. The others follow,
unranked, in the same order. Players equal on everything are listed by their id.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from fractions import Fraction

from .checks import count
from .errors import LeagueError
from .results import Outcome


@dataclass(frozen=True, slots=True)
class Average:
    """A player's line: ``teams`` they played legs for (in the order of the outcomes given);
    legs and games played and won; ``rank`` (None: fewer legs than the minimum)."""

    player: str
    teams: tuple[str, ...]
    singles_played: int
    singles_won: int
    pairs_played: int
    pairs_won: int
    games_played: int
    games_won: int
    rank: int | None = None

    @property
    def legs_played(self) -> int:
        return self.singles_played + self.pairs_played

    @property
    def legs_won(self) -> int:
        return self.singles_won + self.pairs_won

    @property
    def win_rate(self) -> Fraction:
        """Legs won over legs played, exactly (a player listed has played one leg or more)."""
        return Fraction(self.legs_won, self.legs_played)


def averages(outcomes: Iterable[Outcome], minimum: int = 1) -> tuple[Average, ...]:
    """Every player's average from ``outcomes``, ranked (see the module's text). LeagueError
    for a minimum that is not a whole number of at least 1."""
    count(minimum, 1, "minimum")
    figures: dict[str, list[int]] = {}  # singles played, won; pairs played, won; games p, w
    teams: dict[str, list[str]] = {}
    for outcome in outcomes:
        if not isinstance(outcome, Outcome):
            raise LeagueError("averages are made from fixtures' outcomes, not %(value)r",
                              value=outcome)
        for leg in outcome.legs:
            if not leg.counts_for_players:
                continue
            at = 0 if leg.kind == "singles" else 2
            games = leg.home_games + leg.away_games + leg.drawn_games
            for side, team in (("home", outcome.home), ("away", outcome.away)):
                for player in leg.players(side):
                    line = figures.setdefault(player, [0] * 6)
                    line[at] += 1
                    line[at + 1] += leg.winner == side
                    line[4] += games
                    line[5] += leg.games(side)
                    played_for = teams.setdefault(player, [])
                    if team not in played_for:
                        played_for.append(team)
    lines = [Average(player, tuple(teams[player]), *figures[player]) for player in figures]
    lines.sort(key=lambda a: (a.legs_played < minimum, -a.win_rate, -a.legs_won, a.player))
    ranked: list[Average] = []
    for n, line in enumerate(lines):
        if line.legs_played < minimum:
            ranked.append(line)
            continue
        before = ranked[-1] if ranked else None
        same = (before is not None and before.rank is not None
                and (before.win_rate, before.legs_won) == (line.win_rate, line.legs_won))
        ranked.append(replace(line, rank=before.rank if same and before else n + 1))
    return tuple(ranked)
