"""The initial tables: clubs, players, matches and their projections, events, tokens.

Revision ID: 0001
Revises:
Create Date: 2024-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

Json = sa.JSON().with_variant(JSONB(), "postgresql")
Timestamp = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "clubs",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("slug", sa.String(64), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("created_at", Timestamp, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_clubs"),
        sa.UniqueConstraint("slug", name="uq_clubs_slug"),
    )
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("club_id", sa.Integer, nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("created_at", Timestamp, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_players"),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"], name="fk_players_club_id_clubs"),
        sa.UniqueConstraint("club_id", "name", name="uq_players_club_id_name"),
    )
    op.create_table(
        "matches",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("club_id", sa.Integer, nullable=False),
        sa.Column("header", sa.Text, nullable=False),
        sa.Column("played_on", sa.String(10), nullable=False),
        sa.Column("rules", Json, nullable=False),
        sa.Column("players", Json, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer, nullable=True),
        sa.Column("totals", Json, nullable=False),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("last_seq", sa.Integer, nullable=False),
        sa.Column("violations", sa.Integer, nullable=False),
        sa.Column("created_at", Timestamp, nullable=False),
        sa.Column("updated_at", Timestamp, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_matches"),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"], name="fk_matches_club_id_clubs"),
        sa.CheckConstraint("status IN ('in_progress', 'finished')",
                           name=op.f("ck_matches_status")),
    )
    op.create_index("ix_matches_club_id_status", "matches", ["club_id", "status"])
    op.create_index("ix_matches_club_id_played_on", "matches", ["club_id", "played_on"])
    op.create_table(
        "match_players",
        sa.Column("match_id", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("player_id", sa.Integer, nullable=False),
        sa.Column("side", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("match_id", "seat", name="pk_match_players"),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"],
                                name="fk_match_players_match_id_matches"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name="fk_match_players_player_id_players"),
    )
    op.create_index("ix_match_players_player_id", "match_players", ["player_id"])
    op.create_table(
        "events",
        sa.Column("match_id", sa.Integer, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("type", sa.String(16), nullable=True),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("client_event_id", sa.String(200), nullable=True),
        sa.Column("recorded_at", Timestamp, nullable=False),
        sa.Column("recorded_by", sa.String(200), nullable=True),
        sa.PrimaryKeyConstraint("match_id", "seq", name="pk_events"),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_events_match_id_matches"),
        sa.UniqueConstraint("match_id", "client_event_id",
                            name="uq_events_match_id_client_event_id"),
    )
    op.create_table(
        "tokens",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("club_id", sa.Integer, nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("label", sa.String(200), nullable=True),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.Column("created_at", Timestamp, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_tokens"),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"], name="fk_tokens_club_id_clubs"),
        sa.UniqueConstraint("hash", name="uq_tokens_hash"),
        sa.CheckConstraint("role IN ('admin', 'referee', 'scorekeeper', 'viewer')",
                           name=op.f("ck_tokens_role")),
    )
    _forbid_event_changes()


def _forbid_event_changes() -> None:
    """The record is append-only: the database itself refuses to update or delete an event."""
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "CREATE FUNCTION domino_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ "
            "BEGIN RAISE EXCEPTION 'events are append-only: % refused', TG_OP; END $$"
        )
        op.execute(
            "CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events "
            "FOR EACH ROW EXECUTE FUNCTION domino_events_append_only()"
        )
    else:
        for action in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER events_no_{action.lower()} BEFORE {action} ON events "
                "BEGIN SELECT RAISE(ABORT, 'events are append-only'); END"
            )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER events_append_only ON events")
        op.execute("DROP FUNCTION domino_events_append_only()")
    else:
        op.execute("DROP TRIGGER events_no_update")
        op.execute("DROP TRIGGER events_no_delete")
    op.drop_table("tokens")
    op.drop_table("events")
    op.drop_index("ix_match_players_player_id", table_name="match_players")
    op.drop_table("match_players")
    op.drop_index("ix_matches_club_id_played_on", table_name="matches")
    op.drop_index("ix_matches_club_id_status", table_name="matches")
    op.drop_table("matches")
    op.drop_table("players")
    op.drop_table("clubs")
