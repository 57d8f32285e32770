"""Public clubs and their pages: ``clubs.public``, whether anyone may read the club's pages
(and their JSON twins) without a token. Every club starts private; an admin makes it public
(``PATCH /api/v1/clubs/{club}`` with ``{"public": true}``).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("clubs", sa.Column("public", sa.Boolean, nullable=False,
                                     server_default=sa.false()))


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        # A batch rebuild of clubs would drop and re-create a table the others refer to;
        # SQLite 3.35+ drops a column in place.
        op.execute("ALTER TABLE clubs DROP COLUMN public")
    else:
        op.drop_column("clubs", "public")
