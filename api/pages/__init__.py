"""The club pages: server-rendered HTML for people (:mod:`.views`, under ``/clubs/...``) and
each page's JSON twin in the API (:mod:`.twins`, the same path under ``/api/v1/pages``).

A page holds no rule, no query and no access decision: it asks :mod:`referee.service.pages`
(which asks the other use cases, the caller passed on) and lays the answer out. Someone without
a token reads a public club; a private club's pages answer a sign-in page (docs/pages.md).
"""

from __future__ import annotations

from flask import Flask
from flask_smorest import Api

from . import twins, views
from .common import share_link


def init_pages(app: Flask, api: Api) -> None:
    app.register_blueprint(views.blp)
    app.jinja_env.globals.update(share_link=share_link)  # base.html's share box
    api.register_blueprint(twins.blp)


__all__ = ["init_pages"]
