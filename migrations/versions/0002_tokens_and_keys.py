"""Who did what: tokens can be revoked and show when they were last used; each event names the
token that recorded it; a created match remembers its client's idempotency key; a match counts
the bytes of its events (its size limit is checked against that).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

Timestamp = sa.DateTime(timezone=True)


def upgrade() -> None:
    # Plain ADD COLUMN on both databases: nullable columns, no table rebuild (the events
    # table's append-only triggers stay as they are).
    op.add_column("tokens", sa.Column("last_used_at", Timestamp, nullable=True))
    op.add_column("tokens", sa.Column("revoked_at", Timestamp, nullable=True))
    op.add_column("events", sa.Column("token_id", sa.Integer, nullable=True))
    op.add_column("matches", sa.Column("client_key", sa.String(200), nullable=True))
    op.create_index("ix_matches_club_id_client_key", "matches", ["club_id", "client_key"],
                    unique=True)
    op.add_column("matches", sa.Column("event_bytes", sa.Integer, nullable=False,
                                       server_default="0"))
    # Every match's events summed, in one statement; on PostgreSQL with no statement timeout
    # (referee.store.db sets one for requests, and a large database takes longer than that).
    if op.get_bind().dialect.name == "postgresql":
        op.execute("SET LOCAL statement_timeout = 0")
        size = "octet_length(events.data)"
    else:
        size = "length(CAST(events.data AS BLOB))"  # bytes of the UTF-8 text, not characters
    op.execute(f"UPDATE matches SET event_bytes = (SELECT COALESCE(SUM({size}), 0) FROM events "
               f"WHERE events.match_id = matches.id)")


def downgrade() -> None:
    op.drop_index("ix_matches_club_id_client_key", table_name="matches")
    with op.batch_alter_table("tokens") as batch:
        batch.drop_column("revoked_at")
        batch.drop_column("last_used_at")
    if op.get_bind().dialect.name == "sqlite":
        # SQLite 3.35+ drops a column in place. Rebuilding the events table would drop its
        # triggers, and rebuilding matches would drop a table the events refer to (a foreign
        # key SQLite enforces on a database that holds matches).
        for table, column in (("matches", "event_bytes"), ("matches", "client_key"),
                              ("events", "token_id")):
            op.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
    else:
        op.drop_column("matches", "event_bytes")
        op.drop_column("matches", "client_key")
        op.drop_column("events", "token_id")
