"""Finding what a request names, with NotFound for what does not exist; each read once in a
unit of work (its memo), so a page that asks for its club (or a match) in several use cases
reads its row once."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Row

from .. import store
from .errors import N_, NotFound
from .rowcheck import require_rows
from .uow import UnitOfWork


def club_row(uow: UnitOfWork, slug: str) -> Row:
    """The club's row (NotFound for none)."""
    row = find_club(uow, slug)
    if row is None:
        raise NotFound("no club %(slug)r", slug=slug)
    return row


def find_club(uow: UnitOfWork, slug: object) -> Row | None:
    """The club's row, or None; read once in ``uow`` (a use case that changes it forgets it:
    :func:`forget_club`)."""
    if not isinstance(slug, str):
        return None
    return uow.remember(("club", slug), lambda: _checked(uow, store.club_row(uow.conn, slug)))


def _checked(uow: UnitOfWork, row: Row | None) -> Row | None:
    """The club's row once it holds its MAC (RowForged: its settings changed behind the
    service's back, docs/verify.md)."""
    if row is not None:
        require_rows(uow.conn, "clubs", [row], N_("club %(club)s"), club=row.slug)
    return row


def forget_club(uow: UnitOfWork, slug: str) -> None:
    """The club's row changed in ``uow``: the next look reads it again."""
    uow.forget(("club", slug))


def match_row(uow: UnitOfWork, number: int, **kwargs: Any) -> Row | None:
    """The match's row (with the club's slug), or None; read once in a read-only ``uow``.
    ``kwargs`` (what an append asks besides: its client event id, a row lock) and a writing
    unit of work read it afresh: it changes there."""
    if kwargs or uow.writes:
        return store.match_row(uow.conn, number, **kwargs)
    return uow.remember(("match", number), lambda: store.match_row(uow.conn, number))
