"""Leagues (migration 0019, docs/leagues.md): seasons, divisions, teams, squads and transfers,
fixtures with their history, legs named or conceded, each leg's games as matches, captains,
points deductions and the signed result sheets.

A leg's games are ordinary matches of the organising club, recorded as any other; what is kept
here is which fixture, leg and game each is (``league_leg_matches``), and each match's side 0
is the home team's. What a fixture's legs came to is read from the matches' projections
(:func:`leg_games`), so a ruling on a leg's match changes the fixture, the table and the
averages at once.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import (
    Connection,
    Integer,
    Row,
    any_,
    bindparam,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from .dialects import postgresql
from .errors import AlreadyExists
from .schema import (
    league_captains,
    league_cups,
    league_deductions,
    league_divisions,
    league_fixture_history,
    league_fixtures,
    league_leg_matches,
    league_leg_results,
    league_legs,
    league_seasons,
    league_sheets,
    league_squads,
    league_teams,
    match_players,
    matches,
    players,
)

# The league's own fixtures: not a team cup's ties (migration 0027), which are fixtures too, of
# the cup's teams, but count in no table, average, listing, feed or leg result of the league.
LEAGUE_ONLY = league_fixtures.c.cup_id.is_(None)


def among(conn: Connection, column: Any, ids: Sequence[int]) -> Any:
    """``column IN ids``; on PostgreSQL ``column = ANY(:ids)``, one array parameter: a
    division's legs are thousands of ids, which an IN list would send (and SQLAlchemy render)
    as thousands of parameters."""
    if conn.dialect.name == "postgresql":
        return column == any_(bindparam(None, list(ids), type_=postgresql.ARRAY(Integer)))
    return column.in_(ids)


def _insert(conn: Connection, table: Any, what: str, **values: Any) -> int:
    """A row inserted in a savepoint; AlreadyExists (saying ``what``) for a unique value taken."""
    try:
        with conn.begin_nested():
            result = conn.execute(insert(table).values(**values))
    except IntegrityError:
        raise AlreadyExists(what) from None
    return result.inserted_primary_key[0]


# ------------------------------------------------------------------ seasons, divisions, teams

def insert_season(conn: Connection, club_id: int, values: dict[str, Any],
                  created_at: dt.datetime) -> int:
    """A new season; AlreadyExists for a slug the club has already."""
    return _insert(conn, league_seasons, f"a season {values['slug']!r} exists already",
                   club_id=club_id, created_at=created_at, **values)


def season_row(conn: Connection, club_id: int, slug: str) -> Row | None:
    return conn.execute(select(league_seasons).where(league_seasons.c.club_id == club_id,
                                                     league_seasons.c.slug == slug)).first()


def season_rows(conn: Connection, club_id: int) -> list[Row]:
    """The club's seasons, newest first."""
    return conn.execute(select(league_seasons).where(league_seasons.c.club_id == club_id)
                        .order_by(league_seasons.c.id.desc())).all()


def insert_division(conn: Connection, season_id: int, slug: str, name: str,
                    position: int) -> int:
    return _insert(conn, league_divisions, f"a division {slug!r} exists already",
                   season_id=season_id, slug=slug, name=name, position=position)


def division_rows(conn: Connection, season_id: int) -> list[Row]:
    """The season's divisions, the top one first."""
    return conn.execute(select(league_divisions).where(league_divisions.c.season_id == season_id)
                        .order_by(league_divisions.c.position)).all()


def insert_team(conn: Connection, season_id: int, division_id: int, values: dict[str, Any]
                ) -> int:
    """A team, numbered after the division's others; AlreadyExists for a slug the season has."""
    position = len(team_rows(conn, season_id, division_id))
    return _insert(conn, league_teams, f"a team {values['slug']!r} exists already",
                   season_id=season_id, division_id=division_id, position=position, **values)


def team_rows(conn: Connection, season_id: int, division_id: int | None = None) -> list[Row]:
    """The season's teams (or one division's), by division and number."""
    query = select(league_teams).where(league_teams.c.season_id == season_id)
    if division_id is not None:
        query = query.where(league_teams.c.division_id == division_id)
    return conn.execute(query.order_by(league_teams.c.division_id,
                                       league_teams.c.position)).all()


def update_division(conn: Connection, division_id: int, name: str) -> None:
    conn.execute(update(league_divisions).where(league_divisions.c.id == division_id)
                 .values(name=name))


def delete_division(conn: Connection, season_id: int, division_id: int) -> None:
    """The division (with no teams) deleted; those below it move up a place."""
    gone = conn.execute(select(league_divisions.c.position).where(
        league_divisions.c.id == division_id)).scalar_one()
    conn.execute(delete(league_divisions).where(league_divisions.c.id == division_id))
    conn.execute(update(league_divisions).where(
        league_divisions.c.season_id == season_id, league_divisions.c.position > gone)
        .values(position=league_divisions.c.position - 1))


def update_team(conn: Connection, team_id: int, **values: Any) -> None:
    """The team's name, venue or division (a move: numbered after its new division's others,
    those after it in the old one moving up a place)."""
    if "division_id" in values:
        was = conn.execute(select(league_teams).where(league_teams.c.id == team_id)).one()
        if was.division_id != values["division_id"]:
            values["position"] = len(team_rows(conn, was.season_id, values["division_id"]))
            _close_up(conn, was)
    conn.execute(update(league_teams).where(league_teams.c.id == team_id).values(**values))


def delete_team(conn: Connection, team_id: int) -> list[int]:
    """The team deleted with its squad's rows and its captains' bindings (before its season's
    fixtures: it has no fixture, leg or sheet); its division's later teams move up a place.
    The captains' tokens' ids, for the caller to revoke."""
    was = conn.execute(select(league_teams).where(league_teams.c.id == team_id)).one()
    tokens = list(conn.execute(select(league_captains.c.token_id).where(
        league_captains.c.team_id == team_id)).scalars())
    conn.execute(delete(league_captains).where(league_captains.c.team_id == team_id))
    conn.execute(delete(league_squads).where(league_squads.c.team_id == team_id))
    conn.execute(delete(league_teams).where(league_teams.c.id == team_id))
    _close_up(conn, was)
    return tokens


def _close_up(conn: Connection, gone: Row) -> None:
    """The teams numbered after ``gone`` in its division move up a place."""
    conn.execute(update(league_teams).where(
        league_teams.c.division_id == gone.division_id, league_teams.c.position > gone.position)
        .values(position=league_teams.c.position - 1))


def cups_with_team(conn: Connection, season_id: int, team_id: int) -> list[str]:
    """The slugs of the season's team cups whose pot holds the team (by its id, as text)."""
    found = conn.execute(select(league_cups.c.slug, league_cups.c.entrants).where(
        league_cups.c.season_id == season_id, league_cups.c.entrant_kind == "teams")).all()
    return [slug for slug, entrants in found if str(team_id) in entrants]


# ------------------------------------------------------------------ squads

def join_squad(conn: Connection, season_id: int, team_id: int, player_id: int, joined_on: str,
               reason: str | None = None) -> int:
    """The player in the team's squad from ``joined_on``; AlreadyExists when the player is in a
    squad of the season already (the database's unique index says so, whatever the service
    checked before)."""
    return _insert(conn, league_squads, f"player {player_id} is in a squad already",
                   season_id=season_id, team_id=team_id, player_id=player_id,
                   joined_on=joined_on, reason=reason)


def leave_squad(conn: Connection, season_id: int, player_id: int, left_on: str) -> int:
    """The player's current squad ended on ``left_on``: the rows changed (0 or 1)."""
    return conn.execute(update(league_squads).where(
        league_squads.c.season_id == season_id, league_squads.c.player_id == player_id,
        league_squads.c.left_on.is_(None)).values(left_on=left_on)).rowcount


def squad_rows(conn: Connection, season_id: int, *, current: bool = True,
               team_id: int | None = None) -> list[Row]:
    """The season's squad rows (or one team's) with each player's name (the current ones only,
    unless ``current`` is False: then every row, transfers too, oldest first)."""
    query = (select(league_squads, players.c.name)
             .join(players, players.c.id == league_squads.c.player_id)
             .where(league_squads.c.season_id == season_id))
    if team_id is not None:
        query = query.where(league_squads.c.team_id == team_id)
    if current:
        query = query.where(league_squads.c.left_on.is_(None))
    return conn.execute(query.order_by(league_squads.c.id)).all()


# ------------------------------------------------------------------ fixtures

def insert_fixtures(conn: Connection, rows: Sequence[dict[str, Any]]) -> None:
    """Fixtures in one statement (each: season_id, division_id, round, home_id, away_id,
    played_on, scheduled_on); their version starts at 1."""
    if rows:
        conn.execute(insert(league_fixtures), [dict(row, version=1) for row in rows])


def fixture_rows(conn: Connection, season_id: int, division_id: int | None = None,
                 team_id: int | None = None) -> list[Row]:
    """The season's league fixtures (or a division's, or a team's), by round: never a cup's
    tie (:data:`LEAGUE_ONLY`)."""
    query = select(league_fixtures).where(league_fixtures.c.season_id == season_id,
                                          LEAGUE_ONLY)
    if division_id is not None:
        query = query.where(league_fixtures.c.division_id == division_id)
    if team_id is not None:
        query = query.where((league_fixtures.c.home_id == team_id)
                            | (league_fixtures.c.away_id == team_id))
    return conn.execute(query.order_by(league_fixtures.c.round, league_fixtures.c.id)).all()


def insert_cup_fixture(conn: Connection, values: dict[str, Any]) -> int:
    """A cup's tie's fixture (season_id, division_id, round, home_id, away_id, played_on,
    scheduled_on, cup_id, cup_tie), version 1; AlreadyExists when the tie has one."""
    return _insert(conn, league_fixtures, f"tie {values['cup_tie']} has its fixture already",
                   version=1, **values)


def cup_fixture_rows(conn: Connection, cup_id: int) -> list[Row]:
    """The fixtures of a cup's ties (the league's reads never see them: :data:`LEAGUE_ONLY`)."""
    return conn.execute(select(league_fixtures).where(league_fixtures.c.cup_id == cup_id)
                        .order_by(league_fixtures.c.id)).all()


def season_cup_fixture_rows(conn: Connection, season_id: int, team_id: int | None = None
                            ) -> list[Row]:
    """The season's cups' ties' fixtures (or a team's), each with its cup's slug (``cup``),
    by id: the desks list them beside the league's, which never include them. A fixture a
    tie no longer has (``cup_tie`` None: a ruling changed who plays the tie) is left out."""
    f = league_fixtures
    query = (select(f, league_cups.c.slug.label("cup"))
             .join(league_cups, league_cups.c.id == f.c.cup_id)
             .where(f.c.season_id == season_id, f.c.cup_tie.is_not(None)))
    if team_id is not None:
        query = query.where((f.c.home_id == team_id) | (f.c.away_id == team_id))
    return conn.execute(query.order_by(f.c.id)).all()


def fixture_row(conn: Connection, fixture_id: int, *, for_update: bool = False) -> Row | None:
    query = select(league_fixtures).where(league_fixtures.c.id == fixture_id)
    if for_update and conn.dialect.name == "postgresql":
        query = query.with_for_update()  # two captains' confirmations queue (SQLite's do)
    return conn.execute(query).first()


def update_fixture(conn: Connection, fixture_id: int, **values: Any) -> None:
    conn.execute(update(league_fixtures).where(league_fixtures.c.id == fixture_id)
                 .values(**values))


def changed(conn: Connection, fixture_id: int) -> None:
    """The fixture's result changed: a new version, which neither captain has confirmed."""
    conn.execute(update(league_fixtures).where(league_fixtures.c.id == fixture_id).values(
        version=league_fixtures.c.version + 1, home_confirmed=None, away_confirmed=None))


def add_history(conn: Connection, fixture_id: int, kind: str, detail: dict[str, Any],
                recorded_at: dt.datetime, recorded_by: str | None = None,
                token_id: int | None = None) -> None:
    conn.execute(insert(league_fixture_history).values(
        fixture_id=fixture_id, kind=kind, detail=detail, recorded_at=recorded_at,
        recorded_by=recorded_by, token_id=token_id))


def history_rows(conn: Connection, fixture_id: int) -> list[Row]:
    """What happened to the fixture, oldest first."""
    return conn.execute(select(league_fixture_history)
                        .where(league_fixture_history.c.fixture_id == fixture_id)
                        .order_by(league_fixture_history.c.id)).all()


def postponements(conn: Connection, fixture_ids: Sequence[int]) -> dict[int, int]:
    """How many times each of these fixtures was postponed (those never moved left out)."""
    if not fixture_ids:
        return {}
    history = league_fixture_history.c
    found = conn.execute(select(history.fixture_id, func.count())
                         .where(history.fixture_id.in_(fixture_ids),
                                history.kind == "postponed")
                         .group_by(history.fixture_id)).all()
    return {row[0]: int(row[1]) for row in found}


# ------------------------------------------------------------------ legs

def set_leg(conn: Connection, fixture_id: int, leg: int, conceded_by: str | None,
            reason: str | None) -> None:
    """The leg's concession (``conceded_by`` None: none), written over what it was."""
    found = conn.execute(update(league_legs).where(
        league_legs.c.fixture_id == fixture_id, league_legs.c.leg == leg).values(
        conceded_by=conceded_by, reason=reason)).rowcount
    if not found:
        conn.execute(insert(league_legs).values(fixture_id=fixture_id, leg=leg,
                                                conceded_by=conceded_by, reason=reason))


def leg_rows(conn: Connection, fixture_ids: Iterable[int]) -> list[Row]:
    """The concessions of the fixtures' legs."""
    ids = list(fixture_ids)
    if not ids:
        return []
    return conn.execute(select(league_legs).where(among(conn, league_legs.c.fixture_id, ids))
                        .order_by(league_legs.c.fixture_id, league_legs.c.leg)).all()


def insert_leg_matches(conn: Connection, rows: Sequence[dict[str, Any]]) -> None:
    """Matches tagged as games of legs (each: match_id, fixture_id, leg, game); AlreadyExists
    when a match is a game already or the game has its match."""
    if not rows:
        return
    try:
        with conn.begin_nested():
            conn.execute(insert(league_leg_matches), list(rows))
    except IntegrityError:
        raise AlreadyExists("that game of the leg has its match already") from None


def leg_match_of(conn: Connection, match_id: int) -> Row | None:
    """The fixture, leg and game a match is, if it is one."""
    return conn.execute(select(league_leg_matches)
                        .where(league_leg_matches.c.match_id == match_id)).first()


def leg_games(conn: Connection, fixture_ids: Iterable[int]) -> list[Row]:
    """Every game of the fixtures' legs with its match's status and winner: (fixture_id, leg,
    game, match_id, status, winner), by fixture, leg and game."""
    ids = list(fixture_ids)
    if not ids:
        return []
    lm = league_leg_matches
    return conn.execute(
        select(lm.c.fixture_id, lm.c.leg, lm.c.game, lm.c.match_id, matches.c.status,
               matches.c.winner)
        .join(matches, matches.c.id == lm.c.match_id)
        .where(among(conn, lm.c.fixture_id, ids))
        .order_by(lm.c.fixture_id, lm.c.leg, lm.c.game)).all()


def leg_seats(conn: Connection, fixture_ids: Iterable[int]) -> list[Row]:
    """Who sat in each game of the fixtures' legs: (fixture_id, leg, game, side, seat,
    player_id), by fixture, leg, game and seat."""
    ids = list(fixture_ids)
    if not ids:
        return []
    lm = league_leg_matches
    return conn.execute(
        select(lm.c.fixture_id, lm.c.leg, lm.c.game, match_players.c.side,
               match_players.c.seat, match_players.c.player_id)
        .join(match_players, match_players.c.match_id == lm.c.match_id)
        .where(lm.c.fixture_id.in_(ids))
        .order_by(lm.c.fixture_id, lm.c.leg, lm.c.game, match_players.c.seat)).all()


def seats_of(conn: Connection, match_ids: Sequence[int]) -> list[Row]:
    """The matches' seats: (match_id, side, player_id), by match and seat. A division's legs
    are some thousands of matches among a league's hundred thousand: on PostgreSQL the ids
    are a table joined to the seats (``unnest``), so that the planner looks each match up by
    its key instead of reading every seat of the club to hash them."""
    if not match_ids:
        return []
    mp = match_players
    if conn.dialect.name == "postgresql":
        wanted = func.unnest(bindparam(None, list(match_ids), type_=postgresql.ARRAY(Integer))
                             ).table_valued("id").render_derived("wanted")
        query = (select(mp.c.match_id, mp.c.side, mp.c.player_id)
                 .select_from(wanted.join(mp, mp.c.match_id == wanted.c.id)))
    else:
        query = select(mp.c.match_id, mp.c.side, mp.c.player_id).where(
            mp.c.match_id.in_(match_ids))
    return conn.execute(query.order_by(mp.c.match_id, mp.c.seat)).all()


# ------------------------------------------------------------------ the legs' results

GAME_MARK = {0: "h", 1: "a", None: "d"}  # a finished game's winner (side 0 home, 1 away; drawn)


def derived_leg_results(conn: Connection, fixture_ids: Sequence[int] | None = None, *,
                        cups: bool = True) -> list[dict[str, Any]]:
    """The ``league_leg_results`` rows the fixtures' legs come to now (every fixture's for
    None), by fixture and leg: each finished game's winner in order (a game in play or
    abandoned counts for nothing yet), the seats of the leg's first game (side 0 the home
    team's), its concession. A leg with none of these has no row; nor has a cup's tie's leg
    (:data:`LEAGUE_ONLY`: the tables and averages read these rows, and a cup's tie is read
    from its games). ``cups`` False: a database from before cup ties (migration 0024's fill,
    whose fixtures have no ``cup_id`` yet), every fixture taken."""
    lm, f = league_leg_matches, league_fixtures
    fixtures_q = select(f.c.id, f.c.season_id, f.c.division_id)
    if cups:
        fixtures_q = fixtures_q.where(LEAGUE_ONLY)
    games_q = (select(lm.c.fixture_id, lm.c.leg, lm.c.game, lm.c.match_id, matches.c.status,
                      matches.c.winner)
               .join(matches, matches.c.id == lm.c.match_id))
    legs_q = select(league_legs)
    if fixture_ids is not None:
        ids = list(fixture_ids)
        if not ids:
            return []
        fixtures_q = fixtures_q.where(among(conn, f.c.id, ids))
        games_q = games_q.where(among(conn, lm.c.fixture_id, ids))
        legs_q = legs_q.where(among(conn, league_legs.c.fixture_id, ids))
    homes = {row.id: (row.season_id, row.division_id) for row in conn.execute(fixtures_q)}
    found: dict[tuple[int, int], dict[str, Any]] = {}

    def line(key: tuple[int, int]) -> dict[str, Any]:
        if key not in found:
            season_id, division_id = homes[key[0]]
            found[key] = {"fixture_id": key[0], "leg": key[1], "season_id": season_id,
                          "division_id": division_id, "games": "", "home": [], "away": [],
                          "conceded_by": None, "reason": None}
        return found[key]

    first: dict[int, tuple[int, int]] = {}
    for fixture, leg, game, match_id, status, winner in conn.execute(
            games_q.order_by(lm.c.fixture_id, lm.c.leg, lm.c.game)):
        if fixture not in homes:
            continue  # a cup's tie's
        row = line((fixture, leg))
        if game == 1:
            first[match_id] = (fixture, leg)
        if status == "finished":
            row["games"] += GAME_MARK[winner]
    for match_id, side, player in seats_of(conn, list(first)):
        line(first[match_id])["home" if side == 0 else "away"].append(str(player))
    for given in conn.execute(legs_q):
        if given.fixture_id not in homes:
            continue  # a cup's tie's
        row = line((given.fixture_id, given.leg))
        row["conceded_by"], row["reason"] = given.conceded_by, given.reason
    return [{**row, "home": ",".join(row["home"]), "away": ",".join(row["away"])}
            for _, row in sorted(found.items())]


def project_legs(conn: Connection, fixture_ids: Iterable[int] | None = None, *,
                 cups: bool = True) -> int:
    """The fixtures' rows of ``league_leg_results`` written again from their legs (every
    fixture's for None: a rebuild, migration 0024's fill, which says ``cups`` False: see
    :func:`derived_leg_results`), in the caller's transaction: the rows written."""
    ids = None if fixture_ids is None else sorted(set(fixture_ids))
    if ids and conn.dialect.name == "postgresql":
        # The fixtures locked first (in id order), then read: two changes to one fixture's
        # legs at once (an append on one game, a concession of another leg) take turns, and
        # the second reads what the first committed instead of writing rows from before it.
        # SQLite's writers take turns already.
        conn.execute(select(league_fixtures.c.id).where(among(conn, league_fixtures.c.id, ids))
                     .order_by(league_fixtures.c.id).with_for_update())
    rows = derived_leg_results(conn, ids, cups=cups)
    results = league_leg_results.c
    if ids is None:
        conn.execute(delete(league_leg_results))
    elif ids:
        conn.execute(delete(league_leg_results).where(among(conn, results.fixture_id, ids)))
    if rows:
        conn.execute(insert(league_leg_results), rows)
    return len(rows)


def leg_results(conn: Connection, *, season_id: int | None = None,
                division_id: int | None = None,
                fixture_ids: Sequence[int] | None = None) -> list[Row]:
    """The stored legs' results (a season's, a division's, or some fixtures'): (fixture_id,
    leg, games, home, away, conceded_by, reason), by fixture and leg."""
    r = league_leg_results.c
    query = select(r.fixture_id, r.leg, r.games, r.home, r.away, r.conceded_by, r.reason)
    if division_id is not None:
        query = query.where(r.division_id == division_id)
    elif season_id is not None:
        query = query.where(r.season_id == season_id)
    if fixture_ids is not None:
        if not fixture_ids:
            return []
        query = query.where(among(conn, r.fixture_id, fixture_ids))
    return conn.execute(query.order_by(r.fixture_id, r.leg)).all()


def fixtures_of_matches(conn: Connection, match_ids: Sequence[int]) -> list[int]:
    """The fixtures whose legs' games are among these matches."""
    if not match_ids:
        return []
    lm = league_leg_matches.c
    return list(conn.execute(select(lm.fixture_id).distinct()
                             .where(among(conn, lm.match_id, list(match_ids)))).scalars())


def player_names(conn: Connection, player_ids: Iterable[int]) -> dict[int, str]:
    """The players' names, by id."""
    ids = sorted(set(player_ids))
    if not ids:
        return {}
    return dict(conn.execute(select(players.c.id, players.c.name)
                             .where(players.c.id.in_(ids))).all())


# ------------------------------------------------------------------ captains, deductions, sheets

def bind_captain(conn: Connection, token_id: int, team_id: int) -> None:
    conn.execute(insert(league_captains).values(token_id=token_id, team_id=team_id))


def captain_team(conn: Connection, token_id: int) -> int | None:
    """The team the token is captain of, if it is a captain's."""
    return conn.execute(select(league_captains.c.team_id)
                        .where(league_captains.c.token_id == token_id)).scalar()


def captain_season(conn: Connection, token_id: int) -> str | None:
    """The slug of the season whose team the token is captain of, if it is a captain's."""
    return conn.execute(select(league_seasons.c.slug)
                        .join(league_teams, league_teams.c.season_id == league_seasons.c.id)
                        .join(league_captains, league_captains.c.team_id == league_teams.c.id)
                        .where(league_captains.c.token_id == token_id)).scalar()


def captains(conn: Connection, token_ids: Sequence[int]) -> dict[int, Row]:
    """The captains among these tokens: each one's team (``season``: its season's slug,
    ``season_name``, ``team``: the team's slug, ``name``), by token id, in one query (the club
    desk lists hundreds of tokens)."""
    if not token_ids:
        return {}
    c, t, s = league_captains.c, league_teams.c, league_seasons.c
    rows = conn.execute(select(c.token_id, s.slug.label("season"), s.name.label("season_name"),
                               t.slug.label("team"), t.name)
                        .join(league_teams, league_teams.c.id == c.team_id)
                        .join(league_seasons, league_seasons.c.id == t.season_id)
                        .where(among(conn, c.token_id, list(token_ids)))).all()
    return {r.token_id: r for r in rows}


def insert_deduction(conn: Connection, team_id: int, points: int, reason: str,
                     recorded_at: dt.datetime) -> None:
    conn.execute(insert(league_deductions).values(team_id=team_id, points=points,
                                                  reason=reason, recorded_at=recorded_at))


def deduction_rows(conn: Connection, team_ids: Iterable[int]) -> list[Row]:
    ids = list(team_ids)
    if not ids:
        return []
    return conn.execute(select(league_deductions).where(league_deductions.c.team_id.in_(ids))
                        .order_by(league_deductions.c.id)).all()


def insert_sheet(conn: Connection, fixture_id: int, version: int, sheet: str, digest: str,
                 signed_at: dt.datetime) -> None:
    """A signed sheet of the fixture's ``version``; AlreadyExists when it has one."""
    _insert(conn, league_sheets, f"fixture {fixture_id}'s sheet of version {version}",
            fixture_id=fixture_id, version=version, sheet=sheet, digest=digest,
            signed_at=signed_at)


def sheet_rows(conn: Connection, fixture_id: int) -> list[Row]:
    """The fixture's signed sheets, oldest first (the last is its sheet)."""
    return conn.execute(select(league_sheets).where(league_sheets.c.fixture_id == fixture_id)
                        .order_by(league_sheets.c.version)).all()

