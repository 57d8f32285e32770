"""Clubs and their tokens (their players: :mod:`.players`)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import Connection, Row, bindparam, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from .driver import DriverStatement
from .errors import AlreadyExists
from .macs import mac_new, row_key, update_macd
from .schema import clubs, tokens


def insert_club(conn: Connection, slug: str, name: str, created_at: dt.datetime) -> None:
    # No savepoint: the failed insert ends the caller's transaction, which did nothing else.
    row_key(conn)  # first: the key may be made now, on a database holding no row yet
    try:
        conn.execute(insert(clubs).values(slug=slug, name=name, created_at=created_at))
    except IntegrityError:
        raise AlreadyExists(f"a club {slug!r} exists already") from None
    mac_new(conn, "clubs", clubs.c.slug == slug)


def club_row(conn: Connection, slug: str) -> Row | None:
    return conn.execute(select(clubs).where(clubs.c.slug == slug)).first()


def set_club_settings(conn: Connection, club_id: int, values: dict[str, Any]) -> None:
    """Write the club's settings named in ``values`` (column -> value) in one statement: they
    change together or not at all, with the row's MAC (``macs.update_macd``)."""
    update_macd(conn, "clubs", clubs.c.id == club_id, values)


def insert_token(conn: Connection, club_id: int, role: str, label: str | None, digest: str,
                 created_at: dt.datetime, issued_by: int | None = None) -> int:
    result = conn.execute(insert(tokens).values(
        club_id=club_id, role=role, label=label, hash=digest, created_at=created_at,
        issued_by=issued_by))
    return result.inserted_primary_key[0]


# Built once, run on the driver (.driver): every authenticated request runs it.
_TOKEN_ROW = DriverStatement(select(tokens, clubs.c.slug.label("club"))
                             .join(clubs, clubs.c.id == tokens.c.club_id)
                             .where(tokens.c.hash == bindparam("digest")))


def token_row(conn: Connection, digest: str) -> Any:
    """The token with this hash, with its club's slug (None for none)."""
    found = _TOKEN_ROW.rows(conn, {"digest": digest})
    return found[0] if found else None


def list_tokens(conn: Connection, club_id: int, limit: int, offset: int) -> tuple[list[Row], int]:
    """The club's tokens, oldest first, and how many it has."""
    where = tokens.c.club_id == club_id
    total = conn.execute(select(func.count()).select_from(tokens).where(where)).scalar_one()
    rows = conn.execute(select(tokens).where(where).order_by(tokens.c.id)
                        .limit(limit).offset(offset)).all()
    return rows, total


def club_token_row(conn: Connection, club_id: int, token_id: int) -> Row | None:
    """The club's token ``token_id`` (None for none, or another club's)."""
    return conn.execute(select(tokens).where(
        tokens.c.club_id == club_id, tokens.c.id == token_id)).first()


def revoke_tokens(conn: Connection, club_id: int, token_ids: list[int],
                  revoked_at: dt.datetime) -> None:
    """Revoke the club's tokens ``token_ids``; a token revoked already keeps its first time."""
    conn.execute(update(tokens).where(
        tokens.c.club_id == club_id, tokens.c.id.in_(token_ids), tokens.c.revoked_at.is_(None))
        .values(revoked_at=revoked_at))


def issued_by(conn: Connection, club_id: int, token_id: int) -> list[int]:
    """The ids of the club's tokens ``token_id`` issued, and those they issued, and so on."""
    found: list[int] = []
    generation = [token_id]
    while generation:  # one query a generation; an admin's offspring are few generations deep
        generation = [i for i in conn.execute(select(tokens.c.id).where(
            tokens.c.club_id == club_id, tokens.c.issued_by.in_(generation))).scalars()
            if i not in found and i != token_id]
        found.extend(generation)
    return sorted(found)


def revoked_among(conn: Connection, token_ids: list[int]) -> set[int]:
    """Which of ``token_ids`` are revoked (or gone)."""
    working = set(conn.execute(select(tokens.c.id).where(
        tokens.c.id.in_(token_ids), tokens.c.revoked_at.is_(None))).scalars())
    return set(token_ids) - working


def touch_token(conn: Connection, token_id: int, now: dt.datetime, every: dt.timedelta) -> None:
    """Record a use of the token, unless one was recorded less than ``every`` ago: one
    statement, which writes nothing when another worker has just recorded one."""
    conn.execute(update(tokens).where(
        tokens.c.id == token_id,
        or_(tokens.c.last_used_at.is_(None), tokens.c.last_used_at < now - every))
        .values(last_used_at=now))
