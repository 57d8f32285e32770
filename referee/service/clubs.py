"""Clubs: created with their first admin token, their settings, their public reader. Their
players are :mod:`.players` (``svc.players``)."""

from __future__ import annotations

import datetime as dt
from functools import lru_cache
from typing import Any, Callable

from sqlalchemy import Row

from .. import store
from ..core.rules import PRESETS
from ..core.vocab import (
    DEFAULT_TIE_BREAKERS,
    LANGUAGES,
    MAX_DEFAULT_TARGET,
    TIE_BREAKERS,
    UNRANKED,
)
from . import checks
from .access import OPERATOR, Action, Caller, public_reader, require, require_server
from .errors import N_, Duplicate, Invalid, NotFound, Phrase, Unauthorized
from .lookup import club_row, find_club, forget_club
from .tokens import issue_token
from .uow import READ, WRITE, UnitOfWork, Units, use_case

# The label of a club's first admin token, made with the club (its secretary's). Stored as
# this English code, it is said in the page's language where the desk shows it (nobody typed it).
FIRST_ADMIN = N_("first admin")
# The settings an admin changes (PATCH /clubs/{club}, ``domino club set``, the desk).
SETTINGS = ("name", "public", "language", "tie_breakers", "unranked", "default_rules",
            "default_target", "timezone")


class _Unset:
    """A setting not named (None is a value: "the default")."""

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()


class Clubs:
    def __init__(self, units: Units, clock: Callable[[], dt.datetime]) -> None:
        self.units = units
        self.clock = clock

    @use_case(WRITE)
    def create_club(self, uow: UnitOfWork, slug: str, name: str, *, who: Caller = OPERATOR,
                    admin_token: bool = False) -> dict[str, Any]:
        """A new club; with ``admin_token``, its first admin token too (``"admin_token"`` in the
        answer, shown this once), in the same transaction: never a club nobody can manage."""
        require_server(who)
        slug = checks.slug(slug)
        name = checks.name(name, Phrase(N_("club name")))
        try:
            store.insert_club(uow.conn, slug, name, self.clock())
        except store.AlreadyExists:
            raise Duplicate("a club %(slug)r exists already", slug=slug) from None
        row = club_row(uow, slug)
        club = _club(row)
        if admin_token:
            club["admin_token"] = issue_token(uow.conn, row.id, "admin", FIRST_ADMIN,
                                              self.clock())
        return club

    @use_case(READ)
    def get_club(self, uow: UnitOfWork, slug: str, *, who: Caller = OPERATOR) -> dict[str, Any]:
        require(who, slug, Action.READ)
        return _club(club_row(uow, slug))

    @use_case(WRITE)
    def settings(self, uow: UnitOfWork, club: str, *, name: Any = UNSET, public: Any = UNSET,
                 language: Any = UNSET, tie_breakers: Any = UNSET, unranked: Any = UNSET,
                 default_rules: Any = UNSET, default_target: Any = UNSET,
                 timezone: Any = UNSET, who: Caller = OPERATOR) -> dict[str, Any]:
        """Change the club's settings named (admin), the others left as they are: every value
        is checked first, then all are written in one transaction, so a refused value changes
        nothing. Returns the club with all its settings (:func:`change_settings`)."""
        changes = {key: value for key, value in (
            ("name", name), ("public", public), ("language", language),
            ("tie_breakers", tie_breakers), ("unranked", unranked),
            ("default_rules", default_rules), ("default_target", default_target),
            ("timezone", timezone))
            if value is not UNSET}
        return change_settings(uow, club, changes, who)

    # One setting each, through :meth:`settings`: the benches and the tests name one at a time
    # (the API, the CLI and the desk change settings through :meth:`settings` itself).

    def set_public(self, club: str, public: bool, *, who: Caller = OPERATOR) -> dict[str, Any]:
        """Make the club's pages readable by anyone without a token, or not (admin): a public
        club's pages show what a viewer sees, and of a round in play only what the table saw.
        Returns the club."""
        return self.settings(club, public=public, who=who)

    def set_language(self, club: str, language: str | None, *,
                     who: Caller = OPERATOR) -> dict[str, Any]:
        """The language the club's pages speak to a reader who has picked none in their menu,
        before the reader's browser's (admin): one of LANGUAGES, or None for no setting.
        Returns the club."""
        return self.settings(club, language=language, who=who)

    def set_name(self, club: str, name: str, *, who: Caller = OPERATOR) -> dict[str, Any]:
        """Change the club's name as people write it (admin; its slug, in URLs, stays).
        Returns the club."""
        return self.settings(club, name=name, who=who)

    @use_case(READ)
    def public_reader(self, uow: UnitOfWork, club: str) -> Caller:
        """Who someone without a token reads ``club`` as (:func:`.access.public_reader`),
        when its admin made it public; else Unauthorized (also for a club that does not
        exist: nobody learns which slugs are private clubs)."""
        return reader_in(uow, club, None)[0]


def reader_in(uow: UnitOfWork, club: str, who: Caller | None) -> tuple[Caller, dict[str, Any]]:
    """Who reads ``club`` (``who``, or without a token the public reader of a public club:
    see :meth:`Clubs.public_reader`), once found to be a reader of it, and the club; in a use
    case's unit of work, so a page reads its club once."""
    row = find_club(uow, club)
    if who is None:
        if row is None or not row.public:
            raise Unauthorized("this club's pages are not public: sign in with a token of the club")
        who = public_reader(row.slug)
    require(who, club, Action.READ)
    if row is None:
        raise NotFound("no club %(slug)r", slug=club)
    return who, _club(row)


def reader(uow: UnitOfWork, club: str, who: Caller | None) -> Caller:
    """:func:`reader_in`'s caller alone."""
    return reader_in(uow, club, who)[0]


def change_settings(uow: UnitOfWork, club: str, changes: dict[str, Any],
                    who: Caller) -> dict[str, Any]:
    """The one owner of a club's settings (:meth:`Clubs.settings`; ``svc.standings``'
    set_tie_breakers and set_unranked come here too): ``changes`` maps SETTINGS names to their
    new values. All are checked before anything is written, then written by one statement in
    the writing unit of work ``uow``. Returns the club with every setting as it now stands."""
    require(who, club, Action.MANAGE)
    unknown = sorted(set(changes) - set(SETTINGS))
    if unknown:  # a caller's bug, not a person's input: said plainly all the same
        raise Invalid("unknown club settings: %(names)s", names=", ".join(unknown))
    if not changes:
        raise Invalid("name a setting to change: %(names)s", names=", ".join(SETTINGS))
    values = checked_settings(changes)
    store.set_club_settings(uow.conn, club_row(uow, club).id, values)
    forget_club(uow, club)
    return club_settings(club_row(uow, club))


def checked_settings(changes: dict[str, Any]) -> dict[str, Any]:
    """``changes`` (SETTINGS names -> values) as they are stored, each checked: Invalid for
    the first that is not one."""
    return {key: _CHECKS[key](value) for key, value in changes.items()}


def club_settings(row: Row) -> dict[str, Any]:
    """The club with all its settings, the defaults filled in (tie_breakers, unranked)."""
    return {**_club(row), "tie_breakers": row.tie_breakers or list(DEFAULT_TIE_BREAKERS),
            "unranked": row.unranked or UNRANKED[0]}


def check_tie_breakers(breakers: Any) -> list[str]:
    if isinstance(breakers, str) or not isinstance(breakers, (list, tuple)) or not breakers:
        raise Invalid("tie_breakers must be a non-empty list of: %(known)s",
                      known=", ".join(TIE_BREAKERS))
    for name in breakers:
        if name not in TIE_BREAKERS:
            raise Invalid("unknown tie-breaker %(name)r; known: %(known)s", name=name,
                          known=", ".join(TIE_BREAKERS))
    if len(set(breakers)) != len(breakers):
        raise Invalid("a tie-breaker is named twice")
    return list(breakers)


# Each setting's check: the value as it is stored (None where the default is meant).

def _name(value: Any) -> str:
    return checks.name(value, Phrase(N_("club name")))


def _public(value: Any) -> bool:
    if type(value) is not bool:
        raise Invalid("public must be true or false, not %(value)r", value=value)
    return value


def _language(value: Any) -> str | None:
    if value is not None and value not in LANGUAGES:
        raise Invalid("language must be one of %(choices)s, or null, not %(value)r",
                      choices=", ".join(LANGUAGES), value=value)
    return value


def _tie_breakers(value: Any) -> list[str] | None:
    chosen = None if value is None else check_tie_breakers(value)
    return None if chosen == list(DEFAULT_TIE_BREAKERS) else chosen  # the default is stored as none


def _unranked(value: Any) -> str | None:
    if value is not None and value not in UNRANKED:
        raise Invalid("unranked must be one of %(choices)s, or null, not %(value)r",
                      choices=", ".join(UNRANKED), value=value)
    return None if value == UNRANKED[0] else value


def _default_rules(value: Any) -> str | None:
    if value is not None and (not isinstance(value, str) or value not in PRESETS):
        raise Invalid("default_rules must be one of %(choices)s, or null, not %(value)r",
                      choices=", ".join(PRESETS), value=value)
    return value


def _default_target(value: Any) -> int | None:
    if value is not None and (type(value) is not int or not 1 <= value <= MAX_DEFAULT_TARGET):
        raise Invalid("default_target must be a whole number of points from 1 to %(most)s, "
                      "or null, not %(value)r", most=MAX_DEFAULT_TARGET, value=value)
    return value


def _timezone(value: Any) -> str | None:
    if value is not None and (not isinstance(value, str) or value not in time_zones()):
        raise Invalid("timezone must be a time zone's IANA name (Europe/Madrid, America/Mexico_City, "
                      "UTC...), or null for UTC, not %(value)r", value=value)
    return value


@lru_cache(maxsize=1)
def time_zones() -> frozenset[str]:
    """The IANA time zones a club may set (the tzdata package's, or the system's)."""
    from zoneinfo import available_timezones  # only to check a setting: not at every start

    return frozenset(available_timezones())


_CHECKS: dict[str, Callable[[Any], Any]] = {
    "name": _name, "public": _public, "language": _language, "tie_breakers": _tie_breakers,
    "unranked": _unranked, "default_rules": _default_rules, "default_target": _default_target,
    "timezone": _timezone}


def club_info(uow: UnitOfWork, slug: str) -> dict[str, Any]:
    """The club as :meth:`Clubs.get_club` gives it (NotFound for none), in a use case's unit
    of work whose caller is checked already."""
    return _club(club_row(uow, slug))


def _club(row: Row) -> dict[str, Any]:
    return {"slug": row.slug, "name": row.name, "created_at": store.iso(row.created_at),
            "public": bool(row.public), "language": row.language,
            "default_rules": row.default_rules, "default_target": row.default_target,
            "timezone": row.timezone}
