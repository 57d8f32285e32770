"""The standings and ratings projections (standing_rows, standing_months, player_ratings,
current_ratings: no MAC of their own) checked against the records, for ``domino db audit``.

They are computed again by the rebuild's own code (:func:`.maintenance.rebuild_match` a match,
the store's monthly sums from the rows, :func:`.ratings.rate_from` a club from its first
place) in a writing transaction that is always rolled back, and each stored row is compared
with the derived one: what differs, or is there on one side only, is named (table, key, column,
stored, derived). Nothing is written. A match's place in the finishing order (finish_seq,
finished_at) is what its rows keep, as in a rebuild: the order is not in any record.
"""

from __future__ import annotations

import math
from typing import Any

from sqlalchemy import Connection, Table, select

from ..store.schema import current_ratings, player_ratings, standing_months, standing_rows
from ..store.standings import club_ids_with_rows, rebuild_months
from .uow import WRITE, Units

CHECKED: tuple[Table, ...] = (standing_rows, standing_months, player_ratings, current_ratings)


class _Undo(Exception):
    """Raised to roll the recomputation back."""


def _rows(conn: Connection, table: Table) -> dict[tuple[Any, ...], dict[str, Any]]:
    keys = [c.name for c in table.primary_key.columns]
    return {tuple(r[k] for k in keys): dict(r) for r in conn.execute(select(table)).mappings()}


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    return bool(a == b)


def differences(units: Units, match_ids: list[int]) -> list[tuple[str, str, str, Any, Any]]:
    """(table, key, column, stored, derived) for each stored value that is not what the
    records give; column "row" (stored and derived: whether it is there) when the row is
    there on one side only."""
    from .maintenance import rebuild_match
    from .ratings import rate_from

    found: list[tuple[str, str, str, Any, Any]] = []
    try:
        with units.open(WRITE) as uow:
            conn = uow.conn
            stored = {t.name: _rows(conn, t) for t in CHECKED}
            for match_id in match_ids:
                rebuild_match(uow, match_id, seats_checked=False)
            for club_id in club_ids_with_rows(conn):
                rebuild_months(conn, club_id)
                rate_from(conn, club_id, 1)
            for table in CHECKED:
                derived = _rows(conn, table)
                keys = [c.name for c in table.primary_key.columns]
                for key in sorted(stored[table.name].keys() | derived.keys(), key=repr):
                    name = ", ".join(f"{k}={v}" for k, v in zip(keys, key))
                    old, new = stored[table.name].get(key), derived.get(key)
                    if old is None or new is None:  # there on one side only
                        found.append((table.name, name, "row", old is not None,
                                      new is not None))
                        continue
                    found += [(table.name, name, column, old[column], new[column])
                              for column in new if not _same(old[column], new[column])]
            raise _Undo
    except _Undo:
        pass
    return found
