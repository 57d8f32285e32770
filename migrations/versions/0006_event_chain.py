"""The hash chain: ``events.digest``, each event's link in its match's chain (SHA-256 of the
previous link and the event's canonical JSON, lowercase hex; ``docs/verify.md``), so that an
exported log, an acta and the match page can name the record they stand for by its head.

Existing events are backfilled, match by match in seq order, from the header and the events as
stored (``referee.core.chain``, whose ``domino-chain/1`` is a published contract and never
changes). The events table refuses updates, so its guard is lifted for the backfill and put
back in the same transaction.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

from referee.core import chain

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

_events = sa.table("events", sa.column("match_id", sa.Integer), sa.column("seq", sa.Integer),
                   sa.column("data", sa.Text), sa.column("digest", sa.String(64)))
_matches = sa.table("matches", sa.column("id", sa.Integer), sa.column("header", sa.Text))


def upgrade() -> None:
    sqlite = op.get_bind().dialect.name == "sqlite"
    # SQLite adds a NOT NULL column only with a default (the harmless DEFAULT '' stays: every
    # insert names the digest); PostgreSQL gets it nullable, backfilled, then NOT NULL.
    op.add_column("events", sa.Column("digest", sa.String(64), nullable=not sqlite,
                                      server_default="" if sqlite else None))
    _allow_updates(False)
    backfill(op.get_bind())
    _allow_updates(True)
    if not sqlite:
        op.alter_column("events", "digest", nullable=False)


def backfill(conn: sa.Connection) -> int:
    """Every stored event's digest, chained from its match's header; returns how many."""
    done = 0
    for match_id, header in conn.execute(sa.select(_matches.c.id, _matches.c.header)
                                         .order_by(_matches.c.id)).all():
        rows = conn.execute(sa.select(_events.c.seq, _events.c.data)
                            .where(_events.c.match_id == match_id)
                            .order_by(_events.c.seq)).all()
        if not rows:
            continue
        links = chain.links(json.loads(header), (json.loads(r.data) for r in rows))
        conn.execute(sa.update(_events)
                     .where(_events.c.match_id == sa.bindparam("m"),
                            _events.c.seq == sa.bindparam("s"))
                     .values(digest=sa.bindparam("d")),
                     [{"m": match_id, "s": r.seq, "d": link.hex()}
                      for r, link in zip(rows, links[1:])])
        done += len(rows)
    return done


def _allow_updates(guarded: bool) -> None:
    """Lift (False) or restore (True) 0001's refusal to update events, inside this transaction."""
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE events ENABLE TRIGGER events_append_only" if guarded
                   else "ALTER TABLE events DISABLE TRIGGER events_append_only")
    elif guarded:
        op.execute("CREATE TRIGGER events_no_update BEFORE UPDATE ON events "
                   "BEGIN SELECT RAISE(ABORT, 'events are append-only'); END")
    else:
        op.execute("DROP TRIGGER events_no_update")


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        # SQLite 3.35+ drops a column in place (a batch rebuild would lose the triggers).
        op.execute("ALTER TABLE events DROP COLUMN digest")
    else:
        op.drop_column("events", "digest")
