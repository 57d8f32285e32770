"""The tournament pairing engine: pure functions from an event's field to a round's tables.

``pair_round(rules, entrants, standing, history)`` pairs the next round of an event in its
format (``pairs``: Swiss by standing, :mod:`.swiss`; ``rotating``: individual at tables of
four, :mod:`.rotating`; ``round_robin``: the circle method, :mod:`.round_robin`). It reads no
database and no clock: the same inputs give the same :class:`Pairing`, whatever their order, and
each table and bye carries its reasons (:mod:`.explain`). docs/tournaments.md gives the rules
as a club reads them.

Re-pairing a round before it starts is calling ``pair_round`` again with the field as it now
is and the history of the rounds before it.
"""

from __future__ import annotations

from typing import Callable, Iterable

from ..errors import Invalid
from .explain import describe
from .field import (
    FORMATS, Bye, ByeAward, Entrant, Field, History, Pairing, PairingRules, PlayedRound, Standing,
    Table,
)
from .rotating import pair_rotating
from .round_robin import circle, pair_round_robin
from .swiss import pair_swiss

__all__ = [
    "FORMATS", "Bye", "ByeAward", "Entrant", "History", "Pairing", "PairingRules", "PlayedRound",
    "Standing", "Table", "circle", "describe", "pair_round",
]

# each format's pairing, and the fewest present it can pair: two sides, or a table of four
_BY_FORMAT: dict[str, tuple[Callable[[Field, int], Pairing], int, str]] = {
    "pairs": (pair_swiss, 2, "partnerships"),
    "rotating": (pair_rotating, 4, "players"),
    "round_robin": (pair_round_robin, 2, "partnerships"),
}


def pair_round(rules: PairingRules | str, entrants: Iterable[Entrant], standing: Standing = Standing(),
               history: History = History(), round_number: int | None = None) -> Pairing:
    """The pairing of round ``round_number`` (the round after the history's last by default).

    ``entrants`` are everyone entered in the event, withdrawn ones too (``present=False``);
    ``standing`` is the event standing before the round; ``history`` holds the rounds already
    started, not the one being paired. Raises :class:`Invalid` for a field that cannot be
    paired (too few present, an entrant listed twice, a round already played)."""
    rules = rules if isinstance(rules, PairingRules) else PairingRules(rules)
    number = history.next_round if round_number is None else round_number
    if number < 1:
        raise Invalid(f"round {number}: rounds are numbered from 1")
    if any(played.number == number for played in history.rounds):
        raise Invalid(f"round {number} is in the history already: pass the rounds before it")
    pair, fewest, who = _BY_FORMAT[rules.format]
    present = Field(list(entrants), standing, history)
    if len(present.order) < fewest:
        raise Invalid(f"a {rules.format} round needs at least {fewest} {who} present, and has "
                      f"{len(present.order)}")
    return pair(present, number)
