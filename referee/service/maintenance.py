"""Keeping the projections true to the events."""

from __future__ import annotations

from .. import store
from ..core.disputes import open_count
from ..core.log import parse_header
from ..core.replay import replay
from ..store import db
from .ratings import rerate_all, record_standing
from .repository import MatchRepository


def rebuild(matches: MatchRepository) -> int:
    """Recompute every match's projection from its events; returns how many matches."""
    matches.forget_all()
    with db.reading(matches.engine) as conn:
        ids = store.match_ids(conn)
    for match_id in ids:
        # One transaction a match, the row locked first (FOR UPDATE on PostgreSQL) so that
        # an append cannot slip in between reading the events and writing their sum.
        with db.writing(matches.engine) as conn:
            row = store.match_row(conn, match_id, for_update=True)
            header = parse_header(store.load_json(row.header))
            result = replay(header.rules, header.players, matches.events(conn, row))
            updated = store.last_recorded_at(conn, match_id) or row.created_at
            refused = {v.seq for v in result.violations}
            projection = store.Projection.of(result.match, open_count(result.match, refused),
                                             updated)
            store.update_projection(conn, match_id, projection, rules=header.rules.as_dict(),
                                    event_bytes=store.event_bytes(conn, match_id))
            # Its standing rows too; the ratings once, club by club, after every match.
            record_standing(conn, match_id, result.match, projection.violations, updated,
                            rate=False)
    rerate_all(matches.engine)
    return len(ids)
