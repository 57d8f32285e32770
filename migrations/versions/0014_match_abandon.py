"""A withdrawn match (``abandon``): ``matches.status`` may be ``abandoned``, and
``matches.created_by`` keeps the token that created the match (NULL: the CLI, an import by the
operator, or a match created before this revision), which may withdraw it besides the club's
referees (docs/api.md, "The record: events"; docs/rules.md, "A match abandoned").

The status CHECK only grows (every row already holds one of the values it allowed), so on
SQLite its text is rewritten in the schema in place, the procedure SQLite documents for a
change that leaves the stored rows as they are: rebuilding ``matches`` would drop a table the
events, the seating and the standings refer to.

Revision ID: 0014
Revises: 0011
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

NAME = "ck_matches_status"
BEFORE = "status IN ('in_progress', 'finished')"
AFTER = "status IN ('in_progress', 'finished', 'abandoned')"


def _sqlite_check(old: str, new: str) -> None:
    conn = op.get_bind()
    sql = conn.exec_driver_sql(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'matches'").scalar_one()
    if old not in sql:
        raise RuntimeError(f"matches' status check is not {old!r}: {sql}")
    version = conn.exec_driver_sql("PRAGMA schema_version").scalar_one()
    conn.exec_driver_sql("PRAGMA writable_schema = ON")
    conn.exec_driver_sql(
        "UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = 'matches'",
        (sql.replace(old, new),))
    # a new schema version makes every connection read the schema again
    conn.exec_driver_sql(f"PRAGMA schema_version = {int(version) + 1}")
    conn.exec_driver_sql("PRAGMA writable_schema = OFF")


def upgrade() -> None:
    op.add_column("matches", sa.Column("created_by", sa.Integer, nullable=True))
    if op.get_bind().dialect.name == "sqlite":
        _sqlite_check(BEFORE, AFTER)
    else:
        op.drop_constraint(op.f(NAME), "matches", type_="check")
        op.create_check_constraint(op.f(NAME), "matches", AFTER)


def downgrade() -> None:
    # an abandoned match cannot be told apart below 0014: it goes back to finished, as 0011
    # stored it
    op.execute("UPDATE matches SET status = 'finished' WHERE status = 'abandoned'")
    if op.get_bind().dialect.name == "sqlite":
        _sqlite_check(AFTER, BEFORE)
        op.execute("ALTER TABLE matches DROP COLUMN created_by")
    else:
        op.drop_constraint(op.f(NAME), "matches", type_="check")
        op.create_check_constraint(op.f(NAME), "matches", BEFORE)
        op.drop_column("matches", "created_by")
