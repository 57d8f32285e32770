"""The tournament itself: created by the director with its settings and first entrants, listed,
shown, and its page (the club, the tournament, its event standing)."""

from __future__ import annotations

from typing import Any, Sequence

from ...core.vocab import TOURNAMENT_FORMATS
from ...store import tournaments as store
from ...store.errors import AlreadyExists
from .. import checks
from ..access import OPERATOR, Action, Caller, require
from ..clubs import reader, reader_in
from ..errors import N_, Duplicate, Invalid, Phrase
from ..lookup import club_row
from ..uow import READ, WRITE, UnitOfWork, use_case
from .base import Base
from .entrants import enter_players
from .fields import MAX_BYE_POINTS, MAX_ROUNDS, flag, rules_of, whole
from .rows import rounds_of, shown, summary, tournament_row
from .standing import EventStandings


class Event(EventStandings, Base):
    @use_case(READ)
    def reader(self, uow: UnitOfWork, club: str, who: Caller | None) -> Caller:
        """``who``; for someone without a token (None), the club's public reader, as the club
        pages read it (Unauthorized when the club is not public)."""
        return reader(uow, club, who)

    @use_case(READ)
    def page(self, uow: UnitOfWork, club: str, slug: str, *,
             who: Caller | None = None) -> dict[str, Any]:
        """What the tournament's page shows (and its JSON twin is): the club, the tournament
        as :meth:`show` gives it, and its event standing now."""
        who, info = reader_in(uow, club, who)
        return {"club": info, "tournament": self.show.within(uow, club, slug, who=who),
                "standings": self.standings.within(uow, club, slug, who=who)}

    @use_case(WRITE)
    def create(self, uow: UnitOfWork, club: str, slug: str, name: str, *, rules: Any,
               format: str, rounds: int, starts_on: Any = None, ends_on: Any = None,
               bye_won: bool = True, bye_points: int = 0, entrants: Sequence[Any] = (),
               confirm_new: bool = False, who: Caller = OPERATOR) -> dict[str, Any]:
        """A new tournament (the director: a referee, or an admin), with its first entrants if
        given (names in ``rotating``, two names each otherwise). Duplicate for a slug the club
        has already."""
        require(who, club, Action.RULE)
        values = {
            "slug": checks.slug(slug, Phrase(N_("tournament slug"))),
            "name": checks.name(name, Phrase(N_("tournament name"))),
            "format": checks.one_of(format, TOURNAMENT_FORMATS, "format"),
            "rules": rules_of(rules), "rounds": whole(rounds, "rounds", 1, MAX_ROUNDS),
            "starts_on": checks.date(starts_on, "starts_on"),
            "ends_on": checks.date(ends_on, "ends_on"),
            "bye_won": flag(bye_won, "bye_won"),
            "bye_points": whole(bye_points, "bye_points", 0, MAX_BYE_POINTS),
        }
        if values["starts_on"] and values["ends_on"] and values["ends_on"] < values["starts_on"]:
            raise Invalid("ends_on is before starts_on")
        if not isinstance(entrants, (list, tuple)):
            raise Invalid("entrants must be a list")
        now = self.clock()
        try:
            store.insert_tournament(uow.conn, club_row(uow, club).id, values, now)
        except AlreadyExists:
            raise Duplicate("a tournament %(slug)r exists already", slug=values["slug"]) from None
        row = tournament_row(uow, club, values["slug"])
        for entrant in entrants:
            enter_players(uow, club, row, entrant, 1, now, confirm_new)
        return shown(uow, row)

    @use_case(READ)
    def list(self, uow: UnitOfWork, club: str, *, who: Caller = OPERATOR) -> list[dict[str, Any]]:
        """The club's tournaments, newest first (without their rounds)."""
        require(who, club, Action.READ)
        return [summary(row, rounds_of(uow, row))
                for row in store.list_tournaments(uow.conn, club_row(uow, club).id)]

    @use_case(READ)
    def show(self, uow: UnitOfWork, club: str, slug: str, *,
             who: Caller = OPERATOR) -> dict[str, Any]:
        """The tournament: its settings (``rounds`` the number it is to have), entrants (with
        the rounds they entered and withdrew from) and ``paired_rounds`` (each with its tables,
        matches and byes, and why)."""
        require(who, club, Action.READ)
        return shown(uow, tournament_row(uow, club, slug))
