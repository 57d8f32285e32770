"""The first club, without a terminal (docs/desk.md, "The first club"): ``domino serve`` on a
database with no club prints a one-time setup link (``/setup#code=...``); the browser that
opens it names the club and its language, and the club is made with its secretary's token.

A setup code is random (256 bits) and kept as its sha256 only, in ``signin_codes`` beside the
phones' sign-in codes (``purpose`` ``setup``, no token). It works once, within
:data:`SETUP_LIFETIME` of being printed, and only while the database has no club: making the
first club, by this link or any other way, spends every setup code. Using one takes every setup
code's lock first (in one order), so two links used at once make one club; the other is told
its link was used. A code refused counts as a refused token against the caller's address (the
HTTP layer), so that guessing codes is limited as guessing tokens is.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
import secrets
import unicodedata
from typing import Any, Callable

from .. import store
from ..core.vocab import SLUG_LENGTH
from ..store.signin_codes import has_club, insert_setup_code, setup_codes, spend_setup_codes
from . import checks
from .access import OPERATOR, Caller
from .clubs import FIRST_ADMIN, checked_settings, club_settings
from .errors import N_, Duplicate, Forbidden, Phrase, SigningKeyError, Unauthorized
from .lookup import club_row, forget_club
from .signin import MAX_CODE_LENGTH
from .tokens import digest, issue_token
from .uow import PRIMARY, WRITE, UnitOfWork, Units, use_case

log = logging.getLogger("domino.service")

SETUP_LIFETIME = dt.timedelta(hours=24)
FALLBACK_SLUG = "club"  # for a name with no letter or digit a URL can hold


def slug_for(name: str) -> str:
    """The club's name as its address part: letters without their accents, lowercase, the
    rest dashes ("Casino Dominó de Peñalara" is casino-domino-de-penalara)."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")[:SLUG_LENGTH].strip("-")
    return slug or FALLBACK_SLUG


class Setup:
    def __init__(self, units: Units, clock: Callable[[], dt.datetime],
                 make_key: Callable[[str], dict[str, Any]]) -> None:
        self.units = units
        self.clock = clock
        self.make_key = make_key  # the club's first signing key (Keys.init), as club create makes it

    @use_case(WRITE)
    def issue(self, uow: UnitOfWork, *, who: Caller = OPERATOR) -> dict[str, Any] | None:
        """A setup code (``code``, shown this once, and ``expires_at``) when the database has
        no club; None when it has one. The operator's (who starts the server)."""
        if not who.is_operator:
            raise Forbidden("a setup link is printed by the server's operator")
        code = secrets.token_urlsafe(32)
        expires = self.clock() + SETUP_LIFETIME
        if has_club(uow.conn):
            return None
        insert_setup_code(uow.conn, digest(code), expires)
        return {"code": code, "expires_at": store.iso(expires)}

    @use_case(PRIMARY)
    def check(self, uow: UnitOfWork, code: Any) -> dict[str, Any]:
        """Whether ``code`` may make the first club now (its ``expires_at``); Unauthorized,
        saying why, when it may not. Writes nothing."""
        row = self._usable(uow, code, lock=False)
        return {"expires_at": store.iso(row.expires_at)}

    def create_club(self, code: Any, name: Any, language: Any,
                    default_rules: Any = None) -> dict[str, Any]:
        """The first club, made with setup code ``code``: its ``name`` (its slug made from it,
        :func:`slug_for`), the ``language`` of its pages (one of LANGUAGES, or None) and the
        preset a new match starts from (``default_rules``, the club setting; None: none), with
        its secretary's token (``admin``, shown this once), in one transaction that spends every
        setup code. Unauthorized for a code unknown, used, expired, or when a club exists
        already; Invalid for a name, language or preset that is not one (the code is not
        spent)."""
        name = checks.name(name, Phrase(N_("club name")))
        settings = checked_settings({"language": language, "default_rules": default_rules})
        slug = slug_for(name)
        now = self.clock()
        with self.units.open(WRITE) as uow:
            conn = uow.conn
            self._usable(uow, code, lock=True)
            try:
                store.insert_club(conn, slug, name, now)
            except store.AlreadyExists:  # a club made meanwhile, some other way
                raise Duplicate("a club %(slug)r exists already", slug=slug) from None
            club_id = club_row(uow, slug).id
            store.set_club_settings(conn, club_id, settings)
            token = issue_token(conn, club_id, "admin", FIRST_ADMIN, now)
            spend_setup_codes(conn, now)
            forget_club(uow, slug)
            club = club_settings(club_row(uow, slug))
        try:  # as `domino club create` does, on the server that will sign its actas
            key_id = self.make_key(slug)["key_id"]
        except SigningKeyError as error:  # the club stands; its actas wait for a key
            log.warning("the first club %s has no signing key: %s", slug, error.message)
            key_id = None
        return {"club": club, "token": token, "role": "admin", "label": FIRST_ADMIN,
                "signing_key": key_id}

    def _usable(self, uow: UnitOfWork, code: Any, *, lock: bool) -> Any:
        """The setup code's row, when it may make the first club now; else Unauthorized."""
        if not isinstance(code, str) or not code or len(code) > MAX_CODE_LENGTH:
            raise Unauthorized("this setup link is not known: use the one the server printed")
        conn = uow.conn
        hashed = digest(code)
        row = next((r for r in setup_codes(conn, lock=lock) if r.hash == hashed), None)
        if row is None:
            raise Unauthorized("this setup link is not known: use the one the server printed")
        if row.used_at is not None or has_club(conn):
            raise Unauthorized("this setup link was used already: the first club exists; "
                               "sign in at its desk with its secretary's token")
        if store.as_utc(row.expires_at) <= self.clock():
            raise Unauthorized("this setup link has expired (a link works for %(hours)s "
                               "hours): start the server again for a new one",
                               hours=int(SETUP_LIFETIME.total_seconds() // 3600))
        return row
