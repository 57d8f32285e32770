"""Projections of an append: what else the database keeps up to date with a match's record,
written in the append's own transaction so that it is never behind or ahead of the events.

Each projector has ``wants(change)``, asked before the append's unit of work opens (cheap, no
database), and ``project(uow, change)``, run inside it once the event is stored, or ``after(change)``,
run once it has committed (what needs the data durable first: the acta's signing). An append
no projector wants to write for is a single compare-and-set statement (:mod:`.uow`). The
service registers them in order (:data:`PROJECTORS`, then its own); recording and importing run
them all.
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
    project: Callable[[UnitOfWork, Change], None] | None = None  # in the append's transaction
    after: Callable[[Change], None] | None = None  # once it has committed; never raises


def run(uow: UnitOfWork, change: Change, projectors: list[Projector]) -> None:
    """The projectors that want ``change``: their writes now, their aftermath once ``uow``
    commits."""
    for projector in projectors:
        if projector.project is not None:
            projector.project(uow, change)
        if projector.after is not None:
            uow.after_commit(lambda after=projector.after: after(change))


def writes(projectors: list[Projector]) -> bool:
    """Whether any of them writes in the append's transaction."""
    return any(p.project is not None for p in projectors)


def _standing(uow: UnitOfWork, change: Change) -> None:
    """The match's standing rows, and the club's ratings with them (docs/standings.md)."""
    record_standing(uow, change.match_id, change.match, change.violations, change.now,
                    was_finished=change.was_finished)


STANDINGS = Projector("standings", lambda change: change.result_may_change, _standing)

PROJECTORS: tuple[Projector, ...] = (STANDINGS,)


def wanted(change: Change, projectors: tuple[Projector, ...] = PROJECTORS) -> list[Projector]:
    return [p for p in projectors if p.wants(change)]
