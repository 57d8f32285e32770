"""Each league leg's result kept as a row (``league_leg_results``), the projection the division
tables, the team pages and the averages read: the winners of the leg's finished games, the
players each team fielded (its first game's), and its concession. It is written in the same
transaction as whatever changes the leg (a game tagged, an append or ruling on a game's match,
a concession, a players merge, a rebuild), from the leg's games, seats and concession, and
``domino db audit`` computes it again from them. The upgrade fills it for the fixtures stored.

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from referee.store.leagues import project_legs

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "league_leg_results",
        sa.Column("fixture_id", sa.Integer, sa.ForeignKey("league_fixtures.id"),
                  nullable=False),
        sa.Column("leg", sa.Integer, nullable=False),
        sa.Column("season_id", sa.Integer, sa.ForeignKey("league_seasons.id"), nullable=False),
        sa.Column("division_id", sa.Integer, sa.ForeignKey("league_divisions.id"),
                  nullable=False),
        sa.Column("games", sa.Text, nullable=False),
        sa.Column("home", sa.Text, nullable=False),
        sa.Column("away", sa.Text, nullable=False),
        sa.Column("conceded_by", sa.String(8), nullable=True),
        sa.Column("reason", sa.Text, nullable=True),
        sa.PrimaryKeyConstraint("fixture_id", "leg"),
    )
    op.create_index("ix_league_leg_results_division_id", "league_leg_results", ["division_id"])
    op.create_index("ix_league_leg_results_season_id", "league_leg_results", ["season_id"])
    project_legs(op.get_bind(), cups=False)  # no fixture is a cup's tie before 0027


def downgrade() -> None:
    op.drop_table("league_leg_results")
