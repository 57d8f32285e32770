"""A tournament's rounds: the next one paired by the pairing engine (:mod:`..pairing`) once the
last is finished, re-paired until any of its matches has an event, its tables' matches created
and linked to it; and a round read back, table by table.

Pairing a round is one unit of work: the pairing is stored, each table's match created as any
other (:meth:`..recording.Recording.create_in`: its header's ``event`` is the tournament's name,
``table`` the table's number) and linked to its round and table, or nothing is. A round with no
table (everyone out, or kept apart) is finished as soon as it is paired.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from sqlalchemy import Row

from ...core.said import said_n
from ...store import tournaments as store
from ..access import OPERATOR, Action, Caller, require
from ..clubs import reader
from ..errors import NotFinished
from ..uow import READ, WRITE, UnitOfWork, use_case
from .base import Base
from .constraints import engine_constraints
from .rows import engine_entrants, entrants_of, round_of, rounds_of, seat_order, tournament_row
from .standing import event_standing

if TYPE_CHECKING:
    from ..pairing import PairingRules

# A tournament's matches are created under an idempotency key of this form, so that a round
# whose tables were left without their matches (by a version of this service that created them
# one transaction each) gets the missing ones, not a second set, when its tables are started.
MATCH_KEY = "tournament {id} round {round} v{version} table {table}"


class RoundRefused(NotFinished):
    """A round that may not be paired or re-paired now: the last is not finished, or has
    started, or every round is paired already (HTTP 409)."""


class Rounds(Base):
    @use_case(WRITE)
    def pair(self, uow: UnitOfWork, club: str, slug: str, *,
             who: Caller = OPERATOR) -> dict[str, Any]:
        """Pair the next round (referee), once the last is finished, and create its matches.
        RoundRefused (409) while the last round is not finished or when every round is paired;
        Invalid (422) for a field the engine cannot pair."""
        require(who, club, Action.RULE)
        row = tournament_row(uow, club, slug, for_update=True)
        rounds = rounds_of(uow, row)
        if rounds and rounds[-1]["status"] != "finished":
            raise RoundRefused("round %(round)s is not finished: its matches must finish "
                               "before the next round is paired", round=rounds[-1]["number"])
        if len(rounds) >= row.rounds:
            raise RoundRefused(said_n("the tournament has %(num)s round, and it is paired "
                                      "already", "all %(num)s rounds are paired already",
                                      row.rounds))
        if rounds:
            store.set_round_status(uow.conn, row.id, rounds[-1]["number"], "finished")
        number = len(rounds) + 1
        version = self._save_pairing(uow, club, row, number, rounds)
        store.set_status(uow.conn, row.id, "playing")
        return self._make_matches(uow, club, row, number, version, who)

    @use_case(WRITE)
    def re_pair(self, uow: UnitOfWork, club: str, slug: str, number: int, *,
                who: Caller = OPERATOR) -> dict[str, Any]:
        """Pair round ``number`` again (referee) with the field and constraints as they now
        are, before it starts: RoundRefused (409) once any of its matches has an event, for a
        round with no table (finished as soon as it was paired), or for a round before the
        last. Its old matches (no event in any) stay in the record, retired."""
        require(who, club, Action.RULE)
        row, rounds, found = _locked_round(uow, club, slug, number)
        if found is not rounds[-1]:
            raise RoundRefused("round %(round)s is not the last round: only the last is "
                               "re-paired", round=number)
        if not found["tables"]:
            raise RoundRefused("round %(round)s has no table: it was complete as soon as it "
                               "was paired (its byes scored), so it is not re-paired; pair "
                               "round %(next)s", round=number, next=number + 1)
        if found["status"] != "paired":
            raise RoundRefused("round %(round)s has started: a round is re-paired only "
                               "before any of its matches has an event", round=number)
        version = self._save_pairing(uow, club, row, number, rounds[:-1])
        return self._make_matches(uow, club, row, number, version, who)

    @use_case(WRITE)
    def start_tables(self, uow: UnitOfWork, club: str, slug: str, number: int, *,
                     who: Caller = OPERATOR) -> dict[str, Any]:
        """Start round ``number``'s tables (referee): every table of its pairing has its match,
        the missing ones created now (a round paired by an older version of this service and
        interrupted between its matches, say), none twice. Returns the round, each table with
        its match. RoundRefused (409) for a round before the last."""
        require(who, club, Action.RULE)
        row, rounds, found = _locked_round(uow, club, slug, number)
        if found is not rounds[-1]:
            raise RoundRefused("round %(round)s is not the last round: only the last round's "
                               "tables are started", round=number)
        return self._make_matches(uow, club, row, number, found["version"], who)

    @use_case(READ)
    def round(self, uow: UnitOfWork, club: str, slug: str, number: int, *,
              who: Caller = OPERATOR) -> dict[str, Any]:
        """Round ``number``: status, its tables (match, players, score, why) and byes."""
        require(who, club, Action.READ)
        return round_of(rounds_of(uow, tournament_row(uow, club, slug)), number)

    @use_case(READ)
    def round_tables(self, uow: UnitOfWork, club: str, tournament: str, number: int, *,
                     who: Caller | None = None) -> list[dict[str, Any]]:
        """Each table of round ``number``, by table number: ``match`` (its id), ``table``,
        ``sides`` (each ``{"entrant", "name", "players"}``), ``players`` (names in seat
        order), ``status``, ``last_seq``, ``totals``, ``winner``. What a scoreboard lists;
        ``who`` None reads a public club as anyone may."""
        who = reader(uow, club, who)
        return [{k: v for k, v in t.items() if k != "reasons"}
                for t in self.round.within(uow, club, tournament, number, who=who)["tables"]]

    def _save_pairing(self, uow: UnitOfWork, club: str, row: Row, number: int,
                      before: Sequence[dict[str, Any]]) -> int:
        from ..pairing import History, PlayedRound, pair_round  # networkx: loaded when pairing

        entrants = entrants_of(uow, row)
        standing = event_standing(uow, club, row, entrants, before)
        history = History(tuple(PlayedRound.from_json(r["pairing"]) for r in before))
        pairing = pair_round(_pairing_rules(row), engine_entrants(entrants, number),
                             standing.for_pairing(), history, number,
                             engine_constraints(store.constraint_rows(uow.conn, row.id)))
        return store.save_round(uow.conn, row.id, number, pairing.as_json(), self.clock())

    def _make_matches(self, uow: UnitOfWork, club: str, row: Row, number: int, version: int,
                      who: Caller) -> dict[str, Any]:
        """Create (or find, under its key) a match per table of the round's pairing that has
        none, each recorded as any other, and link it to its round and table; the round."""
        entrants = {e["id"]: e for e in entrants_of(uow, row)}
        pairing = round_of(rounds_of(uow, row), number)["pairing"]
        linked = {m.table_number for m in store.round_matches(uow.conn, row.id, number)}
        for table in pairing["tables"]:
            if table["table"] in linked:
                continue
            created = self.recording.create_in(
                uow, club, row.rules, seat_order(table["sides"], entrants), who=who,
                client_key=MATCH_KEY.format(id=row.id, round=number, version=version,
                                            table=table["table"]),
                event=row.name, table=str(table["table"]))  # a table as logs write it: text
            store.link_match(uow.conn, created["id"], row.id, number, table["table"], version)
        return round_of(rounds_of(uow, row), number)


def _locked_round(uow: UnitOfWork, club: str, slug: str,
                  number: Any) -> tuple[Row, list[dict[str, Any]], dict[str, Any]]:
    """The tournament's row, locked for its writers, its rounds, and round ``number`` of them
    (NotFound for none)."""
    row = tournament_row(uow, club, slug, for_update=True)
    rounds = rounds_of(uow, row)
    return row, rounds, round_of(rounds, number)


def _pairing_rules(row: Row) -> PairingRules:
    from ..pairing import ByeAward, PairingRules

    return PairingRules(row.format, ByeAward(won=row.bye_won, points=row.bye_points), row.rounds)
