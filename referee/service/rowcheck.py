"""Rows checked against their MACs before anything is read from them (docs/verify.md, "Who can
forge what"): a match's row and its event rows here; what fails is named, table, key and what,
for ``domino db audit`` and for the error that refuses the match (:class:`.errors.RowForged`).
"""

from __future__ import annotations

from typing import Any, Sequence

from sqlalchemy import Connection, Row

from ..core.macs import RowKey
from ..core.said import said
from ..store.macs import event_holds, head_holds, match_holds, row_holds, row_key
from .errors import N_, RowForged

# (table, seq or None, what): a row that fails, named
Failure = tuple[str, int | None, str]

TEXT = {
    "unsealed": N_("carries no MAC: written outside the service, or before row MACs and not "
                   "sealed yet (domino db seal, once, after the upgrade)"),
    "header": N_("fails its MAC: the match's header or club was changed outside the service"),
    "head": N_("fails its MAC: its count of events (%(last)s) or chain head (%(head)s...) was "
               "changed outside the service: events were added or removed"),
    "event": N_("fails its MAC: the event was changed, or inserted, outside the service"),
    "gap": N_("is missing: the match counts %(last)s events, the record holds %(held)s"),
    "beyond": N_("the match counts %(last)s events, the record holds %(held)s"),
    "head_moved": N_("the match's chain head is not its last event's digest"),
    "the_match": N_("match %(match)s"),
}


def match_failures(key: RowKey, row: Row) -> list[Failure]:
    """Why a matches row fails its MACs (empty: it holds)."""
    found: list[Failure] = []
    if row.mac is None:
        found.append(("matches", None, said(TEXT["unsealed"])))
    elif not match_holds(key, row):
        found.append(("matches", None, said(TEXT["header"])))
    if row.head_mac is None:
        if row.mac is not None:
            found.append(("matches", None, said(TEXT["unsealed"])))
    elif not head_holds(key, row):
        found.append(("matches", None, said(TEXT["head"], last=row.last_seq,
                                           head=str(row.head)[:16])))
    return found


def event_failures(key: RowKey, row: Row, events: Sequence[Any]) -> list[Failure]:
    """Why a match's event rows (in seq order; those up to the row's last seq, or every one)
    fail their MACs, or do not run 1 to the row's last seq ending at its head."""
    found: list[Failure] = []
    for expected, event in enumerate(events, start=1):
        if event.seq != expected and event.seq <= row.last_seq:
            found.append(("events", expected, said(TEXT["gap"], last=row.last_seq,
                                                   held=len(events))))
            break
    for event in events:
        if event.mac is None:
            found.append(("events", event.seq, said(TEXT["unsealed"])))
        elif not event_holds(key, event):
            found.append(("events", event.seq, said(TEXT["event"])))
    held = [e for e in events if e.seq <= row.last_seq]
    if len(held) != row.last_seq:
        found.append(("events", None, said(TEXT["beyond"], last=row.last_seq, held=len(held))))
    elif held and held[-1].digest != row.head:
        found.append(("matches", None, said(TEXT["head_moved"])))
    return found


def require_row(key: RowKey, row: Row) -> None:
    """RowForged unless the matches row holds its MACs."""
    if failures := match_failures(key, row):
        raise RowForged(TEXT["the_match"], failures, match=row.id)


def require_record(key: RowKey, row: Row, events: Sequence[Any]) -> None:
    """RowForged unless the matches row and its event rows (1 to its last seq) hold."""
    if failures := match_failures(key, row) + event_failures(key, row, events):
        raise RowForged(TEXT["the_match"], failures, match=row.id)


# How a failing row of the other tables is named (what the audit and the error say)
NAMES = {
    "clubs": lambda r: said(N_("club %(club)s"), club=r.slug),
    "players": lambda r: said(N_("player %(id)s (%(name)s)"), id=r.id, name=r.name),
    "match_players": lambda r: said(N_("match %(match)s, seat %(seat)s"), match=r.match_id,
                                    seat=r.seat),
    "player_events": lambda r: said(N_("player event %(id)s (%(kind)s of player %(player)s)"),
                                    id=r.id, kind=r.kind, player=r.player_id),
    "league_cups": lambda r: said(N_("cup %(cup)s"), cup=r.slug),
    "league_cup_matches": lambda r: said(N_("cup %(cup)s's match %(match)s (%(tie)s)"),
                                         cup=r.cup_id, match=r.match_id, tie=r.tie),
    "league_cup_awards": lambda r: said(N_("cup %(cup)s's tie %(tie)s given without a match (%(id)s)"),
                                        cup=r.cup_id, tie=r.tie, id=r.id),
}
ROW_TEXT = {"fails": N_("%(row)s fails its MAC: changed outside the service"),
            "unsealed": N_("%(row)s %(what)s")}


def row_failures(key: RowKey, table: str, rows: Sequence[Any]) -> list[Failure]:
    """Why rows of ``table`` (clubs, players, match_players, player_events) fail their MACs."""
    found: list[Failure] = []
    for row in rows:
        if row.mac is None:
            found.append((table, None, said(ROW_TEXT["unsealed"], row=NAMES[table](row),
                                            what=said(TEXT["unsealed"]))))
        elif not row_holds(key, table, row):
            found.append((table, None, said(ROW_TEXT["fails"], row=NAMES[table](row))))
    return found


def require_rows(conn: Connection, table: str, rows: Sequence[Any], what: str,
                 **params: Any) -> None:
    """RowForged (about ``what``) unless every one of ``rows`` of ``table`` holds its MAC."""
    if failures := row_failures(row_key(conn), table, rows):
        raise RowForged(what, failures, **params)


def require_players(conn: Connection, rows: Sequence[Row]) -> None:
    """RowForged unless every one of the players ``rows`` holds its MAC (docs/verify.md); here,
    not in .players, so that the standings check their players without importing that module."""
    require_rows(conn, "players", rows, N_("the club's players"))
