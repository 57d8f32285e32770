"""Row MACs, the rest (docs/verify.md, "Who can forge what"): ``clubs.mac`` (the settings that
change a result), ``players.mac``, ``match_players.mac`` (the seats) and ``player_events.mac``
(renames and merges), as 0020's: NULL in every row written before, refused until ``domino db
seal``. The player_events' append-only trigger lets one update through, as 0020 made the
events': a MAC set where there was none, every other column as it was (the service sets it right
after the insert, since it covers the id the database gives).

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None

TABLES = ("clubs", "players", "match_players", "player_events")
EVENT_COLUMNS = ("id", "club_id", "player_id", "kind", "old_name", "new_name", "into_id", "moved",
                 "reason", "recorded_at", "recorded_by", "token_id")
_SEALING = " AND ".join(["OLD.mac IS NULL", "NEW.mac IS NOT NULL"]
                        + [f"NEW.{c} IS OLD.{c}" for c in EVENT_COLUMNS])
# jsonb compares as a value; IS NOT DISTINCT FROM for the rest
_PG_SEALING = ("OLD.mac IS NULL AND NEW.mac IS NOT NULL AND "
               + " AND ".join(f"NEW.{c} IS NOT DISTINCT FROM OLD.{c}" for c in EVENT_COLUMNS))


def upgrade() -> None:
    for table in TABLES:
        op.add_column(table, sa.Column("mac", sa.String(64), nullable=True))
    if op.get_bind().dialect.name == "postgresql":
        op.execute("CREATE OR REPLACE FUNCTION domino_player_events_append_only() RETURNS "
                   "trigger LANGUAGE plpgsql AS $$ BEGIN "
                   f"IF TG_OP = 'UPDATE' AND {_PG_SEALING} THEN RETURN NEW; END IF; "
                   "RAISE EXCEPTION 'player_events are append-only: % refused', TG_OP; END $$")
    else:
        op.execute("DROP TRIGGER player_events_no_update")
        op.execute(f"CREATE TRIGGER player_events_no_update BEFORE UPDATE ON player_events "
                   f"WHEN NOT ({_SEALING}) BEGIN SELECT RAISE(ABORT, "
                   f"'player_events are append-only'); END")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("CREATE OR REPLACE FUNCTION domino_player_events_append_only() RETURNS "
                   "trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION "
                   "'player_events are append-only: % refused', TG_OP; END $$")
        for table in TABLES:
            op.drop_column(table, "mac")
    else:
        op.execute("DROP TRIGGER player_events_no_update")
        op.execute("CREATE TRIGGER player_events_no_update BEFORE UPDATE ON player_events "
                   "BEGIN SELECT RAISE(ABORT, 'player_events are append-only'); END")
        for table in TABLES:  # in place (SQLite 3.35+): a batch rebuild would lose the triggers
            op.execute(f"ALTER TABLE {table} DROP COLUMN mac")
