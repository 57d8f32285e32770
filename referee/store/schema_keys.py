"""Signing keys, the clubs' transparency logs and one-time sign-in codes.

Built the first time one of them is named (``referee.store.schema.LATER``).
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    Column,
    ForeignKey,
    Index,
    Integer,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
)

from .schema import (
    CODE_PURPOSES,
    Json,
    Timestamp,
    one_of,
    tables_so_far,
)

# ------------------------------------------------------------------ signing keys and transparency
# A club's Ed25519 keys and its transparency log (migration 0011, referee.service.keys and
# .transparency, docs/verify.md). Only the public halves are here: the private keys are files
# (DOMINO_KEYS_DIR), so that writing to the database is not enough to sign.

signing_keys = Table(
    "signing_keys", tables_so_far,
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
    "acta_leaves", tables_so_far,
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
    "tree_heads", tables_so_far,
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

# One-time sign-in codes (migration 0012, docs/desk.md): a code shown in a QR code on the desk,
# exchanged once, within minutes, by a phone's /score page for the token it was issued with.
# Only the code's sha256 is kept; the token is derived from the code (referee.service.signin),
# so neither the code nor the token is ever stored.
signin_codes = Table(
    "signin_codes", tables_so_far,
    Column("id", Integer, primary_key=True),
    # The token a sign-in code gives; NULL for a setup code, which makes the first club.
    Column("token_id", Integer, ForeignKey("tokens.id"), nullable=True, index=True),
    Column("hash", String(64), nullable=False, unique=True),  # sha256 of the code, hex
    Column("expires_at", Timestamp, nullable=False),
    Column("used_at", Timestamp, nullable=True),  # set once: a used code signs nobody in
    Column("purpose", String(16), nullable=False, server_default="signin"),  # 0017
    one_of("purpose", CODE_PURPOSES),
)
