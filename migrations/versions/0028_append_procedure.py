"""PostgreSQL: the append's compare-and-set as a procedure, ``append_event``, whose statement
keeps one generic plan that cannot be a scan (SQLite: nothing).

The service's connections take custom plans only (``referee.store.db._libpq_args``: a generic
plan made after an ANALYZE of a few rows scans the table, and is kept until the next ANALYZE),
so PostgreSQL planned the append's statement afresh each time, and the foreign key's check of
the match (the events' trigger's own query) too: some 0.1 ms of the server's 0.8 ms an
append (``bench/append_plan_bench.py``, 7 December). The procedure runs the same
statement (``referee.store.events``, whose test pins this body to it) with ``plan_cache_mode =
force_generic_plan`` and ``enable_seqscan = off`` for its own duration: its plans are made once
a connection and kept, and whatever the tables' statistics they find the match row by its
primary key (``tests/store/test_store.py`` holds the plans made after an ANALYZE of a fresh
database to that). The session's other statements keep their custom plans. A procedure rather
than a function: a CALL is not planned, where the SELECT of a function was, custom, each time;
``stored`` gives back the new seq, NULL when the compare-and-set found the row moved.

Revision ID: 0028
Revises: 0027
Create Date: 2026-12-07
"""

from __future__ import annotations

from alembic import op

revision = "0028"
down_revision = "0027"
branch_labels = None
depends_on = None

ARGUMENTS = (
    "a_m_status VARCHAR, a_m_round INTEGER, a_m_totals JSONB, a_m_winner INTEGER, "
    "a_m_last_seq INTEGER, a_m_violations INTEGER, a_m_added INTEGER, a_m_head VARCHAR, "
    "a_m_updated_at TIMESTAMP WITH TIME ZONE, a_m_head_mac VARCHAR, a_m_id INTEGER, "
    "a_m_expected INTEGER, a_m_room INTEGER, a_m_chain VARCHAR, a_e0_seq INTEGER, "
    "a_e0_type VARCHAR, a_e0_data VARCHAR, a_e0_client_event_id VARCHAR, "
    "a_e0_recorded_at TIMESTAMP WITH TIME ZONE, a_e0_recorded_by VARCHAR, a_e0_token_id INTEGER, "
    "a_e0_digest VARCHAR, a_e0_mac VARCHAR")

# referee.store.events._cas_insert(1) as compiled for PostgreSQL, each parameter an argument.
STATEMENT = (
    "WITH moved AS \n"
    "(UPDATE matches SET status=a_m_status, round=a_m_round, totals=a_m_totals, "
    "winner=a_m_winner, last_seq=a_m_last_seq, violations=a_m_violations, "
    "event_bytes=(matches.event_bytes + a_m_added), head=a_m_head, updated_at=a_m_updated_at, "
    "head_mac=a_m_head_mac WHERE matches.id = a_m_id AND matches.last_seq = a_m_expected AND "
    "matches.event_bytes <= a_m_room AND matches.head = a_m_chain RETURNING matches.id)\n"
    " INSERT INTO events (match_id, seq, type, data, client_event_id, recorded_at, recorded_by, "
    "token_id, digest, mac) SELECT moved.id, a_e0_seq AS anon_1, a_e0_type AS anon_2, "
    "a_e0_data AS anon_3, a_e0_client_event_id AS anon_4, a_e0_recorded_at AS anon_5, "
    "a_e0_recorded_by AS anon_6, a_e0_token_id AS anon_7, a_e0_digest AS anon_8, "
    "a_e0_mac AS anon_9 \n"
    "FROM moved RETURNING events.seq")


CREATE = (f"CREATE PROCEDURE append_event({ARGUMENTS}, INOUT stored INTEGER DEFAULT NULL) "
          "LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan SET enable_seqscan = off "
          f"AS $body$BEGIN {STATEMENT} INTO stored; END$body$")
DROP = f"DROP PROCEDURE append_event({ARGUMENTS}, INOUT stored INTEGER)"


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(CREATE)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(DROP)
