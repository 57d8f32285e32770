"""Who issued a token: ``tokens.issued_by``, the id of the token that issued it over the API
(NULL for tokens issued with the CLI, by the server admin token, and every token issued before
this revision), indexed, so that a revoked admin's offspring are found in one query a
generation (``DELETE /api/v1/clubs/{club}/tokens/{id}?cascade=true``, ``domino token revoke
--with-issued``).

Revision ID: 0009
Revises: 0007
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tokens") as batch:  # SQLite: a foreign key needs the batch
        batch.add_column(sa.Column("issued_by", sa.Integer, nullable=True))
        batch.create_foreign_key("fk_tokens_issued_by_tokens", "tokens", ["issued_by"], ["id"])
        batch.create_index("ix_tokens_issued_by", ["issued_by"])


def downgrade() -> None:
    with op.batch_alter_table("tokens") as batch:
        batch.drop_index("ix_tokens_issued_by")
        batch.drop_constraint("fk_tokens_issued_by_tokens", type_="foreignkey")
        batch.drop_column("issued_by")
