"""Projections of an append: what else the database keeps up to date with a match's record,
written in the append's own transaction so that it is never behind or ahead of the events.

Each projector is a pair: ``wants(change)``, asked before the append's unit of work opens (cheap,
no database: an append that no projector wants is a single compare-and-set statement, see
:mod:`.uow`), and ``project(uow, change)``, run inside it once the event is stored. The service
registers them in order (:data:`PROJECTORS`); recording and importing run them all.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Callable

from ..core.match import Match
from .ratings import record_standing
from .uow import UnitOfWork


@dataclass(frozen=True)
class Change:
    """One append as the projections see it: the match after the event."""

    match_id: int
    club: str
    seq: int  # the match's last seq now
    match: Match  # the whole record's, after the event (look, never push)
    violations: int  # open disputes
    was_finished: bool
    now: dt.datetime

    @property
    def result_may_change(self) -> bool:
        """The match finishes, or was finished: its result (or whether it has one) may move."""
        return self.was_finished or self.match.finished


@dataclass(frozen=True)
class Projector:
    name: str
    wants: Callable[[Change], bool]
    project: Callable[[UnitOfWork, Change], None]


def _standing(uow: UnitOfWork, change: Change) -> None:
    """The match's standing rows, and the club's ratings with them (docs/standings.md)."""
    record_standing(uow.conn, change.match_id, change.match, change.violations, change.now,
                    was_finished=change.was_finished)


STANDINGS = Projector("standings", lambda change: change.result_may_change, _standing)

PROJECTORS: tuple[Projector, ...] = (STANDINGS,)


def wanted(change: Change, projectors: tuple[Projector, ...] = PROJECTORS) -> list[Projector]:
    return [p for p in projectors if p.wants(change)]
