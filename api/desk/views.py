"""The club desk's pages, server-rendered (docs/desk.md): ``/clubs/{club}/desk``, the home
with a section per thing the caller's role may do, and the QR code of a sign-in code.

The home is a desk page (api.desk.page): without a token it answers the sign-in page, whose
script keeps the token in the tab and fetches the page again with it as a bearer header.
Which sections a role gets is the service's (referee.service.desk); the desk's script
(api/static/desk.js) does each action through the REST API with the token.
"""

from __future__ import annotations

import io
from typing import Any

import segno
from flask import Blueprint, Response, jsonify, render_template, request, url_for

import words
from referee.service import Invalid
from referee.service.desk import TIME_EVENT, Desk
from referee.service.signin import CAPTAIN, DESK
from words.collation import by_name

from .. import language
from ..auth import auth, caller
from ..context import service
from ..openapi import json_object
from ..pages.views import _headers
from .page import desk_page

blp = Blueprint("desk", __name__)

MAX_CODE_LENGTH = 200


@blp.route("/clubs/<string:club>/desk")
@desk_page
def home(who: Any, club: str) -> str:
    data = Desk(service()).home(club, who=who)
    language.use_club(data["club"])  # names in the order of the page's language
    if "players" in data:
        data["players"] = by_name(data["players"], lambda p: p["name"])
    return render_template("desk/home.html", data=data, club=data["club"], twin=None,
                           signed_in=True, language_names=words.NAMES)


@blp.route("/clubs/<string:club>/desk/qr", methods=["POST"])
@auth.login_required
def qr(club: str) -> Response:
    """The QR code (SVG) of the address that signs a phone in with a sign-in code of this
    club: the club desk's for a referee's or a secretary's token, a league team captain's
    desk of its season for a captain's, the scorekeeper's page (/score) for the others (the
    service says which, and refuses a code that is not one of
    this club's waiting to be used). The code comes in the JSON body, never in the address;
    the picture holds it in the fragment (``#code=...``), which the phone's browser does not
    send to the server either."""
    body = json_object()
    code = body.get("code") if body is not None else None
    if not isinstance(code, str) or not code or len(code) > MAX_CODE_LENGTH:
        raise Invalid('send {"code": a sign-in code of at most %(most)d characters}',
                      most=MAX_CODE_LENGTH)
    target = service().signin.qr_target(club, code, who=caller())
    where = target["opens"]
    path = (url_for("desk.home", club=club) if where == DESK
            else url_for("desk-leagues.captain", club=club, season=target["season"])
            if where == CAPTAIN else url_for("score.start"))
    url = request.host_url.rstrip("/") + path + "#code=" + code
    svg = io.BytesIO()
    # A whole SVG document (its namespace named): the desk shows it as an image.
    segno.make(url, error="m").save(svg, kind="svg", xmldecl=False, scale=6, border=4,
                                    dark="#000", light="#fff")
    response = Response(svg.getvalue(), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "private, no-store"  # it signs someone in
    return _headers(response, signed_in=True)


@blp.route("/clubs/<string:club>/desk/matches/<int:match_id>/time", methods=["POST"])
@auth.login_required
def call_time(club: str, match_id: int) -> Response:
    """Call time in a match from the desk: its ``time`` event recorded by the recording use
    case, which decides everything (who may, and whether the match takes it: a second call is
    refused, ``bad_event``, as a match over is, ``match_over``; problem+json, 403/404/422).

    It is recorded at the end of the record, whatever the end is then (``expected_seq=None``,
    as the CLI records): the desk does not follow each play as the table's phone does, and the
    one thing that could make a stale button wrong, time called first by someone else, the
    rules core refuses by itself. The club in the address is the desk's; the match's own club
    is the one the service checks the token against."""
    recorded = service().recording.record_event(match_id, dict(TIME_EVENT), expected_seq=None,
                                                who=caller())
    response = jsonify({"seq": recorded.seq, "time_called": recorded.screen.time_called})
    response.status_code = 201
    return _headers(response, signed_in=True)
