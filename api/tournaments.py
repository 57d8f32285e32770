"""Tournaments: a club's events played in rounds (``/api/v1/clubs/{club}/tournaments``), their
page (``/clubs/{club}/tournaments/{t}``) and its JSON twin (docs/tournaments.md).

Reading needs a token of the club, or none for a public club (as its pages do); the director
(a referee, or an admin) creates tournaments, manages entrants, pairs, re-pairs and starts
rounds and sets the constraints (a fixed table, a forbidden pairing, a requested bye). Every rule and
decision is the service's (``svc.tournaments``): the views pass the caller and shape answers.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint as FlaskBlueprint
from flask import Response, render_template, request, url_for
from marshmallow import Schema, ValidationError, fields, validate

from referee.core.vocab import CONSTRAINT_KINDS, CONSTRAINT_SCOPES, TOURNAMENT_FORMATS
from referee.service import Caller
from referee.service.tournaments.fields import TABLE_PRESETS

from . import language
from .auth import auth, caller
from .context import service
from .openapi import Blueprint
from .pages.common import TWIN_PREFIX, behind, event_standing_order, page_caller, twin_of
from .pages.views import page
from .schemas import (
    NAME,
    NEW_PLAYERS,
    SLUG,
    SLUG_FIELD,
    QueryInteger,
    Spoken,
    StandingSchema,
    rules_field,
)

blp = Blueprint("tournaments", __name__, url_prefix="/api/v1",
                description="Tournaments: entrants, rounds paired, event standings")
twin = Blueprint("tournament-twin", __name__, url_prefix=TWIN_PREFIX,
                 description="The tournament page's JSON twin: public clubs need no token")
pages = FlaskBlueprint("tournament-pages", __name__)

BASE = "/clubs/<string:club>/tournaments"
ONE = BASE + "/<string:slug>"
# A token, or none for a public club.
OPTIONAL_BEARER = [{}, {"bearer": []}]
LOCATION = {"Location": {"schema": {"type": "string"}}}
REPAIR = ("a round paired but not started that this change concerns: re-pair it "
          "(POST .../rounds/{n}/repair) for the change to apply there; null: none")


def reader(club: str) -> Caller:
    """The token's caller, or for a request without one a public club's reader (401 else)."""
    return service().tournaments.reader(club, page_caller())


# ---------------------------------------------------------------------- schemas


class TournamentByeSchema(Schema):
    won = fields.Boolean(load_default=True, metadata={"description": "a bye counts as a match won"})
    points = fields.Integer(load_default=0, validate=validate.Range(0, 10_000),
                            metadata={"description": "points for that a bye earns"})


# The presets a tournament's tables may play: two partnerships of two (the service's list).
PARTNERSHIP_PRESETS = list(TABLE_PRESETS)


class TournamentCreateSchema(Schema):
    slug = fields.String(required=True, validate=SLUG, metadata=SLUG_FIELD)
    name = fields.String(required=True, validate=NAME, metadata={
        "description": "also the header event of its matches"})
    format = fields.String(required=True, validate=validate.OneOf(TOURNAMENT_FORMATS))
    rules = rules_field("its matches' rules, as a match takes them: two partnerships of two",
                        presets=PARTNERSHIP_PRESETS)
    rounds = fields.Integer(required=True, validate=validate.Range(1, 100))
    starts_on = fields.String(validate=validate.Length(max=40), metadata={"description": "ISO 8601"})
    ends_on = fields.String(validate=validate.Length(max=40), metadata={"description": "ISO 8601"})
    bye = fields.Nested(TournamentByeSchema, load_default=lambda: {"won": True, "points": 0})
    entrants = fields.List(fields.Raw(metadata={"type": ["string", "array"]}), load_default=list,
                           validate=validate.Length(max=1000), metadata={
                               "description": "names (rotating), or [name, name] partnerships"})
    new = fields.Boolean(load_default=False, metadata={"description": NEW_PLAYERS})


class TournamentEntrantSchema(Schema):
    number = fields.Integer(required=True, metadata={"description": "in order of entry"})
    id = fields.String(required=True, metadata={"description": "the pairing's id: the number, 4 digits"})
    name = fields.String(required=True)
    players = fields.List(fields.String(), required=True)
    player_ids = fields.List(fields.Integer(), required=True)
    entered = fields.Integer(required=True, metadata={"description": "the first round it may be paired in"})
    withdrawn = fields.Integer(allow_none=True, required=True, metadata={
        "description": "the first round it is not paired in (null: still playing)"})


class TournamentEntrantChangeSchema(TournamentEntrantSchema):
    repair = fields.Integer(allow_none=True, required=True, metadata={"description": REPAIR})


def _entrant_ref(value: Any) -> None:
    if type(value) not in (int, str):
        raise ValidationError("an entrant is its number or a player's name")


ENTRANT_REF = {"type": ["integer", "string"],
               "description": "an entrant: its number, or a player's name"}


class TournamentConstraintCreateSchema(Schema):
    kind = fields.String(required=True, validate=validate.OneOf(CONSTRAINT_KINDS), metadata={
        "description": "fixed_table: the entrant always at table `table`; forbidden: the entrant "
                       "and `other` never at one table (scope table) or, in rotating, never "
                       "partners (scope partners); bye: the entrant sits out round `round`"})
    entrant = fields.Raw(required=True, validate=_entrant_ref, metadata=ENTRANT_REF)
    other = fields.Raw(validate=_entrant_ref, metadata={**ENTRANT_REF, "description":
                                                        "forbidden: the other entrant"})
    table = fields.Integer(validate=validate.Range(1, 1000), metadata={
        "description": "fixed_table: the table's number"})
    round = fields.Integer(validate=validate.Range(1, 100), metadata={
        "description": "bye: a round not started"})
    scope = fields.String(load_default="table", validate=validate.OneOf(CONSTRAINT_SCOPES))
    note = fields.String(validate=NAME, metadata={"description": "why, shown on the table"})


class TournamentConstraintSchema(Schema):
    id = fields.Integer(required=True)
    kind = fields.String(required=True)
    entrant = fields.Integer(required=True, metadata={"description": "the entrant's number"})
    name = fields.String(required=True)
    other = fields.Integer(allow_none=True, required=True)
    other_name = fields.String(allow_none=True, required=True)
    table = fields.Integer(allow_none=True, required=True)
    round = fields.Integer(allow_none=True, required=True)
    scope = fields.String(allow_none=True, required=True)
    note = fields.String(allow_none=True, required=True)
    created_at = fields.String(required=True, metadata={"format": "date-time"})


class TournamentConstraintChangeSchema(TournamentConstraintSchema):
    repair = fields.Integer(allow_none=True, required=True, metadata={"description": REPAIR})


class TournamentEnterSchema(Schema):
    players = fields.List(fields.String(validate=NAME), required=True,
                          validate=validate.Length(min=1, max=2), metadata={
                              "description": "one player (rotating) or a partnership's two"})
    new = fields.Boolean(load_default=False, metadata={"description": NEW_PLAYERS})


class TournamentRoundSchema(Schema):
    number = fields.Integer(required=True)
    status = fields.String(required=True, metadata={
        "description": "paired, started (a match has an event) or finished (every match is)"})
    version = fields.Integer(required=True, metadata={"description": "1, and one more each re-pairing"})
    paired_at = fields.String(allow_none=True, metadata={"format": "date-time"})
    tables = fields.List(fields.Dict(), required=True, metadata={
        "description": "by table: table, match (its id), sides ({entrant, name, players}), players "
                       "(seat order), status, last_seq, totals, winner, reasons (why this table)"})
    byes = fields.List(fields.Dict(), required=True, metadata={"description": "entrant, name, reasons"})
    relaxed = fields.List(Spoken(), required=True, metadata={
        "description": "the pairing rules that had to give, and why (empty: none)"})
    text = Spoken(required=True, metadata={"description": "the pairing written out"})


class TournamentSchema(Schema):
    slug = fields.String(required=True)
    name = fields.String(required=True)
    format = fields.String(required=True)
    rules = fields.Raw(required=True)
    starts_on = fields.String(allow_none=True)
    ends_on = fields.String(allow_none=True)
    rounds = fields.Integer(required=True, metadata={"description": "the rounds it is to have"})
    bye = fields.Nested(TournamentByeSchema, required=True)
    status = fields.String(required=True, metadata={"description": "open, playing or finished"})
    rounds_paired = fields.Integer(required=True)
    created_at = fields.String(required=True, metadata={"format": "date-time"})


class TournamentDetailSchema(TournamentSchema):
    entrants = fields.List(fields.Nested(TournamentEntrantSchema), required=True)
    constraints = fields.List(fields.Nested(TournamentConstraintSchema), required=True, metadata={
        "description": "the director's constraints the pairing honours"})
    paired_rounds = fields.List(fields.Nested(TournamentRoundSchema), required=True)


class EventStandingSchema(StandingSchema):
    """A row of the club's standings (GET /clubs/{club}/standings), and the entrant's own, but
    for what only the club's standings add: ``rating_points`` (the pages' scale) and ``ranked``
    (the club's unranked setting; every entrant is ranked)."""

    class Meta:
        exclude = ("rating_points", "ranked")

    entrant = fields.String(required=True, metadata={"description": "the entrant's id"})
    played = fields.Integer(required=True, metadata={"description": "finished matches and byes"})
    byes = fields.Integer(required=True)
    withdrawn = fields.Integer(allow_none=True, required=True, metadata={
        "description": "the first round it was not paired in (null: still playing)"})


class EventStandingArgsSchema(Schema):
    format = fields.String(load_default="json", validate=validate.OneOf(("json", "csv")))
    after = QueryInteger(validate=validate.Range(0, 100), metadata={
        "description": "the standing after this round (default: every round)"})


class TournamentPageSchema(Schema):
    club = fields.Dict(required=True)
    tournament = fields.Nested(TournamentDetailSchema, required=True)
    standings = fields.List(fields.Nested(EventStandingSchema), required=True)


# ---------------------------------------------------------------------- the API


@blp.route(BASE, methods=["GET"])
@blp.doc(security=OPTIONAL_BEARER)
@blp.response(200, TournamentSchema(many=True))
@blp.errors(401, 403, 404)
def list_tournaments(club: str):
    """The club's tournaments, newest first."""
    return service().tournaments.list(club, who=reader(club))


@blp.route(BASE, methods=["POST"])
@auth.login_required
@blp.arguments(TournamentCreateSchema())
@blp.response(201, TournamentDetailSchema, headers=LOCATION)
@blp.errors(401, 403, 404, 409, 415, 422)
def create_tournament(body: dict[str, Any], club: str):
    """Create a tournament (referee: the director), with its first entrants if given.

    Its matches take "rules" (two partnerships of two); "format" is pairs (fixed partnerships,
    Swiss), rotating (players, new partners each round) or round_robin. New player names join
    the club (a name close to a player's is refused, 422, unless "new": true).
    """
    made = service().tournaments.create(
        club, body["slug"], body["name"], rules=body["rules"], format=body["format"],
        rounds=body["rounds"], starts_on=body.get("starts_on"), ends_on=body.get("ends_on"),
        bye_won=body["bye"]["won"], bye_points=body["bye"]["points"],
        entrants=body["entrants"], confirm_new=body["new"], who=caller())
    return made, {"Location": url_for("tournaments.get_tournament", club=club, slug=made["slug"])}


@blp.route(ONE, methods=["GET"])
@blp.doc(security=OPTIONAL_BEARER)
@blp.response(200, TournamentDetailSchema)
@blp.errors(401, 403, 404)
def get_tournament(club: str, slug: str):
    """A tournament: settings, entrants, and every round paired with its tables and why."""
    return service().tournaments.show(club, slug, who=reader(club))


@blp.route(ONE + "/entrants", methods=["GET"])
@blp.doc(security=OPTIONAL_BEARER)
@blp.response(200, TournamentEntrantSchema(many=True))
@blp.errors(401, 403, 404)
def list_entrants(club: str, slug: str):
    """The entrants, in order of entry, withdrawn ones too."""
    return service().tournaments.show(club, slug, who=reader(club))["entrants"]


@blp.route(ONE + "/entrants", methods=["POST"])
@auth.login_required
@blp.arguments(TournamentEnterSchema())
@blp.response(201, TournamentEntrantChangeSchema)
@blp.errors(401, 403, 404, 409, 415, 422)
def enter(body: dict[str, Any], club: str, slug: str):
    """Enter a player (rotating) or a partnership (referee), from the first round not started.
    A withdrawn entrant entered again plays on from there; a player entered already is 409.
    Entered after that round was paired (and before it starts), they have a bye in it until it
    is re-paired: ``repair`` names the round."""
    return service().tournaments.enter(club, slug, body["players"], confirm_new=body["new"],
                                       who=caller())


@blp.route(ONE + "/entrants/<int:number>/withdraw", methods=["POST"])
@auth.login_required
@blp.response(200, TournamentEntrantChangeSchema)
@blp.errors(401, 403, 404, 422)
def withdraw(club: str, slug: str, number: int):
    """Withdraw an entrant (referee) from the first round not started; its results still count.
    ``repair`` names a round paired but not started that seats it: re-pair it."""
    return service().tournaments.withdraw(club, slug, number, who=caller())


@blp.route(ONE + "/rounds", methods=["POST"])
@auth.login_required
@blp.response(201, TournamentRoundSchema, headers=LOCATION)
@blp.errors(401, 403, 404, 409, 422)
def pair(club: str, slug: str):
    """Pair the next round (referee) and create its matches, one a table.

    409 while the last round is not finished, or when every round is paired; 422 for a field
    that cannot be paired (too few present).
    """
    paired = service().tournaments.pair(club, slug, who=caller())
    return paired, {"Location": url_for("tournaments.get_round", club=club, slug=slug,
                                        number=paired["number"])}


@blp.route(ONE + "/rounds/<int:number>/repair", methods=["POST"])
@auth.login_required
@blp.response(200, TournamentRoundSchema)
@blp.errors(401, 403, 404, 409, 422)
def re_pair(club: str, slug: str, number: int):
    """Pair the last round again (re-pair it, referee), with the field and the director's
    constraints as they now are, before any of its matches has an event (409 after, and for a
    round of no table, complete as soon as it was paired). Its old matches stay in the record,
    retired."""
    return service().tournaments.re_pair(club, slug, number, who=caller())


@blp.route(ONE + "/rounds/<int:number>/start", methods=["POST"])
@auth.login_required
@blp.response(200, TournamentRoundSchema)
@blp.errors(401, 403, 404, 409)
def start_tables(club: str, slug: str, number: int):
    """Start the last round's tables (referee): every table gets its match, the missing ones
    created now (none twice); the round comes back with each table's match. 409 for a round
    before the last."""
    return service().tournaments.start_tables(club, slug, number, who=caller())


@blp.route(ONE + "/constraints", methods=["GET"])
@blp.doc(security=OPTIONAL_BEARER)
@blp.response(200, TournamentConstraintSchema(many=True))
@blp.errors(401, 403, 404)
def list_constraints(club: str, slug: str):
    """The director's constraints, in the order they were made."""
    return service().tournaments.constraints(club, slug, who=reader(club))


@blp.route(ONE + "/constraints", methods=["POST"])
@auth.login_required
@blp.arguments(TournamentConstraintCreateSchema())
@blp.response(201, TournamentConstraintChangeSchema)
@blp.errors(401, 403, 404, 409, 415, 422)
def add_constraint(body: dict[str, Any], club: str, slug: str):
    """Set a constraint of the director (referee) that every round paired from now on honours,
    in every format: a fixed table, a forbidden pairing, a requested bye. 409 for one that
    repeats or contradicts one set (an entrant or a table fixed already); 422 for a field
    missing or wrong for its kind. ``repair`` names the last round when it is paired and not
    started: re-pair it for the constraint to apply there."""
    return service().tournaments.add_constraint(
        club, slug, body["kind"], body["entrant"], other=body.get("other"),
        table=body.get("table"), round=body.get("round"), scope=body["scope"],
        note=body.get("note"), who=caller())


@blp.route(ONE + "/constraints/<int:constraint_id>", methods=["DELETE"])
@auth.login_required
@blp.response(200, TournamentConstraintChangeSchema, description="the lifted constraint")
@blp.errors(401, 403, 404)
def lift_constraint(club: str, slug: str, constraint_id: int):
    """Lift a constraint (referee): rounds paired from now on no longer honour it."""
    return service().tournaments.lift_constraint(club, slug, constraint_id, who=caller())


@blp.route(ONE + "/rounds/<int:number>", methods=["GET"])
@blp.doc(security=OPTIONAL_BEARER)
@blp.response(200, TournamentRoundSchema)
@blp.errors(401, 403, 404)
def get_round(club: str, slug: str, number: int):
    """A round: its tables (match, players, score, status) with the reasons for each, byes."""
    return service().tournaments.round(club, slug, number, who=reader(club))


@blp.route(ONE + "/standings", methods=["GET"])
@blp.doc(security=OPTIONAL_BEARER)
@blp.arguments(EventStandingArgsSchema(), location="query")
@blp.response(200, EventStandingSchema(many=True), description="the event standing, best first")
@blp.alt_response(200, schema={"type": "string"}, content_type="text/csv", success=True,
                  description="with ?format=csv")
@blp.errors(401, 403, 404)
def standings(args: dict[str, Any], club: str, slug: str):
    """The event standing (players in rotating, partnerships otherwise), by the club's
    tie-breakers, after ?after= rounds (default: all): JSON, or CSV with ?format=csv."""
    tournaments, who = service().tournaments, reader(club)
    if args["format"] == "csv":
        return Response(tournaments.standings_csv(club, slug, after=args.get("after"), who=who),
                        mimetype="text/csv", headers={
                            "Content-Disposition": f'inline; filename="{slug}-standings.csv"'})
    return tournaments.standings(club, slug, after=args.get("after"), who=who)


# ---------------------------------------------------------------------- the page and its twin


@twin.route(ONE, methods=["GET"])
@twin.doc(security=OPTIONAL_BEARER)
@twin.response(200, TournamentPageSchema)
@twin.errors(401, 403, 404)
def tournament_twin(club: str, slug: str):
    """A tournament's page as JSON: the club, the tournament with its rounds, the standing."""
    return service().tournaments.page(club, slug, who=page_caller())


@pages.route(ONE)
@page
def tournament_page(who: Any, club: str, slug: str) -> str:
    data = service().tournaments.page(club, slug, who=who)
    language.use_club(data["club"])  # the order of names is the page's language's
    data["standings"] = event_standing_order(data["standings"])
    return render_template("pages/tournament.html", data=data, club=data["club"],
                           twin=twin_of(request.path), behind=behind(),
                           signed_in="Authorization" in request.headers)

