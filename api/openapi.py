"""flask-smorest, adapted: problem+json in the OpenAPI document, a stricter JSON reader, bearer
security, and the docs page: Swagger UI 5, its files from the flask-swagger-ui package (no CDN:
it works offline), started by a script file of this app (no inline script), under a
Content-Security-Policy that allows what Swagger UI needs and nothing else."""

from __future__ import annotations

import http
import json
import math
from pathlib import Path
from typing import Any

import flask_smorest
import flask_swagger_ui
from flask import Blueprint as FlaskBlueprint
from flask import Flask, Response, render_template, request, send_from_directory
from marshmallow import RAISE
from webargs import core
from webargs.flaskparser import FlaskParser, is_json_request
from werkzeug.exceptions import HTTPException, UnsupportedMediaType

import words
from referee.core.log import json_problem, reject_constant, unique_keys
from referee.core.said import said

from .errors import PROBLEM_MEDIA_TYPE, http_error
from .schemas import ClubSettingsSchema, ProblemSchema

DOCS_PATH = "/api/docs"
DOCS_ASSETS = "/api/docs/assets/"
SWAGGER_UI = Path(flask_swagger_ui.__file__).parent / "dist"
DOCS_SCRIPT = "domino-docs.js"  # api/static/docs.js
# Swagger UI's scripts and styles are files of this origin; it draws its icons as data: images
# and sets style attributes from script (which style-src governs as inline styles); it fetches
# the document and the tried requests from this origin only.
DOCS_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
               "img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; "
               "form-action 'none'; frame-ancestors 'none'")


def _finite(text: str) -> float:
    value = float(text)
    if math.isinf(value):  # 1e999 parses to infinity, which no JSON can carry back
        raise ValueError(said("%(number)s is too large a number", number=text[:40]))
    return value


class UnreadableJSON(json.JSONDecodeError):
    """A body :func:`strict_json` refuses; ``problem``: where and what, a sentence of the core
    (said in the caller's language: json's own messages are English, and some were Python's)."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem, "?", 0)  # (webargs reads a doc "" as no body at all)
        self.problem = problem


MAX_DEPTH = 64  # an event is 3 deep (a deal's hands); no request body needs more than this


def _deeper_than(value: Any, limit: int) -> bool:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth > limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return False


_STRICT = {"parse_constant": reject_constant, "parse_float": _finite,
           "object_pairs_hook": unique_keys}
# Made once: json.loads with any of these makes a decoder, and its scanner, a call (half
# of reading an event's body).
_DECODER = json.JSONDecoder(**_STRICT)


def strict_json(data: bytes) -> Any:
    """``data`` read as JSON the strict way (:class:`StrictParser` says what it refuses, and
    why); what it refuses raises UnreadableJSON saying where and what was wrong."""
    try:
        # Strict UTF-8 (RFC 8259): json.loads would take the bytes of a lone surrogate.
        text = data.decode("utf-8")
        # A text starting with a byte order mark is json.loads's to refuse, in its words.
        value = (_DECODER.decode(text) if text[:1] != "\ufeff"
                 else json.loads(text, **_STRICT))
    except UnicodeDecodeError as error:
        raise UnreadableJSON(said("the text is not UTF-8 (byte %(byte)s)", byte=error.start)) from None
    except (ValueError, RecursionError) as error:
        if isinstance(error, json.JSONDecodeError) and error.doc == "":
            raise  # no body at all: webargs' "missing", the schema says what was required
        raise UnreadableJSON(json_problem(error, lines=True)) from None
    # Each level of nesting opens a bracket: a text with no more than MAX_DEPTH of them
    # (counted at C speed, those in strings too) cannot be nested deeper, and is not walked.
    if data.count(b"[") + data.count(b"{") > MAX_DEPTH and _deeper_than(value, MAX_DEPTH):
        # Parsed, but the store and the answer would have to walk it again, recursively.
        raise UnreadableJSON(said("the JSON is nested more than %(depth)s deep", depth=MAX_DEPTH))
    return value


def json_object() -> dict[str, Any] | None:
    """The request's body, when it is a JSON object read as the API reads one
    (:func:`strict_json`); None when it is anything else (no JSON Content-Type, not JSON,
    refused, another value): for the desk's own posts, each of which refuses that with a
    sentence of its own. (flask's ``get_json(silent=True)`` let a body nested deep enough
    through as a RecursionError: a 500.)"""
    if not request.is_json:
        return None
    try:
        value = strict_json(request.get_data(cache=True))
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


class StrictParser(FlaskParser):
    """webargs' JSON reading, refusing what would otherwise slip through to a 500: NaN and
    Infinity (not JSON; the store could not write them back), numbers too large for a float,
    nesting deeper than MAX_DEPTH (deep enough, it exhausts the recursion limit somewhere), and
    an object naming a key twice (two readers could read two different events). All become
    webargs' ordinary 400 for an unreadable body, saying what was wrong.

    A body that is not JSON (a form, text, no Content-Type) is refused with 415 rather than read
    as no body at all, which would make a form post an empty event. It also refuses query
    arguments it does not know (422) rather than ignoring them: a misspelled filter must not
    quietly list everything."""

    DEFAULT_UNKNOWN_BY_LOCATION = {**FlaskParser.DEFAULT_UNKNOWN_BY_LOCATION, "query": RAISE}

    def _raw_load_json(self, req):  # type: ignore[no-untyped-def]
        data = req.get_data(cache=True)
        if not is_json_request(req):
            if not data and not req.mimetype:
                return core.missing  # no body at all: the schema says what was required
            if not req.mimetype:
                raise UnsupportedMediaType(words.gettext(
                    "the body must be JSON (Content-Type: application/json), not a body "
                    "without a Content-Type"))
            raise UnsupportedMediaType(words.gettext(
                "the body must be JSON (Content-Type: application/json), not %(type)s",
                type=req.mimetype[:100]))
        return strict_json(data)

    def _handle_invalid_json_error(self, error, req, *args, **kwargs):  # type: ignore[no-untyped-def]
        reason = getattr(error, "problem", None) or said("the text is not UTF-8 (byte %(byte)s)",
                                                         byte=getattr(error, "start", 0))
        flask_smorest.abort(400, exc=error, messages={"json": [
            words.gettext("the body is not JSON: %(why)s", why=reason)]})


class Blueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = StrictParser()

    def errors(self, *codes: int):  # type: ignore[no-untyped-def]
        """Document the problem responses a view may give, beyond the default one.

        Only documented: each is alt_response's entry in the view's ``_apidoc``, without the
        wrapper alt_response puts around the view, which would do nothing on every request but
        find the app and ask whether the view is a coroutine (an append's view had nine)."""
        def decorator(func):  # type: ignore[no-untyped-def]
            for code in codes:
                documented = self.alt_response(code, response=http.HTTPStatus(code).name)(func)
                func._apidoc = documented._apidoc
            return func
        return decorator


class ProblemApi(flask_smorest.Api):
    """flask-smorest's Api, speaking problem+json in its error handler and its OpenAPI document."""

    ERROR_SCHEMA = ProblemSchema

    def handle_http_exception(self, error: HTTPException) -> Response:  # type: ignore[override]
        return http_error(error)

    def _register_responses(self) -> None:
        # flask-smorest documents error responses as application/json; ours are problem+json,
        # and a client (or schemathesis) checking content types must find them documented so.
        for status in http.HTTPStatus:
            response: dict[str, Any] = {"description": status.phrase}
            if status >= 400:
                response["content"] = {PROBLEM_MEDIA_TYPE: {"schema": self.ERROR_SCHEMA}}
            self.spec.components.response(status.name, response, lazy=True)
        self.spec.components.response("DEFAULT_ERROR", {
            "description": "An error (RFC 9457 problem details)",
            "content": {PROBLEM_MEDIA_TYPE: {"schema": self.ERROR_SCHEMA}},
        }, lazy=True)


OPENAPI_CONFIG = {
    "API_TITLE": "domino-referee",
    "API_VERSION": "v1",
    # Swagger UI 5 reads 3.0 and 3.1; the tools that check the document (schemathesis) read 3.0.
    "OPENAPI_VERSION": "3.0.3",
    "OPENAPI_URL_PREFIX": "/api",
    "OPENAPI_JSON_PATH": "openapi.json",
    "API_SPEC_OPTIONS": {
        "info": {"description": "Event-sourced referee and scorekeeper for real-table dominoes. "
                                "Errors are application/problem+json (RFC 9457)."},
        "components": {"securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}},
        "security": [{"bearer": []}],
    },
}


def docs() -> FlaskBlueprint:
    """The docs page and its files: Swagger UI's from the flask-swagger-ui package, the script
    that starts it from this app's static files."""
    blueprint = FlaskBlueprint("docs", __name__)

    @blueprint.route(DOCS_PATH)
    def page() -> Response:
        response = Response(render_template("docs.html", title=OPENAPI_CONFIG["API_TITLE"],
                                            assets=DOCS_ASSETS, spec_url="/api/openapi.json"))
        response.headers["Content-Security-Policy"] = DOCS_POLICY
        response.headers["Cache-Control"] = "no-cache"
        return response

    @blueprint.route(DOCS_ASSETS + "<path:name>")
    def asset(name: str) -> Response:
        if name == DOCS_SCRIPT:
            return send_from_directory(Path(__file__).parent / "static", "docs.js", max_age=3600)
        return send_from_directory(SWAGGER_UI, name, max_age=86400)

    return blueprint


def init_api(app: Flask) -> ProblemApi:
    for key, value in OPENAPI_CONFIG.items():
        app.config.setdefault(key, value)
    api = ProblemApi(app)
    # What a schema says of itself beyond its fields (apispec writes only the fields): set
    # before the blueprints register it, the plugin's properties are added to these.
    api.spec.components.schema("ClubSettings", {"minProperties": 1}, schema=ClubSettingsSchema)
    app.register_blueprint(docs())
    return api
