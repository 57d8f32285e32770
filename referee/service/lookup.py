"""Finding what a request names, with NotFound for what does not exist."""

from __future__ import annotations

from sqlalchemy import Connection, Row

from .. import store
from .errors import NotFound


def club_row(conn: Connection, slug: str) -> Row:
    row = store.club_row(conn, slug) if isinstance(slug, str) else None
    if row is None:
        raise NotFound("no club %(slug)r", slug=slug)
    return row
