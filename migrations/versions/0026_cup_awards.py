"""Cup ties decided without a match (docs/leagues.md, "Cups"): ``league_cup_awards``, a tie
conceded by an entrant or awarded as a walkover, with the side that conceded or did not turn
up, the entrants the tie was between then, the reason, who and when, and its row MAC
(docs/verify.md). Only ever inserted; a ruling that changes who plays the tie leaves the row,
which then counts for nothing.

The table starts empty; nothing existing changes.

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0026"
down_revision = "0025"
branch_labels = None
depends_on = None

Timestamp = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "league_cup_awards",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("cup_id", sa.Integer, nullable=False),
        sa.Column("tie", sa.String(8), nullable=False),
        sa.Column("kind", sa.String(12), nullable=False),
        sa.Column("home", sa.String(64), nullable=False),
        sa.Column("away", sa.String(64), nullable=False),
        sa.Column("conceded_by", sa.String(8), nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("recorded_at", Timestamp, nullable=False),
        sa.Column("recorded_by", sa.String(200), nullable=True),
        sa.Column("token_id", sa.Integer, nullable=True),
        sa.Column("mac", sa.String(64), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_league_cup_awards"),
        sa.ForeignKeyConstraint(["cup_id"], ["league_cups.id"],
                                name="fk_league_cup_awards_cup_id_league_cups"),
        sa.CheckConstraint("kind IN ('conceded', 'walkover')", name="ck_league_cup_awards_kind"),
        sa.CheckConstraint("conceded_by IN ('home', 'away')",
                           name="ck_league_cup_awards_conceded_by"),
    )
    op.create_index("ix_league_cup_awards_cup_id", "league_cup_awards", ["cup_id"])


def downgrade() -> None:
    op.drop_index("ix_league_cup_awards_cup_id", "league_cup_awards")
    op.drop_table("league_cup_awards")
