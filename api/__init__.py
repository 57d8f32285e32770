"""The HTTP API: a flask app over the service layer.

``create_app()`` is the factory (``gunicorn "api:create_app()"``). Settings come from the
``config`` dict, else the environment, else defaults:

| config key | environment | default |
| --- | --- | --- |
| ``DATABASE_URL`` | ``DOMINO_DATABASE_URL`` | the embedded SQLite file (see ``referee.store.db``) |
| ``ADMIN_TOKEN`` | ``DOMINO_ADMIN_TOKEN`` | none: clubs are created with ``domino club create`` |
| ``MAX_CONTENT_LENGTH`` | ``DOMINO_MAX_CONTENT_LENGTH`` | 2 MiB (a large imported log); 413 beyond |
| ``TOKEN_CACHE_SECONDS`` | ``DOMINO_TOKEN_CACHE_SECONDS`` | 30: how long a worker trusts a token it has seen |
| ``MAX_MATCH_EVENTS`` | ``DOMINO_MAX_MATCH_EVENTS`` | 5000: events a match may hold; 413 beyond |
| ``MAX_MATCH_BYTES`` | ``DOMINO_MAX_MATCH_BYTES`` | 8 MiB: bytes of event JSON a match may hold; 413 beyond |

The views hold no rule, no query and no access decision: each passes the caller to
the service and shapes the answer. One Service (one connection pool) serves the whole app;
workers share nothing else, so any number of them can run side by side on one database.
"""

from __future__ import annotations

import os
from typing import Any

from flask import Flask

from referee.service import MatchLimits, open_service

from . import clubs, disputes, events, matches, tokens
from .body import init_body
from .context import init_context
from .errors import register_error_handlers
from .openapi import init_api

MAX_CONTENT_LENGTH = 2 * 1024 * 1024

_ENVIRONMENT = {
    "DATABASE_URL": "DOMINO_DATABASE_URL",
    "ADMIN_TOKEN": "DOMINO_ADMIN_TOKEN",
    "MAX_CONTENT_LENGTH": "DOMINO_MAX_CONTENT_LENGTH",
    "TOKEN_CACHE_SECONDS": "DOMINO_TOKEN_CACHE_SECONDS",
    "MAX_MATCH_EVENTS": "DOMINO_MAX_MATCH_EVENTS",
    "MAX_MATCH_BYTES": "DOMINO_MAX_MATCH_BYTES",
}


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
    return settings


def create_app(config: dict[str, Any] | None = None) -> Flask:
    app = Flask(__name__)
    app.config.update(_settings(config))
    app.json.sort_keys = False  # keep events and reports in the order they were written
    limits = MatchLimits(events=app.config["MAX_MATCH_EVENTS"], bytes=app.config["MAX_MATCH_BYTES"])
    init_context(app, open_service(app.config.get("DATABASE_URL"), limits=limits))
    init_body(app)
    api = init_api(app)
    for module in (clubs, tokens, matches, events, disputes):
        api.register_blueprint(module.blp)
    register_error_handlers(app)
    return app


__all__ = ["create_app"]
