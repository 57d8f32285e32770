"""Bearer tokens: issued to a club with a role, stored only as a hash, and who holds one; listed
(never their hash) and revoked by the club's admins. A revoked token authenticates no more,
from the next request on, on every worker: who holds a token is read from the database on each
request (one indexed query), never trusted from a worker's memory. A token issued by a token
(over the API) names it (``issued_by``), so that a stolen admin token's offspring can be found
and revoked with it (``cascade``)."""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from typing import Any, Callable

from sqlalchemy import Connection, Row

from .. import store
from ..core.vocab import ROLES
from . import checks
from .access import OPERATOR, Action, Caller, require
from .errors import N_, NotFound, Phrase, Unauthorized
from .lookup import club_row
from .uow import LOOKUP, PRIMARY, SINGLE, WRITE, UnitOfWork, Units, use_case

MAX_TOKEN_LENGTH = 200
# How stale a token's last use may be: authenticating writes it at most this often, so that
# reading who holds a token stays a read on nearly every request.
LAST_USE_EVERY = dt.timedelta(seconds=60)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def issue_token(conn: Connection, club_id: int, role: str, label: str | None,
                now: dt.datetime, issued_by: int | None = None) -> str:
    """A new token in the caller's transaction: the plaintext, which only its holder keeps."""
    token = "dr_" + secrets.token_urlsafe(32)
    store.insert_token(conn, club_id, role, label, digest(token), now, issued_by)
    return token


class Tokens:
    def __init__(self, units: Units, clock: Callable[[], dt.datetime]) -> None:
        self.units = units
        self.clock = clock

    @use_case(WRITE)
    def create_token(self, uow: UnitOfWork, club: str, role: str, label: str | None = None, *,
                     who: Caller = OPERATOR) -> str:
        """A new token (the plaintext, shown once: only its sha256 is stored), issued by
        ``who``'s token when it has one."""
        require(who, club, Action.MANAGE)
        role = checks.one_of(role, ROLES, "role")
        label = checks.optional_name(label, Phrase(N_("token label")))
        return issue_token(uow.conn, club_row(uow, club).id, role, label, self.clock(),
                           who.token_id)

    @use_case(PRIMARY)
    def list_tokens(self, uow: UnitOfWork, club: str, *, who: Caller = OPERATOR,
                    limit: int = 50, offset: int = 0) -> tuple[list[dict[str, Any]], int]:
        """The club's tokens, oldest first (never their hash), and how many it has (admin)."""
        require(who, club, Action.MANAGE)
        limit, offset = checks.count(limit, "limit"), checks.count(offset, "offset")
        rows, total = store.list_tokens(uow.conn, club_row(uow, club).id, limit, offset)
        return [_token(r) for r in rows], total

    @use_case(WRITE)
    def revoke_token(self, uow: UnitOfWork, club: str, token_id: int, *,
                     who: Caller = OPERATOR, cascade: bool = False) -> dict[str, Any]:
        """Revoke the club's token ``token_id`` (admin): it authenticates no more. With
        ``cascade``, so do the tokens it issued, those they issued, and so on, in the same
        transaction. Revoking again changes nothing (a token keeps its first revocation time).
        Returns the token's record, with ``revoked_with``: the ids revoked along with it (none
        without ``cascade``); NotFound for no such token in the club."""
        require(who, club, Action.MANAGE)
        conn = uow.conn
        club_id = club_row(uow, club).id
        if not (type(token_id) is int and 1 <= token_id <= checks.MAX_ID):
            raise NotFound("no token %(token)r in club %(club)r", token=token_id, club=club)
        if store.club_token_row(conn, club_id, token_id) is None:
            raise NotFound("no token %(token)r in club %(club)r", token=token_id, club=club)
        offspring = store.issued_by(conn, club_id, token_id) if cascade else []
        store.revoke_tokens(conn, club_id, [token_id, *offspring], self.clock())
        return {**_token(store.club_token_row(conn, club_id, token_id)),
                "revoked_with": offspring}

    @use_case(LOOKUP)
    def revoked_among(self, uow: UnitOfWork, token_ids: list[int]) -> set[int]:
        """Which of ``token_ids`` no longer authenticate (revoked, or gone)."""
        return store.revoked_among(uow.conn, token_ids) if token_ids else set()

    def authenticate(self, token: str) -> Caller:
        """Who holds ``token`` (Unauthorized for none, or a revoked one): one statement on the
        primary (a revocation holds from the next request on). Records the token's use, at
        most once every LAST_USE_EVERY: most calls write nothing."""
        if not isinstance(token, str) or not token or len(token) > MAX_TOKEN_LENGTH:
            raise Unauthorized("no valid token")
        with self.units.open(LOOKUP) as uow:
            row = store.token_row(uow.conn, digest(token))
        if row is None or row.revoked_at is not None:
            raise Unauthorized("no valid token")
        now = self.clock()
        if row.last_used_at is None or store.as_utc(row.last_used_at) < now - LAST_USE_EVERY:
            with self.units.open(SINGLE) as uow:
                store.touch_token(uow.conn, row.id, now, LAST_USE_EVERY)
        return Caller(row.club, row.role, row.id, row.label)


def _token(row: Row) -> dict[str, Any]:
    return {"id": row.id, "label": row.label, "role": row.role,
            "created_at": store.iso(row.created_at), "last_used_at": store.iso(row.last_used_at),
            "revoked_at": store.iso(row.revoked_at), "issued_by": row.issued_by}
