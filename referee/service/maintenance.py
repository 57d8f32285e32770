"""Keeping the projections true to the events."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection

from .. import store
from ..core.disputes import open_count
from ..core.log import Header, parse_header
from ..core.replay import Replay, replay
from ..store import leagues
from ..store.macs import row_key
from ..store.standings import clear_standings, clubs_missing_rows, finishing_order
from .acta import record_problems
from .errors import ChainBroken
from .ratings import rate_from, rerate_all, write_standing
from .repository import MatchRepository
from .rowcheck import require_record
from .uow import PRIMARY, WRITE, UnitOfWork, Units


def _replayed(conn: Connection, row: Any) -> tuple[Header, Replay]:
    """The match's header, and its events replayed under the header's rules."""
    header = parse_header(store.load_json(row.header))
    events = [store.load_json(text) for text in store.event_data(conn, row.id)]
    return header, replay(header.rules, header.players, events)


def rebuild(units: Units, matches: MatchRepository, *, force: bool = False) -> int:
    """Recompute every match's projection from its events; returns how many matches. A record
    that fails its chain (``acta.record_problems``) would be scored as it now stands, so the
    rebuild refuses (ChainBroken for the first such match, nothing rebuilt) unless ``force``.
    One unit of work to check them all, then one a match (:func:`rebuild_match`)."""
    matches.forget_all()
    with units.open(PRIMARY) as uow:
        ids = store.match_ids(uow.conn)
        if not force:
            for match_id in ids:
                row = store.match_row(uow.conn, match_id)
                rows = store.event_rows(uow.conn, match_id)
                require_record(row_key(uow.conn), row, rows)
                if problems := record_problems(row, rows,
                                               counted=False):
                    raise ChainBroken(match_id, problems)
    for match_id in ids:
        with units.open(WRITE) as uow:
            rebuild_match(uow, match_id)
    with units.open(WRITE) as uow:  # the league legs' results, from the projections just made
        leagues.project_legs(uow.conn)
    rerate_all(units.engine)
    return len(ids)


def rebuild_match(uow: UnitOfWork, match_id: int) -> None:
    """The match's projection and standing rows from its events (the ratings are left to a
    pass over every club once every match is done), the row locked first (FOR UPDATE on
    PostgreSQL) so that an append cannot slip in between reading the events and writing
    their sum."""
    conn = uow.conn
    row = store.match_row(conn, match_id, for_update=True)
    header, result = _replayed(conn, row)
    updated = store.last_recorded_at(conn, match_id) or row.created_at
    refused = {v.seq for v in result.violations}
    projection = store.Projection.of(result.match, open_count(result.match, refused), updated)
    store.update_projection(conn, match_id, projection, rules=header.rules.as_dict(),
                            event_bytes=store.event_bytes(conn, match_id),
                            head=store.chain_link(conn, match_id, projection.last_seq))
    write_standing(conn, match_id, result.match, projection.violations, updated)


def fill_standings(conn: Connection) -> int:
    """Fill the standings of every club that has a finished match without standing rows, in
    the caller's transaction (the upgrade's: ``migrations.runner.upgrade``'s ``then``); returns
    the matches written. Migration 0004 created the projection empty, so a database upgraded
    past it with finished matches has such clubs; so does one upgraded by a command that did not
    fill them. Each such club's rows are written again from its matches' events in the order
    they finished (as their rows say, else the time of their last event) and its ratings
    computed from the first; a club whose rows are all there is left alone (so running it
    again, or on a database that never missed them, writes nothing)."""
    written = 0
    for club_id in clubs_missing_rows(conn):
        order = finishing_order(conn, club_id)
        clear_standings(conn, club_id)
        for match_id, finished_at in order:
            row = store.match_row(conn, match_id)
            _, result = _replayed(conn, row)
            write_standing(conn, match_id, result.match, row.violations, finished_at,
                           was_finished=False, seats_checked=False)
            written += 1
        rate_from(conn, club_id, 1)
    return written
