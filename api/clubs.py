"""Clubs and their standings (their players: :mod:`api.players`; tokens: :mod:`api.tokens`)."""

from __future__ import annotations

from typing import Any

from flask import Response, url_for

from .auth import auth, caller
from .context import service
from .openapi import Blueprint
from .schemas import (
    ClubCreatedSchema,
    ClubCreateSchema,
    ClubSchema,
    ClubSettingsResultSchema,
    ClubSettingsSchema,
    StandingsArgsSchema,
    StandingSchema,
)

blp = Blueprint("clubs", __name__, url_prefix="/api/v1",
                description="Clubs and their standings")


@blp.route("/clubs", methods=["POST"])
@auth.login_required
@blp.arguments(ClubCreateSchema())
@blp.response(201, ClubCreatedSchema, headers={"Location": {"schema": {"type": "string"}}})
@blp.errors(401, 403, 409, 415, 422)
def create_club(body: dict[str, Any]):
    """Create a club (server admin token only).

    The answer carries the club's first admin token, shown this once: with it the club's admin
    issues the other tokens (POST /clubs/{club}/tokens).
    """
    club = service().clubs.create_club(body["slug"], body["name"], who=caller(),
                                       admin_token=True)
    return club, {"Location": url_for("clubs.get_club", club=club["slug"])}


@blp.route("/clubs/<string:club>", methods=["GET"])
@auth.login_required
@blp.response(200, ClubSchema)
@blp.errors(401, 403, 404)
def get_club(club: str):
    """A club."""
    return service().clubs.get_club(club, who=caller())


@blp.route("/clubs/<string:club>/standings", methods=["GET"])
@auth.login_required
@blp.arguments(StandingsArgsSchema(), location="query")
@blp.response(200, StandingSchema(many=True), description="standings, best first")
@blp.alt_response(200, schema={"type": "string"}, content_type="text/csv", success=True,
                  description="with ?format=csv")
@blp.errors(401, 403, 404)
def standings(args: dict[str, Any], club: str):
    """Standings over finished matches: JSON, or CSV with ?format=csv.

    Per player (?group=players, every player of the club) or per fixed partnership
    (?group=partnerships), over an optional period (?from=, ?to=, on the day played) and event
    (?event=, the log header's). Ranked by the club's tie-breakers (PATCH /clubs/{club}).
    """
    filters = {"group": args["group"], "date_from": args.get("date_from"),
               "date_to": args.get("date_to"), "event": args.get("event")}
    if args["format"] == "csv":
        return Response(service().standings.csv(club, who=caller(), **filters), mimetype="text/csv",
                        headers={"Content-Disposition": f'inline; filename="{club}-standings.csv"'})
    return service().standings.table(club, who=caller(), **filters)


@blp.route("/clubs/<string:club>", methods=["PATCH"])
@auth.login_required
@blp.arguments(ClubSettingsSchema())
@blp.response(200, ClubSettingsResultSchema)
@blp.errors(401, 403, 404, 415, 422)
def update_club(body: dict[str, Any], club: str):
    """Change a club's settings (admin): its name (name; its slug stays), how its standings
    break ties (tie_breakers), whether its pages are public (public), the language they speak
    (language), where its standings put the players with no counted match (unranked: apart or
    hidden), the preset and target the phone's start form preselects for a new match
    (default_rules, default_target), its time zone (timezone: an IANA name, null for UTC).
    Only the settings named change, all of them together: one refused value changes none."""
    return service().clubs.settings(club, **body, who=caller())
