"""A club's time zone: ``clubs.timezone``, an IANA name ("Europe/Madrid"), NULL at first: every
time shown to people (a token's last use, a clock, an acta's signature, the scoreboard) is
then said in UTC, as before. docs/readings.md, "A club's time zone".

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("clubs", sa.Column("timezone", sa.String(64), nullable=True))


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        # as 0005: a batch rebuild would drop and re-create a table the others refer to
        op.execute("ALTER TABLE clubs DROP COLUMN timezone")
    else:
        op.drop_column("clubs", "timezone")
