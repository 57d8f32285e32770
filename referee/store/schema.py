"""The tables, as SQLAlchemy Core metadata.

This is a description, not DDL: the tables are created only by the alembic revisions in
``migrations/``, and ``tests/test_migrations.py`` holds the two to each other (autogenerate finds
no difference on SQLite or PostgreSQL).

The ``events`` table is the record; everything in ``matches`` except the header and the seating
is a projection of it, rewritten in the same transaction as each append and recomputable at any
time (``Service.rebuild``).
"""

from __future__ import annotations

from sqlalchemy import (
    JSON, CheckConstraint, Column, DateTime, ForeignKey, Index, Integer, MetaData,
    PrimaryKeyConstraint, String, Table, Text, UniqueConstraint,
)
from sqlalchemy.dialects.postgresql import JSONB

# Deterministic constraint names, so that migrations can name what they drop on both databases.
NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
metadata = MetaData(naming_convention=NAMING)

# Only for values the service has validated (resolved rules, totals, player names): JSONB refuses
# a NUL character, so free text written by clients (event bodies, log headers) is kept as TEXT
# holding the exact JSON the store serialised.
Json = JSON().with_variant(JSONB(), "postgresql")
Timestamp = DateTime(timezone=True)

STATUSES = ("in_progress", "finished")
ROLES = ("admin", "referee", "scorekeeper", "viewer")
NAME_LENGTH = 200

clubs = Table(
    "clubs", metadata,
    Column("id", Integer, primary_key=True),
    Column("slug", String(64), nullable=False, unique=True),
    Column("name", String(NAME_LENGTH), nullable=False),
    Column("created_at", Timestamp, nullable=False),
)

players = Table(
    "players", metadata,
    Column("id", Integer, primary_key=True),
    Column("club_id", Integer, ForeignKey("clubs.id"), nullable=False),
    Column("name", String(NAME_LENGTH), nullable=False),
    Column("created_at", Timestamp, nullable=False),
    UniqueConstraint("club_id", "name"),
)

matches = Table(
    "matches", metadata,
    Column("id", Integer, primary_key=True),
    Column("club_id", Integer, ForeignKey("clubs.id"), nullable=False),
    # The domino-log/1 header as written (TEXT: see Json above); export gives it back.
    Column("header", Text, nullable=False),
    # The header's date (YYYY-MM-DD), or the creation date: what date filters compare.
    Column("played_on", String(10), nullable=False),
    Column("rules", Json, nullable=False),  # every parameter, resolved
    Column("players", Json, nullable=False),  # names in seat order
    # The projection of the events.
    Column("status", String(16), nullable=False),
    Column("round", Integer, nullable=True),  # the current (last dealt) round's number
    Column("totals", Json, nullable=False),  # one per side
    Column("winner", Integer, nullable=True),  # a side
    Column("last_seq", Integer, nullable=False),
    Column("violations", Integer, nullable=False),  # open violations: disputed events
    # Bytes of the events' JSON (UTF-8), beside last_seq (their count): what the match limits
    # (referee.store.db.MatchLimits) are checked against as each append adds to it.
    Column("event_bytes", Integer, nullable=False, server_default="0"),
    Column("created_at", Timestamp, nullable=False),
    Column("updated_at", Timestamp, nullable=False),  # when the last event was recorded
    # The Idempotency-Key of the request that created it: a retried create finds the match.
    Column("client_key", String(NAME_LENGTH), nullable=True),
    CheckConstraint("status IN ('in_progress', 'finished')", name="status"),
    Index(None, "club_id", "status"),
    Index(None, "club_id", "played_on"),
    Index(None, "club_id", "client_key", unique=True),
)

# Who sits where: fixed when the match is created, so it is not a projection. Listings filter on
# it and standings join it.
match_players = Table(
    "match_players", metadata,
    Column("match_id", Integer, ForeignKey("matches.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("side", Integer, nullable=False),
    PrimaryKeyConstraint("match_id", "seat"),
    Index(None, "player_id"),
)

# The record. Rows are only ever inserted (triggers in the migration refuse UPDATE and DELETE).
# The primary key (match_id, seq) is what makes a lost race a conflict instead of a duplicate.
events = Table(
    "events", metadata,
    Column("match_id", Integer, ForeignKey("matches.id"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("type", String(16), nullable=True),  # null for a disputed event that has no known type
    Column("data", Text, nullable=False),  # the event's JSON, exactly as stored
    # Scoped to the match: a retry is a retry of one append to one match.
    Column("client_event_id", String(NAME_LENGTH), nullable=True),
    Column("recorded_at", Timestamp, nullable=False),
    Column("recorded_by", String(NAME_LENGTH), nullable=True),
    # The token that recorded it (None from the CLI): who may see the tiles it names.
    Column("token_id", Integer, nullable=True),
    PrimaryKeyConstraint("match_id", "seq"),
    UniqueConstraint("match_id", "client_event_id"),
)

tokens = Table(
    "tokens", metadata,
    Column("id", Integer, primary_key=True),
    Column("club_id", Integer, ForeignKey("clubs.id"), nullable=False),
    Column("role", String(16), nullable=False),
    Column("label", String(NAME_LENGTH), nullable=True),
    Column("hash", String(64), nullable=False, unique=True),  # sha256 of the token, hex
    Column("created_at", Timestamp, nullable=False),
    Column("last_used_at", Timestamp, nullable=True),
    Column("revoked_at", Timestamp, nullable=True),  # a revoked token stops working
    CheckConstraint("role IN ('admin', 'referee', 'scorekeeper', 'viewer')", name="role"),
)
