"""The standings and ratings projections (standing_rows, standing_months, player_ratings,
current_ratings: no MAC of their own) checked against the records, for ``domino db audit``.

They are computed again in memory by the code that writes them (a match's rows:
:class:`MatchStanding` of its replay and :func:`standing_of` its seats; the monthly sums:
:func:`month_deltas`; the ratings: :func:`.ratings.rate` over the club's rows in finishing
order, from its first place), and each stored row is compared with the derived one: what
differs, or is there on one side only, is named (table, key, column, stored, derived). Nothing
is written. A match's place in the finishing order (finish_seq, finished_at) is what its rows
keep, as in a rebuild: no record says it; a club whose ratings are being brought up to date (a
ruling on an old match, :func:`.ratings.is_stale`) has its ratings left out until they are.
"""

from __future__ import annotations

import math
from typing import Any

from sqlalchemy import Connection, Table, select

from .. import store
from ..core.disputes import open_count
from ..store.schema import current_ratings, player_ratings, standing_months, standing_rows
from ..store.standings import SUMS, MatchStanding, match_seats, month_deltas, standing_of
from .maintenance import _replayed
from .ratings import is_stale, rate

CHECKED: tuple[Table, ...] = (standing_rows, standing_months, player_ratings, current_ratings)
Rows = dict[tuple[Any, ...], dict[str, Any]]


def _key(table: Table, row: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(row[c.name] for c in table.primary_key.columns)


def _stored(conn: Connection, table: Table) -> Rows:
    return {_key(table, dict(r)): dict(r) for r in conn.execute(select(table)).mappings()}


def derived(conn: Connection, match_ids: list[int]) -> dict[str, Rows]:
    """The four tables as the records give them (the ratings of stale clubs left out, as
    stored), given the stored rows' places."""
    stored = {t.name: _stored(conn, t) for t in CHECKED}
    places = {key[0]: (row["finish_seq"], row["finished_at"])
              for key, row in stored["standing_rows"].items()}
    rows: list[dict[str, Any]] = []
    for match_id in match_ids:
        row = store.match_row(conn, match_id)
        _, result = _replayed(conn, row)
        standing = MatchStanding.of(result.match,
                                    open_count(result.match, {v.seq for v in result.violations}))
        if standing is None:
            continue
        seq, at = places.get(match_id, (None, None))  # no rows stored: named missing, not rated
        rows += [{**r, "finish_seq": seq, "finished_at": at}
                 for r in standing_of(match_id, match_seats(conn, match_id), standing)]
    out: dict[str, Rows] = {t.name: {} for t in CHECKED}
    out["standing_rows"] = {_key(standing_rows, r): r for r in rows}
    for club_id in sorted({r["club_id"] for r in rows}):
        mine = [r for r in rows if r["club_id"] == club_id]
        for (pid, partner, month, event), sums in month_deltas((r, 1) for r in mine).items():
            out["standing_months"][(club_id, pid, partner, month, event)] = {
                "club_id": club_id, "player_id": pid, "partner_id": partner, "month": month,
                "event": event, **dict(zip(SUMS, sums))}
    clubs = {r["club_id"] for r in rows} | {r["club_id"] for r in stored["current_ratings"].values()}
    for club_id in sorted(clubs):
        if is_stale(conn, club_id):
            for name in ("player_ratings", "current_ratings"):
                out[name].update({k: r for k, r in stored[name].items() if r["club_id"] == club_id})
            continue
        inputs = sorted((_Seat(r) for r in rows
                         if r["club_id"] == club_id and r["finish_seq"] is not None),
                        key=lambda s: (s.finish_seq, s.seat))
        state: dict[int, tuple[float, float, int]] = {}
        last_seq: dict[int, int] = {}
        history, _ = rate(inputs, state, last_seq)
        for h in history:
            out["player_ratings"][(h["player_id"], h["match_id"])] = {**h, "club_id": club_id}
        for pid, (mu, sigma, games) in state.items():
            out["current_ratings"][(pid,)] = {"player_id": pid, "club_id": club_id, "mu": mu,
                                              "sigma": sigma, "games": games,
                                              "finish_seq": last_seq[pid]}
    return out


class _Seat:
    """A derived standing row as :func:`.ratings.rate` reads one (attributes)."""

    def __init__(self, row: dict[str, Any]) -> None:
        self.match_id, self.finish_seq, self.seat = row["match_id"], row["finish_seq"], row["seat"]
        self.player_id, self.side, self.place = row["player_id"], row["side"], row["place"]


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    return bool(a == b)


def differences(conn: Connection, match_ids: list[int]) -> list[tuple[str, str, str, Any, Any]]:
    """(table, key, column, stored, derived) for each stored value that is not what the
    records give; column "row" (stored and derived: whether it is there) when the row is
    there on one side only."""
    found: list[tuple[str, str, str, Any, Any]] = []
    given = derived(conn, match_ids)
    for table in CHECKED:
        stored = _stored(conn, table)
        keys = [c.name for c in table.primary_key.columns]
        for key in sorted(stored.keys() | given[table.name].keys(), key=repr):
            name = ", ".join(f"{k}={v}" for k, v in zip(keys, key))
            old, new = stored.get(key), given[table.name].get(key)
            if old is None or new is None:  # there on one side only
                found.append((table.name, name, "row", old is not None, new is not None))
                continue
            found += [(table.name, name, column, old[column], new[column])
                      for column in new if not _same(old[column], new[column])]
    return found
