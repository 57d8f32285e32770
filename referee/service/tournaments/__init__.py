"""Tournaments: events of a club played in rounds, paired by the pairing engine
(:mod:`..pairing`), their matches recorded as any other (docs/tournaments.md).

- The tournament director (a referee; admins too) creates a tournament (name, dates, the rules
  of its matches, a format: ``pairs``, ``rotating`` or ``round_robin``, the number of rounds,
  what a bye earns) and manages its entrants: players in ``rotating``, fixed partnerships
  otherwise; entering and withdrawing take effect from the first round that has not started.
- The director pairs the next round once the last one is finished, and may re-pair a round
  until any of its matches has an event; pairing stores the round and creates its tables'
  matches in one unit of work (:mod:`.rounds`).
- The director also sets constraints the pairing honours in every format: an entrant fixed at
  a table, two entrants kept apart, a requested bye (:mod:`.constraints`).
- Viewers read it all; a public club's tournaments are read without a token, as its pages are.

The event standing (:mod:`.standing`) is computed from the matches' standing rows and the byes,
ranked by the club's tie-breakers with the club standings' own code.

Each concern is a module holding its use cases, each a handler given its unit of work
(:mod:`..uow`): :mod:`.event` (the tournament: create, list, show, its page), :mod:`.entrants`,
:mod:`.constraints`, :mod:`.rounds`, :mod:`.standing`, :mod:`.director` (the director's desk);
:mod:`.rows` reads a tournament and shapes it, :mod:`.fields` checks what the director gives.
:class:`Tournaments` (``svc.tournaments``) is all of them, so callers keep one name.
"""

from __future__ import annotations

from .constraints import Constraints
from .director import Director
from .entrants import Entrants
from .rounds import MATCH_KEY, RoundRefused, Rounds


class Tournaments(Director, Entrants, Constraints, Rounds):
    """``svc.tournaments``: every tournament use case (each class above holds its own)."""


__all__ = ["Tournaments", "RoundRefused", "MATCH_KEY"]
