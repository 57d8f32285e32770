"""Row MACs (docs/verify.md, "Who can forge what"): ``events.mac``, ``matches.mac`` and
``matches.head_mac``, HMAC-SHA256 under the server's row key (never in the database:
``referee.service.rowkey``). NULL in every row written before: such rows are refused until
``domino db seal`` MACs them, once. So that the seal can write an event's MAC, the events'
append-only trigger now lets one update through: a MAC set where there was none, every other
column as it was.

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None

EVENT_COLUMNS = ("match_id", "seq", "type", "data", "client_event_id", "recorded_at",
                 "recorded_by", "token_id", "digest")
_SEALING = " AND ".join(["OLD.mac IS NULL", "NEW.mac IS NOT NULL"]
                        + [f"NEW.{c} IS OLD.{c}" for c in EVENT_COLUMNS])
_PG_SEALING = ("OLD.mac IS NULL AND NEW.mac IS NOT NULL AND "
               + " AND ".join(f"NEW.{c} IS NOT DISTINCT FROM OLD.{c}" for c in EVENT_COLUMNS))


def upgrade() -> None:
    op.add_column("events", sa.Column("mac", sa.String(64), nullable=True))
    op.add_column("matches", sa.Column("mac", sa.String(64), nullable=True))
    op.add_column("matches", sa.Column("head_mac", sa.String(64), nullable=True))
    if op.get_bind().dialect.name == "postgresql":
        op.execute("CREATE OR REPLACE FUNCTION domino_events_append_only() RETURNS trigger "
                   "LANGUAGE plpgsql AS $$ BEGIN "
                   f"IF TG_OP = 'UPDATE' AND {_PG_SEALING} THEN RETURN NEW; END IF; "
                   "RAISE EXCEPTION 'events are append-only: % refused', TG_OP; END $$")
    else:
        op.execute("DROP TRIGGER events_no_update")
        op.execute(f"CREATE TRIGGER events_no_update BEFORE UPDATE ON events WHEN NOT "
                   f"({_SEALING}) BEGIN SELECT RAISE(ABORT, 'events are append-only'); END")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("CREATE OR REPLACE FUNCTION domino_events_append_only() RETURNS trigger "
                   "LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION "
                   "'events are append-only: % refused', TG_OP; END $$")
        op.drop_column("events", "mac")
        op.drop_column("matches", "mac")
        op.drop_column("matches", "head_mac")
    else:
        op.execute("DROP TRIGGER events_no_update")
        op.execute("CREATE TRIGGER events_no_update BEFORE UPDATE ON events "
                   "BEGIN SELECT RAISE(ABORT, 'events are append-only'); END")
        # SQLite 3.35+ drops a column in place (a batch rebuild would lose the triggers).
        op.execute("ALTER TABLE events DROP COLUMN mac")
        op.execute("ALTER TABLE matches DROP COLUMN mac")
        op.execute("ALTER TABLE matches DROP COLUMN head_mac")
