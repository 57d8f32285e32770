"""The club desk's disputes desk, for the club's referees (docs/desk.md, "Disputes desk"):
``/clubs/{club}/desk/disputes`` lists every open dispute of the club with its evidence in
words, and previews a ruling before the page's script records it through the events API
(If-Match, Idempotency-Key).

A desk page (api/desk/page.py): the token stays in the browser and comes only as a bearer
header; without one, the sign-in page, whether the club is public or not. The service decides everything: who may use the desk
(``svc.disputes.desk`` takes a referee), which events a ruling records
(``svc.disputes.ruling``) and what they would do (``svc.disputes.preview``). This module only
says it in the page's language: the events in words are words.events' (the templates'
``event_words``).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, render_template, request, url_for

import words
from referee.service import Conflict, ServiceError, side_names
from words import _

from .context import service
from .desk.page import desk_page
from .openapi import json_object
from .pages.common import page_caller
from .pages.views import page_status

blp = Blueprint("desk_disputes", __name__)


# --------------------------------------------------------------------------- the desk

@blp.route("/clubs/<string:club>/desk/disputes")
def disputes_desk(club: str) -> Response:
    response = _desk(club=club)
    # Its data as JSON: the club's disputes (the page itself has no twin of its own).
    # url_for quotes the club as typed: a header carries Latin-1 only (an RTL mark was a 500).
    twin = url_for("disputes.club_disputes", club=club)
    response.headers["Link"] = f'<{twin}>; rel="alternate"; type="application/json"'
    return response


@desk_page
def _desk(who: Any, club: str) -> str:
    data = service().disputes.desk(club, page=request.args.get("page") or 1, who=who)
    for item in data["ruled"]:
        item["sides"] = side_names(item["match"]["rules"], item["match"]["players"])
    return render_template("desk/disputes.html", data=data, club=data["club"], twin=None,
                           signed_in=True)


@blp.route("/clubs/<string:club>/desk/disputes/<int:match_id>/<int:seq>/preview",
           methods=["POST"])
def preview(club: str, match_id: int, seq: int) -> Response:
    """A ruling previewed, nothing stored: JSON ``{"events", "refused", "html"}``, the events
    the ruling would record (what the script then appends) and the preview in words. A
    ServiceError is ``{"message"}`` with its status: 412 when the record moved on since the
    page was shown (another desk ruled first)."""
    body = json_object()
    if body is None:
        return _refusal(400, _("Send the ruling as a JSON object."))
    try:
        who = page_caller()
        if who is None:
            return _refusal(401, _("Sign in with a referee's token of the club."))
        svc = service()
        events = svc.disputes.ruling(match_id, seq, body.get("ruling"), reason=body.get("reason"),
                                     points=body.get("points"), event=body.get("event"),
                                     expected_seq=body.get("seen"), who=who)
        shown = svc.disputes.preview(match_id, events, who=who)
        match = svc.reading.get_match(match_id, who=who)
    except Conflict:
        return _refusal(412, _("Another desk ruled first: the disputes are shown again as "
                               "they stand now."), stale=True)
    except ServiceError as error:
        return _refusal(page_status(error)[0], words.message(error))
    players = match["players"]
    sides = side_names(match["rules"], players)
    refused = any(e["violation"] is not None for e in shown["events"])
    html = render_template("desk/disputes_preview.html", preview=shown, players=players,
                           sides=sides, rules=match["rules"], changes=shown["changes"],
                           refused=refused)
    response = jsonify({"events": events, "refused": refused, "html": html,
                        "expected_seq": match["last_seq"]})
    response.headers["Cache-Control"] = "no-store"
    return response


def _refusal(status: int, message: str, stale: bool = False) -> Response:
    response = jsonify({"message": message, "stale": stale})
    response.status_code = status
    response.headers["Cache-Control"] = "no-store"
    return response
