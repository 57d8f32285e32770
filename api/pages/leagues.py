"""A league's pages (``/clubs/{club}/seasons/...``; docs/leagues.md): the club's seasons, a
season's home, a division's table, fixtures and results by week, a team, the players'
averages, each with its JSON twin under ``/api/v1/pages``; and the iCalendar feeds of the
season's fixtures and of a team's (:mod:`.calendar`).

Like the club pages, each asks the service for its page (``svc.leagues.*_page``) with the
caller, and lays the answer out: public for a public club, the sign-in page for a private one.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint as FlaskBlueprint
from flask import Response, render_template, request
from marshmallow import Schema, fields, validate

from ..context import service
from ..openapi import Blueprint
from .calendar import feed
from .common import TWIN_PREFIX, behind, page_caller, twin_of
from .views import page

pages = FlaskBlueprint("league-pages", __name__)
twin = Blueprint("league-twins", __name__, url_prefix=TWIN_PREFIX,
                 description="The league pages' JSON twins: public clubs need no token")

SEASONS = "/clubs/<string:club>/seasons"
SEASON = SEASONS + "/<string:season>"
OPTIONAL_BEARER = [{}, {"bearer": []}]
CALENDAR = "text/calendar"


class DivisionArgsSchema(Schema):
    division = fields.String(validate=validate.Length(min=1, max=100), metadata={
        "description": "one division's (its slug); every division's without it"})


FRAME = {
    "club": fields.Dict(required=True),
    "season": fields.Dict(required=True, metadata={"description": "slug, name"}),
    "divisions": fields.List(fields.Dict(), required=True, metadata={
        "description": "slug, name, teams (their slugs, in order)"}),
    "teams": fields.Dict(required=True, metadata={"description": "each team's name by slug"}),
}
FIXTURES = {"description": "as GET .../seasons/{season}/fixtures lists them"}


class SeasonsPageSchema(Schema):
    club = fields.Dict(required=True)
    seasons = fields.List(fields.Dict(), required=True, metadata={
        "description": "slug, name; newest first"})


LeagueHomeSchema = Schema.from_dict({
    **FRAME, "today": fields.String(required=True, metadata={
        "description": "today in the club's time zone"}),
    "later": fields.Boolean(required=True, metadata={
        "description": "no fixture left to play this week: this_week is the next day's with "
                       "fixtures to play"}),
    "this_week": fields.List(fields.Dict(), required=True, metadata={
        "description": "this week's fixtures still to play (or the next day's), as GET "
                       ".../fixtures lists them; never a complete one"}),
    "awaiting": fields.List(fields.Dict(), required=True, metadata={
        "description": "the complete fixtures (every leg decided) whose result is not yet "
                       "confirmed by both captains, newest first"}),
    "latest": fields.List(fields.Dict(), required=True, metadata={
        "description": "the latest complete fixtures confirmed by both captains, newest "
                       "first"})}, name="LeagueHomeSchema")
LeagueTableSchema = Schema.from_dict({
    **FRAME, "table": fields.Dict(required=True, metadata={
        "description": "GET .../divisions/{division}/table"}),
    "promotion": fields.Integer(required=True), "relegation": fields.Integer(required=True)},
    name="LeagueTableSchema")
LeagueFixturesSchema = Schema.from_dict({
    **FRAME, "division": fields.String(allow_none=True, required=True),
    "weeks": fields.List(fields.Dict(), required=True, metadata={
        "description": "round, fixtures (by date)"})}, name="LeagueFixturesSchema")
LeagueTeamSchema = Schema.from_dict({
    **FRAME, "team": fields.Dict(required=True, metadata={
        "description": "GET .../teams/{team}"})}, name="LeagueTeamSchema")
LeagueAveragesSchema = Schema.from_dict({
    **FRAME, "division": fields.String(allow_none=True, required=True),
    "min_legs": fields.Integer(required=True),
    "averages": fields.List(fields.Dict(), required=True, metadata={
        "description": "GET .../averages"})}, name="LeagueAveragesSchema")


def _render(template: str, data: dict[str, Any]) -> str:
    return render_template(template, data=data, club=data["club"], twin=twin_of(request.path),
                           behind=behind(), signed_in="Authorization" in request.headers)


def _division() -> str | None:
    return request.args.get("division") or None


# ---------------------------------------------------------------------- the pages


@pages.route(SEASONS)
@page
def seasons_page(who: Any, club: str) -> str:
    return _render("pages/league_seasons.html", service().leagues.seasons_page(club, who=who))


@pages.route(SEASON)
@page
def home_page(who: Any, club: str, season: str) -> str:
    return _render("pages/league_home.html",
                   service().leagues.home_page(club, season, who=who))


@pages.route(SEASON + "/divisions/<string:division>")
@page
def table_page(who: Any, club: str, season: str, division: str) -> str:
    return _render("pages/league_table.html",
                   service().leagues.table_page(club, season, division, who=who))


@pages.route(SEASON + "/fixtures")
@page
def fixtures_page(who: Any, club: str, season: str) -> str:
    return _render("pages/league_fixtures.html", service().leagues.fixtures_page(
        club, season, division=_division(), who=who))


@pages.route(SEASON + "/teams/<string:team>")
@page
def team_page(who: Any, club: str, season: str, team: str) -> str:
    return _render("pages/league_team.html",
                   service().leagues.team_page(club, season, team, who=who))


@pages.route(SEASON + "/averages")
@page
def averages_page(who: Any, club: str, season: str) -> str:
    return _render("pages/league_averages.html", service().leagues.averages_page(
        club, season, division=_division(), who=who))


# ---------------------------------------------------------------------- the twins


@twin.route(SEASONS, methods=["GET"])
@twin.doc(security=OPTIONAL_BEARER)
@twin.response(200, SeasonsPageSchema)
@twin.errors(401, 403, 404)
def seasons_twin(club: str):
    """A club's leagues page as JSON: its seasons."""
    return service().leagues.seasons_page(club, who=page_caller())


@twin.route(SEASON, methods=["GET"])
@twin.doc(security=OPTIONAL_BEARER)
@twin.response(200, LeagueHomeSchema)
@twin.errors(401, 403, 404)
def home_twin(club: str, season: str):
    """A league's home as JSON: divisions, this week's fixtures, the latest results."""
    return service().leagues.home_page(club, season, who=page_caller())


@twin.route(SEASON + "/divisions/<string:division>", methods=["GET"])
@twin.doc(security=OPTIONAL_BEARER)
@twin.response(200, LeagueTableSchema)
@twin.errors(401, 403, 404)
def table_twin(club: str, season: str, division: str):
    """A division's table page as JSON."""
    return service().leagues.table_page(club, season, division, who=page_caller())


@twin.route(SEASON + "/fixtures", methods=["GET"])
@twin.doc(security=OPTIONAL_BEARER)
@twin.arguments(DivisionArgsSchema(), location="query")
@twin.response(200, LeagueFixturesSchema)
@twin.errors(401, 403, 404)
def fixtures_twin(args: dict[str, Any], club: str, season: str):
    """Fixtures and results by week as JSON."""
    return service().leagues.fixtures_page(club, season, division=args.get("division"),
                                           who=page_caller())


@twin.route(SEASON + "/teams/<string:team>", methods=["GET"])
@twin.doc(security=OPTIONAL_BEARER)
@twin.response(200, LeagueTeamSchema)
@twin.errors(401, 403, 404)
def team_twin(club: str, season: str, team: str):
    """A team's page as JSON: squad, fixtures and results, its line of the table."""
    return service().leagues.team_page(club, season, team, who=page_caller())


@twin.route(SEASON + "/averages", methods=["GET"])
@twin.doc(security=OPTIONAL_BEARER)
@twin.arguments(DivisionArgsSchema(), location="query")
@twin.response(200, LeagueAveragesSchema)
@twin.errors(401, 403, 404)
def averages_twin(args: dict[str, Any], club: str, season: str):
    """The players' averages page as JSON."""
    return service().leagues.averages_page(club, season, division=args.get("division"),
                                           who=page_caller())


# ---------------------------------------------------------------------- the feeds


@twin.route(SEASON + "/calendar.ics", methods=["GET"])
@twin.doc(security=OPTIONAL_BEARER)
@twin.response(200, {"type": "string"}, content_type=CALENDAR)
@twin.errors(401, 403, 404)
def season_calendar(club: str, season: str):
    """The season's fixtures as an iCalendar feed (RFC 5545) that calendar apps subscribe
    to: a fixture's UID stays, a postponed one comes with its new day and a higher
    SEQUENCE."""
    data = service().leagues.calendar(club, season, who=page_caller())
    return _feed(data)


@twin.route(SEASON + "/teams/<string:team>/calendar.ics", methods=["GET"])
@twin.doc(security=OPTIONAL_BEARER)
@twin.response(200, {"type": "string"}, content_type=CALENDAR)
@twin.errors(401, 403, 404)
def team_calendar(club: str, season: str, team: str):
    """A team's fixtures as an iCalendar feed (RFC 5545)."""
    data = service().leagues.calendar(club, season, team=team, who=page_caller())
    return _feed(data)


def _feed(data: dict[str, Any]) -> Response:
    response = Response(feed(data, host=request.host), mimetype=CALENDAR)
    response.headers["Content-Disposition"] = "inline; filename=fixtures.ics"
    return response
