"""The app's one Service, for the views."""

from __future__ import annotations

from flask import current_app

from referee.service import Service

EXTENSION = "domino-referee.service"


def service() -> Service:
    return current_app.extensions[EXTENSION]
