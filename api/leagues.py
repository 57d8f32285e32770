"""Leagues: a club's seasons (``/api/v1/clubs/{club}/seasons``): divisions, teams, squads and
transfers, captains, fixtures generated and changed, legs recorded as matches, results
confirmed and signed, tables and averages (docs/leagues.md).

Reading needs a token of the club, or none for a public club; the secretary (an admin) sets
the season up, generates and changes fixtures; scorekeepers and captains record legs; each
captain confirms its team's results. Every rule and access decision is the service's
(``svc.leagues``): the views pass the caller and shape answers.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Response
from marshmallow import Schema, fields, validate

from referee.core.vocab import LEAGUE_TIE_BREAKERS, SIDES

from .auth import auth, caller
from .context import service
from .openapi import Blueprint
from .pages.common import page_caller
from .schemas import NAME, SLUG, SLUG_FIELD, QueryInteger

blp = Blueprint("leagues", __name__, url_prefix="/api/v1",
                description="Leagues: seasons, fixtures, legs, results, tables and averages")

SEASONS = "/clubs/<string:club>/seasons"
SEASON = SEASONS + "/<string:season>"
FIXTURE = SEASON + "/fixtures/<int:fixture>"
OPTIONAL_BEARER = [{}, {"bearer": []}]
SHEET_BODY = {"type": "object", "description": "the domino-league-sheet/1: format, club, season, "
              "division, fixture, round, date, home and away ({team, name}), walkover_by, legs "
              "(leg, kind, best_of, status, winner, home, away, conceded_by, games: {game, "
              "match, digest, status, winner}), legs_won, result, confirmed, number, key_id, "
              "signed_at, signature (Ed25519 over the RFC 8785 bytes of the rest)"}
DATE = {"description": "YYYY-MM-DD", "format": "date"}
REASON = fields.String(required=True, validate=NAME, metadata={
    "description": "why, as the fixture's history keeps it"})


# ---------------------------------------------------------------------- schemas


class SeasonCreateSchema(Schema):
    slug = fields.String(required=True, validate=SLUG, metadata=SLUG_FIELD)
    name = fields.String(required=True, validate=NAME)
    format = fields.Dict(required=True, metadata={
        "description": "{singles, pairs, best_of} or {legs: [{kind, best_of}]}; with "
                       "singles_each, pairs_each (legs a player may play a fixture) and "
                       "walkover ([legs won, legs lost])"})
    first_day = fields.String(required=True, metadata=DATE)
    weeks_off = fields.List(fields.String(metadata=DATE), load_default=list,
                            validate=validate.Length(max=60))
    last_day = fields.String(load_default=None, allow_none=True, metadata=DATE)
    points = fields.Dict(load_default=None, allow_none=True, metadata={
        "description": "win, draw, loss, per_leg, bonus, bonus_margin"})
    leg_rules = fields.Dict(load_default=None, allow_none=True, metadata={
        "description": "each kind of leg's rules (singles, pairs): a preset or an object"})
    tie_breakers = fields.List(fields.String(validate=validate.OneOf(LEAGUE_TIE_BREAKERS)),
                               load_default=None, allow_none=True)
    promotion = fields.Integer(load_default=0, validate=validate.Range(0, 64))
    relegation = fields.Integer(load_default=0, validate=validate.Range(0, 64))
    min_legs = fields.Integer(load_default=1, validate=validate.Range(1, 1000))
    max_squad = fields.Integer(load_default=None, allow_none=True,
                               validate=validate.Range(1, 100))


class NamedSchema(Schema):
    slug = fields.String(required=True)
    name = fields.String(required=True)


class SeasonSchema(Schema):
    slug = fields.String(required=True)
    name = fields.String(required=True)
    format = fields.Dict(required=True)
    leg_rules = fields.Dict(required=True)
    points = fields.Dict(required=True)
    tie_breakers = fields.List(fields.String(), required=True)
    promotion = fields.Integer(required=True)
    relegation = fields.Integer(required=True)
    min_legs = fields.Integer(required=True)
    max_squad = fields.Integer(required=True, allow_none=True)
    first_day = fields.String(required=True)
    weeks_off = fields.List(fields.String(), required=True)
    last_day = fields.String(required=True, allow_none=True)
    divisions = fields.List(fields.Dict(), required=True, metadata={
        "description": "in order: slug, name, teams (slug, name, venue, min_players, squad)"})
    transfers = fields.List(fields.Dict(), required=True, metadata={
        "description": "player, to, on, reason"})


class DivisionCreateSchema(Schema):
    slug = fields.String(required=True, validate=SLUG, metadata=SLUG_FIELD)
    name = fields.String(required=True, validate=NAME)


class DivisionSchema(NamedSchema):
    position = fields.Integer(required=True, metadata={"description": "0: the top division"})


class TeamCreateSchema(Schema):
    division = fields.String(required=True, validate=SLUG, metadata=SLUG_FIELD)
    slug = fields.String(required=True, validate=SLUG, metadata=SLUG_FIELD)
    name = fields.String(required=True, validate=NAME)
    venue = fields.String(load_default=None, allow_none=True, validate=NAME)
    min_players = fields.Integer(load_default=None, allow_none=True,
                                 validate=validate.Range(1, 100))
    players = fields.List(fields.String(validate=NAME), load_default=None, allow_none=True,
                          validate=validate.Length(min=1, max=100), metadata={
                              "description": "its squad, added with the team (a player "
                                             "refused: no team either)"})
    on = fields.String(load_default=None, allow_none=True, metadata=DATE)


class DivisionEditSchema(Schema):
    name = fields.String(required=True, validate=NAME)


class TeamEditSchema(Schema):
    name = fields.String(validate=NAME, metadata={"description": "its new name"})
    venue = fields.String(allow_none=True, metadata={
        "description": "its new venue; null or empty: none"})
    division = fields.String(validate=SLUG, metadata={
        **SLUG_FIELD, "description": "moved to this division (before the fixtures are made), numbered "
                       "after its teams"})


class TeamEditedSchema(NamedSchema):
    division = fields.String(required=True)
    venue = fields.String(required=True, allow_none=True)
    min_players = fields.Integer(required=True)


class RemovedSchema(NamedSchema):
    removed = fields.Boolean(required=True)
    captains_revoked = fields.Integer(metadata={"description": "a team's: its captains' "
                                                               "tokens revoked"})


class TeamSchema(NamedSchema):
    division = fields.String(required=True)
    venue = fields.String(required=True, allow_none=True)
    min_players = fields.Integer(required=True)
    players = fields.List(fields.String(), required=True, metadata={"description": "as added"})


class PlayersSchema(Schema):
    players = fields.List(fields.String(validate=NAME), required=True,
                          validate=validate.Length(min=1, max=100))
    on = fields.String(load_default=None, allow_none=True, metadata=DATE)


class SquadAddedSchema(Schema):
    players = fields.List(fields.String(), required=True, metadata={"description": "as added"})


class TransferCreateSchema(Schema):
    player = fields.String(required=True, validate=NAME)
    to = fields.String(required=True, validate=SLUG, metadata=SLUG_FIELD)
    reason = REASON
    on = fields.String(load_default=None, allow_none=True, metadata=DATE)


class TransferSchema(Schema):
    player = fields.String(required=True)
    to = fields.String(required=True)
    reason = fields.String(required=True)
    on = fields.String(required=True)

    class Meta:
        include = {"from": fields.String(required=True)}


class CaptainSchema(Schema):
    label = fields.String(load_default=None, allow_none=True, validate=NAME)
    signin = fields.Boolean(load_default=False, metadata={
        "description": "issue the token with a one-time sign-in code, whose QR code (the "
                       "desk's POST /clubs/{club}/desk/qr) signs the captain's phone in on "
                       "the season's captain's desk"})


class CaptainTokenSchema(Schema):
    token = fields.String(required=True, metadata={"description": "shown once"})
    code = fields.String(metadata={
        "description": "with signin: the one-time sign-in code, shown once, valid 10 minutes; "
                       "put it in a URL's fragment only, never in a query string"})
    expires_at = fields.String(metadata={"format": "date-time"})
    opens = fields.String(metadata={"description": "with signin: captain (the page its QR "
                                                   "code opens)"})


class DeductionCreateSchema(Schema):
    points = fields.Integer(required=True, validate=validate.Range(1, 1000))
    reason = REASON


class DeductionSchema(Schema):
    team = fields.String(required=True)
    points = fields.Integer(required=True)
    reason = fields.String(required=True)


class GeneratedSchema(Schema):
    fixtures = fields.Integer(required=True)
    rounds = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True, metadata={
        "description": "each division's rounds"})


class FixtureArgsSchema(Schema):
    division = fields.String(validate=SLUG, metadata=SLUG_FIELD)
    team = fields.String(validate=SLUG, metadata=SLUG_FIELD)
    round = QueryInteger(validate=validate.Range(1, 1000))


class LegsWonSchema(Schema):
    home = fields.Integer(required=True)
    away = fields.Integer(required=True)


class ConfirmedSchema(Schema):
    home = fields.Boolean(required=True)
    away = fields.Boolean(required=True)


class FixtureSchema(Schema):
    id = fields.Integer(required=True)
    division = fields.String(required=True)
    round = fields.Integer(required=True)
    date = fields.String(required=True)
    scheduled = fields.String(required=True, metadata={"description": "the date first given"})
    home = fields.String(required=True)
    away = fields.String(required=True)
    walkover_by = fields.String(required=True, allow_none=True)
    legs_won = fields.Nested(LegsWonSchema, required=True)
    complete = fields.Boolean(required=True)
    version = fields.Integer(required=True, metadata={
        "description": "moved on by each change to the result; a confirmation is of one"})
    confirmed = fields.Nested(ConfirmedSchema, required=True, metadata={
        "description": "whether each captain confirmed this version"})


class FixtureDetailSchema(FixtureSchema):
    walkover_reason = fields.String(required=True, allow_none=True)
    legs = fields.List(fields.Dict(), required=True, metadata={
        "description": "leg, kind, best_of, status, winner, home, away (players), conceded_by, "
                       "games (game, match, status)"})
    history = fields.List(fields.Dict(), required=True, metadata={
        "description": "kind (postponed, conceded, walkover, leg, confirmed), its details, at, by"})
    sheet = fields.Integer(required=True, allow_none=True, metadata={
        "description": "the number of its latest signed sheet (null: none)"})


class PostponeSchema(Schema):
    to = fields.String(required=True, metadata=DATE)
    reason = REASON


class PostponedSchema(Schema):
    fixture = fields.Integer(required=True)
    was = fields.String(required=True)
    date = fields.String(required=True)
    reason = fields.String(required=True)


class WalkoverCreateSchema(Schema):
    by = fields.String(required=True, validate=validate.OneOf(SIDES), metadata={
        "description": "the team that did not turn up"})
    reason = REASON


class SwapSchema(Schema):
    reason = REASON


class SwappedSchema(Schema):
    fixture = fields.Integer(required=True)
    date = fields.String(required=True, metadata={**DATE, "description": "its new date"})
    other = fields.Integer(required=True, metadata={"description": "the two teams' other "
                                                                   "meeting"})
    other_date = fields.String(required=True, metadata={**DATE, "description": "the other "
                                                        "meeting's new date"})
    reason = fields.String(required=True)


class WalkoverSchema(Schema):
    fixture = fields.Integer(required=True)
    walkover_by = fields.String(required=True)
    reason = fields.String(required=True)


class ConcedeCreateSchema(Schema):
    side = fields.String(required=True, validate=validate.OneOf(SIDES))
    reason = REASON


class ConcededSchema(Schema):
    fixture = fields.Integer(required=True)
    leg = fields.Integer(required=True)
    conceded_by = fields.String(required=True, metadata={"description": "home, away or both"})
    reason = fields.String(required=True)


class GameCreateSchema(Schema):
    home = fields.List(fields.String(validate=NAME), validate=validate.Length(min=1, max=2),
                       metadata={"description": "the home team's players (with away)"})
    away = fields.List(fields.String(validate=NAME), validate=validate.Length(min=1, max=2))
    match = fields.Integer(validate=validate.Range(1), metadata={
        "description": "instead: a match of the club recorded already, tagged as the game"})


class GameSchema(Schema):
    fixture = fields.Integer(required=True)
    leg = fields.Integer(required=True)
    game = fields.Integer(required=True)
    match = fields.Integer(required=True, metadata={"description": "the game's match"})


class ConfirmCreateSchema(Schema):
    side = fields.String(load_default=None, allow_none=True,
                         validate=validate.OneOf(SIDES), metadata={
                             "description": "a captain's own team's (the default)"})


class ConfirmationSchema(Schema):
    fixture = fields.Integer(required=True)
    side = fields.String(required=True)
    version = fields.Integer(required=True)
    confirmed = fields.Dict(required=True, metadata={
        "description": "the version each captain confirmed (null: none)"})
    sheet = fields.Dict(required=True, allow_none=True, metadata={
        "description": "the signed sheet, once both have confirmed (null: not yet)"})


class TableRowSchema(Schema):
    place = fields.Integer(required=True)
    team = fields.String(required=True)
    name = fields.String(required=True)
    played = fields.Integer(required=True)
    won = fields.Integer(required=True)
    drawn = fields.Integer(required=True)
    lost = fields.Integer(required=True)
    legs_for = fields.Integer(required=True)
    legs_against = fields.Integer(required=True)
    leg_difference = fields.Integer(required=True)
    points = fields.Integer(required=True)
    deducted = fields.Integer(required=True)
    form = fields.List(fields.String(), required=True)
    zone = fields.String(required=True, allow_none=True)


class TableSchema(Schema):
    division = fields.String(required=True)
    name = fields.String(required=True)
    rows = fields.List(fields.Nested(TableRowSchema), required=True)
    pending = fields.List(fields.List(fields.String()), required=True)
    level_across = fields.List(fields.Dict(), required=True)


class AverageSchema(Schema):
    rank = fields.Integer(required=True, allow_none=True)
    player = fields.String(required=True)
    teams = fields.List(fields.String(), required=True)
    singles_played = fields.Integer(required=True)
    singles_won = fields.Integer(required=True)
    pairs_played = fields.Integer(required=True)
    pairs_won = fields.Integer(required=True)
    legs_played = fields.Integer(required=True)
    legs_won = fields.Integer(required=True)
    win_rate = fields.Float(required=True)
    games_played = fields.Integer(required=True)
    games_won = fields.Integer(required=True)


class AverageArgsSchema(Schema):
    division = fields.String(validate=SLUG, metadata=SLUG_FIELD)


class TeamPageSchema(Schema):
    team = fields.String(required=True)
    name = fields.String(required=True)
    venue = fields.String(required=True, allow_none=True)
    division = fields.String(required=True)
    squad = fields.List(fields.String(), required=True)
    fixtures = fields.List(fields.Nested(FixtureSchema), required=True)
    table = fields.Nested(TableRowSchema, required=True)


# ---------------------------------------------------------------------- the API


@blp.route(SEASONS, methods=["GET"])
@blp.doc(security=OPTIONAL_BEARER)
@blp.response(200, NamedSchema(many=True))
@blp.errors(401, 403, 404)
def list_seasons(club: str):
    """The club's seasons, newest first."""
    return service().leagues.seasons(club, who=page_caller())


@blp.route(SEASONS, methods=["POST"])
@auth.login_required
@blp.arguments(SeasonCreateSchema())
@blp.response(201, NamedSchema)
@blp.errors(401, 403, 404, 409, 415, 422)
def create_season(body: dict[str, Any], club: str):
    """Create a season (admin: the league's secretary): its fixture format, leg rules,
    points, tie-breakers, promotion and relegation places, and calendar."""
    return service().leagues.create_season(club, who=caller(), **body)


@blp.route(SEASON, methods=["GET"])
@blp.doc(security=OPTIONAL_BEARER)
@blp.response(200, SeasonSchema)
@blp.errors(401, 403, 404)
def get_season(club: str, season: str):
    """A season: its settings, divisions, teams and squads, and the transfers made."""
    return service().leagues.season(club, season, who=page_caller())


@blp.route(SEASON + "/divisions", methods=["POST"])
@auth.login_required
@blp.arguments(DivisionCreateSchema())
@blp.response(201, DivisionSchema)
@blp.errors(401, 403, 404, 409, 415, 422)
def add_division(body: dict[str, Any], club: str, season: str):
    """Add a division (admin), below the season's others, before its fixtures are made."""
    return service().leagues.add_division(club, season, body["slug"], body["name"],
                                          who=caller())


@blp.route(SEASON + "/divisions/<string:division>", methods=["PATCH"])
@auth.login_required
@blp.arguments(DivisionEditSchema())
@blp.response(200, DivisionSchema)
@blp.errors(401, 403, 404, 415, 422)
def edit_division(body: dict[str, Any], club: str, season: str, division: str):
    """Rename a division (admin), at any time: its slug, place and fixtures stay."""
    return service().leagues.edit_division(club, season, division, name=body["name"],
                                           who=caller())


@blp.route(SEASON + "/divisions/<string:division>", methods=["DELETE"])
@auth.login_required
@blp.response(200, RemovedSchema)
@blp.errors(401, 403, 404, 422)
def remove_division(club: str, season: str, division: str):
    """Remove a division (admin) before the fixtures are made; 422 while it has teams."""
    return service().leagues.remove_division(club, season, division, who=caller())


@blp.route(SEASON + "/teams", methods=["POST"])
@auth.login_required
@blp.arguments(TeamCreateSchema())
@blp.response(201, TeamSchema)
@blp.errors(401, 403, 404, 409, 415, 422)
def add_team(body: dict[str, Any], club: str, season: str):
    """Add a team to a division (admin), numbered after its others."""
    return service().leagues.add_team(club, season, body["division"], body["slug"],
                                      body["name"], venue=body["venue"],
                                      min_players=body["min_players"],
                                      players=body["players"], on=body["on"], who=caller())


@blp.route(SEASON + "/teams/<string:team>", methods=["GET"])
@blp.doc(security=OPTIONAL_BEARER)
@blp.response(200, TeamPageSchema)
@blp.errors(401, 403, 404)
def get_team(club: str, season: str, team: str):
    """A team: its squad, its fixtures with their results, its line of the table."""
    return service().leagues.team(club, season, team, who=page_caller())


@blp.route(SEASON + "/teams/<string:team>", methods=["PATCH"])
@auth.login_required
@blp.arguments(TeamEditSchema())
@blp.response(200, TeamEditedSchema)
@blp.errors(401, 403, 404, 415, 422)
def edit_team(body: dict[str, Any], club: str, season: str, team: str):
    """Change a team (admin): its name or venue at any time, its division before the fixtures
    are made. Its slug, squad and captains stay."""
    return service().leagues.edit_team(club, season, team, who=caller(), **body)


@blp.route(SEASON + "/teams/<string:team>", methods=["DELETE"])
@auth.login_required
@blp.response(200, RemovedSchema)
@blp.errors(401, 403, 404, 422)
def remove_team(club: str, season: str, team: str):
    """Remove a team (admin) before the fixtures are made, with its squad; its captains'
    tokens are revoked. 422 for a team in a cup's pot or with a points deduction."""
    return service().leagues.remove_team(club, season, team, who=caller())


@blp.route(SEASON + "/teams/<string:team>/players", methods=["POST"])
@auth.login_required
@blp.arguments(PlayersSchema())
@blp.response(201, SquadAddedSchema)
@blp.errors(401, 403, 404, 415, 422)
def add_players(body: dict[str, Any], club: str, season: str, team: str):
    """Add players to the team's squad (admin); 422, and nobody added, for a player in a
    squad of the season already (a move is a transfer)."""
    return {"players": service().leagues.add_players(club, season, team, body["players"],
                                                     on=body["on"], who=caller())}


@blp.route(SEASON + "/transfers", methods=["POST"])
@auth.login_required
@blp.arguments(TransferCreateSchema())
@blp.response(201, TransferSchema)
@blp.errors(401, 403, 404, 415, 422)
def transfer(body: dict[str, Any], club: str, season: str):
    """Move a player to another team's squad (admin), with the reason and the day."""
    return service().leagues.transfer(club, season, body["player"], body["to"],
                                      reason=body["reason"], on=body["on"], who=caller())


@blp.route(SEASON + "/teams/<string:team>/captains", methods=["POST"])
@auth.login_required
@blp.arguments(CaptainSchema())
@blp.response(201, CaptainTokenSchema)
@blp.errors(401, 403, 404, 415, 422)
def captain(body: dict[str, Any], club: str, season: str, team: str):
    """A captain's token for the team (admin), shown once: it records the team's legs and
    confirms its results. With ``signin``, issued with a one-time sign-in code too, for the
    QR code that signs the captain's phone in on the captain's desk."""
    if body["signin"]:
        issued = service().leagues.captain_signin(club, season, team, body["label"],
                                                  who=caller())
        return ({k: issued[k] for k in ("token", "code", "expires_at", "opens")},
                {"Cache-Control": "no-store"})
    return {"token": service().leagues.captain(club, season, team, body["label"],
                                               who=caller())}


@blp.route(SEASON + "/teams/<string:team>/deductions", methods=["POST"])
@auth.login_required
@blp.arguments(DeductionCreateSchema())
@blp.response(201, DeductionSchema)
@blp.errors(401, 403, 404, 415, 422)
def deduct(body: dict[str, Any], club: str, season: str, team: str):
    """A points deduction the league ruled (admin), with its reason."""
    return service().leagues.deduct(club, season, team, body["points"], reason=body["reason"],
                                    who=caller())


@blp.route(SEASON + "/fixtures", methods=["POST"])
@auth.login_required
@blp.response(201, GeneratedSchema)
@blp.errors(401, 403, 404, 422)
def generate(club: str, season: str):
    """Generate every division's fixtures (admin), once, on the season's calendar."""
    return service().leagues.generate(club, season, who=caller())


@blp.route(SEASON + "/fixtures", methods=["GET"])
@blp.doc(security=OPTIONAL_BEARER)
@blp.arguments(FixtureArgsSchema(), location="query")
@blp.response(200, FixtureSchema(many=True))
@blp.errors(401, 403, 404, 422)
def list_fixtures(args: dict[str, Any], club: str, season: str):
    """The season's fixtures (a division's, a team's, a round's), by round."""
    return service().leagues.fixtures(club, season, who=page_caller(), **args)


@blp.route(FIXTURE, methods=["GET"])
@blp.doc(security=OPTIONAL_BEARER)
@blp.response(200, FixtureDetailSchema)
@blp.errors(401, 403, 404)
def get_fixture(club: str, season: str, fixture: int):
    """A fixture: its legs and their games' matches, its history, its sheet's number."""
    return service().leagues.fixture(club, season, fixture, who=page_caller())


@blp.route(FIXTURE + "/postpone", methods=["POST"])
@auth.login_required
@blp.arguments(PostponeSchema())
@blp.response(200, PostponedSchema)
@blp.errors(401, 403, 404, 415, 422)
def postpone(body: dict[str, Any], club: str, season: str, fixture: int):
    """Move the fixture to a new date inside the season (admin); its history keeps the old."""
    return service().leagues.postpone(club, season, fixture, body["to"], reason=body["reason"],
                                      who=caller())


@blp.route(FIXTURE + "/swap", methods=["POST"])
@auth.login_required
@blp.arguments(SwapSchema())
@blp.response(200, SwappedSchema)
@blp.errors(401, 403, 404, 415, 422)
def swap(body: dict[str, Any], club: str, season: str, fixture: int):
    """Swap the fixture's home and away (admin): the two teams' meetings exchange their dates,
    so that on this date they meet at the other's home. 422 once either meeting has begun."""
    return service().leagues.swap(club, season, fixture, reason=body["reason"], who=caller())


@blp.route(FIXTURE + "/walkover", methods=["POST"])
@auth.login_required
@blp.arguments(WalkoverCreateSchema())
@blp.response(200, WalkoverSchema)
@blp.errors(401, 403, 404, 415, 422)
def walkover(body: dict[str, Any], club: str, season: str, fixture: int):
    """Award the fixture as a walkover (admin): ``by`` did not turn up."""
    return service().leagues.walkover(club, season, fixture, body["by"],
                                      reason=body["reason"], who=caller())


@blp.route(FIXTURE + "/legs/<int:leg>/concede", methods=["POST"])
@auth.login_required
@blp.arguments(ConcedeCreateSchema())
@blp.response(200, ConcededSchema)
@blp.errors(401, 403, 404, 415, 422)
def concede(body: dict[str, Any], club: str, season: str, fixture: int, leg: int):
    """Concede a leg (the side's captain, or admin): it goes to the other team; conceded by
    both, it is void."""
    return service().leagues.concede(club, season, fixture, leg, body["side"],
                                     reason=body["reason"], who=caller())


@blp.route(FIXTURE + "/legs/<int:leg>/games", methods=["POST"])
@auth.login_required
@blp.arguments(GameCreateSchema())
@blp.response(201, GameSchema)
@blp.errors(401, 403, 404, 409, 415, 422)
def record_game(body: dict[str, Any], club: str, season: str, fixture: int, leg: int):
    """The leg's next game (scorekeeper; a captain for its own team's fixtures): a new match
    with the players each team names (``home``, ``away``: of its squad; home sits on side
    0), or ``match``, a match of the club recorded already, tagged as the game. Its events are
    then recorded as any match's. 422 for players not of the fixture's two squads."""
    if body.get("match") is not None:
        return service().leagues.attach_leg(club, season, fixture, leg, body["match"],
                                            who=caller())
    return service().leagues.record_leg(club, season, fixture, leg,
                                        home=body.get("home", []), away=body.get("away", []),
                                        who=caller())


@blp.route(FIXTURE + "/confirm", methods=["POST"])
@auth.login_required
@blp.arguments(ConfirmCreateSchema())
@blp.response(200, ConfirmationSchema)
@blp.errors(401, 403, 404, 415, 422)
def confirm(body: dict[str, Any], club: str, season: str, fixture: int):
    """Confirm the fixture's result (a captain, for its own team; 403 for another team's):
    once both have, its result sheet is signed."""
    return service().leagues.confirm(club, season, fixture, side=body["side"], who=caller())


@blp.route(FIXTURE + "/sheet", methods=["GET"])
@blp.doc(security=OPTIONAL_BEARER)
@blp.response(200, SHEET_BODY)
@blp.errors(401, 403, 404)
def get_sheet(club: str, season: str, fixture: int):
    """The fixture's signed result sheet (``domino-league-sheet/1``), the newest; 404 until
    both captains have confirmed."""
    sheet = service().leagues.sheet(club, season, fixture, who=page_caller())
    return Response(json.dumps(sheet, ensure_ascii=False), mimetype="application/json")


@blp.route(SEASON + "/divisions/<string:division>/table", methods=["GET"])
@blp.doc(security=OPTIONAL_BEARER)
@blp.response(200, TableSchema)
@blp.errors(401, 403, 404)
def get_table(club: str, season: str, division: str):
    """The division's table: places, results, legs, points, form, promotion and relegation."""
    return service().leagues.table(club, season, division, who=page_caller())


@blp.route(SEASON + "/averages", methods=["GET"])
@blp.doc(security=OPTIONAL_BEARER)
@blp.arguments(AverageArgsSchema(), location="query")
@blp.response(200, AverageSchema(many=True))
@blp.errors(401, 403, 404, 422)
def get_averages(args: dict[str, Any], club: str, season: str):
    """The players' averages (the season's, or a division's), ranked by win rate."""
    return service().leagues.averages(club, season, who=page_caller(), **args)
