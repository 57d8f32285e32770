"""Tournaments: their entrants, rounds, matches and constraints (referee.store.tournaments).

Built the first time one of them is named (``referee.store.schema.LATER``).
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
    UniqueConstraint,
    false,
)

from ..core.vocab import (
    CONSTRAINT_KINDS,
    NAME_LENGTH,
    ROUND_STATUSES,
    SLUG_LENGTH,
    TOURNAMENT_FORMATS,
    TOURNAMENT_STATUSES,
)
from .schema import (
    Json,
    Timestamp,
    one_of,
    tables_so_far,
)

# ------------------------------------------------------------------ tournaments
# An event of a club played in rounds (migration 0007, referee.store.tournaments, docs/tournaments.md).
# Its matches are ordinary matches, linked to their round and table by tournament_matches.

tournaments = Table(
    "tournaments", tables_so_far,
    Column("id", Integer, primary_key=True),
    Column("club_id", Integer, ForeignKey("clubs.id"), nullable=False),
    Column("slug", String(SLUG_LENGTH), nullable=False),  # how URLs and commands name it in its club
    Column("name", String(NAME_LENGTH), nullable=False),  # also its matches' header "event"
    Column("starts_on", String(10), nullable=True),  # YYYY-MM-DD
    Column("ends_on", String(10), nullable=True),
    Column("rules", Json, nullable=False),  # as its matches take them: a preset name or an object
    Column("format", String(16), nullable=False),
    Column("rounds", Integer, nullable=False),  # how many rounds it is to have
    Column("bye_won", Boolean, nullable=False),  # what a bye earns: a match won or not,
    Column("bye_points", Integer, nullable=False),  # and points for
    # open (no round paired), playing (one paired); the service reads finished (its last round
    # finished) from the rounds, so a ruling that reopens a match never leaves this stale
    Column("status", String(16), nullable=False),
    Column("created_at", Timestamp, nullable=False),
    UniqueConstraint("club_id", "slug"),
    one_of("format", TOURNAMENT_FORMATS),
    one_of("status", TOURNAMENT_STATUSES),
)

# Who is paired: a player (rotating) or a fixed partnership (pairs, round_robin). ``number``
# is the entrant's place in order of entry; the pairing engine knows it as the id "0001".
tournament_entrants = Table(
    "tournament_entrants", tables_so_far,
    Column("tournament_id", Integer, ForeignKey("tournaments.id"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("partner_id", Integer, ForeignKey("players.id"), nullable=True),  # a partnership's other
    Column("entered", Integer, nullable=False),  # the first round they may be paired in
    Column("withdrawn", Integer, nullable=True),  # the first round they are not paired in
    PrimaryKeyConstraint("tournament_id", "number"),
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
