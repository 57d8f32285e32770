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

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, Response, current_app, jsonify, render_template, url_for

from referee.core.rules import PRESET_SEATS, PRESETS, resolve_rules
from words import _
from words.terms import term

from .auth import auth, caller
from .context import service
from .language import token_label
from .pages.views import POLICY

blp = Blueprint("score", __name__)

# The pages may run their service worker (/score/sw.js), from this origin only.
SCORE_POLICY = POLICY + "; worker-src 'self'"
# The worker's own policy: it fetches this origin's shells and assets, and nothing else.
WORKER_POLICY = "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
# Where the worker is, and the scope it serves: both shells (/score and /score/matches/ID),
# one level above its own folder, which Service-Worker-Allowed permits.
WORKER_SCOPE = "/score"
SHELL_MARK = '{"version": "", "assets": []}'
# The start form's help on who sits where, by a preset's seat counts and whether four play it
# in partnerships: two alone, four in partnerships, or two to four, alone or partnered at four
# (score/start.html holds each one's words; start.js shows the chosen preset's).
SEATINGS = {((2,), False): "two", ((4,), True): "pairs", ((2, 3, 4), False): "alone",
            ((2, 3, 4), True): "pairs-at-four"}


def seating(preset: str) -> str:
    """The start form's help on seats for ``preset`` (a key of SEATINGS)."""
    seats = PRESET_SEATS[preset]
    return SEATINGS[seats, resolve_rules(preset, max(seats)).partnerships]


def _page(template: str, script: str, **context: object) -> Response:
    # The template embeds the scripts' msgids' translations (js_messages, words.scripts).
    html = render_template(template, script=script, **context)
    response = Response(html, mimetype="text/html")
    # The shell holds no data of anyone's: it may be kept, but is checked again.
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Content-Security-Policy"] = SCORE_POLICY
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "same-origin"
    return response


@blp.route("/score")
def start() -> Response:
    """Sign in; the club's live matches; a new match (preset, target, time limit, players, event,
    date, table)."""
    presets = [{"name": name, "seats": list(PRESET_SEATS[name]), "target": PRESETS[name]["target"],
                "seating": seating(name)} for name in PRESETS]
    return _page("score/start.html", "start.js", presets=presets)


@blp.route("/score/matches/<int:match_id>")
def match(match_id: int) -> Response:
    """One match, recorded by taps."""
    return _page("score/match.html", "match.js", match_id=match_id)


@blp.route("/score/me")
@auth.login_required
def me() -> Response:
    """Who holds the bearer token: its club, role and label (401 for a token not known), and
    the line the page's footer says of it, in the page's language: the club by its name and
    the role in words (a league team's captain's token: ``captain``, its season and team, and
    said as the team's captain, not as the scorekeeper's token it is)."""
    who = caller()
    club = service().clubs.get_club(who.club, who=who)["name"] if who.club else None
    # A league team's captain's token is a scorekeeper's bound to its team: said as a captain
    # (its label is the team's name unless the secretary gave it another).
    captain = service().leagues.captaincy(who=who) if who.role == "scorekeeper" else None
    role = term("role", who.role)
    if captain is not None and who.label in (None, captain["name"]):
        said = _("Signed in to %(club)s as the captain of %(team)s.", club=club,
                 team=captain["name"])
    elif captain is not None:
        said = _("Signed in to %(club)s as %(label)s (captain of %(team)s).", club=club,
                 label=who.label, team=captain["name"])
    else:
        said = _("Signed in to %(club)s as %(label)s (%(role)s).", club=club,
                 label=token_label(who.label) or role, role=role) if club else _("Signed in as %(role)s.",
                                                                    role=role)
    response = jsonify({"club": who.club, "role": who.role, "label": who.label,
                        "captain": captain, "said": said})
    response.headers["Cache-Control"] = "private, no-store"
    response.headers["Vary"] = "Authorization"
    return response


@lru_cache(maxsize=4)
def _worker(static: str, urls: tuple[tuple[str, str], ...]) -> tuple[str, str]:
    """The worker's text with its SHELL filled in (the assets it keeps from the start, a
    version from their contents), and that version; once per process and static folder."""
    digest = hashlib.sha256()
    for name, _url in urls:
        digest.update(name.encode() + b"\0" + (Path(static) / name).read_bytes())
    text = (Path(static) / "score" / "sw.js").read_text(encoding="utf-8")
    digest.update(text.encode())  # the worker's own changes make a new version too
    version = digest.hexdigest()[:16]
    shell = json.dumps({"version": version, "assets": [url for _name, url in urls]})
    if SHELL_MARK not in text:
        raise RuntimeError("api/static/score/sw.js has no SHELL to fill in")
    return text.replace(SHELL_MARK, shell, 1), version


# The pages' modules outside score/ that the phone's modules import.
SHARED_MODULES = ("i18n.js", "near.js")


def shell_assets(static: str) -> tuple[tuple[str, str], ...]:
    """(file under the static folder, its URL) of what the pages load: every script of
    api/static/score/ (the worker aside) and the shared modules they import, the style sheet
    and the icon."""
    names = sorted(f"score/{p.name}" for p in (Path(static) / "score").glob("*.js")
                   if p.name != "sw.js")
    return tuple((name, url_for("static", filename=name))
                 for name in (*names, *SHARED_MODULES, "score.css", "favicon.svg"))


@blp.route("/score/sw.js")
def worker() -> Response:
    """The pages' service worker (api/static/score/sw.js): the shells and their assets kept
    for a phone with no network, never an answer of the API."""
    static = current_app.static_folder or ""
    text, _version = _worker(static, shell_assets(static))
    response = Response(text, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"  # a new version is seen at once
    response.headers["Service-Worker-Allowed"] = WORKER_SCOPE
    response.headers["Content-Security-Policy"] = WORKER_POLICY
    return response
