"""A tournament's rounds, their matches and its director's constraints (referee.store.tournaments):
tables built when first named.

referee.store.schema imports this module the first time one of its tables is asked for
(``from .schema import tournament_rounds`` too), so that a command whose store modules name none of
them builds none (bench/cli_bench.py); ``schema.metadata`` is every table, these included.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    ForeignKey,
    Index,
    Integer,
    PrimaryKeyConstraint,
    String,
    Table,
    false,
)

from ..core.vocab import (
    CONSTRAINT_KINDS,
    NAME_LENGTH,
    ROUND_STATUSES,
)
from .schema import (
    Json,
    Timestamp,
    one_of,
    tables_so_far,
)

# A round as it was paired: the engine's Pairing.as_json (tables with their reasons, byes,
# what was relaxed). ``version`` counts the pairings (1, then one more for each re-pairing).
# ``status`` is what was last written (paired; finished once the next round is paired): the
# service reads a round's live status from its matches (started: one has an event).
tournament_rounds = Table(
    "tournament_rounds", tables_so_far,
    Column("tournament_id", Integer, ForeignKey("tournaments.id"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("status", String(16), nullable=False),
    Column("pairing", Json, nullable=False),
    Column("version", Integer, nullable=False),
    Column("paired_at", Timestamp, nullable=False),
    PrimaryKeyConstraint("tournament_id", "number"),
    one_of("status", ROUND_STATUSES),
)

# A tournament's match: its round, table and the pairing (version) it was made for. A re-paired
# round's old matches (which had no event) stay, retired: nothing recorded is ever deleted.
tournament_matches = Table(
    "tournament_matches", tables_so_far,
    Column("match_id", Integer, ForeignKey("matches.id"), primary_key=True, autoincrement=False),
    Column("tournament_id", Integer, ForeignKey("tournaments.id"), nullable=False),
    Column("round", Integer, nullable=False),
    Column("table_number", Integer, nullable=False),
    Column("version", Integer, nullable=False),
    Column("retired", Boolean, nullable=False, server_default=false()),
    Index(None, "tournament_id", "round"),
)

# The tournament director's constraints (migration 0008, docs/tournaments.md): an entrant
# fixed at a table number, two entrants kept apart (scope "table"; in rotating, "partners":
# never partners), a requested bye for a round. Entrants are their numbers in the tournament.
tournament_constraints = Table(
    "tournament_constraints", tables_so_far,
    Column("id", Integer, primary_key=True),
    Column("tournament_id", Integer, ForeignKey("tournaments.id"), nullable=False),
    Column("kind", String(16), nullable=False),
    Column("entrant", Integer, nullable=False),
    Column("other", Integer, nullable=True),  # forbidden: the other entrant
    Column("table_number", Integer, nullable=True),  # fixed_table
    Column("round", Integer, nullable=True),  # bye
    Column("scope", String(16), nullable=True),  # forbidden: table or partners
    Column("note", String(NAME_LENGTH), nullable=True),  # the director's reason, shown on the table
    Column("created_at", Timestamp, nullable=False),
    Index(None, "tournament_id"),
    one_of("kind", CONSTRAINT_KINDS),
)
