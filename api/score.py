"""The scorekeeper's page for phones (docs/pages.md, "The scorekeeper's page"): ``/score`` to
sign in and pick or start a match, ``/score/matches/{id}`` to record it by taps.

The pages are shells: their scripts (ES modules in ``api/static/score/``, no build step) keep
the token in the browser's localStorage and talk to the REST API with it as a bearer header
(never in a URL), and draw the match screen the API answers (``GET /api/v1/matches/{id}``, and
the ``screen`` of each append's answer): the legal moves, the tiles not seen, the undo are the
service's. Each page embeds the translations of the scripts' strings as JSON
(``<script type="application/json" id="messages">``, docs/pages.md "Translating the page"). Nothing here decides a rule or an access: the only
answer with data is ``/score/me``, who the token's holder is, from the API's authentication.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, render_template

from referee.core.rules import PRESET_SEATS, PRESETS

from .auth import auth, caller
from .pages.views import POLICY

blp = Blueprint("score", __name__)


def _page(template: str, script: str, **context: object) -> Response:
    # The template embeds the scripts' msgids' translations (js_messages, words.scripts).
    html = render_template(template, script=script, **context)
    response = Response(html, mimetype="text/html")
    # The shell holds no data of anyone's: it may be kept, but is checked again.
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Content-Security-Policy"] = POLICY
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "same-origin"
    return response


@blp.route("/score")
def start() -> Response:
    """Sign in; the club's live matches; a new match (preset, target, time limit, players, event,
    date, table)."""
    presets = [{"name": name, "seats": list(PRESET_SEATS[name]), "target": PRESETS[name]["target"]}
               for name in PRESETS]
    return _page("score/start.html", "start.js", presets=presets)


@blp.route("/score/matches/<int:match_id>")
def match(match_id: int) -> Response:
    """One match, recorded by taps."""
    return _page("score/match.html", "match.js", match_id=match_id)


@blp.route("/score/me")
@auth.login_required
def me() -> Response:
    """Who holds the bearer token: its club, role and label (401 for a token not known)."""
    who = caller()
    response = jsonify({"club": who.club, "role": who.role, "label": who.label})
    response.headers["Cache-Control"] = "private, no-store"
    response.headers["Vary"] = "Authorization"
    return response
