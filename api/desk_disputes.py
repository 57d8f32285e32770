"""The club desk's disputes desk, for the club's referees (docs/desk.md, "Disputes desk"):
``/clubs/{club}/desk/disputes`` lists every open dispute of the club with its evidence in
words, and previews a ruling before the page's script records it through the events API
(If-Match, Idempotency-Key).

A desk page (api/desk/page.py): the token stays in the browser and comes only as a bearer
header; without one, the sign-in page, whether the club is public or not. The service decides everything: who may use the desk
(``svc.disputes.desk`` takes a referee), which events a ruling records
(``svc.disputes.ruling``) and what they would do (``svc.disputes.preview``). This module only
says it in the page's language: the sentences are made here, through the catalogs.
"""

from __future__ import annotations

from typing import Any, Sequence

from flask import Blueprint, Response, jsonify, render_template, request

import words
from referee.service import Conflict, ServiceError, side_names
from words import _, ngettext

from .context import service
from .desk.page import desk_page
from .pages.common import page_caller
from .pages.views import page_status

blp = Blueprint("desk_disputes", __name__)


# --------------------------------------------------------------------------- events in words

@blp.app_template_global("event_words")
def event_words(event: Any, players: Sequence[str], sides: Sequence[str]) -> str:  # noqa: C901 (a branch per event type)
    """What a recorded event says, with each seat by its player's name ("Lucía Gómez passed"):
    the disputed event, each fact's event and the ruling, on the desk and the dispute sheet."""
    if not isinstance(event, dict):
        return _("an unreadable event")

    def seat(value: Any) -> str:
        if type(value) is int and 0 <= value < len(players):
            return players[value]
        return _("seat %(seat)s", seat=value)

    def side(value: Any) -> str:
        if type(value) is int and 0 <= value < len(sides):
            return sides[value]
        return _("side %(side)s", side=value)

    kind, who, reason = event.get("type"), seat(event.get("seat")), event.get("reason")
    if kind == "deal":
        return _("dealt a new round")
    if kind == "play":
        return _("%(who)s played %(tile)s", who=who, tile=event.get("tile"))
    if kind == "draw":
        if event.get("tile"):
            return _("%(who)s drew %(tile)s", who=who, tile=event["tile"])
        return _("%(who)s drew a tile (unseen)", who=who)
    if kind == "pass":
        return _("%(who)s passed", who=who)
    if kind == "reveal":
        if event.get("tiles") is not None:
            return _("%(who)s revealed %(tiles)s", who=who, tiles=" ".join(map(str, event["tiles"])))
        return ngettext("%(who)s revealed %(num)s pip", "%(who)s revealed %(num)s pips",
                        event.get("pips") or 0, who=who)
    if kind == "penalty":
        if event.get("target") is not None:
            return ngettext("penalty: %(num)s point to %(side)s for event %(target)s (%(reason)s)",
                            "penalty: %(num)s points to %(side)s for event %(target)s (%(reason)s)",
                            event.get("points") or 0, side=side(event.get("side")),
                            target=event["target"], reason=reason)
        return ngettext("penalty: %(num)s point to %(side)s (%(reason)s)",
                        "penalty: %(num)s points to %(side)s (%(reason)s)",
                        event.get("points") or 0, side=side(event.get("side")), reason=reason)
    if kind == "stands":
        return _("event %(target)s stands (%(reason)s)", target=event.get("target"), reason=reason)
    if kind == "amend":
        said = event_words(event.get("event"), players, sides)
        return _("amended event %(target)s to: %(said)s (%(reason)s)", target=event.get("target"),
                 said=said, reason=reason)
    if kind == "void":
        return _("voided event %(target)s (%(reason)s)", target=event.get("target"), reason=reason)
    if kind == "annul":
        return _("annulled the round (%(reason)s)", reason=reason)
    if kind == "forfeit":
        return _("forfeit by %(side)s (%(reason)s)", side=side(event.get("side")), reason=reason)
    if kind == "note":
        return _("note: %(text)s", text=event.get("text"))
    return _("%(kind)s event", kind=kind)


@blp.app_template_global("seat_words")
def seat_words(seat: Any, players: Sequence[str]) -> str:
    """A seat by its player: "Lucía Gómez (seat 1)"."""
    if type(seat) is int and 0 <= seat < len(players):
        return _("%(name)s (seat %(seat)s)", name=players[seat], seat=seat)
    return _("no seat")


# --------------------------------------------------------------------------- the desk

@blp.route("/clubs/<string:club>/desk/disputes")
def disputes_desk(club: str) -> Response:
    response = _desk(club=club)
    # Its data as JSON: the club's disputes (the page itself has no twin of its own).
    response.headers["Link"] = f'</api/v1/clubs/{club}/disputes>; rel="alternate"; type="application/json"'
    return response


@desk_page
def _desk(who: Any, club: str) -> str:
    data = service().disputes.desk(club, who=who)
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
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
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
                           sides=sides, changes=shown["changes"], refused=refused)
    response = jsonify({"events": events, "refused": refused, "html": html,
                        "expected_seq": match["last_seq"]})
    response.headers["Cache-Control"] = "no-store"
    return response


def _refusal(status: int, message: str, stale: bool = False) -> Response:
    response = jsonify({"message": message, "stale": stale})
    response.status_code = status
    response.headers["Cache-Control"] = "no-store"
    return response
