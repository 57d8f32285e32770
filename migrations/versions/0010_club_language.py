"""A club's language: ``clubs.language``, the language its pages speak to someone who has not
picked one in the menu (their ``lang`` cookie), before their browser's ``Accept-Language``
(docs/i18n.md, "Which language"). NULL, the default: no setting, the browser's choice is taken.

Revision ID: 0010
Revises: 0007
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("clubs", sa.Column("language", sa.String(8), nullable=True))


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        # as 0005: a batch rebuild would drop and re-create a table the others refer to
        op.execute("ALTER TABLE clubs DROP COLUMN language")
    else:
        op.drop_column("clubs", "language")
