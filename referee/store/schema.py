"""The tables, as SQLAlchemy Core metadata.

This is a description, not DDL: the tables are created only by the alembic revisions in
``migrations/``, and ``tests/test_migrations.py`` holds the two to each other (autogenerate finds
no difference on SQLite or PostgreSQL).

The ``events`` table is the record; everything in ``matches`` except the header and the seating
is a projection of it, rewritten in the same transaction as each append and recomputable at any
time (``Service.rebuild``).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    Dialect,
    Float,
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
    CONSTRAINT_KINDS,
    CUP_ENTRANTS,
    CUP_FORMATS,
    MATCH_STATUSES,
    NAME_LENGTH,
    PLAYER_EVENT_KINDS,
    ROLES,
    ROUND_STATUSES,
    SIDES,
    SLUG_LENGTH,
    TIE_AWARDS,
    TOURNAMENT_FORMATS,
    TOURNAMENT_STATUSES,
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
metadata = MetaData(naming_convention=NAMING)

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
    "clubs", metadata,
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
    "players", metadata,
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
    "player_events", metadata,
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
    "match_players", metadata,
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
    # The event's link in the match's hash chain (referee.core.chain, docs/verify.md): SHA-256
    # of the previous link and this event's canonical JSON, lowercase hex (migration 0006).
    Column("digest", String(64), nullable=False),
    # The row's MAC (referee.store.macs, migration 0020): NULL until sealed in a row from before.
    Column("mac", String(64), nullable=True),
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
    # The token that issued this one over the API (None: the CLI or the server admin token):
    # a revoked admin's offspring can be found and revoked with it (migration 0009).
    Column("issued_by", Integer, ForeignKey("tokens.id", name="fk_tokens_issued_by_tokens"),
           nullable=True, index=True),
    one_of("role", ROLES),
)

# ------------------------------------------------------------------ standings and ratings
# Projections of the matches, rewritten in the same transaction as the append (or import, or
# rebuild) that changes what a match adds to them; docs/standings.md tells the whole story.

# What a finished match adds to the standings: a row per seat (so a player's standings are one
# GROUP BY player_id and a partnership's one GROUP BY player_id, partner_id, no join with
# match_players). Present only while the match is finished; rewritten when a ruling changes it.
standing_rows = Table(
    "standing_rows", metadata,
    Column("match_id", Integer, ForeignKey("matches.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("club_id", Integer, ForeignKey("clubs.id"), nullable=False),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    # The other player of the side, for a partnership (None when a side is one seat).
    Column("partner_id", Integer, ForeignKey("players.id"), nullable=True),
    Column("side", Integer, nullable=False),
    Column("played_on", String(10), nullable=False),  # the match's, what period filters compare
    Column("event", Text, nullable=True),  # the log header's "event", what ?event= compares
    Column("won", Integer, nullable=False),  # 1 when the side won the match, else 0
    Column("lost", Integer, nullable=False),  # 1 when another side won (no winner: a draw)
    Column("rounds_won", Integer, nullable=False),
    Column("points_for", Integer, nullable=False),  # the side's total
    Column("points_against", Integer, nullable=False),  # the other sides' totals, summed
    Column("flagged", Integer, nullable=False),  # 1 while the match has open disputes
    Column("place", Integer, nullable=False),  # the side's place for the rating (0: first)
    # The match's place in the club's finishing order (what ratings are computed in), and when
    # it finished; both kept while the match stays finished, whatever rulings change.
    Column("finish_seq", Integer, nullable=False),
    Column("finished_at", Timestamp, nullable=False),
    PrimaryKeyConstraint("match_id", "seat"),
    Index(None, "club_id", "finish_seq"),
    # Covering the aggregations, so that neither database visits the table to sum the rows: a
    # club's rows in player (and partner) order, and in day order for a period's.
    Index("ix_standing_rows_covering", "club_id", "player_id", "partner_id", "played_on",
          "event", "won", "lost", "rounds_won", "points_for", "points_against", "flagged"),
    Index("ix_standing_rows_by_day", "club_id", "played_on", "player_id", "partner_id",
          "event", "won", "lost", "rounds_won", "points_for", "points_against", "flagged"),
)

# The same sums rolled up per player (partner_id 0) or partnership (player_id < partner_id),
# month (YYYY-MM of played_on) and event ('' for none), kept with the rows: a table reads the
# period's whole months here and only its partial first and last months from standing_rows.
standing_months = Table(
    "standing_months", metadata,
    Column("club_id", Integer, ForeignKey("clubs.id"), nullable=False),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("partner_id", Integer, nullable=False),  # 0: the player's own sums
    Column("month", String(7), nullable=False),
    Column("event", Text, nullable=False),
    Column("played", Integer, nullable=False),
    Column("won", Integer, nullable=False),
    Column("lost", Integer, nullable=False),
    Column("rounds_won", Integer, nullable=False),
    Column("points_for", Integer, nullable=False),
    Column("points_against", Integer, nullable=False),
    Column("flagged", Integer, nullable=False),
    PrimaryKeyConstraint("club_id", "player_id", "partner_id", "month", "event"),
)

# A player's rating after each of his finished matches, in the club's finishing order.
player_ratings = Table(
    "player_ratings", metadata,
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("match_id", Integer, ForeignKey("matches.id"), nullable=False),
    Column("club_id", Integer, ForeignKey("clubs.id"), nullable=False),
    Column("finish_seq", Integer, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),  # matches rated so far, this one included
    PrimaryKeyConstraint("player_id", "match_id"),
    Index(None, "player_id", "finish_seq"),
    Index(None, "club_id", "finish_seq"),
)

# Each player's rating now: his last player_ratings row, kept apart so that standings read a
# row a player instead of searching the history.
current_ratings = Table(
    "current_ratings", metadata,
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True,
           autoincrement=False),
    Column("club_id", Integer, ForeignKey("clubs.id"), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("finish_seq", Integer, nullable=False),  # of the last match rated
    Index(None, "club_id"),
)

# ------------------------------------------------------------------ tournaments
# An event of a club played in rounds (migration 0007, referee.store.tournaments, docs/tournaments.md).
# Its matches are ordinary matches, linked to their round and table by tournament_matches.

tournaments = Table(
    "tournaments", metadata,
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
    "tournament_entrants", metadata,
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
    "tournament_rounds", metadata,
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
    "tournament_matches", metadata,
    Column("match_id", Integer, ForeignKey("matches.id"), primary_key=True, autoincrement=False),
    Column("tournament_id", Integer, ForeignKey("tournaments.id"), nullable=False),
    Column("round", Integer, nullable=False),
    Column("table_number", Integer, nullable=False),
    Column("version", Integer, nullable=False),
    Column("retired", Boolean, nullable=False, server_default=false()),
    Index(None, "tournament_id", "round"),
)

# ------------------------------------------------------------------ signing keys and transparency
# A club's Ed25519 keys and its transparency log (migration 0011, referee.service.keys and
# .transparency, docs/verify.md). Only the public halves are here: the private keys are files
# (DOMINO_KEYS_DIR), so that writing to the database is not enough to sign.

signing_keys = Table(
    "signing_keys", metadata,
    Column("id", Integer, primary_key=True),
    Column("club_id", Integer, ForeignKey("clubs.id"), nullable=False),
    Column("key_id", String(64), nullable=False),  # "ed25519:" and 16 hex digits
    Column("public_key", String(64), nullable=False),  # base64 of the 32 raw bytes
    Column("valid_from", Timestamp, nullable=False),
    # When it stopped signing for the club: rotated out, or retired (None: it signs now).
    Column("valid_until", Timestamp, nullable=True),
    Column("retired_at", Timestamp, nullable=True),
    Column("retired_reason", Text, nullable=True),
    # The server's one key of before 0011, taken over for the club (domino key init --adopt).
    Column("adopted", Boolean, nullable=False, server_default=false()),
    UniqueConstraint("club_id", "key_id"),
)

# The club's log, leaf by leaf: each a version of a match's acta as signed, in the order signed.
# Rows are only ever inserted (triggers in migration 0011 refuse UPDATE and DELETE).
acta_leaves = Table(
    "acta_leaves", metadata,
    Column("club_id", Integer, ForeignKey("clubs.id"), nullable=False),
    Column("leaf_index", Integer, nullable=False),  # from 0
    # The match whose acta the leaf is; or (migration 0021) the league fixture whose signed
    # result sheet it is, ``seq`` then the sheet's number: one of the two, never both.
    Column("match_id", Integer, ForeignKey("matches.id"), nullable=True),
    Column("fixture_id", Integer, ForeignKey("league_fixtures.id"), nullable=True),
    Column("seq", Integer, nullable=False),  # the match's last event when it was signed
    Column("acta", Text, nullable=False),  # the leaf: the signed acta's RFC 8785 text (UTF-8)
    Column("leaf_hash", String(64), nullable=False),  # SHA-256(0x00 || leaf), hex
    Column("signed_at", Timestamp, nullable=False),
    PrimaryKeyConstraint("club_id", "leaf_index"),
    UniqueConstraint("match_id", "seq"),
    CheckConstraint("(match_id IS NULL) <> (fixture_id IS NULL)", name="one_record"),
)

# Every signed head of a club's tree (one per leaf, and one when a key starts signing), newest
# last; only ever inserted, as acta_leaves.
tree_heads = Table(
    "tree_heads", metadata,
    Column("id", Integer, primary_key=True),
    Column("club_id", Integer, ForeignKey("clubs.id"), nullable=False),
    Column("size", Integer, nullable=False),
    Column("head", Text, nullable=False),  # the signed domino-tree-head/1, RFC 8785 text
    # The roots of the perfect subtrees of the tree of this size (hex, largest first): all that
    # adding the next leaf needs (referee.core.merkle.Frontier).
    Column("frontier", Json, nullable=False),
    Column("signed_at", Timestamp, nullable=False),
    Index(None, "club_id", "id"),
)

# The tournament director's constraints (migration 0008, docs/tournaments.md): an entrant
# fixed at a table number, two entrants kept apart (scope "table"; in rotating, "partners":
# never partners), a requested bye for a round. Entrants are their numbers in the tournament.
tournament_constraints = Table(
    "tournament_constraints", metadata,
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

# One-time sign-in codes (migration 0012, docs/desk.md): a code shown in a QR code on the desk,
# exchanged once, within minutes, by a phone's /score page for the token it was issued with.
# Only the code's sha256 is kept; the token is derived from the code (referee.service.signin),
# so neither the code nor the token is ever stored.
signin_codes = Table(
    "signin_codes", metadata,
    Column("id", Integer, primary_key=True),
    # The token a sign-in code gives; NULL for a setup code, which makes the first club.
    Column("token_id", Integer, ForeignKey("tokens.id"), nullable=True, index=True),
    Column("hash", String(64), nullable=False, unique=True),  # sha256 of the code, hex
    Column("expires_at", Timestamp, nullable=False),
    Column("used_at", Timestamp, nullable=True),  # set once: a used code signs nobody in
    Column("purpose", String(16), nullable=False, server_default="signin"),  # 0017
    one_of("purpose", CODE_PURPOSES),
)

# ------------------------------------------------------------------ leagues
# A league run by its organising club (migration 0019, referee.store.leagues, docs/leagues.md):
# seasons of divisions of teams, each team's squad of the club's players, the fixtures
# generated for each division, their legs (each game of a leg an ordinary match of the club),
# what happened to each fixture (its history), captains' tokens, points deductions and the
# signed result sheets. The league engine (referee.service.leagues) computes from these.

league_seasons = Table(
    "league_seasons", metadata,
    Column("id", Integer, primary_key=True),
    Column("club_id", Integer, ForeignKey("clubs.id"), nullable=False),
    Column("slug", String(SLUG_LENGTH), nullable=False),  # how URLs and commands name it
    Column("name", String(NAME_LENGTH), nullable=False),
    # The fixture format as the service checked it: {"legs": [{"kind", "best_of"}, ...],
    # "singles_each", "pairs_each", "walkover": [won, lost]}; and each kind of leg's rules, as
    # a match takes them ({"singles": rules, "pairs": rules}).
    Column("format", Json, nullable=False),
    Column("leg_rules", Json, nullable=False),
    # The points rule: {"win", "draw", "loss", "per_leg", "bonus", "bonus_margin"}.
    Column("points", Json, nullable=False),
    Column("tie_breakers", Json, nullable=False),  # LEAGUE_TIE_BREAKERS, in the league's order
    Column("promotion", Integer, nullable=False),  # places marked at the top of each division
    Column("relegation", Integer, nullable=False),  # and at its bottom
    Column("min_legs", Integer, nullable=False),  # legs a player plays to be ranked in averages
    Column("max_squad", Integer, nullable=True),  # a squad's most players (None: no limit)
    # The calendar: the first fixture day (YYYY-MM-DD; its weekday is the season's), the weeks
    # off (a JSON list of dates), the last day (None: no set end).
    Column("first_day", String(10), nullable=False),
    Column("weeks_off", Json, nullable=False),
    Column("last_day", String(10), nullable=True),
    Column("created_at", Timestamp, nullable=False),
    UniqueConstraint("club_id", "slug"),
)

league_divisions = Table(
    "league_divisions", metadata,
    Column("id", Integer, primary_key=True),
    Column("season_id", Integer, ForeignKey("league_seasons.id"), nullable=False),
    Column("slug", String(SLUG_LENGTH), nullable=False),
    Column("name", String(NAME_LENGTH), nullable=False),
    Column("position", Integer, nullable=False),  # the divisions' order, the top one first
    UniqueConstraint("season_id", "slug"),
)

league_teams = Table(
    "league_teams", metadata,
    Column("id", Integer, primary_key=True),
    Column("season_id", Integer, ForeignKey("league_seasons.id"), nullable=False),
    Column("division_id", Integer, ForeignKey("league_divisions.id"), nullable=False),
    Column("slug", String(SLUG_LENGTH), nullable=False),
    Column("name", String(NAME_LENGTH), nullable=False),
    Column("venue", String(NAME_LENGTH), nullable=True),  # where it plays at home
    # Its number in the division, what the circle method places it by (from 0).
    Column("position", Integer, nullable=False),
    Column("min_players", Integer, nullable=False),
    UniqueConstraint("season_id", "slug"),
    Index(None, "division_id"),
)

# Who is in a team's squad, from when to when: a transfer ends one row (``left_on``) and starts
# another in the new team, the same day, with its reason. A player is in one squad at a time in
# a season: the unique index over the rows not ended says so to both databases.
league_squads = Table(
    "league_squads", metadata,
    Column("id", Integer, primary_key=True),
    Column("season_id", Integer, ForeignKey("league_seasons.id"), nullable=False),
    Column("team_id", Integer, ForeignKey("league_teams.id"), nullable=False),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("joined_on", String(10), nullable=False),
    Column("left_on", String(10), nullable=True),
    Column("reason", Text, nullable=True),  # a transfer's
    Index(None, "team_id"),
    # unique over the rows not ended (WHERE left_on IS NULL, migration 0019); the condition is
    # not named here, as a dialect's option (postgresql_where, sqlite_where) would load that
    # dialect into every process that imports the schema, a command on the other database too
    # (tests/cli/test_cli_startup.py)
    Index("ix_league_squads_current", "season_id", "player_id", unique=True),
)

# A meeting of two teams of a division: generated (round, date), moved (the date, with its
# history), given as a walkover (walkover_by: the side that did not turn up), confirmed by each
# captain. ``version`` counts the changes to its result (a leg recorded or ruled on, a
# concession, a walkover): a confirmation and a sheet are of one version.
league_fixtures = Table(
    "league_fixtures", metadata,
    Column("id", Integer, primary_key=True),
    Column("season_id", Integer, ForeignKey("league_seasons.id"), nullable=False),
    Column("division_id", Integer, ForeignKey("league_divisions.id"), nullable=False),
    Column("round", Integer, nullable=False),
    Column("home_id", Integer, ForeignKey("league_teams.id"), nullable=False),
    Column("away_id", Integer, ForeignKey("league_teams.id"), nullable=False),
    Column("played_on", String(10), nullable=False),  # its date now (YYYY-MM-DD)
    Column("scheduled_on", String(10), nullable=False),  # the date the schedule gave it
    Column("walkover_by", String(8), nullable=True),
    Column("walkover_reason", Text, nullable=True),
    Column("version", Integer, nullable=False),
    # The version each captain confirmed (None: not confirmed, or confirmed before a change).
    Column("home_confirmed", Integer, nullable=True),
    Column("away_confirmed", Integer, nullable=True),
    # A team cup's tie played as a fixture (migration 0027): the cup and the tie's code; both
    # None for the league's own. Every league read (listings, tables, averages, the legs'
    # results, the feeds) takes the league's only (referee.store.leagues.LEAGUE_ONLY).
    Column("cup_id", Integer, ForeignKey("league_cups.id"), nullable=True),
    Column("cup_tie", String(8), nullable=True),
    # each two teams meet once at each home in the league (WHERE cup_id IS NULL), a cup's tie
    # is one fixture (WHERE cup_id IS NOT NULL): partial unique indexes (migration 0027; their
    # conditions not named here, as league_squads' one says why)
    Index("ix_league_fixtures_league", "season_id", "home_id", "away_id", unique=True),
    Index("ix_league_fixtures_cup_tie", "cup_id", "cup_tie", unique=True),
    Index(None, "division_id", "round"),
    Index(None, "home_id"),
    Index(None, "away_id"),
    one_of("walkover_by", SIDES),
)

# A leg of a fixture as its teams named it or conceded it: the players each team named (JSON
# lists of player ids), and ``conceded_by`` (home, away, both) with the reason. A leg with
# neither named nor conceded has no row.
league_legs = Table(
    "league_legs", metadata,
    Column("fixture_id", Integer, ForeignKey("league_fixtures.id"), nullable=False),
    Column("leg", Integer, nullable=False),  # from 1, in the format's order
    Column("conceded_by", String(8), nullable=True),
    Column("reason", Text, nullable=True),
    PrimaryKeyConstraint("fixture_id", "leg"),
    one_of("conceded_by", SIDES + ("both",)),
)

# Each game of a leg: an ordinary match of the club, its side 0 the home team's players and
# side 1 the away team's (a leg of best_of n has up to n).
league_leg_matches = Table(
    "league_leg_matches", metadata,
    Column("match_id", Integer, ForeignKey("matches.id"), primary_key=True,
           autoincrement=False),
    Column("fixture_id", Integer, ForeignKey("league_fixtures.id"), nullable=False),
    Column("leg", Integer, nullable=False),
    Column("game", Integer, nullable=False),  # from 1
    UniqueConstraint("fixture_id", "leg", "game"),
)

# Each leg's result as the tables, team pages and averages read it (migration 0024): a
# projection of the leg's games (``games``: the winner of each finished game in order, ``h``,
# ``a`` or ``d`` for drawn), the players each team fielded (its first game's seats, player ids
# joined by commas) and its concession (``league_legs``), written with whatever changes them
# (:func:`referee.store.leagues.project_legs`). A leg with none of these has no row.
league_leg_results = Table(
    "league_leg_results", metadata,
    Column("fixture_id", Integer, ForeignKey("league_fixtures.id"), nullable=False),
    Column("leg", Integer, nullable=False),
    Column("season_id", Integer, ForeignKey("league_seasons.id"), nullable=False),
    Column("division_id", Integer, ForeignKey("league_divisions.id"), nullable=False),
    Column("games", Text, nullable=False),
    Column("home", Text, nullable=False),
    Column("away", Text, nullable=False),
    Column("conceded_by", String(8), nullable=True),
    Column("reason", Text, nullable=True),
    PrimaryKeyConstraint("fixture_id", "leg"),
    Index(None, "division_id"),
    Index(None, "season_id"),
)

# What happened to a fixture, in order: postponed, leg conceded, walkover, leg recorded,
# confirmed, sheet signed, ruling. Only ever inserted.
league_fixture_history = Table(
    "league_fixture_history", metadata,
    Column("id", Integer, primary_key=True),
    Column("fixture_id", Integer, ForeignKey("league_fixtures.id"), nullable=False),
    Column("kind", String(16), nullable=False),
    Column("detail", Json, nullable=False),
    Column("recorded_at", Timestamp, nullable=False),
    Column("recorded_by", String(NAME_LENGTH), nullable=True),
    Column("token_id", Integer, nullable=True),
    Index(None, "fixture_id"),
)

# A captain: a token of the league's club bound to one team (it names the team's sheet, records
# its legs, confirms its fixtures).
league_captains = Table(
    "league_captains", metadata,
    Column("token_id", Integer, ForeignKey("tokens.id"), primary_key=True, autoincrement=False),
    Column("team_id", Integer, ForeignKey("league_teams.id"), nullable=False),
    Index(None, "team_id"),
)

# A points deduction the league ruled, with its reason.
league_deductions = Table(
    "league_deductions", metadata,
    Column("id", Integer, primary_key=True),
    Column("team_id", Integer, ForeignKey("league_teams.id"), nullable=False),
    Column("points", Integer, nullable=False),
    Column("reason", Text, nullable=False),
    Column("recorded_at", Timestamp, nullable=False),
    Index(None, "team_id"),
)

# Every result sheet signed for a fixture (a new one after each change to a confirmed result),
# the signed document's RFC 8785 text; the newest is the fixture's sheet.
league_sheets = Table(
    "league_sheets", metadata,
    Column("id", Integer, primary_key=True),
    Column("fixture_id", Integer, ForeignKey("league_fixtures.id"), nullable=False),
    Column("version", Integer, nullable=False),  # the fixture's version it is of
    Column("sheet", Text, nullable=False),
    Column("digest", String(64), nullable=False),  # SHA-256 of the text, hex
    Column("signed_at", Timestamp, nullable=False),
    UniqueConstraint("fixture_id", "version"),
)


# A cup (migration 0023, docs/leagues.md "Cups"): a club's knockout, of one of its seasons (its
# teams, or its players) or of the club alone. ``entrants`` are the pot in its recorded order
# (text ids: a team's or a player's id, a pair's two player ids joined by "+"); once drawn,
# ``seed`` (a whole number from 0 to 2**64 - 1, as text: wider than a signed BIGINT) and
# ``seeded`` (the first so many of the pot seeded by their order) make the draw again.
league_cups = Table(
    "league_cups", metadata,
    Column("id", Integer, primary_key=True),
    Column("club_id", Integer, ForeignKey("clubs.id"), nullable=False),
    Column("season_id", Integer, ForeignKey("league_seasons.id"), nullable=True),
    Column("slug", String(64), nullable=False),
    Column("name", String(NAME_LENGTH), nullable=False),
    Column("format", String(24), nullable=False),  # CUP_FORMATS
    Column("best_of", Integer, nullable=False),  # the matches a tie is the best of
    Column("entrant_kind", String(8), nullable=False),  # CUP_ENTRANTS
    Column("rules", Json, nullable=False),  # a tie's matches' rules: a preset or an object
    Column("entrants", Json, nullable=False),
    Column("seed", String(20), nullable=True),
    Column("seeded", Integer, nullable=True),
    Column("drawn_at", Timestamp, nullable=True),
    Column("created_at", Timestamp, nullable=False),
    Column("mac", String(64), nullable=True),  # referee.store.macs, migration 0025
    UniqueConstraint("club_id", "slug"),
    one_of("format", CUP_FORMATS),
    one_of("entrant_kind", CUP_ENTRANTS),
)

# Each match of a cup's tie (its ``game``, from 1), and the entrants on its side 0 (``home``)
# and side 1 (``away``) when it was tagged. The tie's winner is read from these matches.
league_cup_matches = Table(
    "league_cup_matches", metadata,
    Column("match_id", Integer, ForeignKey("matches.id"), primary_key=True,
           autoincrement=False),
    Column("cup_id", Integer, ForeignKey("league_cups.id"), nullable=False),
    Column("tie", String(8), nullable=False),
    Column("game", Integer, nullable=False),
    Column("home", String(64), nullable=False),
    Column("away", String(64), nullable=False),
    Column("mac", String(64), nullable=True),  # referee.store.macs, migration 0025
    UniqueConstraint("cup_id", "tie", "game"),
)

# A tie decided without a match (migration 0026): conceded by an entrant or awarded as a
# walkover, ``conceded_by`` the side that conceded or did not turn up, ``home`` and ``away`` the
# entrants (ids) the tie was between then. Only ever inserted: a ruling on an earlier tie that
# changes who plays this one leaves the row, which then counts for nothing (as a match does).
league_cup_awards = Table(
    "league_cup_awards", metadata,
    Column("id", Integer, primary_key=True),
    Column("cup_id", Integer, ForeignKey("league_cups.id"), nullable=False),
    Column("tie", String(8), nullable=False),
    Column("kind", String(12), nullable=False),  # TIE_AWARDS
    Column("home", String(64), nullable=False),
    Column("away", String(64), nullable=False),
    Column("conceded_by", String(8), nullable=False),  # SIDES
    Column("reason", Text, nullable=False),
    Column("recorded_at", Timestamp, nullable=False),
    Column("recorded_by", String(NAME_LENGTH), nullable=True),
    Column("token_id", Integer, nullable=True),
    Column("mac", String(64), nullable=True),  # referee.store.macs
    Index(None, "cup_id"),
    one_of("kind", TIE_AWARDS),
    one_of("conceded_by", SIDES),
)
