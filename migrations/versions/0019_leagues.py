"""Leagues: a club's seasons (``league_seasons``: the fixture format, the leg rules, the points
rule, the tie-breakers, the places promoted and relegated, the calendar), their divisions and
teams, each team's squad with its transfers (a player in one squad at a time a season), the
fixtures (date, history, walkover, each captain's confirmation), their legs (named or
conceded) and each leg's games as matches, the captains' tokens bound to a team, points
deductions and the signed result sheets. docs/leagues.md tells the story.

The tables start empty; nothing existing changes.

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None

Json = sa.JSON().with_variant(JSONB(), "postgresql")
Timestamp = sa.DateTime(timezone=True)

TABLES = ("league_sheets", "league_deductions", "league_captains", "league_fixture_history",
          "league_leg_matches", "league_legs", "league_fixtures", "league_squads",
          "league_teams", "league_divisions", "league_seasons")


def _fk(table: str, column: str, target: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint([column], [f"{target}.id"],
                                   name=f"fk_{table}_{column}_{target}")


def _id() -> sa.Column:
    return sa.Column("id", sa.Integer, nullable=False)


def upgrade() -> None:
    op.create_table(
        "league_seasons", _id(),
        sa.Column("club_id", sa.Integer, nullable=False),
        sa.Column("slug", sa.String(64), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("format", Json, nullable=False),
        sa.Column("leg_rules", Json, nullable=False),
        sa.Column("points", Json, nullable=False),
        sa.Column("tie_breakers", Json, nullable=False),
        sa.Column("promotion", sa.Integer, nullable=False),
        sa.Column("relegation", sa.Integer, nullable=False),
        sa.Column("min_legs", sa.Integer, nullable=False),
        sa.Column("max_squad", sa.Integer, nullable=True),
        sa.Column("first_day", sa.String(10), nullable=False),
        sa.Column("weeks_off", Json, nullable=False),
        sa.Column("last_day", sa.String(10), nullable=True),
        sa.Column("created_at", Timestamp, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_league_seasons"),
        _fk("league_seasons", "club_id", "clubs"),
        sa.UniqueConstraint("club_id", "slug", name="uq_league_seasons_club_id_slug"),
    )
    op.create_table(
        "league_divisions", _id(),
        sa.Column("season_id", sa.Integer, nullable=False),
        sa.Column("slug", sa.String(64), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_league_divisions"),
        _fk("league_divisions", "season_id", "league_seasons"),
        sa.UniqueConstraint("season_id", "slug", name="uq_league_divisions_season_id_slug"),
    )
    op.create_table(
        "league_teams", _id(),
        sa.Column("season_id", sa.Integer, nullable=False),
        sa.Column("division_id", sa.Integer, nullable=False),
        sa.Column("slug", sa.String(64), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("venue", sa.String(200), nullable=True),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("min_players", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_league_teams"),
        _fk("league_teams", "season_id", "league_seasons"),
        _fk("league_teams", "division_id", "league_divisions"),
        sa.UniqueConstraint("season_id", "slug", name="uq_league_teams_season_id_slug"),
    )
    op.create_index("ix_league_teams_division_id", "league_teams", ["division_id"])
    op.create_table(
        "league_squads", _id(),
        sa.Column("season_id", sa.Integer, nullable=False),
        sa.Column("team_id", sa.Integer, nullable=False),
        sa.Column("player_id", sa.Integer, nullable=False),
        sa.Column("joined_on", sa.String(10), nullable=False),
        sa.Column("left_on", sa.String(10), nullable=True),
        sa.Column("reason", sa.Text, nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_league_squads"),
        _fk("league_squads", "season_id", "league_seasons"),
        _fk("league_squads", "team_id", "league_teams"),
        _fk("league_squads", "player_id", "players"),
    )
    op.create_index("ix_league_squads_team_id", "league_squads", ["team_id"])
    # one squad at a time: a partial unique index, which both databases keep
    op.create_index("ix_league_squads_current", "league_squads", ["season_id", "player_id"],
                    unique=True, sqlite_where=sa.text("left_on IS NULL"),
                    postgresql_where=sa.text("left_on IS NULL"))
    op.create_table(
        "league_fixtures", _id(),
        sa.Column("season_id", sa.Integer, nullable=False),
        sa.Column("division_id", sa.Integer, nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("home_id", sa.Integer, nullable=False),
        sa.Column("away_id", sa.Integer, nullable=False),
        sa.Column("played_on", sa.String(10), nullable=False),
        sa.Column("scheduled_on", sa.String(10), nullable=False),
        sa.Column("walkover_by", sa.String(8), nullable=True),
        sa.Column("walkover_reason", sa.Text, nullable=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("home_confirmed", sa.Integer, nullable=True),
        sa.Column("away_confirmed", sa.Integer, nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_league_fixtures"),
        _fk("league_fixtures", "season_id", "league_seasons"),
        _fk("league_fixtures", "division_id", "league_divisions"),
        _fk("league_fixtures", "home_id", "league_teams"),
        _fk("league_fixtures", "away_id", "league_teams"),
        sa.UniqueConstraint("season_id", "home_id", "away_id",
                            name="uq_league_fixtures_season_id_home_id_away_id"),
        sa.CheckConstraint("walkover_by IN ('home', 'away')",
                           name="ck_league_fixtures_walkover_by"),
    )
    op.create_index("ix_league_fixtures_division_id_round", "league_fixtures",
                    ["division_id", "round"])
    op.create_index("ix_league_fixtures_home_id", "league_fixtures", ["home_id"])
    op.create_index("ix_league_fixtures_away_id", "league_fixtures", ["away_id"])
    op.create_table(
        "league_legs",
        sa.Column("fixture_id", sa.Integer, nullable=False),
        sa.Column("leg", sa.Integer, nullable=False),
        sa.Column("conceded_by", sa.String(8), nullable=True),
        sa.Column("reason", sa.Text, nullable=True),
        sa.PrimaryKeyConstraint("fixture_id", "leg", name="pk_league_legs"),
        _fk("league_legs", "fixture_id", "league_fixtures"),
        sa.CheckConstraint("conceded_by IN ('home', 'away', 'both')",
                           name="ck_league_legs_conceded_by"),
    )
    op.create_table(
        "league_leg_matches",
        sa.Column("match_id", sa.Integer, nullable=False, autoincrement=False),
        sa.Column("fixture_id", sa.Integer, nullable=False),
        sa.Column("leg", sa.Integer, nullable=False),
        sa.Column("game", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("match_id", name="pk_league_leg_matches"),
        _fk("league_leg_matches", "match_id", "matches"),
        _fk("league_leg_matches", "fixture_id", "league_fixtures"),
        sa.UniqueConstraint("fixture_id", "leg", "game",
                            name="uq_league_leg_matches_fixture_id_leg_game"),
    )
    op.create_table(
        "league_fixture_history", _id(),
        sa.Column("fixture_id", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("detail", Json, nullable=False),
        sa.Column("recorded_at", Timestamp, nullable=False),
        sa.Column("recorded_by", sa.String(200), nullable=True),
        sa.Column("token_id", sa.Integer, nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_league_fixture_history"),
        _fk("league_fixture_history", "fixture_id", "league_fixtures"),
    )
    op.create_index("ix_league_fixture_history_fixture_id", "league_fixture_history",
                    ["fixture_id"])
    op.create_table(
        "league_captains",
        sa.Column("token_id", sa.Integer, nullable=False, autoincrement=False),
        sa.Column("team_id", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("token_id", name="pk_league_captains"),
        _fk("league_captains", "token_id", "tokens"),
        _fk("league_captains", "team_id", "league_teams"),
    )
    op.create_index("ix_league_captains_team_id", "league_captains", ["team_id"])
    op.create_table(
        "league_deductions", _id(),
        sa.Column("team_id", sa.Integer, nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("recorded_at", Timestamp, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_league_deductions"),
        _fk("league_deductions", "team_id", "league_teams"),
    )
    op.create_index("ix_league_deductions_team_id", "league_deductions", ["team_id"])
    op.create_table(
        "league_sheets", _id(),
        sa.Column("fixture_id", sa.Integer, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("sheet", sa.Text, nullable=False),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("signed_at", Timestamp, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_league_sheets"),
        _fk("league_sheets", "fixture_id", "league_fixtures"),
        sa.UniqueConstraint("fixture_id", "version",
                            name="uq_league_sheets_fixture_id_version"),
    )


def downgrade() -> None:
    for table in TABLES:
        op.drop_table(table)  # their indexes go with them
