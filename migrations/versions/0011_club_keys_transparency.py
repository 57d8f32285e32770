"""Club keys and transparency logs: ``signing_keys`` (each club's Ed25519 public keys, with
their validity; the private keys are files, never in the database), ``acta_leaves`` (each
club's log of signed actas) and ``tree_heads`` (its signed tree heads), the last two
append-only like the events (docs/verify.md).

The acta is now read from the chained record alone, so the header, link 0 of the chain, must
name the club the match belongs to. Headers that do not (a log imported without "club", or
naming another club) get the club's slug as their "club", and those matches are chained again
from the new header (``referee.core.chain``, whose ``domino-chain/1`` does not change), the
events' append-only guard lifted for it and put back in the same transaction. Every other
match keeps its digests and its head.

Revision ID: 0011
Revises: 0007
Create Date: 2026-12-01
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

from referee.core import chain
from referee.store.codec import dump_json

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

Json = sa.JSON().with_variant(JSONB(), "postgresql")
Timestamp = sa.DateTime(timezone=True)
APPEND_ONLY = ("acta_leaves", "tree_heads")

_events = sa.table("events", sa.column("match_id", sa.Integer), sa.column("seq", sa.Integer),
                   sa.column("data", sa.Text), sa.column("digest", sa.String(64)))
_matches = sa.table("matches", sa.column("id", sa.Integer), sa.column("club_id", sa.Integer),
                    sa.column("header", sa.Text))
_clubs = sa.table("clubs", sa.column("id", sa.Integer), sa.column("slug", sa.String(64)))


def _fk(table: str, column: str, target: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint([column], [f"{target}.id"],
                                   name=f"fk_{table}_{column}_{target}")


def upgrade() -> None:
    op.create_table(
        "signing_keys",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("club_id", sa.Integer, nullable=False),
        sa.Column("key_id", sa.String(64), nullable=False),
        sa.Column("public_key", sa.String(64), nullable=False),
        sa.Column("valid_from", Timestamp, nullable=False),
        sa.Column("valid_until", Timestamp, nullable=True),
        sa.Column("retired_at", Timestamp, nullable=True),
        sa.Column("retired_reason", sa.Text, nullable=True),
        sa.Column("adopted", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.PrimaryKeyConstraint("id", name="pk_signing_keys"),
        _fk("signing_keys", "club_id", "clubs"),
        sa.UniqueConstraint("club_id", "key_id", name="uq_signing_keys_club_id_key_id"),
    )
    op.create_table(
        "acta_leaves",
        sa.Column("club_id", sa.Integer, nullable=False),
        sa.Column("leaf_index", sa.Integer, nullable=False),
        sa.Column("match_id", sa.Integer, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("acta", sa.Text, nullable=False),
        sa.Column("leaf_hash", sa.String(64), nullable=False),
        sa.Column("signed_at", Timestamp, nullable=False),
        sa.PrimaryKeyConstraint("club_id", "leaf_index", name="pk_acta_leaves"),
        _fk("acta_leaves", "club_id", "clubs"),
        _fk("acta_leaves", "match_id", "matches"),
        sa.UniqueConstraint("match_id", "seq", name="uq_acta_leaves_match_id_seq"),
    )
    op.create_table(
        "tree_heads",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("club_id", sa.Integer, nullable=False),
        sa.Column("size", sa.Integer, nullable=False),
        sa.Column("head", sa.Text, nullable=False),
        sa.Column("frontier", Json, nullable=False),
        sa.Column("signed_at", Timestamp, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_tree_heads"),
        _fk("tree_heads", "club_id", "clubs"),
    )
    op.create_index("ix_tree_heads_club_id_id", "tree_heads", ["club_id", "id"])
    for table in APPEND_ONLY:
        _append_only(table)
    if changed := _misnamed(op.get_bind()):
        _guard_events(False)
        rechain(op.get_bind(), changed)
        _guard_events(True)


def _misnamed(conn: sa.Connection) -> list[tuple[int, str, str]]:
    """(match id, header, club slug) of each match whose header does not name its club."""
    rows = conn.execute(sa.select(_matches.c.id, _matches.c.header, _clubs.c.slug)
                        .join(_clubs, _clubs.c.id == _matches.c.club_id)
                        .order_by(_matches.c.id)).all()
    return [(m, h, slug) for m, h, slug in rows if json.loads(h).get("club") != slug]


def rechain(conn: sa.Connection, changed: list[tuple[int, str, str]]) -> None:
    """Name its club in each header of ``changed`` (``_misnamed``), and chain those matches'
    events again from the new header."""
    for match_id, text, slug in changed:
        header = {**json.loads(text), "club": slug}
        conn.execute(sa.update(_matches).where(_matches.c.id == match_id)
                     .values(header=dump_json(header)))
        rows = conn.execute(sa.select(_events.c.seq, _events.c.data)
                            .where(_events.c.match_id == match_id)
                            .order_by(_events.c.seq)).all()
        if not rows:
            continue
        links = chain.links(header, (json.loads(r.data) for r in rows))
        conn.execute(sa.update(_events)
                     .where(_events.c.match_id == sa.bindparam("m"),
                            _events.c.seq == sa.bindparam("s"))
                     .values(digest=sa.bindparam("d")),
                     [{"m": match_id, "s": r.seq, "d": link.hex()}
                      for r, link in zip(rows, links[1:])])


def _append_only(table: str) -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"CREATE FUNCTION domino_{table}_append_only() RETURNS trigger "
                   f"LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION "
                   f"'{table} is append-only: % refused', TG_OP; END $$")
        op.execute(f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
                   f"FOR EACH ROW EXECUTE FUNCTION domino_{table}_append_only()")
    else:
        for action in ("UPDATE", "DELETE"):
            op.execute(f"CREATE TRIGGER {table}_no_{action.lower()} BEFORE {action} ON {table} "
                       f"BEGIN SELECT RAISE(ABORT, '{table} is append-only'); END")


def _guard_events(guarded: bool) -> None:
    """Lift (False) or restore (True) 0001's refusal to update events, inside this transaction."""
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE events ENABLE TRIGGER events_append_only" if guarded
                   else "ALTER TABLE events DISABLE TRIGGER events_append_only")
    elif guarded:
        op.execute("CREATE TRIGGER events_no_update BEFORE UPDATE ON events "
                   "BEGIN SELECT RAISE(ABORT, 'events are append-only'); END")
    else:
        op.execute("DROP TRIGGER events_no_update")


def downgrade() -> None:
    # The headers named their clubs, and their chains follow them: both stay (a chain is not
    # put back to a header that did not say whose match it was).
    postgresql = op.get_bind().dialect.name == "postgresql"
    for table in APPEND_ONLY:
        if postgresql:
            op.execute(f"DROP TRIGGER {table}_append_only ON {table}")
            op.execute(f"DROP FUNCTION domino_{table}_append_only()")
        else:
            op.execute(f"DROP TRIGGER {table}_no_update")
            op.execute(f"DROP TRIGGER {table}_no_delete")
    op.drop_index("ix_tree_heads_club_id_id", "tree_heads")
    for table in ("tree_heads", "acta_leaves", "signing_keys"):
        op.drop_table(table)
