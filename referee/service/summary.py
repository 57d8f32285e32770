"""A match's summary from its row (the projection), with no replay: what a listing shows of a
match. Its own module so that a listing (``domino match list``) imports no record, view or
screen (the rules core's match and replay), only this."""

from __future__ import annotations

from typing import Any

from .. import store
from ..core.rules import Rules

HEADER_FIELDS = ("match", "table", "date", "event")


def row_summary(row: Any) -> dict[str, Any]:
    """A match's summary from its row (the projection): no replay."""
    header = store.load_json(row.header)
    return {
        # Rules(...).as_dict() puts the parameters back in their order (JSONB sorts keys).
        "id": row.id, "club": row.club, "rules": Rules(**row.rules).as_dict(),
        "players": list(row.players),
        "status": row.status, "round": row.round, "totals": list(row.totals),
        "winner": row.winner, "last_seq": row.last_seq, "violations": row.violations,
        **{name: header.get(name) for name in HEADER_FIELDS},
        "created_at": store.iso(row.created_at), "updated_at": store.iso(row.updated_at),
    }
