"""Where a club's standings put the players who played no counted match in the period or event:
``clubs.unranked``, "apart" (listed after the ranked players, without a rank) or "hidden" (not
listed). NULL, the default: "apart" (docs/standings.md).

Revision ID: 0013
Revises: 0011
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("clubs", sa.Column("unranked", sa.String(8), nullable=True))


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        # as 0005: a batch rebuild would drop and re-create a table the others refer to
        op.execute("ALTER TABLE clubs DROP COLUMN unranked")
    else:
        op.drop_column("clubs", "unranked")
