"""The club pages, server-rendered: the site's home (the public clubs), a club's home with its
standings, its players, matches and tournaments, a player's page, a match's page, a dispute
sheet (docs/pages.md).

Each view asks the service for its page (``referee.service.pages``) with the caller: the token's
when the request carries one, else nobody, whom the service lets read a public club only. A
private club's page answers the sign-in page (401): its script keeps the token typed in this
tab's sessionStorage and fetches the page again with it as a bearer header (never in a URL, a
cookie or a form post), then shows the answer in place. Links stay plain links, so every page
has a stable URL; each names its JSON twin (``<link rel="alternate">`` and a Link header).
"""

from __future__ import annotations

from functools import wraps
from typing import Any, Callable

from flask import Blueprint, Response, current_app, redirect, render_template, request, url_for
from werkzeug.exceptions import HTTPException

import words
from referee.service import ServiceError, side_names
from words import N_
from words.collation import by_name

from .. import language
from ..errors import AUTHENTICATE, PROBLEM_MEDIA_TYPE, SERVICE_ERRORS, http_error
from .chart import line_chart
from .common import behind, page_caller, pages, share_link, twin_of
from .layout import drawings

blp = Blueprint("pages", __name__)
blp.add_app_template_global(share_link, "share_link")  # base.html's share box, on every page

# The pages' scripts and styles are files of this app; inline styles are allowed for the
# dispute sheet's template (and for a page written in place after a sign-in, which keeps the
# sign-in page's policy).
POLICY = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
          "img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; "
          "frame-ancestors 'none'")
# A page's heading for its status; a problem type of the API's (api/errors.py) with a heading
# of its own has that one, and may have a first sentence saying what it means to a reader.
TITLES = {401: N_("Sign in"), 403: N_("Not allowed"), 404: N_("Not found"),
          422: N_("Not understood"), 400: N_("Bad request"), 409: N_("Not possible now"),
          412: N_("Changed meanwhile"), 413: N_("Too large"), 500: N_("Server error"),
          503: N_("Not available just now")}
KIND_TITLES = {"acta-pending": N_("Not signed yet"), "not-finished": N_("Not finished yet"),
               "record-broken": N_("The record fails its check"),
               "database-damaged": N_("The database is damaged")}
LEADS = {"acta-pending": N_("The acta of this match, its signed score sheet, is not signed yet. "
                            "The match's page shows its result meanwhile."),
         "not-finished": N_("A match's acta, its signed score sheet, comes once the match is "
                            "finished.")}


def page_status(error: ServiceError) -> tuple[int, str]:
    """The status and problem type of a page's ServiceError: the API's own (SERVICE_ERRORS),
    so a page and its twin answer the same status."""
    return next(((status, kind) for cls, status, kind in SERVICE_ERRORS if isinstance(error, cls)),
                (400, "bad-request"))


def _headers(response: Response, signed_in: bool) -> Response:
    response.headers["Vary"] = "Authorization, Accept-Language, Cookie"  # the language too
    # A page read with a token is that token's; a public one may be kept, but checked again.
    response.headers["Cache-Control"] = "private, no-store" if signed_in else "no-cache"
    response.headers["Content-Security-Policy"] = POLICY
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "same-origin"
    return response


def error_page(error: ServiceError, signed_in: bool, twin: str | None,
               back: str | None = None, desk: bool = False) -> Response:
    """A page's ServiceError as a page: 401 the sign-in page (``desk``: a desk page's, which
    asks for a secretary's or referee's token), the others the error page in the site's frame
    with a way back (``back``: the club the address names)."""
    status, kind = page_status(error)
    if status == 401:
        body = render_template("pages/signin.html", message=words.message(error),
                               refused=signed_in, twin=twin, signed_in=False, desk=desk)
    else:
        body = error_body(status, words.message(error), back=back, signed_in=signed_in,
                          kind=kind)
    response = Response(body, status=status, mimetype="text/html")
    if status == 401:
        response.headers["WWW-Authenticate"] = AUTHENTICATE
    return _headers(response, signed_in=True)


def page(view: Callable[..., Any]) -> Callable[..., Response]:
    """A page view: called with the caller (``who``), its ServiceErrors answered as pages."""

    @wraps(view)
    def wrapped(**kwargs: Any) -> Response:
        signed_in = "Authorization" in request.headers
        twin = twin_of(request.path)
        try:
            body = view(who=page_caller(), **kwargs)
        except ServiceError as error:
            return error_page(error, signed_in, twin, back=kwargs.get("club"))
        response = Response(body, mimetype="text/html")
        response.headers["Link"] = f'<{twin}>; rel="alternate"; type="application/json"'
        return _headers(response, signed_in)

    return wrapped


def error_body(status: int, message: str, *, back: str | None = None,
               signed_in: bool = False, kind: str | None = None) -> str:
    """An error in the site's frame: what went wrong (its heading and first sentence by the
    problem's ``kind`` where it has its own), and a way back (the club's page when the
    address names a club and is not that page, and the list of clubs)."""
    club_page = None
    if isinstance(back, str):
        club_page = url_for("pages.club_home", club=back)
        if club_page == request.path:
            club_page = None
    title = KIND_TITLES.get(kind or "") or TITLES.get(status, TITLES[400])
    lead = LEADS.get(kind or "")
    return render_template("pages/error.html", status=status, title=words.gettext(title),
                           lead=words.gettext(lead) if lead else None, message=message,
                           twin=None, signed_in=signed_in, club_page=club_page)


@blp.app_errorhandler(404)
def not_found(error: HTTPException) -> Response:
    """Every 404 of the app (a handler for the code comes before api/errors.py's for all HTTP
    errors): a browser asking for an address of the site that is no page (a mistyped club page)
    gets a page in the site's frame; the API's own addresses, and clients that do not ask for
    HTML first, get problem+json as for any other error."""
    if _wants_page():
        return not_found_page()
    return http_error(error)


def problem_page(response: Response) -> Response:
    """The server's own failure (a 5xx: the database unavailable or damaged, a bug) as a page in
    the site's frame, same status and headers (Retry-After), for a browser that asked for a page;
    any other answer as it is."""
    if response.status_code < 500 or response.mimetype != PROBLEM_MEDIA_TYPE or not _wants_page():
        return response
    problem = response.get_json(force=True)
    kind = problem.get("type", "").rpartition(":")[2] or None
    body = error_body(response.status_code, problem.get("detail") or "", kind=kind,
                      signed_in="Authorization" in request.headers)
    page = Response(body, status=response.status_code, mimetype="text/html")
    for name, value in response.headers.items():
        if name.lower() not in ("content-type", "content-length"):
            page.headers[name] = value
    return _headers(page, signed_in=True)


def _wants_page() -> bool:
    if request.method not in ("GET", "HEAD") or request.path.startswith("/api/"):
        return False
    accept = request.accept_mimetypes
    return accept.best_match(["application/problem+json", "application/json",
                              "text/html"]) == "text/html" and accept["text/html"] > 0


def not_found_page() -> Response:
    """An address of the site that is no page: 404 in the site's frame, with the club's page as
    a way back when the address names one."""
    parts = request.path.strip("/").split("/")
    club = parts[1] if len(parts) > 2 and parts[0] == "clubs" and parts[1] else None
    body = error_body(404, words.gettext("there is no page at this address"), back=club)
    return _headers(Response(body, status=404, mimetype="text/html"), signed_in=False)


def _render(template: str, **context: Any) -> str:
    return render_template(template, twin=twin_of(request.path), behind=behind(),
                           signed_in="Authorization" in request.headers, **context)


@blp.route("/")
@page
def site_home(who: Any) -> str:
    """The public clubs, and how to reach a private one (its address and a token)."""
    return _render("pages/home.html", data=pages().clubs(), club=None)


@blp.route("/clubs")
@blp.route("/clubs/")
def clubs_index() -> Response:
    """The list of clubs is the site's home."""
    return redirect(url_for("pages.site_home"), code=308)


@blp.route("/clubs/<string:club>")
@page
def club_home(who: Any, club: str) -> str:
    args = request.args
    data = pages().home(club, date_from=args.get("from") or None, date_to=args.get("to") or None,
                        event=args.get("event") or None, who=who)
    language.use_club(data["club"])  # the order of names is the page's language's
    data["standings"] = by_name(data["standings"], lambda r: r["player"],
                                within=lambda r: r["rank"])
    data["events"] = by_name(data["events"])
    return _render("pages/club.html", data=data, club=data["club"])


@blp.route("/clubs/<string:club>/players")
@page
def players_page(who: Any, club: str) -> str:
    data = pages().players(club, who=who)
    language.use_club(data["club"])
    data["players"] = by_name(data["players"], lambda p: p["name"])
    return _render("pages/players.html", data=data, club=data["club"])


@blp.route("/clubs/<string:club>/matches")
@page
def matches_page(who: Any, club: str) -> str:
    args = request.args
    data = pages().matches(club, event=args.get("event"), date_from=args.get("from") or None,
                           date_to=args.get("to") or None, player=args.get("player"),
                           status=args.get("status") or None, page=args.get("page") or 1,
                           who=who)
    language.use_club(data["club"])
    data["players"] = by_name(data["players"])
    data["events"] = by_name(data["events"])
    return _render("pages/matches.html", data=data, club=data["club"])


@blp.route("/clubs/<string:club>/tournaments")
@page
def tournaments_page(who: Any, club: str) -> str:
    data = pages().tournaments(club, who=who)
    return _render("pages/tournaments.html", data=data, club=data["club"])


@blp.route("/clubs/<string:club>/players/<int:player_id>")
@page
def player_page(who: Any, club: str, player_id: int) -> str:
    data = pages().player(club, player_id, who=who)
    language.use_club(data["club"])
    data["head_to_head"] = by_name(data["head_to_head"], lambda h: h["opponent"]["name"] or "",
                                   within=lambda h: h["played"])
    chart = line_chart([r["rating"] for r in data["rating"]])  # the template labels it
    return _render("pages/player.html", data=data, club=data["club"], chart=chart)


@blp.route("/clubs/<string:club>/matches/<int:match_id>")
@page
def match_page(who: Any, club: str, match_id: int) -> str:
    data = pages().match(club, match_id, who=who)
    # a game that scores during play (the points family) draws each round's layout, the
    # spinner's arms too, beside its list of tiles
    during_play = data["match"]["rules"].get("scoring") == "ends"
    return _render("pages/match.html", data=data, club=data["club"],
                   drawings=drawings(data["rounds"]) if during_play else {})


@blp.route("/clubs/<string:club>/matches/<int:match_id>/acta")
@page
def acta_page(who: Any, club: str, match_id: int) -> str:
    """The signed acta of a finished match as a sheet to print (print CSS: pages.css)."""
    data = pages().acta_page(club, match_id, who=who)
    return _render("pages/acta.html", data=data, club=data["club"])


@blp.app_template_filter("fingerprint")
def fingerprint(head: str) -> str:
    """A chain head as people read it aloud and compare it: groups of eight hex digits."""
    return " ".join(head[i:i + 8] for i in range(0, len(head), 8))


@blp.route("/clubs/<string:club>/matches/<int:match_id>/disputes/<int:seq>")
@page
def dispute_sheet(who: Any, club: str, match_id: int, seq: int) -> str:
    sheet = pages().sheet(club, match_id, seq, who=who)
    sides = sheet.get("sides") or side_names(sheet["match"]["rules"], sheet["match"]["players"])
    return render_template("dispute_sheet.html", sheet=sheet, sides=sides)


@blp.route("/favicon.ico")
def favicon() -> Response:
    """What browsers ask every site for (the dispute sheet's template names no icon)."""
    return current_app.send_static_file("favicon.svg")
