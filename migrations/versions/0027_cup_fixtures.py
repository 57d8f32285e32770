"""A team cup's tie played as a fixture (docs/leagues.md, "Cups"): ``league_fixtures`` gains
``cup_id`` (the cup whose tie the fixture is; NULL for a league fixture) and ``cup_tie`` (the
tie's code, as ``league_cup_matches.tie``). Two teams of one division may then meet in the cup
as well as twice in the league, so the unique constraint over (season, home, away) becomes a
partial unique index over the league's fixtures only (``cup_id IS NULL``), and a cup's tie has
one fixture (a partial unique index over (cup_id, cup_tie) where ``cup_id`` is set). Both
databases keep partial indexes (0019's squads have one).

On SQLite dropping a constraint rebuilds the table (batch mode: copy, drop, rename), which the
other tables' foreign keys to it refuse while they are on: this revision says so
(``sqlite_foreign_keys_off``) and ``migrations.runner`` runs it with them off, checked by
``PRAGMA foreign_key_check`` before the commit. Existing fixtures are league fixtures (both
columns NULL). Going down is refused while any fixture is a cup's tie (the old constraint
could not hold a cup's meeting beside the league's), with nothing changed.

Revision ID: 0027
Revises: 0026
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0027"
down_revision = "0026"
branch_labels = None
depends_on = None

sqlite_foreign_keys_off = True  # migrations.runner.PAUSES_FOREIGN_KEYS

OLD_UNIQUE = "uq_league_fixtures_season_id_home_id_away_id"
LEAGUE_ONLY = sa.text("cup_id IS NULL")
CUPS_ONLY = sa.text("cup_id IS NOT NULL")


def upgrade() -> None:
    with op.batch_alter_table("league_fixtures") as batch:
        batch.drop_constraint(OLD_UNIQUE, type_="unique")
        batch.add_column(sa.Column("cup_id", sa.Integer, nullable=True))
        batch.add_column(sa.Column("cup_tie", sa.String(8), nullable=True))
        batch.create_foreign_key("fk_league_fixtures_cup_id_league_cups", "league_cups",
                                 ["cup_id"], ["id"])
    op.create_index("ix_league_fixtures_league", "league_fixtures",
                    ["season_id", "home_id", "away_id"], unique=True,
                    sqlite_where=LEAGUE_ONLY, postgresql_where=LEAGUE_ONLY)
    op.create_index("ix_league_fixtures_cup_tie", "league_fixtures", ["cup_id", "cup_tie"],
                    unique=True, sqlite_where=CUPS_ONLY, postgresql_where=CUPS_ONLY)


def downgrade() -> None:
    cups = op.get_bind().execute(sa.text(
        "SELECT count(*) FROM league_fixtures WHERE cup_id IS NOT NULL")).scalar_one()
    if cups:
        raise RuntimeError(f"{cups} fixtures are cups' ties: the league's unique constraint "
                           "over season, home and away could not hold them; nothing changed")
    op.drop_index("ix_league_fixtures_cup_tie", "league_fixtures")
    op.drop_index("ix_league_fixtures_league", "league_fixtures")
    with op.batch_alter_table("league_fixtures") as batch:
        batch.drop_constraint("fk_league_fixtures_cup_id_league_cups", type_="foreignkey")
        batch.drop_column("cup_tie")
        batch.drop_column("cup_id")
        batch.create_unique_constraint(OLD_UNIQUE, ["season_id", "home_id", "away_id"])
