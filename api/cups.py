"""Cups (``/api/v1/clubs/{club}/cups``): a club's knockouts, of a season's teams or of the club's
players or pairs; the draw from a recorded seed (the first of the pot seeded); a tie's matches
started, or its result from matches recorded already, or the tie conceded or given as a
walkover without a match; the cup whole with its bracket (docs/leagues.md, "Cups").

Reading needs a token of the club, or none for a public club; the secretary (an admin) creates
and draws a cup; scorekeepers record its ties' matches. Every rule and access decision is the
service's (``svc.leagues``): the views pass the caller and shape answers.
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from referee.core.vocab import (
    BRACKETS,
    CUP_ENTRANTS,
    CUP_FORMATS,
    SIDES,
    TIE_AWARDS,
    TIE_STATUSES,
)

from .auth import auth, caller
from .context import service
from .openapi import Blueprint
from .pages.common import page_caller
from .schemas import NAME, REASON, SLUG, SLUG_FIELD

blp = Blueprint("cups", __name__, url_prefix="/api/v1",
                description="Cups: knockouts drawn from a recorded seed, their ties and brackets")

CUPS = "/clubs/<string:club>/cups"
CUP = CUPS + "/<string:cup>"
TIE = CUP + "/ties/<string:tie>"
OPTIONAL_BEARER = [{}, {"bearer": []}]
SEED = {"description": "a whole number from 0 to 2**64 - 1, recorded with the draw"}
TIE_ID = {"description": "W{round}-{tie} (winners' bracket), L{round}-{tie} (losers'), F1, F2"}
ENTRANT = {"description": "an entrant's key: a team's slug, a player's name, a pair's two "
                         "names joined by ' & '"}


class CupCreateSchema(Schema):
    slug = fields.String(required=True, validate=SLUG, metadata=SLUG_FIELD)
    name = fields.String(required=True, validate=NAME)
    kind = fields.String(load_default="teams", validate=validate.OneOf(CUP_ENTRANTS))
    season = fields.String(load_default=None, allow_none=True, validate=SLUG, metadata={
        **SLUG_FIELD, "description": "the season whose cup it is (a cup of teams needs one)"})
    format = fields.String(load_default="single_elimination",
                           validate=validate.OneOf(CUP_FORMATS))
    best_of = fields.Integer(load_default=1, validate=validate.Range(1, 9), metadata={
        "description": "the matches a tie is the best of (odd)"})
    rules = fields.Dict(load_default=None, allow_none=True, metadata={
        "description": "its matches' rules by kind (singles, pairs): a preset or an object; "
                       "the season's leg rules by default"})
    entrants = fields.List(fields.Raw(), required=True, validate=validate.Length(min=2, max=128),
                           metadata={"description": "the pot in order, best first: team slugs, "
                                                    "player names, or pairs [name, name]"})


class CupCreatedSchema(Schema):
    slug = fields.String(required=True)
    name = fields.String(required=True)
    season = fields.String(required=True, allow_none=True)
    kind = fields.String(required=True)
    format = fields.String(required=True)
    best_of = fields.Integer(required=True)
    entrants = fields.List(fields.String(metadata=ENTRANT), required=True)


class CupSummarySchema(Schema):
    slug = fields.String(required=True)
    name = fields.String(required=True)
    season = fields.String(required=True, allow_none=True)
    kind = fields.String(required=True, validate=validate.OneOf(CUP_ENTRANTS))
    format = fields.String(required=True, validate=validate.OneOf(CUP_FORMATS))
    best_of = fields.Integer(required=True)
    entrants = fields.Integer(required=True, metadata={"description": "how many"})
    drawn = fields.Boolean(required=True)
    champion = fields.String(required=True, allow_none=True, metadata=ENTRANT)
    champion_name = fields.String(required=True, allow_none=True, metadata={
        "description": "the champion's name (a team's, where the key is its slug)"})


class CupArgsSchema(Schema):
    season = fields.String(load_default=None, validate=SLUG, metadata={
        **SLUG_FIELD, "description": "only this season's cups"})


class DrawCreateSchema(Schema):
    seed = fields.Integer(load_default=None, allow_none=True,
                          validate=validate.Range(0, 2**64 - 1), metadata={
                              **SEED, "description": SEED["description"]
                              + "; a new one is chosen when none is given"})
    seeded = fields.Integer(load_default=0, validate=validate.Range(0, 128), metadata={
        "description": "the first so many of the pot seeded, in its order"})
    ranking = fields.List(fields.String(metadata=ENTRANT), load_default=None, allow_none=True,
                          validate=validate.Length(min=1, max=128), metadata={
                              "description": "entrants put first, best first (the pot is "
                                             "recorded so; seeded defaults to as many)"})
    by_table = fields.Boolean(load_default=False, metadata={
        "description": "a team cup: the pot ranked by the season's tables, the top division "
                       "first"})


class DrawSchema(Schema):
    cup = fields.String(required=True)
    seed = fields.Integer(required=True, allow_none=True, metadata=SEED)
    seeded = fields.Integer(required=True)
    order = fields.List(fields.String(metadata=ENTRANT), required=True, metadata={
        "description": "the entrants by draw number, 1 first"})


class EntrantSchema(Schema):
    key = fields.String(required=True, metadata=ENTRANT)
    name = fields.String(required=True)
    number = fields.Integer(required=True, allow_none=True, metadata={
        "description": "its draw number (None before the draw)"})


class TieMatchSchema(Schema):
    game = fields.Integer(required=True)
    match = fields.Integer(required=True)
    status = fields.String(required=True)
    home = fields.String(required=True, metadata={"description": "the entrant on side 0"})
    away = fields.String(required=True, metadata={"description": "the entrant on side 1"})
    winner = fields.String(required=True, allow_none=True)
    counts = fields.Boolean(required=True, metadata={
        "description": "false for a match no longer between the tie's entrants (a ruling on "
                       "an earlier tie changed them)"})


class WonSchema(Schema):
    home = fields.Integer(required=True)
    away = fields.Integer(required=True)


class TieAwardSchema(Schema):
    kind = fields.String(required=True, validate=validate.OneOf(TIE_AWARDS))
    by = fields.String(required=True, validate=validate.OneOf(SIDES), metadata={
        "description": "the side that conceded, or did not turn up"})
    entrant = fields.String(required=True, metadata={
        **ENTRANT, "description": "the entrant that conceded, or did not turn up"})
    winner = fields.String(required=True, metadata=ENTRANT)
    reason = fields.String(required=True)
    recorded_at = fields.String(required=True)
    counts = fields.Boolean(required=True, metadata={
        "description": "false once a ruling on an earlier tie changed who plays this one"})


class FixtureMatchSchema(Schema):
    leg = fields.Integer(required=True)
    game = fields.Integer(required=True, metadata={"description": "its number in the leg"})
    match = fields.Integer(required=True)
    status = fields.String(required=True)


class TieFixtureSchema(Schema):
    id = fields.Integer(required=True, metadata={
        "description": "the season's fixture number (.../seasons/{season}/fixtures/{id})"})
    date = fields.String(required=True)
    home = fields.String(required=True, metadata=ENTRANT)
    away = fields.String(required=True, metadata=ENTRANT)
    legs_won = fields.Nested(WonSchema, required=True)
    complete = fields.Boolean(required=True)
    level = fields.Boolean(required=True, metadata={
        "description": "complete with as many legs each: a deciding match settles the tie"})
    walkover_by = fields.String(required=True, allow_none=True,
                                validate=validate.OneOf(SIDES))
    counts = fields.Boolean(required=True, metadata={
        "description": "false once a ruling on an earlier tie changed who plays this one"})
    matches = fields.List(fields.Nested(FixtureMatchSchema), required=True, metadata={
        "description": "its legs' games' matches, leg by leg"})


class TieSchema(Schema):
    id = fields.String(required=True, metadata=TIE_ID)
    bracket = fields.String(required=True, validate=validate.OneOf(BRACKETS))
    round = fields.Integer(required=True)
    number = fields.Integer(required=True)
    status = fields.String(required=True, validate=validate.OneOf(TIE_STATUSES))
    home = fields.String(required=True, allow_none=True)
    away = fields.String(required=True, allow_none=True)
    winner = fields.String(required=True, allow_none=True)
    loser = fields.String(required=True, allow_none=True)
    won = fields.Nested(WonSchema, required=True)
    matches = fields.List(fields.Nested(TieMatchSchema), required=True)
    awards = fields.List(fields.Nested(TieAwardSchema), required=True, metadata={
        "description": "the tie conceded or given as a walkover, without a match"})
    fixture = fields.Nested(TieFixtureSchema, required=True, allow_none=True, metadata={
        "description": "a team cup's tie: its fixture of the season's format, once made "
                       "(its matches are then the deciding match of a level fixture)"})


class CupSchema(CupSummarySchema):
    entrants = fields.List(fields.Nested(EntrantSchema), required=True)  # type: ignore[assignment]
    rules = fields.Dict(required=True)
    seed = fields.Integer(required=True, allow_none=True, metadata=SEED)
    seeded = fields.Integer(required=True, allow_none=True)
    drawn_at = fields.String(required=True, allow_none=True)
    ties = fields.List(fields.Nested(TieSchema), required=True)


class TieGameCreateSchema(Schema):
    home = fields.List(fields.String(validate=NAME), load_default=list,
                       validate=validate.Length(max=2), metadata={
                           "description": "a team cup: the home team's players (1 or 2)"})
    away = fields.List(fields.String(validate=NAME), load_default=list,
                       validate=validate.Length(max=2))


class TieGameSchema(Schema):
    cup = fields.String(required=True)
    tie = fields.String(required=True, metadata=TIE_ID)
    game = fields.Integer(required=True)
    match = fields.Integer(required=True)


class TieResultCreateSchema(Schema):
    matches = fields.List(fields.Integer(), required=True,
                          validate=validate.Length(min=1, max=9), metadata={
                              "description": "matches of the club recorded already, in order"})
    winner = fields.String(load_default=None, allow_none=True, metadata={
        **ENTRANT, "description": "the entrant the matches must give the tie to (checked)"})


class TieAwardCreateSchema(Schema):
    by = fields.String(required=True, validate=validate.OneOf(SIDES), metadata={
        "description": "the side (home or away) that concedes, or did not turn up"})
    reason = fields.String(required=True, validate=REASON)


class TieAwardedSchema(Schema):
    cup = fields.String(required=True)
    tie = fields.String(required=True, metadata=TIE_ID)
    kind = fields.String(required=True, validate=validate.OneOf(TIE_AWARDS))
    by = fields.String(required=True, validate=validate.OneOf(SIDES))
    entrant = fields.String(required=True, metadata=ENTRANT)
    winner = fields.String(required=True, metadata=ENTRANT)
    reason = fields.String(required=True)


class TieFixtureCreateSchema(Schema):
    on = fields.String(required=True, validate=validate.Length(max=10), metadata={
        "description": "its date, YYYY-MM-DD, inside the season"})


class TieFixtureMadeSchema(Schema):
    cup = fields.String(required=True)
    tie = fields.String(required=True, metadata=TIE_ID)
    season = fields.String(required=True)
    fixture = fields.Integer(required=True, metadata={"description": "its number"})
    home = fields.String(required=True, metadata=ENTRANT)
    away = fields.String(required=True, metadata=ENTRANT)
    date = fields.String(required=True)


class TieResultSchema(Schema):
    cup = fields.String(required=True)
    tie = fields.String(required=True, metadata=TIE_ID)
    status = fields.String(required=True, validate=validate.OneOf(TIE_STATUSES))
    winner = fields.String(required=True, allow_none=True)


@blp.route(CUPS, methods=["GET"])
@blp.doc(security=OPTIONAL_BEARER)
@blp.arguments(CupArgsSchema(), location="query")
@blp.response(200, CupSummarySchema(many=True))
@blp.errors(401, 403, 404, 422)
def list_cups(args: dict[str, Any], club: str):
    """The club's cups (or a season's), newest first, each with its champion once decided."""
    return service().leagues.cups(club, season=args["season"], who=page_caller())


@blp.route(CUPS, methods=["POST"])
@auth.login_required
@blp.arguments(CupCreateSchema())
@blp.response(201, CupCreatedSchema)
@blp.errors(401, 403, 404, 409, 415, 422)
def create_cup(body: dict[str, Any], club: str):
    """Create a cup (admin: the secretary): its entrants in pot order, format, best of n."""
    return service().leagues.create_cup(club, body.pop("slug"), body.pop("name"), who=caller(),
                                        **body)


@blp.route(CUP, methods=["GET"])
@blp.doc(security=OPTIONAL_BEARER)
@blp.response(200, CupSchema)
@blp.errors(401, 403, 404)
def get_cup(club: str, cup: str):
    """The cup whole: its entrants, draw, every tie of its bracket with its matches, champion."""
    return service().leagues.cup(club, cup, who=page_caller())


@blp.route(CUP + "/draw", methods=["POST"])
@auth.login_required
@blp.arguments(DrawCreateSchema())
@blp.response(200, DrawSchema)
@blp.errors(401, 403, 404, 415, 422)
def draw(body: dict[str, Any], club: str, cup: str):
    """Make the cup's draw (admin), recorded with its seed: again while no tie has a match;
    422 for another draw once one has (the same draw is answered again)."""
    ranking = "table" if body["by_table"] else body["ranking"]
    return service().leagues.draw(club, cup, seed=body["seed"], seeded=body["seeded"],
                                  ranking=ranking, who=caller())


@blp.route(TIE + "/games", methods=["POST"])
@auth.login_required
@blp.arguments(TieGameCreateSchema())
@blp.response(201, TieGameSchema)
@blp.errors(401, 403, 404, 415, 422)
def play_tie(body: dict[str, Any], club: str, cup: str, tie: str):
    """Start the tie's next match (a scorekeeper), its home entrant on side 0: 422 for a tie
    not ready to play (who plays it not decided, a bye, decided already) or a match in play."""
    return service().leagues.play_tie(club, cup, tie, home=body["home"], away=body["away"],
                                      who=caller())


@blp.route(TIE + "/result", methods=["POST"])
@auth.login_required
@blp.arguments(TieResultCreateSchema())
@blp.response(200, TieResultSchema)
@blp.errors(401, 403, 404, 415, 422)
def record_tie(body: dict[str, Any], club: str, cup: str, tie: str):
    """The tie's result from matches recorded already (a scorekeeper), tagged as its next
    matches; with ``winner``, 422 unless they give it the tie. Nothing is tagged on a refusal."""
    return service().leagues.record_tie(club, cup, tie, matches=body["matches"],
                                        winner=body["winner"], who=caller())


@blp.route(TIE + "/fixture", methods=["POST"])
@auth.login_required
@blp.arguments(TieFixtureCreateSchema())
@blp.response(201, TieFixtureMadeSchema)
@blp.errors(401, 403, 404, 409, 415, 422)
def fixture_tie(body: dict[str, Any], club: str, cup: str, tie: str):
    """Make a team cup's tie a fixture of its season (admin), once its two teams are known:
    the draw's home at home, on ``on``. Its legs are then the season's fixture's
    (``.../seasons/{season}/fixtures/{fixture}``). 422 for a cup of pairs or players, a tie
    not ready, one with a fixture or a match already, a date outside the season."""
    return service().leagues.fixture_tie(club, cup, tie, on=body["on"], who=caller())


@blp.route(TIE + "/concede", methods=["POST"])
@auth.login_required
@blp.arguments(TieAwardCreateSchema())
@blp.response(200, TieAwardedSchema)
@blp.errors(401, 403, 404, 415, 422)
def concede_tie(body: dict[str, Any], club: str, cup: str, tie: str):
    """Concede the tie for its ``by`` side (admin), without a match or after some: the other
    goes through at once. 422 for a tie decided already, one whose entrants are not known yet,
    a bye, or one with a match in play; nothing is changed on a refusal."""
    return service().leagues.concede_tie(club, cup, tie, body["by"], reason=body["reason"],
                                         who=caller())


@blp.route(TIE + "/walkover", methods=["POST"])
@auth.login_required
@blp.arguments(TieAwardCreateSchema())
@blp.response(200, TieAwardedSchema)
@blp.errors(401, 403, 404, 415, 422)
def walkover_tie(body: dict[str, Any], club: str, cup: str, tie: str):
    """Give the tie as a walkover (admin): ``by`` did not turn up, the other goes through at
    once. 422 as for a concession, and for a tie with a match already."""
    return service().leagues.walkover_tie(club, cup, tie, body["by"], reason=body["reason"],
                                          who=caller())
