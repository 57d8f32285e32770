"""Bearer tokens: issued to a club with a role, stored only as a hash, and who holds one."""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from typing import Callable

from sqlalchemy import Connection, Engine

from .. import store
from ..store import db
from ..store.schema import ROLES
from . import checks
from .access import OPERATOR, Action, Caller, require
from .errors import Unauthorized
from .lookup import club_row

MAX_TOKEN_LENGTH = 200


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def issue_token(conn: Connection, club_id: int, role: str, label: str | None,
                now: dt.datetime) -> str:
    """A new token in the caller's transaction: the plaintext, which only its holder keeps."""
    token = "dr_" + secrets.token_urlsafe(32)
    store.insert_token(conn, club_id, role, label, digest(token), now)
    return token


class Tokens:
    def __init__(self, engine: Engine, clock: Callable[[], dt.datetime]) -> None:
        self.engine = engine
        self.clock = clock

    def create_token(self, club: str, role: str, label: str | None = None, *,
                     who: Caller = OPERATOR) -> str:
        """A new token (the plaintext, shown once: only its sha256 is stored)."""
        require(who, club, Action.MANAGE)
        role = checks.one_of(role, ROLES, "role")
        label = checks.optional_name(label, "token label")
        with db.writing(self.engine) as conn:
            return issue_token(conn, club_row(conn, club).id, role, label, self.clock())

    def authenticate(self, token: str) -> Caller:
        """Who holds ``token`` (Unauthorized for none)."""
        if not isinstance(token, str) or not token or len(token) > MAX_TOKEN_LENGTH:
            raise Unauthorized("no valid token")
        with db.reading(self.engine) as conn:
            row = store.token_row(conn, digest(token))
        if row is None:
            raise Unauthorized("no valid token")
        return Caller(row.club, row.role, row.id, row.label)
