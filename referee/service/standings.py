"""Club standings, from the store's projections (reading them never replays a match)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine

from .. import store
from ..store import db
from .access import OPERATOR, Action, Caller, require
from .csvfile import to_csv
from .lookup import club_row

COLUMNS = ("player", "played", "won", "lost", "points_for")


class Standings:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def table(self, club: str, *, who: Caller = OPERATOR) -> list[dict[str, Any]]:
        """Per player: played, won, lost, points_for, over the club's finished matches."""
        require(who, club, Action.READ)
        with db.reading(self.engine) as conn:
            return store.standings(conn, club_row(conn, club).id)

    def csv(self, club: str, *, who: Caller = OPERATOR) -> str:
        """The standings as CSV (RFC 4180): a header line, then one player a line, with cells a
        spreadsheet would take for formulas escaped (:mod:`.csvfile`)."""
        return to_csv(self.table(club, who=who), COLUMNS)
