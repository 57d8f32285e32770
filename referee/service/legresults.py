"""The legs' results (``league_leg_results``, migration 0024) kept up to date with whatever
changes a leg outside the league's own use cases, in the same transaction: an append or a
ruling on a leg's game (a projector, as the standings'), a players merge (a merge hook), a
rebuild. The league's use cases write them where they tag a game or concede a leg. The rows
are :func:`referee.store.leagues.project_legs`'s; ``domino db audit`` compares them with the
legs' games, seats and concessions (:func:`differences`)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, select

from ..store import leagues as store
from ..store.schema import league_leg_results
from .projectors import Change, Projector
from .uow import UnitOfWork

TABLE = "league_leg_results"
COLUMNS = ("season_id", "division_id", "games", "home", "away", "conceded_by", "reason")


def of_matches(conn: Connection, match_ids: list[int]) -> int:
    """The results of the legs these matches are games of written again: the rows written."""
    fixtures = store.fixtures_of_matches(conn, match_ids)
    return store.project_legs(conn, fixtures) if fixtures else 0


def _project(uow: UnitOfWork, change: Change) -> None:
    of_matches(uow.conn, [change.match_id])


def _wants(change: Change) -> bool:
    """A game's result, or whether it has one, may have moved: it finished, was finished, or
    was abandoned (a game abandoned counts for nothing)."""
    return change.result_may_change or change.match.abandoned is not None


LEG_RESULTS = Projector("league legs", _wants, _project)


def after_merge(uow: UnitOfWork, club_id: int, source: int, into: int,
                match_ids: list[int]) -> None:
    """A players merge hook: the legs the moved seats played name ``into``."""
    of_matches(uow.conn, match_ids)


def differences(conn: Connection) -> list[tuple[str, tuple[int, int], str, Any, Any]]:
    """Each stored leg result that differs from what its legs come to, as the standings'
    check names them: (table, (fixture, leg), column, stored, derived); for a row on one side
    only the column is ``row``, and stored is whether it is the stored side's. Nothing is
    written."""
    stored = {(r.fixture_id, r.leg): dict(r._mapping)
              for r in conn.execute(select(league_leg_results))}
    derived = {(r["fixture_id"], r["leg"]): r for r in store.derived_leg_results(conn)}
    found: list[tuple[str, tuple[int, int], str, Any, Any]] = []
    for key in sorted(stored.keys() | derived.keys()):
        was, now = stored.get(key), derived.get(key)
        if was is None or now is None:
            found.append((TABLE, key, "row", was is not None, now is not None))
            continue
        found += [(TABLE, key, column, was[column], now[column]) for column in COLUMNS
                  if was[column] != now[column]]
    return found
