"""The cups desk: the secretary's pages (``/clubs/{club}/desk/cups`` and a cup's),
docs/leagues.md, "Cups kept by the club".

The secretary (an admin of the club) creates a cup (of a season's teams, or of the club's
players or pairs), makes its draw (again, while no tie has a match) and sees its bracket and
ties: their results come from their matches. Every page is a desk page
(:func:`.page.desk_page`: the sign-in page without a token); the service decides who may
(``svc.leagues.desk_cups`` and ``desk_cup`` refuse anyone but an admin, 403). Every action is a
call of the REST API by the page's script (``static/desk_cups.js``) with the token kept in the
tab.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template

from ..context import service
from ..pages.bracket import layout, short
from .page import desk_page

blp = Blueprint("desk-cups", __name__)

BASE = "/clubs/<string:club>/desk/cups"


def _render(template: str, data: dict[str, Any], **more: Any) -> str:
    return render_template(template, data=data, club=data["club"], signed_in=True, twin=None,
                           **more)


@blp.route(BASE)
@desk_page
def cups(who: Any, club: str) -> str:
    """The club's cups, each a link to its desk, and the form to create one."""
    return _render("desk/cups.html", service().leagues.desk_cups(club, who=who))


@blp.route(BASE + "/<string:cup>")
@desk_page
def cup(who: Any, club: str, cup: str) -> str:
    """A cup: its draw's form, its bracket and ties."""
    data = service().leagues.desk_cup(club, cup, who=who)
    return _render("desk/cup.html", data, drawing=layout(data["cup"]["ties"]), short=short)
