"""Row MACs on the cups' rows (docs/verify.md, "Who can forge what"): ``league_cups.mac`` (the
club, season, slug, format, best of, kind, rules, the pot in order, the seed and the number
seeded: what the draw and so every tie is made from) and ``league_cup_matches.mac`` (which
match is which game of which tie, and who sat on each side), as 0022's: NULL in a row written
before, refused until ``domino db seal``.

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None

TABLES = ("league_cups", "league_cup_matches")


def upgrade() -> None:
    for table in TABLES:
        op.add_column(table, sa.Column("mac", sa.String(64), nullable=True))


def downgrade() -> None:
    for table in TABLES:
        with op.batch_alter_table(table) as batch:
            batch.drop_column("mac")
