"""The tournament director's constraints, as the engine reads them: an entrant fixed at a table
number (a player in a wheelchair at the accessible table), two entrants who never sit at one
table (or, in ``rotating``, never partner), and a bye an entrant asked for.

Each format honours them before any rule of its own and says so on the table or bye it
shaped (docs/tournaments.md, *The director's constraints*).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from ...core.vocab import CONSTRAINT_SCOPES
from ..errors import Invalid

SCOPES = CONSTRAINT_SCOPES  # never at one table; (rotating) never partners


@dataclass(frozen=True, slots=True)
class FixedTable:
    """``entrant`` always sits at table ``table`` (when it has a seat)."""

    entrant: str
    table: int
    note: str = ""


@dataclass(frozen=True, slots=True)
class Forbidden:
    """``one`` and ``other`` never at one table (``scope`` "table"), or, in ``rotating``, never
    partners ("partners": they may still face each other)."""

    one: str
    other: str
    scope: str = "table"
    note: str = ""


@dataclass(frozen=True, slots=True)
class RequestedBye:
    """``entrant`` sits out round ``round``, as they asked."""

    entrant: str
    round: int
    note: str = ""


@dataclass(frozen=True)
class Constraints:
    """Every constraint of the event; each round reads those that apply to it."""

    fixed: tuple[FixedTable, ...] = ()
    forbidden: tuple[Forbidden, ...] = ()
    byes: tuple[RequestedBye, ...] = ()

    def check(self, everyone: Mapping[str, object]) -> Constraints:
        """These constraints in a fixed order (so that the order they were given in changes
        nothing); Invalid for one naming an entrant not in the event, a table below 1, a scope
        not known, or two entrants fixed at one table."""
        named = [f.entrant for f in self.fixed] + [b.entrant for b in self.byes]
        named += [e for f in self.forbidden for e in (f.one, f.other)]
        unknown = sorted({e for e in named if e not in everyone})
        if unknown:
            raise Invalid("a constraint names %(entrant)r, who is not entered", entrant=unknown[0])
        for f in self.fixed:
            if type(f.table) is not int or f.table < 1:
                raise Invalid("a fixed table is numbered from 1, not %(table)r", table=f.table)
        tables: dict[int, str] = {}
        for f in sorted(self.fixed, key=lambda f: (f.table, f.entrant)):
            if f.table in tables and tables[f.table] != f.entrant:
                raise Invalid("table %(table)s is fixed for both %(one)r and %(other)r",
                              table=f.table, one=tables[f.table], other=f.entrant)
            tables[f.table] = f.entrant
        for f in self.forbidden:
            if f.scope not in SCOPES:
                raise Invalid("a forbidden pairing's scope is one of %(scopes)s, not %(scope)r",
                              scopes=", ".join(SCOPES), scope=f.scope)
            if f.one == f.other:
                raise Invalid("a forbidden pairing names %(entrant)r twice", entrant=f.one)
        return Constraints(
            tuple(sorted(self.fixed, key=lambda f: (f.entrant, f.table))),
            tuple(sorted(self.forbidden, key=lambda f: (min(f.one, f.other), max(f.one, f.other),
                                                        f.scope))),
            tuple(sorted(self.byes, key=lambda b: (b.round, b.entrant))))

    def _forbidding(self, a: str, b: str, scope: str) -> Forbidden | None:
        """The forbidden pairing of ``a`` and ``b`` that rules out ``scope`` ("table": one
        table; "partners": partnering, which a whole-table ban rules out too)."""
        for f in self.forbidden:
            if {f.one, f.other} == {a, b} and (f.scope == "table" or scope == "partners"):
                return f
        return None

    def forbids(self, a: str, b: str, scope: str = "table") -> bool:
        return self._forbidding(a, b, scope) is not None

    def forbidden_note(self, a: str, b: str, scope: str = "table") -> str:
        found = self._forbidding(a, b, scope)
        return found.note if found else ""
