"""Cups kept in the store (docs/leagues.md, "Cups"): ``league_cups`` (a club's knockout, of a
season or of the club alone: its name, format, best of n a tie, its entrants' kind and the
entrants in pot order, and once drawn the recorded seed and the number seeded) and
``league_cup_matches`` (each match of a tie: the tie's id, the game's number, and which entrant
sat on each side). A tie's winner is read from its matches, as a leg's is, so a ruling on a
match changes the tie and the bracket at once; nothing else is kept.

The tables start empty; nothing existing changes.

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None

Json = sa.JSON().with_variant(JSONB(), "postgresql")
Timestamp = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "league_cups",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("club_id", sa.Integer, nullable=False),
        sa.Column("season_id", sa.Integer, nullable=True),
        sa.Column("slug", sa.String(64), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("format", sa.String(24), nullable=False),
        sa.Column("best_of", sa.Integer, nullable=False),
        sa.Column("entrant_kind", sa.String(8), nullable=False),
        sa.Column("rules", Json, nullable=False),
        sa.Column("entrants", Json, nullable=False),
        sa.Column("seed", sa.String(20), nullable=True),
        sa.Column("seeded", sa.Integer, nullable=True),
        sa.Column("drawn_at", Timestamp, nullable=True),
        sa.Column("created_at", Timestamp, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_league_cups"),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"], name="fk_league_cups_club_id_clubs"),
        sa.ForeignKeyConstraint(["season_id"], ["league_seasons.id"],
                                name="fk_league_cups_season_id_league_seasons"),
        sa.UniqueConstraint("club_id", "slug", name="uq_league_cups_club_id_slug"),
        sa.CheckConstraint("format IN ('single_elimination', 'double_elimination')",
                           name="ck_league_cups_format"),
        sa.CheckConstraint("entrant_kind IN ('teams', 'pairs', 'players')",
                           name="ck_league_cups_entrant_kind"),
    )
    op.create_table(
        "league_cup_matches",
        sa.Column("match_id", sa.Integer, nullable=False, autoincrement=False),
        sa.Column("cup_id", sa.Integer, nullable=False),
        sa.Column("tie", sa.String(8), nullable=False),
        sa.Column("game", sa.Integer, nullable=False),
        sa.Column("home", sa.String(64), nullable=False),
        sa.Column("away", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("match_id", name="pk_league_cup_matches"),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"],
                                name="fk_league_cup_matches_match_id_matches"),
        sa.ForeignKeyConstraint(["cup_id"], ["league_cups.id"],
                                name="fk_league_cup_matches_cup_id_league_cups"),
        sa.UniqueConstraint("cup_id", "tie", "game",
                            name="uq_league_cup_matches_cup_id_tie_game"),
    )


def downgrade() -> None:
    op.drop_table("league_cup_matches")
    op.drop_table("league_cups")
