"""A club's cups' pages (``/clubs/{club}/cups`` and a cup's, ``.../cups/{cup}``; docs/leagues.md):
the cups, and a cup's bracket drawn as an inline SVG (:mod:`.bracket`: the winners' bracket,
the losers', the grand final and its second match when it is to be played) with every tie
listed below it; each with its JSON twin under ``/api/v1/pages``.

Like the league pages, each asks the service for its page (``svc.leagues.cups_page``,
``cup_page``) with the caller, and lays the answer out: public for a public club, the sign-in
page for a private one.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint as FlaskBlueprint
from flask import get_template_attribute, render_template, request
from marshmallow import Schema, fields

from referee.service.leagues.bracket import place
from words import gettext

from ..context import service
from ..cups import CupSchema, CupSummarySchema
from ..openapi import Blueprint
from .bracket import layout, short
from .common import TWIN_PREFIX, behind, page_caller, twin_of
from .views import page

pages = FlaskBlueprint("cup-pages", __name__)
twin = Blueprint("cup-twins", __name__, url_prefix=TWIN_PREFIX,
                 description="The cups' pages' JSON twins: public clubs need no token")

CUPS = "/clubs/<string:club>/cups"
CUP = CUPS + "/<string:cup>"
OPTIONAL_BEARER = [{}, {"bearer": []}]


class CupsPageSchema(Schema):
    club = fields.Dict(required=True)
    cups = fields.List(fields.Nested(CupSummarySchema), required=True, metadata={
        "description": "newest first"})


class CupPageSchema(Schema):
    club = fields.Dict(required=True)
    cup = fields.Nested(CupSchema, required=True)


def tie_words(tie: str, format: str, rounds: int) -> str:
    """A cup's tie as its page's list names it (the bracket template's ``tie_name``, whose
    words are the page's), from its id (``W2-1``, ``L1-2``, ``F1``), its cup's format and its
    winners' bracket's rounds (a single elimination's last round is its final)."""
    bracket, rnd, number = place(tie)
    t = {"id": tie, "bracket": bracket, "round": rnd, "number": number}
    named = get_template_attribute("pages/_bracket.html", "tie_name")
    return str(named(t, {"format": format, "ties": [{"round": rounds}]})).strip()


def cup_tie_words(line: dict[str, Any]) -> str:
    """A cup's tie played as a fixture (a line of ``svc.leagues.cup_fixtures``), as people
    say it: "KO, Round 1, tie 1", "KO, Final"."""
    return gettext("%(cup)s, %(tie)s", cup=line["cup_name"],
                   tie=tie_words(line["tie"], line["cup_format"], line["cup_rounds"]))


def render(template: str, data: dict[str, Any], **more: Any) -> str:
    return render_template(template, data=data, club=data["club"], twin=twin_of(request.path),
                           behind=behind(), signed_in="Authorization" in request.headers,
                           **more)


@pages.route(CUPS)
@page
def cups_page(who: Any, club: str) -> str:
    return render("pages/cups.html", service().leagues.cups_page(club, who=who))


@pages.route(CUP)
@page
def cup_page(who: Any, club: str, cup: str) -> str:
    data = service().leagues.cup_page(club, cup, who=who)
    return render("pages/cup.html", data, drawing=layout(data["cup"]["ties"]), short=short)


@twin.route(CUPS, methods=["GET"])
@twin.doc(security=OPTIONAL_BEARER)
@twin.response(200, CupsPageSchema)
@twin.errors(401, 403, 404)
def cups_twin(club: str):
    """A club's cups page as JSON: its cups, each with its champion once decided."""
    return service().leagues.cups_page(club, who=page_caller())


@twin.route(CUP, methods=["GET"])
@twin.doc(security=OPTIONAL_BEARER)
@twin.response(200, CupPageSchema)
@twin.errors(401, 403, 404)
def cup_twin(club: str, cup: str):
    """A cup's page as JSON: the cup whole, every tie of its bracket with its matches."""
    return service().leagues.cup_page(club, cup, who=page_caller())
