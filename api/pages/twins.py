"""The pages' JSON twins: each page's data as the page was drawn from it, at the page's path
under ``/api/v1/pages`` (``/clubs/casino`` -> ``/api/v1/pages/clubs/casino``, query and all).

Like the pages, they answer a public club without a token and a private one with a token of
the club (a token that is refused is 401 either way); what a caller sees of a live match is
the service's call (hands the table has not seen are never in them)."""

from __future__ import annotations

import json
from typing import Any

from flask import Response
from marshmallow import Schema, fields, validate

from ..openapi import Blueprint
from ..schemas import LOG_BODY, LOG_MEDIA_TYPE, SheetSchema
from .common import TWIN_PREFIX, page_caller, pages

blp = Blueprint("page-twins", __name__, url_prefix=TWIN_PREFIX,
                description="The club pages' JSON twins: public clubs need no token")

# A token, or none for a public club.
OPTIONAL_BEARER = [{}, {"bearer": []}]


class HomeArgsSchema(Schema):
    date_from = fields.Date(data_key="from", metadata={"description": "matches played on or after this day"})
    date_to = fields.Date(data_key="to", metadata={"description": "matches played on or before this day"})
    event = fields.String(validate=validate.Length(min=1, max=1000),
                          metadata={"description": "matches whose log header names this event"})


class ClubHomeSchema(Schema):
    club = fields.Dict(required=True, metadata={"description": "slug, name, created_at, public"})
    filters = fields.Dict(required=True, metadata={"description": "from, to, event as read (null: none)"})
    standings = fields.List(fields.Dict(), required=True, metadata={
        "description": "GET /clubs/{club}/standings with these filters, each row with player_id"})
    matches = fields.List(fields.Dict(), required=True, metadata={
        "description": "the latest matches, newest first: id, date, table, event, status, round, "
                       "sides, totals, winner, winner_name, violations"})
    matches_total = fields.Integer(required=True)
    events = fields.List(fields.String(), required=True, metadata={
        "description": "the events the latest matches name"})


class SiteHomeSchema(Schema):
    clubs = fields.List(fields.Dict(), required=True, metadata={
        "description": "the public clubs by slug: slug, name, language (private clubs are never "
                       "listed: their address and a token come from their secretary)"})


class PlayersPageSchema(Schema):
    club = fields.Dict(required=True)
    players = fields.List(fields.Dict(), required=True, metadata={
        "description": "the club's players: id, name, matches (how many they sit in)"})


class MatchesArgsSchema(Schema):
    # Text as typed: the service checks each and names the field it refuses (422).
    event = fields.String(metadata={"description": "matches whose log header names this event"})
    date_from = fields.String(data_key="from", metadata={"description": "played on or after this day (YYYY-MM-DD)"})
    date_to = fields.String(data_key="to", metadata={"description": "played on or before this day (YYYY-MM-DD)"})
    player = fields.String(metadata={"description": "matches a player of this name sits in"})
    status = fields.String(metadata={"description": "in_progress or finished"})
    page = fields.String(metadata={"description": "1 (the newest 50 matches), 2, ..."})


class MatchesPageSchema(Schema):
    club = fields.Dict(required=True)
    filters = fields.Dict(required=True, metadata={
        "description": "event, from, to, player, status as read (null: none)"})
    page = fields.Integer(required=True)
    per_page = fields.Integer(required=True)
    matches = fields.List(fields.Dict(), required=True, metadata={
        "description": "the matches of this page, newest first: id, date, table, event, status, "
                       "round, sides, totals, winner, winner_name, violations"})
    total = fields.Integer(required=True, metadata={"description": "matches the filters matched"})
    events = fields.List(fields.String(), required=True, metadata={
        "description": "the events the club's finished matches name"})
    players = fields.List(fields.String(), required=True, metadata={
        "description": "the club's players' names"})


class TournamentsPageSchema(Schema):
    club = fields.Dict(required=True)
    tournaments = fields.List(fields.Dict(), required=True, metadata={
        "description": "GET /clubs/{club}/tournaments: newest first"})


class PlayerPageSchema(Schema):
    club = fields.Dict(required=True)
    player = fields.Dict(required=True, metadata={"description": "id, name"})
    record = fields.Dict(required=True, metadata={
        "description": "played, won, lost, drawn, points_for, points_against over finished matches"})
    history = fields.List(fields.Dict(), required=True, metadata={
        "description": "finished matches, newest first: match, date, event, table, side, sides, "
                       "partners and opponents ({id, name}), result (won, lost, drawn), "
                       "points_for (his side's total), points_against (the other sides')"})
    head_to_head = fields.List(fields.Dict(), required=True, metadata={
        "description": "per opponent: opponent {id, name}, played, won, lost, drawn, points_for, "
                       "points_against; most played first"})
    rating = fields.List(fields.Dict(), required=True, metadata={
        "description": "the rating after each finished match, in finishing order "
                       "(the standings' rating_history)"})


class MatchPageSchema(Schema):
    club = fields.Dict(required=True)
    match = fields.Dict(required=True, metadata={"description": "GET /matches/{id}"})
    sides = fields.List(fields.String(), required=True)
    seats = fields.List(fields.Dict(), required=True, metadata={"description": "seat, player, side"})
    rounds = fields.List(fields.Dict(), required=True, metadata={
        "description": "the report's rounds with opener_name, winner_name, blocked_by_name and "
                       "line (the tiles as they lay when the round ended, left to right)"})
    totals = fields.List(fields.Integer(), required=True)
    finished = fields.Boolean(required=True)
    winner = fields.Integer(allow_none=True, required=True)
    winner_name = fields.String(allow_none=True, required=True)
    disputes = fields.List(fields.Dict(), required=True, metadata={
        "description": "GET /matches/{id}/disputes"})
    live = fields.Dict(allow_none=True, required=True, metadata={
        "description": "while in progress, what the table shows: round, phase, turn, turn_name, "
                       "counts (tiles in each hand), boneyard, shows_undealt (the screen's: whether "
                       "the table shows its undealt tiles at all), ends; null once finished"})
    record = fields.Dict(allow_none=True, required=True, metadata={
        "description": "once finished, how to check it: head (its chain head), acta_leaf (its "
                       "acta's leaf in the club's transparency log, once signed), public (its "
                       "log and acta are given without a token: .../log, .../acta); null while "
                       "in play"})


@blp.route("/", methods=["GET"])
@blp.doc(security=[{}])
@blp.response(200, SiteHomeSchema)
def site_home():
    """The site's home as JSON: the public clubs."""
    return pages().clubs()


@blp.route("/clubs/<string:club>/players", methods=["GET"])
@blp.doc(security=OPTIONAL_BEARER)
@blp.response(200, PlayersPageSchema)
@blp.errors(401, 403, 404)
def players_page(club: str):
    """A club's players page as JSON."""
    return pages().players(club, who=page_caller())


@blp.route("/clubs/<string:club>/matches", methods=["GET"])
@blp.doc(security=OPTIONAL_BEARER)
@blp.arguments(MatchesArgsSchema(), location="query")
@blp.response(200, MatchesPageSchema)
@blp.errors(401, 403, 404)
def matches_page(args: dict[str, Any], club: str):
    """A club's matches page as JSON: filtered by event, day, player and status."""
    return pages().matches(club, event=args.get("event"), date_from=args.get("date_from") or None,
                           date_to=args.get("date_to") or None, player=args.get("player"),
                           status=args.get("status") or None, page=args.get("page") or 1,
                           who=page_caller())


@blp.route("/clubs/<string:club>/tournaments", methods=["GET"])
@blp.doc(security=OPTIONAL_BEARER)
@blp.response(200, TournamentsPageSchema)
@blp.errors(401, 403, 404)
def tournaments_page(club: str):
    """A club's tournaments page as JSON."""
    return pages().tournaments(club, who=page_caller())


@blp.route("/clubs/<string:club>", methods=["GET"])
@blp.doc(security=OPTIONAL_BEARER)
@blp.arguments(HomeArgsSchema(), location="query")
@blp.response(200, ClubHomeSchema)
@blp.errors(401, 403, 404)
def club_home(args: dict[str, Any], club: str):
    """A club's home page as JSON: its standings over a period and event, its latest matches."""
    return pages().home(club, date_from=args.get("date_from"), date_to=args.get("date_to"),
                        event=args.get("event"), who=page_caller())


@blp.route("/clubs/<string:club>/players/<int:player_id>", methods=["GET"])
@blp.doc(security=OPTIONAL_BEARER)
@blp.response(200, PlayerPageSchema)
@blp.errors(401, 403, 404)
def player_page(club: str, player_id: int):
    """A player's page as JSON: his finished matches, head to head, rating over time."""
    return pages().player(club, player_id, who=page_caller())


@blp.route("/clubs/<string:club>/matches/<int:match_id>", methods=["GET"])
@blp.doc(security=OPTIONAL_BEARER)
@blp.response(200, MatchPageSchema)
@blp.errors(401, 403, 404)
def match_page(club: str, match_id: int):
    """A match's page as JSON: rounds with their lines of play, totals, disputes."""
    return pages().match(club, match_id, who=page_caller())


@blp.route("/clubs/<string:club>/matches/<int:match_id>/disputes/<int:seq>", methods=["GET"])
@blp.doc(security=OPTIONAL_BEARER)
@blp.response(200, SheetSchema)
@blp.errors(401, 403, 404)
def dispute_sheet(club: str, match_id: int, seq: int):
    """A dispute sheet as JSON (GET /matches/{id}/disputes/{seq})."""
    return pages().sheet(club, match_id, seq, who=page_caller())


ACTA_BODY = {"type": "object", "description": "the domino-acta/2, signed (docs/verify.md)"}


@blp.route("/clubs/<string:club>/matches/<int:match_id>/log", methods=["GET"])
@blp.doc(security=OPTIONAL_BEARER)
@blp.response(200, LOG_BODY, content_type=LOG_MEDIA_TYPE)
@blp.errors(401, 403, 404)
def match_log(club: str, match_id: int):
    """The match's domino-log/1, as its page's download: on a public club, a finished match's
    without a token (domino verify LOG checks it)."""
    return Response(pages().log(club, match_id, who=page_caller()), mimetype=LOG_MEDIA_TYPE)


@blp.route("/clubs/<string:club>/matches/<int:match_id>/acta", methods=["GET"])
@blp.doc(security=OPTIONAL_BEARER)
@blp.response(200, ACTA_BODY)
@blp.errors(401, 403, 404, 409)
def match_acta(club: str, match_id: int):
    """The finished match's signed acta (domino-acta/2), as its page's download: on a public
    club without a token (domino verify --acta FILE --key KEYS checks it); 409 while in play."""
    acta = pages().acta(club, match_id, who=page_caller())
    # As signed: not through a schema, which could drop or reorder a member.
    return Response(json.dumps(acta, ensure_ascii=False), mimetype="application/json")
