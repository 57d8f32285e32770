"""The league desk: the secretary's pages (``/clubs/{club}/desk/seasons`` and a season's),
docs/leagues.md, "The league desk".

The secretary (an admin of the club) sees a season's fixtures week by week and postpones one
(a new day and the reason), awards one as a walkover, or records a leg conceded. Every page is
a desk page (:func:`.page.desk_page`: the sign-in page without a token, public club or not);
the service decides who may (``svc.leagues.desk_seasons`` and ``desk_season`` refuse anyone
but an admin, 403, as the API refuses their actions). Every action is a call of the REST API
by the page's script (``static/desk_league.js``) with the token kept in the tab.

A team's captain (a token bound to the team) has a desk of its own in the season
(``.../captain``): the team's fixtures, each complete result to confirm for the team.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template

from ..context import service
from ..pages.cups import cup_tie_words
from .page import desk_page

blp = Blueprint("desk-leagues", __name__)

BASE = "/clubs/<string:club>/desk/seasons"


def _render(template: str, data: dict[str, Any]) -> str:
    # a cup's tie played as a fixture is named as the cup's page names it ("KO, Final")
    return render_template(template, data=data, club=data["club"], signed_in=True, twin=None,
                           cup_tie_words=cup_tie_words)


@blp.route(BASE)
@desk_page
def seasons(who: Any, club: str) -> str:
    """The club's seasons, each a link to its desk."""
    return _render("desk/league_seasons.html", service().leagues.desk_seasons(club, who=who))


@blp.route(BASE + "/<string:season>")
@desk_page
def season(who: Any, club: str, season: str) -> str:
    """A season's fixtures by week, each with its forms: postpone, walkover, concede a leg."""
    return _render("desk/league_season.html",
                   service().leagues.desk_season(club, season, who=who))


@blp.route(BASE + "/<string:season>/captain")
@desk_page
def captain(who: Any, club: str, season: str) -> str:
    """A captain's desk: the team's fixtures, each complete one to confirm."""
    return _render("desk/league_captain.html",
                   service().leagues.captain_desk(club, season, who=who))
