"""A tournament's entrants: entered (players in ``rotating``, fixed partnerships otherwise) and
withdrawn from the first round that has not started; the director's did-you-mean before
entering names."""

from __future__ import annotations

import datetime as dt
from typing import Any, Sequence

from sqlalchemy import Row

from ...core.said import packed, said
from ...store import tournaments as store
from .. import checks
from ..access import OPERATOR, Action, Caller, require
from ..errors import Duplicate, Invalid
from ..lookup import club_row
from ..players import close_names, seat_ids, seating
from ..players import find as find_player
from ..uow import PRIMARY, WRITE, UnitOfWork, use_case
from .base import Base
from .rows import (
    engine_id,
    entrants_of,
    find_entrant,
    first_unstarted,
    rounds_of,
    seated,
    sitting_out,
    tournament_row,
)


class Entrants(Base):
    @use_case(PRIMARY)
    def check_names(self, uow: UnitOfWork, club: str, slug: str, names: Sequence[Any], *,
                    who: Caller = OPERATOR) -> list[dict[str, Any]]:
        """What entering each typed name would do, before anything is written (the director's
        did-you-mean): ``typed``, ``player`` (the club's player it is, merges followed, or
        None for a new name), ``close`` (players' names close to a new one, most similar
        first: to be confirmed, never taken silently), ``entrant`` (the number of the
        entrant it already is, or None). Invalid for a name that is not one."""
        require(who, club, Action.RULE)
        if not isinstance(names, (list, tuple)) or len(names) > 1000:
            raise Invalid("names must be a list of at most 1000 names")
        club_id = club_row(uow, club).id
        row = tournament_row(uow, club, slug)
        entered = {i: e["number"] for e in entrants_of(uow, row) for i in e["player_ids"]}
        out = []
        for typed in names:
            name = checks.player_name(typed)
            found = find_player(uow.conn, club_id, name)
            close = [] if found else close_names(
                uow.conn, club_id, {checks.name_key(name): name}).get(name, [])
            out.append({"typed": name, "player": found.name if found else None,
                        "close": close, "entrant": entered.get(found.id) if found else None})
        return out

    @use_case(WRITE)
    def enter(self, uow: UnitOfWork, club: str, slug: str, players: Sequence[str] | str, *,
              confirm_new: bool = False, who: Caller = OPERATOR) -> dict[str, Any]:
        """Enter a player (``rotating``) or a partnership (two names) from the first round
        that has not started; new names are registered in the club (a name close to a
        player's is refused unless ``confirm_new``). A withdrawn entrant entered again plays
        on from that round. Returns the entrant, with ``repair``: the round already paired
        (not started) that they came too late for, where they have a bye until it is re-paired
        (None when there is none). The director's (referee) or an admin's."""
        require(who, club, Action.RULE)
        now = self.clock()
        row = tournament_row(uow, club, slug, for_update=True)
        rounds = rounds_of(uow, row)
        first = first_unstarted(rounds)
        number = enter_players(uow, club, row, players, first, now, confirm_new)
        entrant = next(e for e in entrants_of(uow, row) if e["number"] == number)
        paired = [r for r in rounds if r["number"] == first]
        if paired and entrant["id"] not in seated(paired[0]["pairing"]) | sitting_out(
                paired[0]["pairing"]):
            # paired before they came, not started: the documented bye until re-paired
            pairing = paired[0]["pairing"]
            pairing["byes"].append({"entrant": entrant["id"], "reasons": [packed(said(
                "bye: entered after round %(round)s was paired and before it started; "
                "re-pair the round to seat them", round=first))]})
            store.set_pairing(uow.conn, row.id, first, pairing)
            return {**entrant, "repair": first}
        return {**entrant, "repair": None}

    @use_case(WRITE)
    def withdraw(self, uow: UnitOfWork, club: str, slug: str, entrant: Any, *,
                 who: Caller = OPERATOR) -> dict[str, Any]:
        """Withdraw an entrant (its number, or a player's name) from the first round that has
        not started: it is paired no more, its results still count. A round paired but not
        started that seats it (or gives it a bye) must be re-paired (the answer's ``repair``
        names it). The director's (referee) or an admin's."""
        require(who, club, Action.RULE)
        row = tournament_row(uow, club, slug, for_update=True)
        rounds = rounds_of(uow, row)
        found = find_entrant(entrants_of(uow, row), entrant)
        if found["withdrawn"] is not None:
            raise Invalid("%(entrant)s has withdrawn already, from round %(round)s",
                          entrant=found["name"], round=found["withdrawn"])
        first = first_unstarted(rounds)
        store.set_withdrawn(uow.conn, row.id, found["number"], first)
        repair = [r["number"] for r in rounds if r["number"] == first
                  and engine_id(found["number"]) in seated(r["pairing"])
                  | sitting_out(r["pairing"])]
        changed = next(e for e in entrants_of(uow, row) if e["number"] == found["number"])
        return {**changed, "repair": repair[0] if repair else None}


def enter_players(uow: UnitOfWork, club: str, row: Row, names: Any, first: int,
                  now: dt.datetime, confirm_new: bool) -> int:
    """Enter ``names`` (one player in ``rotating``, two otherwise) into tournament ``row`` from
    round ``first``, in the writing unit of work ``uow``; the entrant's number. A withdrawn
    entrant entered again plays on; Duplicate for a player entered already."""
    names = [names] if isinstance(names, str) else names
    size = 1 if row.format == "rotating" else 2
    if not isinstance(names, (list, tuple)) or len(names) != size:
        if size == 1:
            raise Invalid("a rotating entrant is one player")
        raise Invalid("a %(format)s entrant is a partnership: two players", format=row.format)
    ids = seat_ids(uow.conn, club, row.club_id, seating(list(names), line=None), now,
                   confirm_new=confirm_new, line=None)
    for e in entrants_of(uow, row):
        if set(ids) == set(e["player_ids"]) and e["withdrawn"] is not None:
            # back from this round; its entry round stays, and with it its place in a
            # round robin's schedule
            store.set_withdrawn(uow.conn, row.id, e["number"], None)
            return e["number"]
        if set(ids) & set(e["player_ids"]):
            raise Duplicate("%(entrant)s is entered already (entrant %(number)s)",
                            entrant=e["name"], number=e["number"])
    return store.insert_entrant(uow.conn, row.id, ids[0], ids[1] if size == 2 else None, first)
