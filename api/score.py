"""The scorekeeper's page for phones (docs/pages.md, "The scorekeeper's page"): ``/score`` to
sign in and pick or start a match, ``/score/matches/{id}`` to record it by taps.

The pages are shells: their script (``api/static/score.js``) keeps the token in the browser's
localStorage and talks to the REST API with it as a bearer header (never in a URL), and draws
the match screen the API answers (``GET /api/v1/matches/{id}``): the legal moves, the tiles
not seen, the undo are the service's. Nothing here decides a rule or an access: the only
answer with data is ``/score/me``, who the token's holder is, from the API's authentication.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, render_template

from referee.core.rules import PRESET_SEATS, PRESETS

from .auth import auth, caller
from .pages.views import POLICY

blp = Blueprint("score", __name__)


def _page(template: str, **context: object) -> Response:
    response = Response(render_template(template, **context), mimetype="text/html")
    # The shell holds no data of anyone's: it may be kept, but is checked again.
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Content-Security-Policy"] = POLICY
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "same-origin"
    return response


@blp.route("/score")
def start() -> Response:
    """Sign in; the club's live matches; a new match (preset, players, table)."""
    presets = [{"name": name, "seats": list(PRESET_SEATS[name])} for name in PRESETS]
    return _page("score/start.html", presets=presets)


@blp.route("/score/matches/<int:match_id>")
def match(match_id: int) -> Response:
    """One match, recorded by taps."""
    return _page("score/match.html", match_id=match_id)


@blp.route("/score/me")
@auth.login_required
def me() -> Response:
    """Who holds the bearer token: its club, role and label (401 for a token not known)."""
    who = caller()
    response = jsonify({"club": who.club, "role": who.role, "label": who.label})
    response.headers["Cache-Control"] = "private, no-store"
    response.headers["Vary"] = "Authorization"
    return response
