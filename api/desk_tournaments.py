"""The tournament desk: the director's pages (``/clubs/{club}/desk/tournaments`` and below),
docs/desk.md, "Tournament desk".

The director (a token of the club with the role ``referee``, or an admin) creates a
tournament, enters players by pasting names (each new name close to a player's is offered as
a did-you-mean first), withdraws them, pairs and re-pairs rounds, sets the constraints, starts
a round's tables and prints its pairing sheet and table cards (each card with a QR code of the
table's match on ``/score``). Every page is a desk page (:func:`.desk.page.desk_page`: the
sign-in page without a token, public club or not; the token kept in the tab and sent only as
a bearer header); every action is a call of the REST API by the page's script
(``static/desk_tournaments.js``).

The service decides who may: each page asks a desk use case (``Tournaments.desk`` and
``desk_tournament``) that refuses a scorekeeper or a viewer (403), as the API refuses their
actions. The one JSON view here, the did-you-mean of pasted names, is the service's
``check_names``; it writes nothing.
"""

from __future__ import annotations

from typing import Any

import segno
from flask import Blueprint, Response, jsonify, render_template, request, url_for
from markupsafe import Markup

from referee.core.rules import PRESETS
from referee.core.vocab import CONSTRAINT_KINDS, TOURNAMENT_FORMATS
from referee.service import Caller, Invalid
from referee.service.tournaments.fields import TABLE_PRESETS

from . import language
from .auth import auth, caller
from .context import service
from .desk.page import desk_page
from .openapi import json_object
from .pages.common import event_standing_order, twin_of

blp = Blueprint("desk-tournaments", __name__)

BASE = "/clubs/<string:club>/desk/tournaments"
ONE = BASE + "/<string:slug>"


def _render(template: str, **context: Any) -> str:
    # The desk's twin is the tournament's own JSON (the API), not a page twin.
    return render_template(template, signed_in=True, twin=None, **context)


def _qr(url: str) -> Markup:
    """An inline SVG QR code of ``url``, with its text as the image's name."""
    svg = segno.make(url, error="m").svg_inline(scale=4, border=4, title=url)
    return Markup(svg)  # segno escapes the title; the rest is its own markup


@blp.route(BASE)
@desk_page
def tournaments(who: Caller | None, club: str) -> str:
    """The club's tournaments and the form of a new one."""
    data = service().tournaments.desk(club, who=who)
    return _render("desk/tournaments.html", data=data, club=data["club"],
                   formats=TOURNAMENT_FORMATS, presets=TABLE_PRESETS,
                   targets={name: PRESETS[name]["target"] for name in TABLE_PRESETS})


@blp.route(ONE)
@desk_page
def tournament(who: Caller | None, club: str, slug: str) -> str:
    """One tournament: entrants, constraints, rounds with their tables, the event standing."""
    data = service().tournaments.desk_tournament(club, slug, who=who)
    language.use_club(data["club"])  # the order of names is the page's language's
    data["standings"] = event_standing_order(data["standings"])
    return _render("desk/tournament.html", data=data, club=data["club"],
                   kinds=CONSTRAINT_KINDS, public_twin=twin_of(
                       url_for("tournament-pages.tournament_page", club=club, slug=slug)))


def _printed(who: Caller | None, club: str, slug: str, number: int) -> tuple[dict[str, Any],
                                                                              dict[str, Any]]:
    data = service().tournaments.desk_tournament(club, slug, who=who)
    found = [r for r in data["tournament"]["paired_rounds"] if r["number"] == number]
    if not found:
        from referee.service import NotFound

        raise NotFound("no round %(round)r in this tournament", round=number)
    return data, found[0]


@blp.route(ONE + "/rounds/<int:number>/pairings")
@desk_page
def pairings(who: Caller | None, club: str, slug: str, number: int) -> str:
    """The round's pairing sheet, to print and pin up."""
    data, found = _printed(who, club, slug, number)
    return _render("desk/tournament_pairings.html", data=data, club=data["club"], round=found)


@blp.route(ONE + "/rounds/<int:number>/cards")
@desk_page
def cards(who: Caller | None, club: str, slug: str, number: int) -> str:
    """A card per table of the round: table, seats, players, and a QR code of its match on
    /score (the scorekeeper's phone opens it there)."""
    data, found = _printed(who, club, slug, number)
    root = request.host_url.rstrip("/")
    tables = []
    for table in found["tables"]:
        url = root + url_for("score.match", match_id=table["match"]) if table["match"] else None
        tables.append({**table, "url": url, "qr": _qr(url) if url else None})
    return _render("desk/tournament_cards.html", data=data, club=data["club"], round=found,
                   tables=tables)


@blp.route(ONE + "/names", methods=["POST"])
@auth.login_required
def names(club: str, slug: str) -> Response:
    """What entering each pasted name would do (the did-you-mean), nothing written:
    ``{"names": [...]}`` in, the service's ``check_names`` rows out."""
    body = json_object()
    if body is None or not isinstance(body.get("names"), list):
        raise Invalid('send {"names": [a name, ...]}')
    found = service().tournaments.check_names(club, slug, body["names"], who=caller())
    response = jsonify(found)
    response.headers["Cache-Control"] = "private, no-store"
    return response
