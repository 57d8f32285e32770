"""What the views share within one app: its Service (one connection pool). Nothing else is
kept between requests: who holds a token is read on each one (api.auth), so that a revocation
holds on every worker at once."""

from __future__ import annotations

from flask import Flask, current_app

from referee.service import Service

EXTENSION = "domino-referee.service"


def init_context(app: Flask, service: Service) -> None:
    app.extensions[EXTENSION] = service


def service() -> Service:
    return current_app.extensions[EXTENSION]


def service_of(app: Flask) -> Service:
    """The app's Service, outside a request (the server's start and stop)."""
    return app.extensions[EXTENSION]
