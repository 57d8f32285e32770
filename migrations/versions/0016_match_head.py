"""``matches.head``: the chain's link at the match's last seq (the last event's digest, or the
header's link before any event), kept beside ``last_seq`` and written by the same statements.

The append's compare-and-set checks the link its new digests follow from against this column
of the row it updates, instead of looking up the last event: the statement then reads nothing
but the matches row it locks (referee.store.events). Existing matches are backfilled from their
last event, or from their header (``referee.core.chain``, the published ``domino-chain/1``).

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-03
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

from referee.core import chain

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

_events = sa.table("events", sa.column("match_id", sa.Integer), sa.column("seq", sa.Integer),
                   sa.column("digest", sa.String(64)))
_matches = sa.table("matches", sa.column("id", sa.Integer), sa.column("header", sa.Text),
                    sa.column("last_seq", sa.Integer), sa.column("head", sa.String(64)))


def upgrade() -> None:
    sqlite = op.get_bind().dialect.name == "sqlite"
    # As 0006's digest: SQLite adds a NOT NULL column only with a default (the '' stays
    # harmless: every insert names the head, and '' is no digest, so no append matches it);
    # PostgreSQL gets it nullable, backfilled, then NOT NULL.
    op.add_column("matches", sa.Column("head", sa.String(64), nullable=not sqlite,
                                       server_default="" if sqlite else None))
    backfill(op.get_bind())
    if not sqlite:
        op.alter_column("matches", "head", nullable=False)


def backfill(conn: sa.Connection) -> None:
    """Every match's head: its last event's digest, or its header's link when it has none. A
    match whose last event is missing (a record damaged behind the triggers) gets its header's
    link too: no append chains on from it, so its appends are refused as stale, as they were
    before, and ``domino db audit`` names it."""
    last = (sa.select(_events.c.digest)
            .where(_events.c.match_id == _matches.c.id, _events.c.seq == _matches.c.last_seq)
            .scalar_subquery())
    conn.execute(sa.update(_matches).where(_matches.c.last_seq > 0)
                 .values(head=sa.func.coalesce(last, "")))
    empty = conn.execute(sa.select(_matches.c.id, _matches.c.header).where(
        sa.or_(_matches.c.head.is_(None), _matches.c.head == ""))).all()
    if empty:
        conn.execute(sa.update(_matches).where(_matches.c.id == sa.bindparam("m"))
                     .values(head=sa.bindparam("h")),
                     [{"m": r.id, "h": chain.root(json.loads(r.header)).hex()} for r in empty])


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        # as 0005: a batch rebuild would drop and re-create a table the others refer to
        op.execute("ALTER TABLE matches DROP COLUMN head")
    else:
        op.drop_column("matches", "head")
