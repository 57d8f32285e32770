"""Leagues: seasons, divisions, teams, fixtures, legs, sheets, cups (referee.store.leagues).

Built the first time one of them is named (``referee.store.schema.LATER``).
"""

from __future__ import annotations

from sqlalchemy import (
    Column,
    ForeignKey,
    Index,
    Integer,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    UniqueConstraint,
)

from ..core.vocab import (
    CUP_ENTRANTS,
    CUP_FORMATS,
    NAME_LENGTH,
    SIDES,
    SLUG_LENGTH,
    TIE_AWARDS,
)
from .schema import (
    Json,
    Timestamp,
    one_of,
    tables_so_far,
)

# ------------------------------------------------------------------ leagues
# A league run by its organising club (migration 0019, referee.store.leagues, docs/leagues.md):
# seasons of divisions of teams, each team's squad of the club's players, the fixtures
# generated for each division, their legs (each game of a leg an ordinary match of the club),
# what happened to each fixture (its history), captains' tokens, points deductions and the
# signed result sheets. The league engine (referee.service.leagues) computes from these.

league_seasons = Table(
    "league_seasons", tables_so_far,
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
    "league_divisions", tables_so_far,
    Column("id", Integer, primary_key=True),
    Column("season_id", Integer, ForeignKey("league_seasons.id"), nullable=False),
    Column("slug", String(SLUG_LENGTH), nullable=False),
    Column("name", String(NAME_LENGTH), nullable=False),
    Column("position", Integer, nullable=False),  # the divisions' order, the top one first
    UniqueConstraint("season_id", "slug"),
)

league_teams = Table(
    "league_teams", tables_so_far,
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
    "league_squads", tables_so_far,
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
    "league_fixtures", tables_so_far,
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
    "league_legs", tables_so_far,
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
    "league_leg_matches", tables_so_far,
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
    "league_leg_results", tables_so_far,
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
    "league_fixture_history", tables_so_far,
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
    "league_captains", tables_so_far,
    Column("token_id", Integer, ForeignKey("tokens.id"), primary_key=True, autoincrement=False),
    Column("team_id", Integer, ForeignKey("league_teams.id"), nullable=False),
    Index(None, "team_id"),
)

# A points deduction the league ruled, with its reason.
league_deductions = Table(
    "league_deductions", tables_so_far,
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
    "league_sheets", tables_so_far,
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
    "league_cups", tables_so_far,
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
    "league_cup_matches", tables_so_far,
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
    "league_cup_awards", tables_so_far,
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
