"""The tournament pairing engine: pure functions from an event's field to a round's tables.

``pair_round(rules, entrants, standing, history, constraints=...)`` pairs the next round of an
event in its format (``pairs``: Swiss by standing, an exact optimisation, :mod:`.swiss`;
``rotating``: individual at tables of four, whist schedules and planned events,
:mod:`.rotating` and :mod:`.whist`; ``round_robin``: every meeting once, :mod:`.round_robin`),
honouring the director's constraints (:mod:`.constraints`) and balancing seats
(:mod:`.seating`). It reads no database and no clock: the same inputs give the same
:class:`Pairing`, whatever their order, and each table and bye carries its reasons
(:mod:`.explain`). docs/tournaments.md gives the rules as a club reads them.

Re-pairing a round before it starts is calling ``pair_round`` again with the field as it now
is and the history of the rounds before it.
"""

from __future__ import annotations

from typing import Callable, Iterable

from ..errors import Invalid
from .constraints import Constraints, FixedTable, Forbidden, RequestedBye
from .explain import describe
from .field import (
    FORMATS,
    Bye,
    ByeAward,
    Entrant,
    Field,
    History,
    Pairing,
    PairingRules,
    PlayedRound,
    Standing,
    Table,
)
from .rotating import pair_rotating
from .round_robin import circle, pair_round_robin
from .swiss import pair_swiss

__all__ = [
    "FORMATS", "Bye", "ByeAward", "Constraints", "Entrant", "FixedTable", "Forbidden", "History",
    "Pairing", "PairingRules", "PlayedRound", "RequestedBye", "Standing", "Table", "circle",
    "describe", "pair_round",
]

# each format's pairing, and the fewest present it can pair: two sides, or a table of four
_BY_FORMAT: dict[str, tuple[Callable[[Field, PairingRules], Pairing], int, str]] = {
    "pairs": (lambda field, rules: pair_swiss(field, field.round), 2, "partnerships"),
    "rotating": (pair_rotating, 4, "players"),
    "round_robin": (lambda field, rules: pair_round_robin(field, field.round), 2, "partnerships"),
}


def pair_round(rules: PairingRules | str, entrants: Iterable[Entrant], standing: Standing = Standing(),
               history: History = History(), round_number: int | None = None,
               constraints: Constraints = Constraints()) -> Pairing:
    """The pairing of round ``round_number`` (the round after the history's last by default).

    ``entrants`` are everyone entered in the event, withdrawn ones too (``present=False``);
    ``standing`` is the event standing before the round; ``history`` holds the rounds already
    started, not the one being paired; ``constraints`` are the director's, every round's (each
    round reads its own requested byes). Raises :class:`Invalid` for a field that cannot be
    paired (too few present, an entrant listed twice, a round already played) or constraints
    that cannot hold (an unknown entrant, two entrants fixed at one table)."""
    rules = rules if isinstance(rules, PairingRules) else PairingRules(rules)
    number = history.next_round if round_number is None else round_number
    if number < 1:
        raise Invalid("round %(round)s: rounds are numbered from 1", round=number)
    if any(played.number == number for played in history.rounds):
        raise Invalid("round %(round)s is in the history already: pass the rounds before it",
                      round=number)
    if rules.format != "rotating" and any(f.scope == "partners" for f in constraints.forbidden):
        raise Invalid("a %(format)s entrant is a partnership: forbid its pairings at one table "
                      "(scope 'table'), not as partners", format=rules.format)
    pair, fewest, who = _BY_FORMAT[rules.format]
    present = Field(list(entrants), standing, history, constraints, number)
    if len(present.order) < fewest:
        if who == "players":
            raise Invalid("a %(format)s round needs at least %(fewest)s players present, and "
                          "has %(present)s", format=rules.format, fewest=fewest,
                          present=len(present.order))
        raise Invalid("a %(format)s round needs at least %(fewest)s partnerships present, and "
                      "has %(present)s", format=rules.format, fewest=fewest,
                      present=len(present.order))
    return pair(present, rules)
