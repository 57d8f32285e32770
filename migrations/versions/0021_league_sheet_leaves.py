"""A league fixture's signed result sheet is a leaf of its club's transparency log, as a match's
acta is: ``acta_leaves.fixture_id`` names the fixture whose sheet the leaf holds (``seq`` is then
the sheet's number), and ``match_id`` is NULL for such a leaf; a leaf is of a match or of a
fixture, never both nor neither. Every leaf before this revision is a match's, as it was.

SQLite changes a column's NULL only by rebuilding the table: the rebuild drops the table's
append-only triggers with it, and they are made again at once.

Going down is refused while a club's log holds a sheet: a leaf cannot leave a tree without
breaking every head signed since.

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None

CHECK = "(match_id IS NULL) <> (fixture_id IS NULL)"


def _triggers(create: bool) -> None:
    """SQLite's append-only triggers of acta_leaves (0011's), made or dropped."""
    for action in ("UPDATE", "DELETE"):
        name = f"acta_leaves_no_{action.lower()}"
        op.execute(f"CREATE TRIGGER {name} BEFORE {action} ON acta_leaves "
                   f"BEGIN SELECT RAISE(ABORT, 'acta_leaves is append-only'); END" if create
                   else f"DROP TRIGGER IF EXISTS {name}")


def upgrade() -> None:
    sqlite = op.get_bind().dialect.name == "sqlite"
    if sqlite:
        _triggers(False)
    with op.batch_alter_table("acta_leaves") as batch:
        batch.add_column(sa.Column("fixture_id", sa.Integer, nullable=True))
        batch.alter_column("match_id", existing_type=sa.Integer, nullable=True)
        batch.create_foreign_key("fk_acta_leaves_fixture_id_league_fixtures",
                                 "league_fixtures", ["fixture_id"], ["id"])
        batch.create_check_constraint("ck_acta_leaves_one_record", CHECK)
    if sqlite:
        _triggers(True)


def downgrade() -> None:
    sheets = op.get_bind().execute(sa.text(
        "SELECT count(*) FROM acta_leaves WHERE fixture_id IS NOT NULL")).scalar_one()
    if sheets:
        raise RuntimeError(f"the clubs' logs hold {sheets} league result sheets: going below "
                           "0021 would take leaves out of signed trees")
    sqlite = op.get_bind().dialect.name == "sqlite"
    if sqlite:
        _triggers(False)
    with op.batch_alter_table("acta_leaves") as batch:
        batch.drop_constraint("ck_acta_leaves_one_record", type_="check")
        batch.drop_constraint("fk_acta_leaves_fixture_id_league_fixtures", type_="foreignkey")
        batch.alter_column("match_id", existing_type=sa.Integer, nullable=False)
        batch.drop_column("fixture_id")
    if sqlite:
        _triggers(True)
