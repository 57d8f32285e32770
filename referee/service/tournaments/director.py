"""The tournament director's desk (a referee, or an admin): the club's tournaments, and one
tournament with its constraints; read on the primary, as the director acts on them."""

from __future__ import annotations

from typing import Any

from ..access import OPERATOR, Action, Caller, desk_caller, require
from ..clubs import club_info
from ..uow import PRIMARY, UnitOfWork, use_case
from .event import Event


class Director(Event):
    @use_case(PRIMARY)
    def desk(self, uow: UnitOfWork, club: str, *,
             who: Caller | None = OPERATOR) -> dict[str, Any]:
        """What the tournament desk lists (the director's: a referee or an admin, Forbidden
        below; no token, the sign-in: :func:`..access.desk_caller`): the club and its
        tournaments, newest first."""
        who = desk_caller(who)
        require(who, club, Action.RULE)
        return {"club": club_info(uow, club), "tournaments": self.list.within(uow, club, who=who)}

    @use_case(PRIMARY)
    def desk_tournament(self, uow: UnitOfWork, club: str, slug: str, *,
                        who: Caller | None = OPERATOR) -> dict[str, Any]:
        """One tournament on the director's desk (a referee or an admin; no token, the
        sign-in): :meth:`page`'s answer, the director's constraints in it."""
        who = desk_caller(who)
        require(who, club, Action.RULE)
        return self.page.within(uow, club, slug, who=who)
