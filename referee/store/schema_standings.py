"""The standings' and ratings' projections (referee.store.standings, docs/standings.md).

Built the first time one of them is named (``referee.store.schema.LATER``).
"""

from __future__ import annotations

from sqlalchemy import (
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
)

from .schema import (
    Timestamp,
    tables_so_far,
)

# ------------------------------------------------------------------ standings and ratings
# Projections of the matches, rewritten in the same transaction as the append (or import, or
# rebuild) that changes what a match adds to them; docs/standings.md tells the whole story.

# What a finished match adds to the standings: a row per seat (so a player's standings are one
# GROUP BY player_id and a partnership's one GROUP BY player_id, partner_id, no join with
# match_players). Present only while the match is finished; rewritten when a ruling changes it.
standing_rows = Table(
    "standing_rows", tables_so_far,
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
    "standing_months", tables_so_far,
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
    "player_ratings", tables_so_far,
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
    "current_ratings", tables_so_far,
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True,
           autoincrement=False),
    Column("club_id", Integer, ForeignKey("clubs.id"), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("finish_seq", Integer, nullable=False),  # of the last match rated
    Index(None, "club_id"),
)
