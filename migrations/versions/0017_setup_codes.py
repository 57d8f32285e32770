"""Setup codes: the one-time link ``domino serve`` prints on a database with no club, which
creates the first club from a browser (docs/desk.md, "The first club"). They are kept with the
sign-in codes of 0012: ``signin_codes.purpose`` says which a code is (``signin``, every code
before this revision; ``setup``), and ``token_id`` may be NULL, for a setup code stands for no
token (the club and its token do not exist yet). Nothing else changes.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("signin_codes") as batch:  # SQLite: the NULL takes the batch
        batch.add_column(sa.Column("purpose", sa.String(16), nullable=False,
                                   server_default="signin"))
        batch.alter_column("token_id", existing_type=sa.Integer, nullable=True)
        batch.create_check_constraint("ck_signin_codes_purpose",
                                      "purpose IN ('signin', 'setup')")


def downgrade() -> None:
    op.execute("DELETE FROM signin_codes WHERE purpose = 'setup'")  # no token: no place below
    with op.batch_alter_table("signin_codes") as batch:
        batch.drop_constraint("ck_signin_codes_purpose", type_="check")
        batch.alter_column("token_id", existing_type=sa.Integer, nullable=False)
        batch.drop_column("purpose")
