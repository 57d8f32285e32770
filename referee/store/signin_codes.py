"""One-time sign-in codes (the ``signin_codes`` table): inserted with a token, found by their
hash, and used at most once (a conditional update, so two phones racing for one code cannot
both win)."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import Connection, Row, insert, select, update

from .schema import clubs, signin_codes, tokens


def insert_signin_code(conn: Connection, token_id: int, digest: str,
                       expires_at: dt.datetime) -> int:
    result = conn.execute(insert(signin_codes).values(token_id=token_id, hash=digest,
                                                      expires_at=expires_at))
    return result.inserted_primary_key[0]


def signin_code_row(conn: Connection, digest: str) -> Row | None:
    """The code with this hash, with its token's hash, role, label, revocation and club slug."""
    query = (select(signin_codes, tokens.c.hash.label("token_hash"), tokens.c.role,
                    tokens.c.label, tokens.c.revoked_at, clubs.c.slug.label("club"))
             .join(tokens, tokens.c.id == signin_codes.c.token_id)
             .join(clubs, clubs.c.id == tokens.c.club_id)
             .where(signin_codes.c.hash == digest))
    return conn.execute(query).first()


def use_signin_code(conn: Connection, code_id: int, now: dt.datetime) -> bool:
    """Mark the code used; False when it was used already (by this call's rival, too)."""
    result = conn.execute(update(signin_codes)
                          .where(signin_codes.c.id == code_id, signin_codes.c.used_at.is_(None))
                          .values(used_at=now))
    return result.rowcount == 1
