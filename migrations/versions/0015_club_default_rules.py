"""A club's default rules for a new match: ``clubs.default_rules`` (a preset's name) and
``clubs.default_target`` (points), both NULL at first: no preset preselected, the preset's own
target. They are what the phone's start form preselects (docs/desk.md); what a match created
without rules means is unchanged.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

COLUMNS = ("default_rules", "default_target")


def upgrade() -> None:
    op.add_column("clubs", sa.Column("default_rules", sa.String(32), nullable=True))
    op.add_column("clubs", sa.Column("default_target", sa.Integer, nullable=True))


def downgrade() -> None:
    for column in reversed(COLUMNS):
        if op.get_bind().dialect.name == "sqlite":
            # as 0005: a batch rebuild would drop and re-create a table the others refer to
            op.execute(f"ALTER TABLE clubs DROP COLUMN {column}")
        else:
            op.drop_column("clubs", column)
