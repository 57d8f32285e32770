"""The tables, as SQLAlchemy Core metadata.

This is a description, not DDL: the tables are created only by the alembic revisions in
``migrations/``, and ``tests/test_migrations.py`` holds the two to each other (autogenerate finds
no difference on SQLite or PostgreSQL).

The ``events`` table is the record; everything in ``matches`` except the header and the seating
is a projection of it, rewritten in the same transaction as each append and recomputable at any
time (``Service.rebuild``).

The tables every command may touch are built here; the standings', tournaments', keys' and
leagues' (cups included) groups in modules of their own, built the first time one of their tables is named
(:data:`LATER`): building SQLAlchemy tables is a tenth of what importing SQLAlchemy costs, and a
listing needs 7 of the 35.
"""

from __future__ import annotations

import importlib
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    Dialect,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    TypeDecorator,
    UniqueConstraint,
    false,
)
from sqlalchemy.types import TypeEngine

from ..core.vocab import (
    MATCH_STATUSES,
    NAME_LENGTH,
    PLAYER_EVENT_KINDS,
    ROLES,
    SLUG_LENGTH,
)

# What a one-time code of signin_codes is for: a phone's sign-in (a token's), or making the first
# club from the link ``domino serve`` prints (referee.service.setup).
CODE_PURPOSES = ("signin", "setup")

# Deterministic constraint names, so that migrations can name what they drop on both databases.
NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
tables_so_far = MetaData(naming_convention=NAMING)  # every table built yet: see __getattr__

# Only for values the service has validated (resolved rules, totals, player names): JSONB refuses
# a NUL character, so free text written by clients (event bodies, log headers) is kept as TEXT
# holding the exact JSON the store serialised.
class _Json(TypeDecorator[Any]):
    """JSON, JSONB on PostgreSQL: ``JSON().with_variant(JSONB(), "postgresql")`` (what the
    migrations write), except that the PostgreSQL dialect is imported only on PostgreSQL, when
    the type is first compiled or bound there (a command on SQLite never loads it)."""

    impl = JSON
    cache_ok = True
    should_evaluate_none = True  # as JSON's (none_as_null=False): None is stored as JSON null

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        if dialect.name == "postgresql":
            from sqlalchemy.dialects.postgresql import JSONB

            return dialect.type_descriptor(JSONB())
        return dialect.type_descriptor(JSON())


Json = _Json()
Timestamp = DateTime(timezone=True)

STATUSES = MATCH_STATUSES
# A player's name_key: casefolding can lengthen a name (up to three characters for one), and a
# key made unique by migration 0003 carries a suffix.
KEY_LENGTH = 3 * NAME_LENGTH + 16


def one_of(column: str, values: tuple[str, ...]) -> CheckConstraint:
    """A CHECK that ``column`` holds one of ``values`` (named after the column)."""
    listed = ", ".join(f"'{value}'" for value in values)
    return CheckConstraint(f"{column} IN ({listed})", name=column)


clubs = Table(
    "clubs", tables_so_far,
    Column("id", Integer, primary_key=True),
    Column("slug", String(SLUG_LENGTH), nullable=False, unique=True),
    Column("name", String(NAME_LENGTH), nullable=False),
    Column("created_at", Timestamp, nullable=False),
    # How standings break ties: a JSON list of tie-breaker names (referee.store.standings
    # TIE_BREAKERS), None for the default (won, difference, points_for, head_to_head).
    Column("tie_breakers", Json, nullable=True),
    # Whether anyone may read the club's pages (and their JSON twins) without a token; an
    # admin's setting (migration 0005, referee.service.clubs.Clubs.set_public).
    Column("public", Boolean, nullable=False, server_default=false()),
    # The language the club's pages speak when the reader has picked none (en, es, it), None
    # for no setting: the reader's browser decides (migration 0010, Clubs.set_language).
    Column("language", String(8), nullable=True),
    # Where the standings put the players who played no counted match: "apart" (listed after
    # the ranked, without a rank) or "hidden" (not listed); None for the default, "apart"
    # (migration 0013, Standings.set_unranked).
    Column("unranked", String(8), nullable=True),
    # The rules the phone's start form and the desk preselect for a new match: a preset's
    # name, None for none (the form's first); and its target, points, None for the preset's
    # own (migration 0015, Clubs.settings). A match created without rules is not affected.
    Column("default_rules", String(32), nullable=True),
    Column("default_target", Integer, nullable=True),
    # The club's time zone, an IANA name ("Europe/Madrid"): every time shown to people is said
    # in it; None for UTC (migration 0018, Clubs.settings).
    Column("timezone", String(64), nullable=True),
    # The row's MAC (referee.store.macs, migration 0022): of its id, slug, name and the
    # settings that change a result (tie_breakers, unranked); NULL until sealed in a row from
    # before.
    Column("mac", String(64), nullable=True),
)

players = Table(
    "players", tables_so_far,
    Column("id", Integer, primary_key=True),
    Column("club_id", Integer, ForeignKey("clubs.id"), nullable=False),
    Column("name", String(NAME_LENGTH), nullable=False),  # as first typed, normalised
    Column("created_at", Timestamp, nullable=False),
    # What names are matched by (referee.service.checks.name_key: NFC, spaces collapsed,
    # casefolded): "ana" and "Ana " find the player "Ana".
    Column("name_key", String(KEY_LENGTH), nullable=False),
    # Set once the player is merged into another (that one's id): this row stays as an alias,
    # its key finding that player, and it sits in no match (the merge moved its seats). No
    # foreign key: SQLite can drop a column in place (downgrade) only if none names it, and
    # rebuilding players would trip match_players' keys; only a merge writes it.
    Column("merged_into", Integer, nullable=True),
    Column("mac", String(64), nullable=True),  # referee.store.macs, migration 0022
    UniqueConstraint("club_id", "name"),
    Index(None, "club_id", "name_key", unique=True),
)

# What admins did to players: renames and merges, each written in the transaction that made it.
# Rows are only ever inserted (triggers in migration 0003 refuse UPDATE and DELETE), and players
# rows change only with one of these (referee.service.players).
player_events = Table(
    "player_events", tables_so_far,
    Column("id", Integer, primary_key=True),
    Column("club_id", Integer, ForeignKey("clubs.id"), nullable=False),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),  # renamed, or merged
    Column("kind", String(16), nullable=False),
    Column("old_name", String(NAME_LENGTH), nullable=False),
    # rename: the new name; merge: the name of the player it was merged into, then
    Column("new_name", String(NAME_LENGTH), nullable=False),
    Column("into_id", Integer, ForeignKey("players.id"), nullable=True),  # merge only
    Column("moved", Json, nullable=True),  # merge: the ids of the matches whose seats moved
    Column("reason", Text, nullable=False),
    Column("recorded_at", Timestamp, nullable=False),
    Column("recorded_by", String(NAME_LENGTH), nullable=True),
    Column("token_id", Integer, nullable=True),
    # referee.store.macs, migration 0022: set right after the insert (it covers the id), the
    # one update the append-only trigger lets through (a MAC where there was none)
    Column("mac", String(64), nullable=True),
    one_of("kind", PLAYER_EVENT_KINDS),
    Index(None, "player_id"),
    Index(None, "into_id"),
)

matches = Table(
    "matches", tables_so_far,
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
    Column("violations", Integer, nullable=False),  # open disputes: disputed events, proven fouls
    # Bytes of the events' JSON (UTF-8), beside last_seq (their count): what the match limits
    # (referee.store.db.MatchLimits) are checked against as each append adds to it.
    Column("event_bytes", Integer, nullable=False, server_default="0"),
    # The chain's link at last_seq (the last event's digest; the header's before any event),
    # written with last_seq by the same statements: what the append's compare-and-set checks
    # its new digests against (migration 0016, referee.store.events).
    Column("head", String(64), nullable=False),
    Column("created_at", Timestamp, nullable=False),
    Column("updated_at", Timestamp, nullable=False),  # when the last event was recorded
    # The Idempotency-Key of the request that created it: a retried create finds the match.
    Column("client_key", String(NAME_LENGTH), nullable=True),
    # The token that created it (None: the CLI, the operator, or before migration 0014): with
    # the club's referees, the one that may withdraw it (``abandon``) while no deal stands.
    Column("created_by", Integer, nullable=True),
    # Row MACs (referee.store.macs, migration 0020): of the header, rules and players (mac),
    # and of the last seq and chain head (head_mac, moved on by every append); NULL in a row
    # written before them until ``domino db seal``.
    Column("mac", String(64), nullable=True),
    Column("head_mac", String(64), nullable=True),
    one_of("status", MATCH_STATUSES),
    Index(None, "club_id", "status"),
    Index(None, "club_id", "played_on"),
    Index(None, "club_id", "client_key", unique=True),
)

# Who sits where: fixed when the match is created, so it is not a projection. Listings filter on
# it and standings join it.
match_players = Table(
    "match_players", tables_so_far,
    Column("match_id", Integer, ForeignKey("matches.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("side", Integer, nullable=False),
    Column("mac", String(64), nullable=True),  # referee.store.macs, migration 0022
    PrimaryKeyConstraint("match_id", "seat"),
    Index(None, "player_id"),
)

# The record. Rows are only ever inserted (triggers in the migration refuse UPDATE and DELETE).
# The primary key (match_id, seq) is what makes a lost race a conflict instead of a duplicate.
events = Table(
    "events", tables_so_far,
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
    # The event's link in the match's hash chain (referee.core.chain, docs/verify.md): SHA-256
    # of the previous link and this event's canonical JSON, lowercase hex (migration 0006).
    Column("digest", String(64), nullable=False),
    # The row's MAC (referee.store.macs, migration 0020): NULL until sealed in a row from before.
    Column("mac", String(64), nullable=True),
    PrimaryKeyConstraint("match_id", "seq"),
    UniqueConstraint("match_id", "client_event_id"),
)

tokens = Table(
    "tokens", tables_so_far,
    Column("id", Integer, primary_key=True),
    Column("club_id", Integer, ForeignKey("clubs.id"), nullable=False),
    Column("role", String(16), nullable=False),
    Column("label", String(NAME_LENGTH), nullable=True),
    Column("hash", String(64), nullable=False, unique=True),  # sha256 of the token, hex
    Column("created_at", Timestamp, nullable=False),
    Column("last_used_at", Timestamp, nullable=True),
    Column("revoked_at", Timestamp, nullable=True),  # a revoked token stops working
    # The token that issued this one over the API (None: the CLI or the server admin token):
    # a revoked admin's offspring can be found and revoked with it (migration 0009).
    Column("issued_by", Integer, ForeignKey("tokens.id", name="fk_tokens_issued_by_tokens"),
           nullable=True, index=True),
    one_of("role", ROLES),
)


# The tables of a concern whose commands are not every command's: each group's module
# (schema_standings, schema_tournaments, schema_keys, schema_leagues) is imported the first time
# one of its tables is named here, so that a command builds the tables its store modules name
# and no others (a listing 7 of 35, the standings 11: bench/cli_bench.py). ``metadata`` is
# every table (the migrations' autogenerate compares it whole); ``tables_so_far`` is what has
# been built.
LATER = {
    "standing_rows": "schema_standings",
    "standing_months": "schema_standings",
    "player_ratings": "schema_standings",
    "current_ratings": "schema_standings",
    "tournaments": "schema_tournaments",
    "tournament_entrants": "schema_tournaments",
    "tournament_rounds": "schema_tournaments",
    "tournament_matches": "schema_tournaments",
    "tournament_constraints": "schema_tournaments",
    "signing_keys": "schema_keys",
    "acta_leaves": "schema_keys",
    "tree_heads": "schema_keys",
    "signin_codes": "schema_keys",
    "league_seasons": "schema_leagues",
    "league_divisions": "schema_leagues",
    "league_teams": "schema_leagues",
    "league_squads": "schema_leagues",
    "league_fixtures": "schema_leagues",
    "league_legs": "schema_leagues",
    "league_leg_matches": "schema_leagues",
    "league_leg_results": "schema_leagues",
    "league_fixture_history": "schema_leagues",
    "league_captains": "schema_leagues",
    "league_deductions": "schema_leagues",
    "league_sheets": "schema_leagues",
    "league_cups": "schema_leagues",
    "league_cup_matches": "schema_leagues",
    "league_cup_awards": "schema_leagues",
}


def __getattr__(name: str) -> Any:
    if name == "metadata":
        for module in sorted(set(LATER.values())):
            importlib.import_module(f"{__package__}.{module}")
        return tables_so_far
    if name not in LATER:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__package__}.{LATER[name]}"), name)
    globals()[name] = value
    return value
