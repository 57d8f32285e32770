"""The HTTP API: a flask app over the service layer.

``create_app()`` is the factory (``gunicorn "api:create_app()"``). Settings come from the
``config`` dict, else the environment, else defaults:

| config key | environment | default |
| --- | --- | --- |
| ``DATABASE_URL`` | ``DOMINO_DATABASE_URL`` | the embedded SQLite file (see ``referee.store.db``) |
| ``ADMIN_TOKEN`` | ``DOMINO_ADMIN_TOKEN`` | none: clubs are created with ``domino club create`` |
| ``MAX_CONTENT_LENGTH`` | ``DOMINO_MAX_CONTENT_LENGTH`` | 2 MiB (a large imported log); 413 beyond |
| ``MAX_MATCH_EVENTS`` | ``DOMINO_MAX_MATCH_EVENTS`` | 5000: events a match may hold; 413 beyond |
| ``MAX_MATCH_BYTES`` | ``DOMINO_MAX_MATCH_BYTES`` | 8 MiB: bytes of event JSON a match may hold; 413 beyond |
| ``ACCESS_LOG`` | ``DOMINO_ACCESS_LOG`` | on: a line per request on the ``domino.access`` logger (:mod:`api.access_log`); 0 turns it off |
| ``TRUSTED_PROXIES`` | ``DOMINO_TRUSTED_PROXIES`` | 0: how many proxies in front to believe about X-Forwarded-For and -Proto |
| ``AUTH_FAILURES`` | ``DOMINO_AUTH_FAILURES`` | 30 per minute: refused tokens an address may send (each further refused one 429, a valid token let in; :mod:`api.auth`) |
| ``RATELIMIT_STORAGE_URI`` | ``DOMINO_RATELIMIT_STORAGE_URI`` | memory:// (each worker its own): where those counts are kept |
| ``PSEUDO_LOCALE`` | ``DOMINO_PSEUDO_LOCALE`` | off: the tests' pseudo-locale ``xx`` may be asked for (docs/i18n.md) |

The views hold no rule, no query and no access decision: each passes the caller to
the service and shapes the answer. One Service (one connection pool) serves the whole app;
workers share nothing else, so any number of them can run side by side on one database.
"""

from __future__ import annotations

import os
from typing import Any

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import IntegerConverter, Map, UnicodeConverter

from referee.service import MatchLimits, Service, open_service

from . import (
    access_log,
    clubs,
    cups,
    desk_disputes,
    desk_tournaments,
    disputes,
    events,
    leagues,
    matches,
    players,
    score,
    scoreboard,
    setup,
    tokens,
    tournaments,
    transparency,
)
from .access_log import AccessLog
from .auth import init_auth
from .body import init_body
from .context import init_context
from .desk import cups as desk_cups
from .desk import leagues as desk_leagues
from .desk import signin as desk_signin
from .desk import views as desk_views
from .errors import register_error_handlers
from .headers import secure
from .language import init_language
from .openapi import init_api
from .pages import cups as cup_pages
from .pages import leagues as league_pages
from .pages import twins as page_twins
from .pages import views as page_views

# The REST API's blueprints, in the OpenAPI document (flask-smorest), and the pages' (plain
# flask), each registered the one way below.
API = (clubs.blp, tokens.blp, matches.blp, events.blp, disputes.blp, players.blp,
       transparency.blp,  # a club's keys and its log of signed actas
       page_twins.blp,  # each club page's JSON twin, /api/v1/pages/...
       desk_signin.blp,  # the desk's one-time sign-in codes
       setup.blp,  # the first club, from the link domino serve prints
       tournaments.blp, tournaments.twin,
       leagues.blp,  # a club's league seasons (docs/leagues.md)
       cups.blp,  # a club's cups (docs/leagues.md)
       cup_pages.twin,  # the cups' pages' JSON twins
       league_pages.twin)  # the league pages' JSON twins and the fixtures' calendar feeds
PAGES = (page_views.blp,  # the club pages (docs/pages.md)
         setup.page,  # /setup, the first club's page
         desk_views.blp, desk_tournaments.blp, desk_disputes.blp,  # the club desk (docs/desk.md)
         desk_leagues.blp,  # the league secretary's desk (docs/leagues.md)
         desk_cups.blp,  # the cups desk (docs/leagues.md)
         tournaments.pages,  # a tournament's page
         league_pages.pages,  # a league's pages (docs/leagues.md)
         cup_pages.pages,  # a club's cups' pages, a cup's bracket
         score.blp,  # the scorekeeper's page, /score
         scoreboard.blp)  # the live scoreboard, its JSON and stream

MAX_CONTENT_LENGTH = 2 * 1024 * 1024

_ENVIRONMENT = {
    "DATABASE_URL": "DOMINO_DATABASE_URL",
    # a replica the pages, standings, listings and exports read (referee.service.uow.Kind)
    "READ_DATABASE_URL": "DOMINO_READ_DATABASE_URL",
    "ADMIN_TOKEN": "DOMINO_ADMIN_TOKEN",
    "MAX_CONTENT_LENGTH": "DOMINO_MAX_CONTENT_LENGTH",
    "MAX_MATCH_EVENTS": "DOMINO_MAX_MATCH_EVENTS",
    "MAX_MATCH_BYTES": "DOMINO_MAX_MATCH_BYTES",
    "ACCESS_LOG": "DOMINO_ACCESS_LOG",
    "TRUSTED_PROXIES": "DOMINO_TRUSTED_PROXIES",
    "AUTH_FAILURES": "DOMINO_AUTH_FAILURES",
    "RATELIMIT_STORAGE_URI": "DOMINO_RATELIMIT_STORAGE_URI",
    "PSEUDO_LOCALE": "DOMINO_PSEUDO_LOCALE",
    "THREADS": "DOMINO_THREADS",  # the threads serving it (api.asgi): its pool holds as many
}
OFF = ("0", "false", "no", "off")


def _settings(config: dict[str, Any] | None) -> dict[str, Any]:
    settings: dict[str, Any] = {"MAX_CONTENT_LENGTH": MAX_CONTENT_LENGTH,
                                "MAX_MATCH_EVENTS": MatchLimits.events,
                                "MAX_MATCH_BYTES": MatchLimits.bytes}
    for key, variable in _ENVIRONMENT.items():
        if value := os.environ.get(variable):
            settings[key] = value
    settings.update(config or {})
    for key in ("MAX_CONTENT_LENGTH", "MAX_MATCH_EVENTS", "MAX_MATCH_BYTES"):
        settings[key] = int(settings[key])
    settings["ACCESS_LOG"] = str(settings.get("ACCESS_LOG", True)).strip().lower() not in OFF
    settings["TRUSTED_PROXIES"] = int(settings.get("TRUSTED_PROXIES") or 0)
    settings["THREADS"] = int(settings["THREADS"]) if settings.get("THREADS") else None
    pseudo = str(settings.get("PSEUDO_LOCALE", "")).strip().lower()
    settings["PSEUDO_LOCALE"] = pseudo not in (*OFF, "")
    return settings


class AsciiInteger(IntegerConverter):
    """werkzeug's <int:...>, of ASCII digits alone: its regex \\d+ takes any script's digits,
    so /api/v1/matches/１ (fullwidth) was match 1, as page=２ was page 2 (whole_number in
    referee.core.vocab reads the query's numbers the same way)."""

    regex = r"[0-9]+"


class NoNulString(UnicodeConverter):
    """werkzeug's <string:...> (and a bare <name>), without a NUL: PostgreSQL's text holds
    none, so a slug of /clubs/a%00b read there was psycopg's DataError, a 500; no slug holds
    one, so no address with one is any page's or operation's (404)."""

    def __init__(self, map: Map, *args: Any, **kwargs: Any) -> None:
        super().__init__(map, *args, **kwargs)
        self.regex = self.regex.replace("[^/]", "[^/\\x00]", 1)


def create_app(config: dict[str, Any] | None = None, service: Service | None = None) -> Flask:
    """The app over ``service``, else over a Service it opens on DATABASE_URL (the tests pass
    theirs: one app serves many tests, each over its own database)."""
    app = Flask(__name__)
    app.url_map.converters["int"] = AsciiInteger  # before any rule is added
    app.url_map.converters["string"] = app.url_map.converters["default"] = NoNulString
    app.config.update(_settings(config))
    limits = MatchLimits(events=app.config["MAX_MATCH_EVENTS"], bytes=app.config["MAX_MATCH_BYTES"])
    init_language(app)  # first: a catalog that cannot be read stops the start, naming the file
    service = service or open_service(app.config.get("DATABASE_URL"), limits=limits,
                                      threads=app.config["THREADS"],
                                      read_url=app.config.get("READ_DATABASE_URL"))
    init_context(app, service.ready())  # every concern made now: no request pays an import
    init_body(app)
    init_auth(app)  # failed sign-ins limited per address
    api = init_api(app)
    for blueprint in API:
        api.register_blueprint(blueprint)
    for page in PAGES:
        app.register_blueprint(page)
    scoreboard.document(api, app)  # ... in the OpenAPI document
    register_error_handlers(app, as_page=page_views.problem_page)
    app.after_request(secure)  # the security headers on every answer (api/headers.py)
    if app.config["ACCESS_LOG"]:
        access_log.enable()
    app.wsgi_app = around(app, app.wsgi_app)  # type: ignore[method-assign]
    app.extensions[AROUND] = around
    return app


AROUND = "domino.around"  # app.extensions: around, for the ASGI front's own answers (api.asgi)


def around(app: Flask, wsgi_app: Any) -> Any:
    """``wsgi_app`` inside what every answer of ``app`` goes through: the access log (when
    ACCESS_LOG) and, outermost, the trusted proxies' ProxyFix, so that the log and the app
    see the client's address, not the proxy's. The app's own answers and the ASGI front's
    (a 413, 408, 414 or 431 it gives before the app) are logged alike."""
    if app.config["ACCESS_LOG"]:
        wsgi_app = AccessLog(wsgi_app)
    if proxies := app.config["TRUSTED_PROXIES"]:
        wsgi_app = ProxyFix(wsgi_app, x_for=proxies, x_proto=proxies)
    return wsgi_app


__all__ = ["create_app"]
