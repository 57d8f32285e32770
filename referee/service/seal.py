"""``domino db seal``: MACs, once, for the rows written before row MACs (docs/verify.md, "Who
can forge what"). Explicit, never automatic: sealing takes the rows as they stand for the
service's own, so it is run right after the upgrade that brought the MACs (migrations 0020
and 0022), after ``domino db audit``. A record that fails its own chain check is not sealed (it stays
refused, and named). Done once: ``row-mac.sealed`` beside the row key says so, and a second seal
(rows without a MAC after the first can only have been written behind the service's back) needs
``again``, and names every row it seals.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any, Callable

from .. import store
from ..store.macs import row_key, seal_match, seal_rows, unsealed_match_ids
from .acta import record_problems
from .errors import N_, Invalid
from .rowkey import RowKeys, mark_sealed
from .uow import WRITE, UnitOfWork, Units, use_case

TEXT = {
    "done": N_("the rows of this database were sealed already (%(path)s: %(how)s); rows without a "
               "MAC now were written behind the service's back: look at them with domino db audit, "
               "and seal them only if you know where they come from (--again)"),
}


@dataclass
class Sealed:
    """What a seal did: the matches whose rows it sealed, the rows, and the matches it left."""

    matches: list[int] = field(default_factory=list)
    rows: int = 0
    refused: list[tuple[int, str]] = field(default_factory=list)  # (match, why)

    def as_dict(self) -> dict[str, Any]:
        return {"matches": self.matches, "rows": self.rows,
                "refused": [{"match": m, "problem": why} for m, why in self.refused]}


class Seal:
    def __init__(self, units: Units, row_keys: RowKeys, clock: Callable[[], dt.datetime]) -> None:
        self.units = units
        self.row_keys = row_keys
        self.clock = clock

    @use_case(WRITE)
    def run(self, uow: UnitOfWork, *, again: bool = False) -> Sealed:
        """Seal every row without a MAC (see the module's docstring), in one transaction."""
        conn = uow.conn
        key = row_key(conn)
        marker = self.row_keys.sealed_path
        if marker.exists() and not again:
            raise Invalid(TEXT["done"], path=str(marker),
                          how=marker.read_text(encoding="utf-8").strip())
        done = Sealed()
        done.rows += sum(seal_rows(conn, key).values())  # clubs, players, seats, renames
        for match_id in unsealed_match_ids(conn):
            row = store.match_row(conn, match_id)
            rows = store.event_rows(conn, match_id)
            if problems := record_problems(row, rows):
                done.refused.append((match_id, "; ".join(what for _, what in problems)))
                continue
            done.rows += seal_match(conn, key, row, rows)
            done.matches.append(match_id)
        uow.after_commit(lambda: mark_sealed(
            marker, f"sealed {done.rows} rows on {store.iso(self.clock())}"))
        return done
