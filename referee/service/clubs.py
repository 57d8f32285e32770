"""Clubs: created with their first admin token, their settings, their public reader. Their
players are :mod:`.players` (``svc.players``)."""

from __future__ import annotations

import datetime as dt
from typing import Any, Callable

from sqlalchemy import Engine, Row

from .. import store
from ..core.vocab import LANGUAGES
from ..store import db
from ..store.pages import set_club_language, set_club_name, set_club_public
from . import checks
from .access import OPERATOR, Action, Caller, public_reader, require, require_server
from .errors import N_, Duplicate, Invalid, NotFound, Phrase, Unauthorized
from .lookup import club_row
from .tokens import issue_token
from .uow import UnitOfWork



class Clubs:
    def __init__(self, engine: Engine, clock: Callable[[], dt.datetime]) -> None:
        self.engine = engine
        self.clock = clock

    def create_club(self, slug: str, name: str, *, who: Caller = OPERATOR,
                    admin_token: bool = False) -> dict[str, Any]:
        """A new club; with ``admin_token``, its first admin token too (``"admin_token"`` in the
        answer, shown this once), in the same transaction: never a club nobody can manage."""
        require_server(who)
        slug = checks.slug(slug)
        name = checks.name(name, Phrase(N_("club name")))
        with db.writing(self.engine) as conn:
            try:
                store.insert_club(conn, slug, name, self.clock())
            except store.AlreadyExists:
                raise Duplicate("a club %(slug)r exists already", slug=slug) from None
            club = _club(store.club_row(conn, slug))
            if admin_token:
                club["admin_token"] = issue_token(conn, club_row(conn, slug).id, "admin",
                                                  "first admin", self.clock())
        return club

    def get_club(self, slug: str, *, who: Caller = OPERATOR) -> dict[str, Any]:
        require(who, slug, Action.READ)
        with db.reading(self.engine) as conn:
            return _club(club_row(conn, slug))

    def set_public(self, club: str, public: bool, *, who: Caller = OPERATOR) -> dict[str, Any]:
        """Make the club's pages readable by anyone without a token, or not (admin): a public
        club's pages show what a viewer sees, and of a round in play only what the table saw.
        Returns the club."""
        require(who, club, Action.MANAGE)
        if type(public) is not bool:
            raise Invalid("public must be true or false, not %(value)r", value=public)
        with db.writing(self.engine) as conn:
            set_club_public(conn, club_row(conn, club).id, public)
            return _club(club_row(conn, club))

    def set_language(self, club: str, language: str | None, *,
                     who: Caller = OPERATOR) -> dict[str, Any]:
        """The language the club's pages speak to a reader who has picked none in their menu,
        before the reader's browser's (admin): one of LANGUAGES, or None for no setting.
        Returns the club."""
        require(who, club, Action.MANAGE)
        if language is not None and language not in LANGUAGES:
            raise Invalid("language must be one of %(choices)s, or null, not %(value)r",
                          choices=", ".join(LANGUAGES), value=language)
        with db.writing(self.engine) as conn:
            set_club_language(conn, club_row(conn, club).id, language)
            return _club(club_row(conn, club))

    def set_name(self, club: str, name: str, *, who: Caller = OPERATOR) -> dict[str, Any]:
        """Change the club's name as people write it (admin; its slug, in URLs, stays).
        Returns the club."""
        require(who, club, Action.MANAGE)
        name = checks.name(name, Phrase(N_("club name")))
        with db.writing(self.engine) as conn:
            set_club_name(conn, club_row(conn, club).id, name)
            return _club(club_row(conn, club))

    def public_reader(self, club: str) -> Caller:
        """Who someone without a token reads ``club`` as (:func:`.access.public_reader`),
        when its admin made it public; else Unauthorized (also for a club that does not
        exist: nobody learns which slugs are private clubs)."""
        with UnitOfWork.reading(self.engine) as uow:
            return reader_in(uow, club, None)[0]


def reader_in(uow: UnitOfWork, club: str, who: Caller | None) -> tuple[Caller, dict[str, Any]]:
    """Who reads ``club`` (``who``, or without a token the public reader of a public club:
    see :meth:`Clubs.public_reader`), once found to be a reader of it, and the club; in a use
    case's unit of work, so a page reads its club once."""
    row = store.club_row(uow.conn, club) if isinstance(club, str) else None
    if who is None:
        if row is None or not row.public:
            raise Unauthorized("this club's pages are not public: sign in with a token of the club")
        who = public_reader(row.slug)
    require(who, club, Action.READ)
    if row is None:
        raise NotFound("no club %(slug)r", slug=club)
    return who, _club(row)


def _club(row: Row) -> dict[str, Any]:
    return {"slug": row.slug, "name": row.name, "created_at": store.iso(row.created_at),
            "public": bool(row.public), "language": row.language}
