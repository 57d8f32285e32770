"""Players: names normalised, renamed and merged, auditably.

``players.name_key`` is what names are matched by (NFC, white space trimmed and collapsed,
casefolded), unique in a club; ``players.merged_into`` makes a merged player an alias of the one
it was merged into; ``player_events`` records every rename and merge, append-only like
``events``.

Existing rows are backfilled, and their names kept exactly as they were (a migration edits
nobody's name). Two players of a club whose names have one key ("Ana" and "ana ") both stay: the
first registered (lowest id) gets the key, each later one the key with a suffix no typed name
can have, "\\t#<id>" (a normalised name holds no tab), so typed names find the first, and an
admin merges the two (or renames the later) through the usual audited commands.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import unicodedata

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

Json = sa.JSON().with_variant(JSONB(), "postgresql")
Timestamp = sa.DateTime(timezone=True)
KEY_LENGTH = 3 * 200 + 16


def name_key(name: str) -> str:
    """referee.service.checks.name_key(player_name(name)) as it was when this revision was
    written, without the refusals (an old name is kept whatever it holds)."""
    normalised = " ".join(unicodedata.normalize("NFC", name).split())
    return unicodedata.normalize("NFC", normalised.casefold())


def upgrade() -> None:
    sqlite = op.get_bind().dialect.name == "sqlite"
    # SQLite adds a NOT NULL column only with a default (it then keeps the harmless DEFAULT '':
    # every insert names the key); PostgreSQL gets it nullable, backfilled, then NOT NULL.
    op.add_column("players", sa.Column("name_key", sa.String(KEY_LENGTH), nullable=not sqlite,
                                       server_default="" if sqlite else None))
    op.add_column("players", sa.Column("merged_into", sa.Integer, nullable=True))
    _backfill_keys()
    if not sqlite:
        op.alter_column("players", "name_key", nullable=False)
    op.create_index("ix_players_club_id_name_key", "players", ["club_id", "name_key"],
                    unique=True)
    op.create_table(
        "player_events",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("club_id", sa.Integer, nullable=False),
        sa.Column("player_id", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("old_name", sa.String(200), nullable=False),
        sa.Column("new_name", sa.String(200), nullable=False),
        sa.Column("into_id", sa.Integer, nullable=True),
        sa.Column("moved", Json, nullable=True),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("recorded_at", Timestamp, nullable=False),
        sa.Column("recorded_by", sa.String(200), nullable=True),
        sa.Column("token_id", sa.Integer, nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_player_events"),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"], name="fk_player_events_club_id_clubs"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name="fk_player_events_player_id_players"),
        sa.ForeignKeyConstraint(["into_id"], ["players.id"],
                                name="fk_player_events_into_id_players"),
        sa.CheckConstraint("kind IN ('rename', 'merge')", name=op.f("ck_player_events_kind")),
    )
    op.create_index("ix_player_events_player_id", "player_events", ["player_id"])
    op.create_index("ix_player_events_into_id", "player_events", ["into_id"])
    _forbid_changes()


def _backfill_keys() -> None:
    players = sa.table("players", sa.column("id", sa.Integer), sa.column("club_id", sa.Integer),
                       sa.column("name", sa.String), sa.column("name_key", sa.String))
    bind = op.get_bind()
    taken: set[tuple[int, str]] = set()
    rows = []
    for id_, club_id, name in bind.execute(
            sa.select(players.c.id, players.c.club_id, players.c.name).order_by(players.c.id)):
        key = name_key(name)
        if (club_id, key) in taken:
            key = f"{key}\t#{id_}"  # a later player of the same key: see the docstring
        taken.add((club_id, key))
        rows.append({"pid": id_, "key": key})
    if rows:
        bind.execute(players.update().where(players.c.id == sa.bindparam("pid"))
                     .values(name_key=sa.bindparam("key")), rows)


def _forbid_changes() -> None:
    """The audit is append-only: the database itself refuses to update or delete a row."""
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "CREATE FUNCTION domino_player_events_append_only() RETURNS trigger LANGUAGE plpgsql "
            "AS $$ BEGIN RAISE EXCEPTION 'player_events are append-only: % refused', TG_OP; "
            "END $$"
        )
        op.execute(
            "CREATE TRIGGER player_events_append_only BEFORE UPDATE OR DELETE ON player_events "
            "FOR EACH ROW EXECUTE FUNCTION domino_player_events_append_only()"
        )
    else:
        for action in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER player_events_no_{action.lower()} BEFORE {action} "
                "ON player_events BEGIN SELECT RAISE(ABORT, 'player_events are append-only'); END"
            )


def downgrade() -> None:
    # Dropping the table drops its triggers (PostgreSQL's function goes after it). The columns
    # go in place on SQLite (3.35+: no foreign key names them, the index goes first), which
    # keeps match_players' foreign keys to players intact.
    op.drop_index("ix_player_events_into_id", table_name="player_events")
    op.drop_index("ix_player_events_player_id", table_name="player_events")
    op.drop_table("player_events")
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION domino_player_events_append_only()")
    op.drop_index("ix_players_club_id_name_key", table_name="players")
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE players DROP COLUMN merged_into")
        op.execute("ALTER TABLE players DROP COLUMN name_key")
    else:
        op.drop_column("players", "merged_into")
        op.drop_column("players", "name_key")
