"""The director's constraints, which every round paired from now on honours: an entrant fixed at
a table, two entrants kept apart, a requested bye."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Sequence

from sqlalchemy import Row

from ...core.vocab import CONSTRAINT_KINDS, CONSTRAINT_SCOPES
from ...store import tournaments as store
from .. import checks
from ..access import OPERATOR, Action, Caller, require
from ..errors import Duplicate, Invalid, NotFound
from ..uow import PRIMARY, WRITE, UnitOfWork, use_case
from .base import Base
from .fields import MAX_TABLE, whole
from .rows import (
    constraint_list,
    engine_id,
    entrants_of,
    find_entrant,
    first_unstarted,
    rounds_of,
    tournament_row,
)

if TYPE_CHECKING:
    from ..pairing import Constraints as EngineConstraints


class Constraints(Base):
    @use_case(PRIMARY)
    def constraints(self, uow: UnitOfWork, club: str, slug: str, *,
                    who: Caller = OPERATOR) -> list[dict[str, Any]]:
        """The director's constraints, in the order they were made: ``id``, ``kind``
        (fixed_table, forbidden, bye), ``entrant`` and ``name``, ``other`` and ``other_name``
        (forbidden), ``table`` (fixed_table), ``round`` (bye), ``scope`` (forbidden: table, or
        in rotating partners), ``note``, ``created_at``."""
        require(who, club, Action.READ)
        row = tournament_row(uow, club, slug)
        return constraint_list(store.constraint_rows(uow.conn, row.id), entrants_of(uow, row))

    @use_case(WRITE)
    def add_constraint(self, uow: UnitOfWork, club: str, slug: str, kind: Any, entrant: Any, *,
                       other: Any = None, table: Any = None, round: Any = None,
                       scope: Any = "table", note: Any = None,
                       who: Caller = OPERATOR) -> dict[str, Any]:
        """A constraint of the director (referee) that every round paired from now on honours:

        - ``fixed_table``: ``entrant`` always sits at table ``table`` (an accessible table);
        - ``forbidden``: ``entrant`` and ``other`` never at one table (``scope`` "table"), or in
          ``rotating`` never partners ("partners");
        - ``bye``: ``entrant`` sits out round ``round`` (one not started), as they asked.

        Entrants are numbers or players' names. Duplicate (409) for an entrant fixed already,
        a table fixed for another, a pair forbidden already, a bye granted already. Returns the
        constraint, with ``repair``: the last round when it is paired and not started (re-pair
        it for the constraint to apply there), else None."""
        require(who, club, Action.RULE)
        kind = checks.one_of(kind, CONSTRAINT_KINDS, "kind")
        conn = uow.conn
        row = tournament_row(uow, club, slug, for_update=True)
        entrants = entrants_of(uow, row)
        rounds = rounds_of(uow, row)
        values = _constraint_values(row, kind, entrants, rounds, entrant, other, table, round,
                                    scope, note)
        _refuse_clash(values, store.constraint_rows(conn, row.id), entrants)
        made = store.insert_constraint(conn, row.id, values, self.clock())
        found = next(c for c in constraint_list(store.constraint_rows(conn, row.id), entrants)
                     if c["id"] == made)
        return {**found, "repair": _to_re_pair(rounds, values.get("round"))}

    @use_case(WRITE)
    def lift_constraint(self, uow: UnitOfWork, club: str, slug: str, constraint_id: Any, *,
                        who: Caller = OPERATOR) -> dict[str, Any]:
        """Lift a constraint (referee): the rounds paired from now on no longer honour it.
        Returns it as it was, with ``repair`` as :meth:`add_constraint` gives it."""
        require(who, club, Action.RULE)
        row = tournament_row(uow, club, slug, for_update=True)
        found = [c for c in constraint_list(store.constraint_rows(uow.conn, row.id),
                                            entrants_of(uow, row))
                 if c["id"] == constraint_id]
        if not found or not store.delete_constraint(uow.conn, row.id, constraint_id):
            raise NotFound("no constraint %(constraint)r in this tournament",
                           constraint=constraint_id)
        return {**found[0], "repair": _to_re_pair(rounds_of(uow, row), found[0]["round"])}


def engine_constraints(rows: Iterable[Row]) -> EngineConstraints:
    """The director's constraints as the engine reads them (entrants by their engine ids)."""
    from ..pairing import Constraints, FixedTable, Forbidden, RequestedBye

    rows = list(rows)
    return Constraints(
        tuple(FixedTable(engine_id(c.entrant), c.table_number, c.note or "")
              for c in rows if c.kind == "fixed_table"),
        tuple(Forbidden(engine_id(c.entrant), engine_id(c.other), c.scope, c.note or "")
              for c in rows if c.kind == "forbidden"),
        tuple(RequestedBye(engine_id(c.entrant), c.round, c.note or "")
              for c in rows if c.kind == "bye"))


def _to_re_pair(rounds: Sequence[dict[str, Any]], bye_round: int | None) -> int | None:
    """The last round, when it is paired, not started and has a table: a constraint changed
    now applies there once it is re-paired (a bye only in its own round)."""
    last = rounds[-1] if rounds else None
    if last is None or last["status"] != "paired" or not last["tables"]:
        return None
    return last["number"] if bye_round in (None, last["number"]) else None


def _constraint_values(row: Row, kind: str, entrants: Sequence[dict[str, Any]],
                       rounds: Sequence[dict[str, Any]], entrant: Any, other: Any, table: Any,
                       number: Any, scope: Any, note: Any) -> dict[str, Any]:
    """The row of a new constraint, every field checked (Invalid, NotFound)."""
    values: dict[str, Any] = {"kind": kind, "entrant": find_entrant(entrants, entrant)["number"],
                              "note": None if note is None else checks.name(note, "note")}
    if kind == "fixed_table":
        values["table_number"] = whole(table, "table", 1, MAX_TABLE)
    elif kind == "forbidden":
        if other is None:
            raise Invalid("a forbidden pairing names two entrants: give other")
        values["other"] = find_entrant(entrants, other)["number"]
        if values["other"] == values["entrant"]:
            raise Invalid("a forbidden pairing names two different entrants")
        values["scope"] = checks.one_of(scope, CONSTRAINT_SCOPES, "scope")
        if values["scope"] == "partners" and row.format != "rotating":
            raise Invalid("a %(format)s entrant is a partnership: forbid two at one table "
                          "(scope table), not as partners", format=row.format)
    else:
        first = first_unstarted(rounds)
        values["round"] = whole(number, "round", 1, row.rounds)
        if values["round"] < first:
            raise Invalid("round %(round)s has started or been played: a bye is granted for "
                          "round %(first)s or later", round=values["round"], first=first)
    return values


def _refuse_clash(values: dict[str, Any], rows: Sequence[Row],
                  entrants: Sequence[dict[str, Any]]) -> None:
    """Duplicate when the new constraint repeats or contradicts one kept."""
    names = {e["number"]: e["name"] for e in entrants}
    who = names[values["entrant"]]
    for c in rows:
        if c.kind != values["kind"]:
            continue
        if c.kind == "fixed_table" and c.entrant == values["entrant"]:
            raise Duplicate("%(entrant)s is fixed at table %(table)s already: lift that first",
                            entrant=who, table=c.table_number)
        if c.kind == "fixed_table" and c.table_number == values["table_number"]:
            raise Duplicate("table %(table)s is fixed for %(entrant)s already",
                            table=c.table_number, entrant=names[c.entrant])
        if c.kind == "forbidden" and {c.entrant, c.other} == {values["entrant"], values["other"]}:
            raise Duplicate("%(entrant)s and %(other)s are kept apart already (constraint "
                            "%(constraint)s)", entrant=who, other=names[values["other"]],
                            constraint=c.id)
        if c.kind == "bye" and (c.entrant, c.round) == (values["entrant"], values["round"]):
            raise Duplicate("%(entrant)s has a bye in round %(round)s already", entrant=who,
                            round=c.round)
