"""One-time codes (the ``signin_codes`` table). Sign-in codes: inserted with a token, found by
their hash, and used at most once (a conditional update, so two phones racing for one code
cannot both win). Setup codes (``purpose`` ``setup``, no token): the link that makes the first
club; a use locks them all first, so that two links used at once make one club."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import Connection, Row, insert, select, update

from .schema import clubs, signin_codes, tokens

SIGNIN, SETUP = "signin", "setup"  # schema.CODE_PURPOSES


def insert_signin_code(conn: Connection, token_id: int, digest: str,
                       expires_at: dt.datetime) -> int:
    result = conn.execute(insert(signin_codes).values(token_id=token_id, hash=digest,
                                                      expires_at=expires_at, purpose=SIGNIN))
    return result.inserted_primary_key[0]


def insert_setup_code(conn: Connection, digest: str, expires_at: dt.datetime) -> int:
    result = conn.execute(insert(signin_codes).values(token_id=None, hash=digest,
                                                      expires_at=expires_at, purpose=SETUP))
    return result.inserted_primary_key[0]


def setup_codes(conn: Connection, *, lock: bool) -> list[Row]:
    """Every setup code; with ``lock``, locked in the order of their ids until the transaction
    ends (FOR UPDATE on PostgreSQL; SQLite's writers are serialised already), so that a use of
    one waits for any other use, and then sees it."""
    query = select(signin_codes).where(signin_codes.c.purpose == SETUP).order_by(signin_codes.c.id)
    return list(conn.execute(query.with_for_update() if lock else query))


def spend_setup_codes(conn: Connection, now: dt.datetime) -> None:
    """Every setup code not used yet is used now: the first club is made."""
    conn.execute(update(signin_codes)
                 .where(signin_codes.c.purpose == SETUP, signin_codes.c.used_at.is_(None))
                 .values(used_at=now))


def has_club(conn: Connection) -> bool:
    return conn.execute(select(clubs.c.id).limit(1)).first() is not None


def signin_code_row(conn: Connection, digest: str) -> Row | None:
    """The code with this hash, with its token's hash, role, label, revocation and club slug."""
    query = (select(signin_codes, tokens.c.hash.label("token_hash"), tokens.c.role,
                    tokens.c.label, tokens.c.revoked_at, clubs.c.slug.label("club"))
             .join(tokens, tokens.c.id == signin_codes.c.token_id)
             .join(clubs, clubs.c.id == tokens.c.club_id)
             .where(signin_codes.c.hash == digest, signin_codes.c.purpose == SIGNIN))
    return conn.execute(query).first()


def use_signin_code(conn: Connection, code_id: int, now: dt.datetime) -> bool:
    """Mark the code used; False when it was used already (by this call's rival, too)."""
    result = conn.execute(update(signin_codes)
                          .where(signin_codes.c.id == code_id, signin_codes.c.used_at.is_(None))
                          .values(used_at=now))
    return result.rowcount == 1
