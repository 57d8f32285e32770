"""A club's signing keys: the public halves and their validity (the private halves are files,
``referee.service.keys``)."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import Connection, Row, insert, select, update

from .schema import clubs, signing_keys


def key_rows(conn: Connection, club_id: int) -> list[Row]:
    """The club's keys, oldest first."""
    return conn.execute(select(signing_keys).where(signing_keys.c.club_id == club_id)
                        .order_by(signing_keys.c.valid_from, signing_keys.c.id)).all()


def all_key_rows(conn: Connection) -> list[Row]:
    """Every club's keys, with the club's slug (``club``), club by club, oldest first."""
    return conn.execute(select(signing_keys, clubs.c.slug.label("club"))
                        .join(clubs, clubs.c.id == signing_keys.c.club_id)
                        .order_by(clubs.c.slug, signing_keys.c.valid_from,
                                  signing_keys.c.id)).all()


def signing_key_row(conn: Connection, club_id: int) -> Row | None:
    """The key that signs for the club now (None: it has none)."""
    return conn.execute(select(signing_keys).where(
        signing_keys.c.club_id == club_id, signing_keys.c.valid_until.is_(None))
        .order_by(signing_keys.c.id.desc()).limit(1)).first()


def insert_key(conn: Connection, club_id: int, key_id: str, public_key: str,
               valid_from: dt.datetime, adopted: bool = False) -> None:
    conn.execute(insert(signing_keys).values(club_id=club_id, key_id=key_id,
                                             public_key=public_key, valid_from=valid_from,
                                             adopted=adopted))


def end_key(conn: Connection, row_id: int, until: dt.datetime) -> None:
    """The key stops signing at ``until`` (rotated out)."""
    conn.execute(update(signing_keys).where(signing_keys.c.id == row_id,
                                            signing_keys.c.valid_until.is_(None))
                 .values(valid_until=until))


def retire_key(conn: Connection, row_id: int, at: dt.datetime, reason: str) -> None:
    """The key is retired at ``at`` (and stops signing then, if it still did)."""
    row = conn.execute(select(signing_keys.c.valid_until)
                       .where(signing_keys.c.id == row_id)).one()
    conn.execute(update(signing_keys).where(signing_keys.c.id == row_id)
                 .values(retired_at=at, retired_reason=reason,
                         valid_until=row.valid_until if row.valid_until is not None else at))
