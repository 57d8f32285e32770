"""One-time sign-in codes: ``signin_codes`` (a code's sha256, its token, when it expires and
when it was used), for the desk's QR codes that sign a phone in (docs/desk.md). Nothing else
changes.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

Timestamp = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "signin_codes",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("token_id", sa.Integer, nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.Column("expires_at", Timestamp, nullable=False),
        sa.Column("used_at", Timestamp, nullable=True),
        sa.ForeignKeyConstraint(["token_id"], ["tokens.id"],
                                name="fk_signin_codes_token_id_tokens"),
        sa.PrimaryKeyConstraint("id", name="pk_signin_codes"),
        sa.UniqueConstraint("hash", name="uq_signin_codes_hash"),
    )
    op.create_index("ix_signin_codes_token_id", "signin_codes", ["token_id"])


def downgrade() -> None:
    op.drop_index("ix_signin_codes_token_id", table_name="signin_codes")
    op.drop_table("signin_codes")
