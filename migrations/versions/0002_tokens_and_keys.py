"""Who did what: tokens can be revoked and show when they were last used; each event names the
token that recorded it; a created match remembers its client's idempotency key.

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


def downgrade() -> None:
    op.drop_index("ix_matches_club_id_client_key", table_name="matches")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("client_key")
    with op.batch_alter_table("tokens") as batch:
        batch.drop_column("revoked_at")
        batch.drop_column("last_used_at")
    if op.get_bind().dialect.name == "sqlite":
        # Rebuilding the events table would drop its triggers; SQLite 3.35+ drops a column in
        # place.
        op.execute("ALTER TABLE events DROP COLUMN token_id")
    else:
        op.drop_column("events", "token_id")
