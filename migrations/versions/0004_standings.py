"""Standings and ratings as projections: a row per seat of each finished match
(standing_rows) and their sums per player and month (standing_months), each player's rating
after each match (player_ratings) and now (current_ratings), and a club's tie-breakers
(clubs.tie_breakers).

The new tables start empty: ``domino db upgrade`` (and ``domino serve``) then fill the rows
and ratings of finished matches that have none (``migrations.runner.upgrade(then=...)`` with
``referee.service.maintenance.fill_standings``, in the upgrade's transaction); ``domino db
rebuild`` recomputes every projection from the events (docs/standings.md).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

Json = sa.JSON().with_variant(JSONB(), "postgresql")
Timestamp = sa.DateTime(timezone=True)


def _fk(table: str, column: str, target: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint([column], [f"{target}.id"],
                                   name=f"fk_{table}_{column}_{target}")


def upgrade() -> None:
    op.add_column("clubs", sa.Column("tie_breakers", Json, nullable=True))
    op.create_table(
        "standing_rows",
        sa.Column("match_id", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("club_id", sa.Integer, nullable=False),
        sa.Column("player_id", sa.Integer, nullable=False),
        sa.Column("partner_id", sa.Integer, nullable=True),
        sa.Column("side", sa.Integer, nullable=False),
        sa.Column("played_on", sa.String(10), nullable=False),
        sa.Column("event", sa.Text, nullable=True),
        sa.Column("won", sa.Integer, nullable=False),
        sa.Column("lost", sa.Integer, nullable=False),
        sa.Column("rounds_won", sa.Integer, nullable=False),
        sa.Column("points_for", sa.Integer, nullable=False),
        sa.Column("points_against", sa.Integer, nullable=False),
        sa.Column("flagged", sa.Integer, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("finish_seq", sa.Integer, nullable=False),
        sa.Column("finished_at", Timestamp, nullable=False),
        sa.PrimaryKeyConstraint("match_id", "seat", name="pk_standing_rows"),
        _fk("standing_rows", "match_id", "matches"),
        _fk("standing_rows", "club_id", "clubs"),
        _fk("standing_rows", "player_id", "players"),
        _fk("standing_rows", "partner_id", "players"),
    )
    op.create_index("ix_standing_rows_club_id_finish_seq", "standing_rows",
                    ["club_id", "finish_seq"])
    op.create_index("ix_standing_rows_covering", "standing_rows",
                    ["club_id", "player_id", "partner_id", "played_on", "event", "won", "lost",
                     "rounds_won", "points_for", "points_against", "flagged"])
    op.create_index("ix_standing_rows_by_day", "standing_rows",
                    ["club_id", "played_on", "player_id", "partner_id", "event", "won", "lost",
                     "rounds_won", "points_for", "points_against", "flagged"])
    op.create_table(
        "standing_months",
        sa.Column("club_id", sa.Integer, nullable=False),
        sa.Column("player_id", sa.Integer, nullable=False),
        sa.Column("partner_id", sa.Integer, nullable=False),
        sa.Column("month", sa.String(7), nullable=False),
        sa.Column("event", sa.Text, nullable=False),
        *(sa.Column(name, sa.Integer, nullable=False) for name in
          ("played", "won", "lost", "rounds_won", "points_for", "points_against", "flagged")),
        sa.PrimaryKeyConstraint("club_id", "player_id", "partner_id", "month", "event",
                                name="pk_standing_months"),
        _fk("standing_months", "club_id", "clubs"),
        _fk("standing_months", "player_id", "players"),
    )
    op.create_table(
        "player_ratings",
        sa.Column("player_id", sa.Integer, nullable=False),
        sa.Column("match_id", sa.Integer, nullable=False),
        sa.Column("club_id", sa.Integer, nullable=False),
        sa.Column("finish_seq", sa.Integer, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("player_id", "match_id", name="pk_player_ratings"),
        _fk("player_ratings", "player_id", "players"),
        _fk("player_ratings", "match_id", "matches"),
        _fk("player_ratings", "club_id", "clubs"),
    )
    op.create_index("ix_player_ratings_player_id_finish_seq", "player_ratings",
                    ["player_id", "finish_seq"])
    op.create_index("ix_player_ratings_club_id_finish_seq", "player_ratings",
                    ["club_id", "finish_seq"])
    op.create_table(
        "current_ratings",
        sa.Column("player_id", sa.Integer, nullable=False, autoincrement=False),
        sa.Column("club_id", sa.Integer, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("finish_seq", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("player_id", name="pk_current_ratings"),
        _fk("current_ratings", "player_id", "players"),
        _fk("current_ratings", "club_id", "clubs"),
    )
    op.create_index("ix_current_ratings_club_id", "current_ratings", ["club_id"])


def downgrade() -> None:
    op.drop_index("ix_current_ratings_club_id", table_name="current_ratings")
    op.drop_table("current_ratings")
    op.drop_index("ix_player_ratings_club_id_finish_seq", table_name="player_ratings")
    op.drop_index("ix_player_ratings_player_id_finish_seq", table_name="player_ratings")
    op.drop_table("player_ratings")
    op.drop_table("standing_months")
    op.drop_index("ix_standing_rows_covering", table_name="standing_rows")
    op.drop_index("ix_standing_rows_club_id_finish_seq", table_name="standing_rows")
    op.drop_index("ix_standing_rows_by_day", table_name="standing_rows")
    op.drop_table("standing_rows")
    if op.get_bind().dialect.name == "sqlite":
        # A batch rebuild of clubs would drop and re-create a table the others refer to;
        # SQLite 3.35+ drops a column in place.
        op.execute("ALTER TABLE clubs DROP COLUMN tie_breakers")
    else:
        op.drop_column("clubs", "tie_breakers")
