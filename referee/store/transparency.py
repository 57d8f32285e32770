"""A club's transparency log: its leaves (each a signed acta, in the order signed) and its
signed tree heads, both only ever inserted; and which finished matches have no acta signed for
their record as it stands (docs/verify.md)."""

from __future__ import annotations

import datetime as dt
from typing import Any, Sequence

from sqlalchemy import Connection, Row, and_, exists, func, insert, select
from sqlalchemy.exc import IntegrityError

from .errors import AlreadyExists
from .schema import acta_leaves, clubs, matches, tree_heads


def lock_club(conn: Connection, club_id: int) -> None:
    """Hold the club's row until the transaction ends, so that two signers of one club add
    their leaves one after the other (PostgreSQL: FOR NO KEY UPDATE, which the foreign key
    checks of the club's other inserts do not wait for; SQLite writers queue anyway)."""
    query = select(clubs.c.id).where(clubs.c.id == club_id)
    if conn.dialect.name == "postgresql":
        query = query.with_for_update(key_share=True)
    conn.execute(query).one()


def insert_leaf(conn: Connection, club_id: int, leaf_index: int, match_id: int | None,
                seq: int, acta: str, leaf_hash: str, signed_at: dt.datetime, *,
                fixture_id: int | None = None) -> None:
    """A leaf: a match's acta at event ``seq``, or (``fixture_id``, no ``match_id``) a league
    fixture's result sheet number ``seq``. AlreadyExists when the match's acta at ``seq`` is
    signed already, or the index taken."""
    try:
        with conn.begin_nested():
            conn.execute(insert(acta_leaves).values(
                club_id=club_id, leaf_index=leaf_index, match_id=match_id, seq=seq, acta=acta,
                leaf_hash=leaf_hash, signed_at=signed_at, fixture_id=fixture_id))
    except IntegrityError:
        raise AlreadyExists(f"match {match_id}'s acta at event {seq}") from None


def insert_head(conn: Connection, club_id: int, size: int, head: str,
                frontier: Sequence[str], signed_at: dt.datetime) -> None:
    conn.execute(insert(tree_heads).values(club_id=club_id, size=size, head=head,
                                           frontier=list(frontier), signed_at=signed_at))


def latest_head(conn: Connection, club_id: int) -> Row | None:
    return conn.execute(select(tree_heads).where(tree_heads.c.club_id == club_id)
                        .order_by(tree_heads.c.id.desc()).limit(1)).first()


def head_rows(conn: Connection, club_id: int) -> list[Row]:
    """Every head the club signed, oldest first."""
    return conn.execute(select(tree_heads).where(tree_heads.c.club_id == club_id)
                        .order_by(tree_heads.c.id)).all()


def leaf_count(conn: Connection, club_id: int) -> int:
    return conn.execute(select(func.count()).select_from(acta_leaves)
                        .where(acta_leaves.c.club_id == club_id)).scalar_one()


def leaf_rows(conn: Connection, club_id: int, start: int = 0,
              end: int | None = None) -> list[Row]:
    """Leaves start, start + 1, ..., end - 1 (all from start when end is None)."""
    query = select(acta_leaves).where(acta_leaves.c.club_id == club_id,
                                      acta_leaves.c.leaf_index >= start)
    if end is not None:
        query = query.where(acta_leaves.c.leaf_index < end)
    return conn.execute(query.order_by(acta_leaves.c.leaf_index)).all()


def leaf_hashes(conn: Connection, club_id: int, size: int) -> list[bytes]:
    """The hashes of the club's first ``size`` leaves, in order."""
    rows = conn.execute(select(acta_leaves.c.leaf_hash).where(
        acta_leaves.c.club_id == club_id, acta_leaves.c.leaf_index < size)
        .order_by(acta_leaves.c.leaf_index)).scalars()
    return [bytes.fromhex(h) for h in rows]


def match_leaves(conn: Connection, match_id: int) -> list[Row]:
    """Every acta signed for the match, first signed first."""
    return conn.execute(select(acta_leaves).where(acta_leaves.c.match_id == match_id)
                        .order_by(acta_leaves.c.leaf_index)).all()


def current_leaf(conn: Connection, match_id: int, seq: int) -> Row | None:
    """The acta signed for the match's record up to event ``seq``, if one is."""
    return conn.execute(select(acta_leaves).where(acta_leaves.c.match_id == match_id,
                                                  acta_leaves.c.seq == seq)).first()


def _unsigned() -> Any:
    return and_(matches.c.status == "finished", ~exists().where(
        acta_leaves.c.match_id == matches.c.id, acta_leaves.c.seq == matches.c.last_seq))


def due_matches(conn: Connection, club_id: int | None = None) -> list[Row]:
    """(id, club, last_seq) of each finished match whose record as it stands has no signed
    acta: it finished, or changed, since its last one was signed (if any was)."""
    query = (select(matches.c.id, clubs.c.slug.label("club"), matches.c.last_seq)
             .join(clubs, clubs.c.id == matches.c.club_id).where(_unsigned()))
    if club_id is not None:
        query = query.where(matches.c.club_id == club_id)
    return conn.execute(query.order_by(matches.c.id)).all()
