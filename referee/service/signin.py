"""One-time sign-in codes: how a phone signs in by scanning a QR code on the club desk.

An admin issues a token with a code (:meth:`SignIn.issue`): the code is random (256 bits) and
the token is derived from it (an HMAC keyed by the code), so that the server keeps neither:
the ``tokens`` row holds the token's sha256 as every token's does, the ``signin_codes`` row the
code's sha256, when it expires (:data:`CODE_LIFETIME` after issue) and when it was used. The
phone's page sends the code once (:meth:`SignIn.exchange`) and gets the token back: the server
finds the code by its hash, marks it used in the same transaction (a conditional update: two
phones racing for one code, one wins), derives the token from the code and checks it against
the token's stored hash. A code used, expired, unknown, or whose token was revoked, signs
nobody in (Unauthorized, a sentence saying which).
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import hmac
import secrets
from typing import Any, Callable

from .. import store
from ..core.vocab import ROLES
from ..store.leagues import captain_season
from ..store.signin_codes import insert_signin_code, signin_code_row, use_signin_code
from . import checks
from .access import OPERATOR, Action, Caller, require
from .errors import N_, NotFound, Phrase, Unauthorized
from .lookup import club_row
from .tokens import digest
from .uow import LOOKUP, PRIMARY, WRITE, UnitOfWork, Units, use_case

CODE_LIFETIME = dt.timedelta(minutes=10)
# Where a code's QR code opens: the club desk for the people who run the club (a referee's or a
# secretary's token: the disputes, the tournaments, the settings), else the scorekeeper's page.
DESK, SCORE = "desk", "score"
# A league team's captain's token (svc.leagues.captain_signin) opens the captain's desk of its
# season (/clubs/{club}/desk/seasons/{season}/captain).
CAPTAIN = "captain"
DESK_ROLES = frozenset({"referee", "admin"})


def opens(role: str) -> str:
    """The page a sign-in code of a token of ``role`` opens (:data:`DESK` or :data:`SCORE`)."""
    return DESK if role in DESK_ROLES else SCORE
MAX_CODE_LENGTH = 200
# What the token is derived from the code for: a fixed message, so that a code gives one token.
_PURPOSE = b"domino-referee sign-in code -> token"


def token_of(code: str) -> str:
    """The token a code stands for (in the ``dr_`` form every token has)."""
    mac = hmac.new(code.encode("utf-8"), _PURPOSE, hashlib.sha256).digest()
    return "dr_" + base64.urlsafe_b64encode(mac).rstrip(b"=").decode("ascii")


class SignIn:
    def __init__(self, units: Units, clock: Callable[[], dt.datetime]) -> None:
        self.units = units
        self.clock = clock

    @use_case(WRITE)
    def issue(self, uow: UnitOfWork, club: str, role: str, label: str | None = None, *,
              who: Caller = OPERATOR) -> dict[str, Any]:
        """A new token of the club (admin) with its one-time sign-in code: ``token`` and
        ``code`` (both shown this once), the token's ``id``, ``role``, ``label`` and the code's
        ``expires_at``."""
        require(who, club, Action.MANAGE)
        role = checks.one_of(role, ROLES, "role")
        label = checks.optional_name(label, Phrase(N_("token label")))
        code = secrets.token_urlsafe(32)
        token = token_of(code)
        now = self.clock()
        expires = now + CODE_LIFETIME
        token_id = store.insert_token(uow.conn, club_row(uow, club).id, role, label,
                                      digest(token), now, who.token_id)
        insert_signin_code(uow.conn, token_id, digest(code), expires)
        return {"id": token_id, "club": club, "role": role, "label": label, "token": token,
                "code": code, "expires_at": store.iso(expires), "opens": opens(role)}

    def qr_page(self, club: str, code: Any, *, who: Caller = OPERATOR) -> str:
        """The page the QR code of ``code`` opens (:func:`opens`; :data:`CAPTAIN` for a league
        captain's token), as :meth:`qr_target` says."""
        return self.qr_target(club, code, who=who)["opens"]

    @use_case(PRIMARY)
    def qr_target(self, uow: UnitOfWork, club: str, code: Any, *,
                  who: Caller = OPERATOR) -> dict[str, Any]:
        """Where the QR code of ``code`` opens: ``opens`` (:func:`opens`, or :data:`CAPTAIN`
        for a league team's captain's token, with its ``season``), for the club's admin who
        issued it (Forbidden below, or for a token of another club). Only a code of this club
        waiting to be used is drawn: one unknown, of another club's token, used, expired or
        whose token was revoked is NotFound, in the same words whichever it is, so the desk of
        one club learns nothing of another's codes."""
        require(who, club, Action.MANAGE)
        row = None
        if isinstance(code, str) and 0 < len(code) <= MAX_CODE_LENGTH:
            row = signin_code_row(uow.conn, digest(code))
        if (row is None or row.club != club or row.used_at is not None
                or row.revoked_at is not None or store.as_utc(row.expires_at) <= self.clock()):
            raise NotFound("no sign-in code of this club waits to be used with this code: "
                           "issue the token again")
        season = captain_season(uow.conn, row.token_id)
        if season is not None:
            return {"opens": CAPTAIN, "season": season}
        return {"opens": opens(row.role), "season": None}

    def exchange(self, code: str) -> dict[str, Any]:
        """The token a sign-in code stands for, once: ``token``, ``club``, ``role``, ``label``.
        Unauthorized for a code unknown, used, expired, or whose token was revoked; the code
        is spent by the first exchange that finds it valid. Two units of work: a lookup, then
        the spending (:meth:`_spend`)."""
        if not isinstance(code, str) or not code or len(code) > MAX_CODE_LENGTH:
            raise Unauthorized("this sign-in code is not known: ask for a new QR code")
        now = self.clock()
        # A code nobody issued (a guess) is refused on a read: it takes no write lock (the
        # writers' queue, on SQLite) however many guesses come, past the failed sign-ins'
        # limit too, where each is still looked up so that a valid code is let in.
        with self.units.open(LOOKUP) as uow:
            if signin_code_row(uow.conn, digest(code)) is None:
                raise Unauthorized("this sign-in code is not known: ask for a new QR code")
        with self.units.open(WRITE) as uow:
            return self._spend(uow, code, now)

    def _spend(self, uow: UnitOfWork, code: str, now: dt.datetime) -> dict[str, Any]:
        """The code checked again in the writing unit of work and spent (a conditional update:
        of two exchanges at once, one wins); the token it stands for."""
        conn = uow.conn
        row = signin_code_row(conn, digest(code))
        if row is None:
            raise Unauthorized("this sign-in code is not known: ask for a new QR code")
        if row.used_at is not None:
            raise Unauthorized("this sign-in code was used already: a code signs in one "
                               "phone, once; ask for a new QR code")
        if store.as_utc(row.expires_at) <= now:
            raise Unauthorized("this sign-in code has expired (a code is valid for "
                               "%(minutes)s minutes): ask for a new QR code",
                               minutes=int(CODE_LIFETIME.total_seconds() // 60))
        if row.revoked_at is not None:
            raise Unauthorized("the token of this sign-in code was revoked")
        token = token_of(code)
        # Only a code issued with its token derives it: a mismatch is a code nobody issued.
        if not hmac.compare_digest(digest(token), row.token_hash):
            raise Unauthorized("this sign-in code is not known: ask for a new QR code")
        if not use_signin_code(conn, row.id, now):
            raise Unauthorized("this sign-in code was used already: a code signs in one "
                               "phone, once; ask for a new QR code")
        return {"token": token, "club": row.club, "role": row.role, "label": row.label}
