"""The tournament director's constraints (``tournament_constraints``): an entrant fixed at a
table number, two entrants kept apart (never at one table, or in rotating never partners), and
a requested bye for a round. docs/tournaments.md tells how each format honours them.

The table starts empty; nothing existing changes.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-10
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

Timestamp = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "tournament_constraints",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("tournament_id", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("entrant", sa.Integer, nullable=False),
        sa.Column("other", sa.Integer, nullable=True),
        sa.Column("table_number", sa.Integer, nullable=True),
        sa.Column("round", sa.Integer, nullable=True),
        sa.Column("scope", sa.String(16), nullable=True),
        sa.Column("note", sa.String(200), nullable=True),
        sa.Column("created_at", Timestamp, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_tournament_constraints"),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                name="fk_tournament_constraints_tournament_id_tournaments"),
        sa.CheckConstraint("kind IN ('fixed_table', 'forbidden', 'bye')",
                           name="ck_tournament_constraints_kind"),
    )
    op.create_index("ix_tournament_constraints_tournament_id", "tournament_constraints",
                    ["tournament_id"])


def downgrade() -> None:
    op.drop_index("ix_tournament_constraints_tournament_id", "tournament_constraints")
    op.drop_table("tournament_constraints")
