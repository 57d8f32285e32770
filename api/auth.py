"""Bearer tokens (Flask-HTTPAuth), roles and club isolation.

Who may do what (a token belongs to one club and has one role):

- every role of the club reads the club, its players, matches, events, reports, logs, standings;
- ``admin`` adds players and issues tokens;
- ``scorekeeper`` and ``referee`` create matches and record play (deal, play, draw, pass, reveal,
  note); only a ``referee`` records rulings (penalty, void, annul, forfeit) and imports whole logs
  (a log may carry rulings and disputed events);
- creating a club takes the *server* admin token, set by whoever runs the server in
  ``DOMINO_ADMIN_TOKEN`` (config ``ADMIN_TOKEN``); without one, clubs are created only with
  ``domino club create``. That token belongs to no club and can do nothing else.

No token, or an unknown one: 401. A valid token of another club, or of a role that may not: 403.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

from flask import current_app
from flask_httpauth import HTTPTokenAuth
from referee.service import Forbidden, Unauthorized

from .context import cache, service
from .errors import AUTHENTICATE, problem

READERS = frozenset({"admin", "referee", "scorekeeper", "viewer"})
ADMIN = frozenset({"admin"})
RECORDERS = frozenset({"scorekeeper", "referee"})
REFEREE = frozenset({"referee"})
SERVER = "server"  # the role of the server admin token

# The event types only a referee may record: the design's rulings.
RULINGS = frozenset({"penalty", "void", "annul", "forfeit"})

auth = HTTPTokenAuth(scheme="Bearer", realm="domino-referee")


@dataclass(frozen=True)
class Principal:
    """Who is calling: the token's club (None for the server admin token), role and identity."""

    club: str | None
    role: str
    token_id: int | str | None
    label: str | None

    @property
    def recorded_by(self) -> str:
        # Labels need not be unique; the id is, so both go on the record.
        ident = f"token {self.token_id}"
        return f"{self.label} ({ident})" if self.label else ident


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


@auth.verify_token
def _verify(token: str) -> Principal | None:
    if not token:
        return None
    admin_token = current_app.config.get("ADMIN_TOKEN")
    # Compare digests in constant time: no timing hints about the server token.
    if admin_token and hmac.compare_digest(_digest(token), _digest(admin_token)):
        return Principal(None, SERVER, None, "server admin")
    try:
        return cache("tokens").get(_digest(token), lambda: _principal(token))
    except Unauthorized:  # not cached: a token issued a moment later must work at once
        return None


def _principal(token: str) -> Principal:
    info = service().authenticate(token)
    return Principal(info.club, info.role, info.token_id, info.label)


@auth.error_handler
def _auth_error(status: int):
    if status == 401:
        return problem(401, "a valid bearer token is required", kind="unauthorized",
                       headers={"WWW-Authenticate": AUTHENTICATE})
    return problem(status, kind="forbidden")


def authorize(club: str | None, roles: frozenset[str]) -> Principal:
    """The caller, if its token belongs to ``club`` and has one of ``roles``; else 403."""
    who: Principal = auth.current_user()
    if club is None or who.club != club:
        raise Forbidden("this token belongs to another club")
    if who.role not in roles:
        raise Forbidden(f"a {who.role} token may not do this; it takes: {', '.join(sorted(roles))}")
    return who


def authorize_server() -> Principal:
    who: Principal = auth.current_user()
    if who.role != SERVER:
        raise Forbidden("creating a club takes the server admin token (DOMINO_ADMIN_TOKEN)")
    return who


def may_see_hands(who: Principal) -> bool:
    return who.role == "referee"


def roles_for_event(event: dict) -> frozenset[str]:
    kind = event.get("type")
    return REFEREE if isinstance(kind, str) and kind in RULINGS else RECORDERS
