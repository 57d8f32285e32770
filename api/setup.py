"""The first club, without a terminal (docs/desk.md, "The first club"): the page that the
one-time link ``domino serve`` prints opens (``/setup#code=...``), and the two calls its script
makes: whether the link's code may still make the first club, and making it.

The code travels only in the address's fragment (which no browser sends to a server) and in
JSON bodies: never in a path or a query string, so no access log line holds it. The service
decides everything (referee.service.setup); a refused code counts as a refused token against
the caller's address (api.auth), so that guessing codes is limited as guessing tokens is.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint as PageBlueprint
from flask import Response, render_template, url_for
from marshmallow import Schema, fields, validate

import words
from referee.core.rules import PRESETS
from referee.core.vocab import LANGUAGES
from referee.service import Unauthorized

from .auth import refused
from .context import service
from .openapi import Blueprint
from .pages.views import _headers
from .schemas import ClubSchema

blp = Blueprint("setup", __name__, url_prefix="/api/v1",
                description="The first club, made from the one-time setup link that domino "
                            "serve prints on a database with no club")
page = PageBlueprint("setup_page", __name__)


class SetupCodeSchema(Schema):
    code = fields.String(required=True, validate=validate.Length(min=1, max=200), metadata={
        "description": "the setup link's code (the part after #code=)"})


class SetupCheckedSchema(Schema):
    expires_at = fields.String(required=True, metadata={"format": "date-time"})


class SetupSchema(SetupCodeSchema):
    name = fields.String(required=True, metadata={"description": "the club's name, as people "
                                                                 "write it; its slug is made from it"})
    language = fields.String(load_default=None, allow_none=True, metadata={
        "description": f"the language of its pages ({', '.join(LANGUAGES)}), or null"})
    default_rules = fields.String(load_default=None, allow_none=True, metadata={
        "description": "the preset the scorekeeper's phone preselects for a new match (the "
                       f"club setting: {', '.join(PRESETS)}), or null"})


class SetupDoneSchema(Schema):
    club = fields.Nested(ClubSchema, required=True)
    token = fields.String(required=True, metadata={
        "description": "the secretary's token (admin), shown once; only its hash is stored"})
    role = fields.String(required=True)
    label = fields.String(required=True)
    desk = fields.String(required=True, metadata={"description": "the club desk's path"})
    signing_key = fields.String(allow_none=True, metadata={
        "description": "the club's signing key's id; null when the server could not make one "
                       "(its operator runs domino key init)"})


def _refused_counts(call: Any) -> Any:
    """``call()``, a refused code counted as a refused token is (api.auth's limit)."""
    try:
        return call()
    except Unauthorized:
        refused()  # 429 past the limit
        raise


@blp.route("/setup/check", methods=["POST"])
@blp.arguments(SetupCodeSchema())
@blp.response(200, SetupCheckedSchema)
@blp.errors(401, 415, 422, 429)
def check(body: dict[str, Any]):
    """Whether a setup link's code may still make the first club (401, saying why, when it is
    unknown, used, expired, or a club exists already). Nothing is written."""
    answer = _refused_counts(lambda: service().setup.check(body["code"]))
    return answer, {"Cache-Control": "no-store"}


@blp.route("/setup", methods=["POST"])
@blp.arguments(SetupSchema())
@blp.response(201, SetupDoneSchema)
@blp.errors(401, 409, 415, 422, 429)
def create(body: dict[str, Any]):
    """Make the first club with a setup link's code: its name and language, and its
    secretary's token (shown this once). The code, and every other setup link, is spent."""
    made = _refused_counts(lambda: service().setup.create_club(
        body["code"], body["name"], body["language"], body["default_rules"]))
    made["desk"] = url_for("desk.home", club=made["club"]["slug"])
    return made, {"Cache-Control": "no-store"}  # a token: never kept by a cache


@page.route("/setup")
def setup_page() -> Response:
    """The setup link's page: a shell with no data (its script reads the code from the
    address's fragment)."""
    html = render_template("pages/setup.html", club=None, twin=None, signed_in=False,
                           languages=LANGUAGES, language_names=words.NAMES, presets=list(PRESETS))
    return _headers(Response(html, mimetype="text/html"), signed_in=True)
