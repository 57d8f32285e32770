"""Tournaments: an event of a club played in rounds (``tournaments``), who is paired in it
(``tournament_entrants``: players, or fixed partnerships), each round as it was paired
(``tournament_rounds``, with the pairing engine's explanation) and the link of a match to its
tournament, round and table (``tournament_matches``). docs/tournaments.md tells the story.

The tables start empty; nothing existing changes.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

Json = sa.JSON().with_variant(JSONB(), "postgresql")
Timestamp = sa.DateTime(timezone=True)


def _fk(table: str, column: str, target: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint([column], [f"{target}.id"],
                                   name=f"fk_{table}_{column}_{target}")


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("club_id", sa.Integer, nullable=False),
        sa.Column("slug", sa.String(64), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("starts_on", sa.String(10), nullable=True),
        sa.Column("ends_on", sa.String(10), nullable=True),
        sa.Column("rules", Json, nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("bye_won", sa.Boolean, nullable=False),
        sa.Column("bye_points", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", Timestamp, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_tournaments"),
        _fk("tournaments", "club_id", "clubs"),
        sa.UniqueConstraint("club_id", "slug", name="uq_tournaments_club_id_slug"),
        sa.CheckConstraint("format IN ('pairs', 'rotating', 'round_robin')",
                           name="ck_tournaments_format"),
        sa.CheckConstraint("status IN ('open', 'playing', 'finished')",
                           name="ck_tournaments_status"),
    )
    op.create_table(
        "tournament_entrants",
        sa.Column("tournament_id", sa.Integer, nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("player_id", sa.Integer, nullable=False),
        sa.Column("partner_id", sa.Integer, nullable=True),
        sa.Column("entered", sa.Integer, nullable=False),
        sa.Column("withdrawn", sa.Integer, nullable=True),
        sa.PrimaryKeyConstraint("tournament_id", "number", name="pk_tournament_entrants"),
        _fk("tournament_entrants", "tournament_id", "tournaments"),
        _fk("tournament_entrants", "player_id", "players"),
        _fk("tournament_entrants", "partner_id", "players"),
    )
    op.create_table(
        "tournament_rounds",
        sa.Column("tournament_id", sa.Integer, nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("pairing", Json, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("paired_at", Timestamp, nullable=False),
        sa.PrimaryKeyConstraint("tournament_id", "number", name="pk_tournament_rounds"),
        _fk("tournament_rounds", "tournament_id", "tournaments"),
        sa.CheckConstraint("status IN ('paired', 'started', 'finished')",
                           name="ck_tournament_rounds_status"),
    )
    op.create_table(
        "tournament_matches",
        sa.Column("match_id", sa.Integer, nullable=False, autoincrement=False),
        sa.Column("tournament_id", sa.Integer, nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("table_number", sa.Integer, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("retired", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.PrimaryKeyConstraint("match_id", name="pk_tournament_matches"),
        _fk("tournament_matches", "match_id", "matches"),
        _fk("tournament_matches", "tournament_id", "tournaments"),
    )
    op.create_index("ix_tournament_matches_tournament_id_round", "tournament_matches",
                    ["tournament_id", "round"])


def downgrade() -> None:
    op.drop_index("ix_tournament_matches_tournament_id_round", "tournament_matches")
    for table in ("tournament_matches", "tournament_rounds", "tournament_entrants", "tournaments"):
        op.drop_table(table)
