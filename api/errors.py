"""Every error as ``application/problem+json`` (RFC 9457), and never a 500 for client input.

Four sources of errors meet here: the service's (:class:`referee.service.ServiceError`, mapped by
class), HTTP's own (werkzeug's 404/405/413, webargs' 422 for a malformed request, the auth
layer's 401/403), the database's (unreachable, restarting, a statement or lock timeout: 503 with
Retry-After, and the pool recovers by itself when the database is back; its stored data
damaged, a corrupted file: 503 without, one line in the log), and bugs (anything
else: logged with its traceback, answered as a bare 500 that leaks nothing).
"""

from __future__ import annotations

import http
from typing import Any, Callable, Mapping

from flask import Flask, Response, current_app, request
from werkzeug.exceptions import HTTPException

import words
from referee.service import (
    ActaPending,
    Conflict,
    DatabaseError,
    Duplicate,
    Forbidden,
    IdempotencyMismatch,
    IllegalEvent,
    Invalid,
    NotFinished,
    NotFound,
    RecordBroken,
    RowForged,
    ServiceError,
    TooLarge,
    Unauthorized,
    Unconfirmed,
    database_damaged,
    database_unavailable,
)
from words.schema import field_messages

PROBLEM_MEDIA_TYPE = "application/problem+json"
RETRY_AFTER_SECONDS = 5  # for 503: about how long a PostgreSQL restart takes
PROBLEM_BASE = "urn:domino-referee:problem:"
AUTHENTICATE = 'Bearer realm="domino-referee"'

# A service error class -> (HTTP status, problem type). The order matters only for subclasses.
SERVICE_ERRORS: tuple[tuple[type[ServiceError], int, str], ...] = (
    (NotFound, 404, "not-found"),
    (IllegalEvent, 422, "illegal-event"),
    (Invalid, 422, "invalid"),
    (IdempotencyMismatch, 422, "idempotency-key-reused"),
    (Conflict, 412, "stale-if-match"),
    (Duplicate, 409, "duplicate"),
    (NotFinished, 409, "not-finished"),
    (ActaPending, 409, "acta-pending"),
    (RowForged, 409, "record-forged"),
    (RecordBroken, 409, "record-broken"),
    (Unauthorized, 401, "unauthorized"),
    (Forbidden, 403, "forbidden"),
    (TooLarge, 413, "match-too-large"),
)


# One title per problem type, as RFC 9457 asks (the detail says what happened this time).
TITLES = {
    "not-found": "Not found",
    "illegal-event": "Illegal event",
    "invalid": "Invalid request",
    "malformed-request": "Malformed request",
    "idempotency-key-reused": "Idempotency key reused with another body",
    "stale-if-match": "Stale If-Match: another event was recorded first",
    "if-match-required": "If-Match required",
    "malformed-if-match": "If-Match is not a list of quoted sequence numbers",
    "duplicate": "Already exists",
    "not-finished": "The match is not finished",
    "acta-pending": "The acta is not signed yet",
    "record-broken": "The stored record fails its chain check",
    "record-forged": "A stored row fails its check against the server's row key",
    "unauthorized": "Unauthorized",
    "forbidden": "Forbidden",
    "bad-request": "Bad request",
    "database-unavailable": "The database is unavailable",
    "database-damaged": "The database is damaged",
    "match-too-large": "The match would be larger than a match may be",
    "server-error": "Internal server error",
    "busy": "The server is busy",
    "too-many-attempts": "Too many failed sign-ins",
}


# werkzeug's own details (its 404's "The requested URL was not found on the server. If you
# entered the URL manually...") are English whatever the request's language, and say nothing of
# this API: where werkzeug raised with its default words, the detail is one of these, from the
# catalogs (docs/i18n.md). A detail the code gave (abort(404, message=...)) is kept.
HTTP_DETAILS = {
    400: words.N_("the request cannot be read: it is not what HTTP or this address expects"),
    404: words.N_("there is nothing at %(path)s"),
    405: words.N_("%(method)s is not a method of %(path)s: it takes %(allowed)s"),
    406: words.N_("this address answers in none of the media types the request accepts"),
    413: words.N_("the body is larger than %(limit)s bytes"),
    415: words.N_("the body must be JSON (Content-Type: application/json)"),
}


def http_detail(error: HTTPException, status: int) -> str | None:
    """Our sentence for werkzeug's ``error`` in the request's language, or None where the code
    that raised it said what happened itself. A 413 says the limit, however it was raised (a
    Content-Length over it, or a chunked body read to it: api/body.py)."""
    if status not in HTTP_DETAILS:
        return None
    if status != 413 and error.description != type(error).description:
        return None  # the raiser's own words (already in the request's language)
    allowed = ", ".join(sorted(getattr(error, "valid_methods", None) or ()))
    limit = request.max_content_length
    if status == 413 and limit is None:
        return None  # no limit to say: werkzeug raised it for its own reason
    return words.gettext(HTTP_DETAILS[status], path=request.path, method=request.method,
                         allowed=allowed, limit=limit)


def problem_document(status: int, detail: str | None = None, *, kind: str | None = None,
                     title: str | None = None, **members: Any) -> dict[str, Any]:
    """A problem's members. ``kind`` names a problem type of this API; without it the type is
    about:blank and the title is the status phrase, as RFC 9457 asks."""
    phrase = http.HTTPStatus(status).phrase
    body: dict[str, Any] = {
        "type": PROBLEM_BASE + kind if kind else "about:blank",
        "title": title or TITLES.get(kind or "", phrase),
        "status": status,
    }
    if detail:
        body["detail"] = detail
    body.update({k: v for k, v in members.items() if v is not None})
    return body


def problem(status: int, detail: str | None = None, *, kind: str | None = None,
            title: str | None = None, headers: Mapping[str, str] | None = None,
            **members: Any) -> Response:
    """A problem+json response (:func:`problem_document`)."""
    body = problem_document(status, detail, kind=kind, title=title, **members)
    response = current_app.response_class(current_app.json.dumps(body), status=status,
                                          mimetype=PROBLEM_MEDIA_TYPE)
    if headers:
        response.headers.update(headers)
    return response


def service_error(error: ServiceError) -> Response:
    for cls, status, kind in SERVICE_ERRORS:
        if isinstance(error, cls):
            break
    else:  # a new ServiceError subclass nobody mapped yet: still the client's request
        status, kind = 400, "bad-request"
    members: dict[str, Any] = {}
    headers: dict[str, str] = {}
    if isinstance(error, IllegalEvent):
        members["violation"] = error.violation.as_dict()
    elif isinstance(error, Invalid):
        members["line"] = error.line
        if isinstance(error, Unconfirmed):
            # each new name as typed -> the close players' names: a form asks "did you mean?"
            members["suggestions"] = error.suggestions
    elif isinstance(error, Conflict):
        members["current_seq"] = error.current_seq
        if error.current_seq is not None:
            headers["ETag"] = f'"{error.current_seq}"'
    elif isinstance(error, TooLarge):
        members.update(limit=error.limit, maximum=error.maximum)
    elif isinstance(error, Unauthorized):
        headers["WWW-Authenticate"] = AUTHENTICATE
    # detail: the service's sentence in the request's language (Accept-Language, api/language)
    return problem(status, words.message(error), kind=kind, headers=headers, **members)


def database_error(error: DatabaseError) -> Response:
    if database_damaged(error):
        # The operator's to mend (restore or repair), no bug's: one line for him, no traceback;
        # no Retry-After, since waiting mends nothing.
        current_app.logger.error("database damaged on %s %s: %s", request.method, request.path,
                                 str(error).splitlines()[0])
        return problem(503, words.gettext("the server's database is damaged and cannot be read; "
                                          "the server's operator has to repair it or restore "
                                          "a backup (its log says what failed)"),
                       kind="database-damaged")
    if not database_unavailable(error):
        return _server_error(error, 500)
    # Not the client's doing, nor a bug: one line, no traceback, and nothing of it in the answer.
    current_app.logger.warning("database unavailable on %s %s: %s", request.method, request.path,
                               str(error).splitlines()[0] if str(error) else type(error).__name__)
    return problem(503, words.gettext("the database cannot be reached just now; retry in a few "
                                      "seconds (with the same Idempotency-Key, a retried write "
                                      "is stored once)"),
                   kind="database-unavailable",
                   headers={"Retry-After": str(RETRY_AFTER_SECONDS)})


def http_error(error: HTTPException) -> Response:
    if isinstance(error.response, Response):
        return error.response  # made whole already (the sign-in limit's problem+json 429)
    status = error.code or 500
    if status >= 500:
        # Flask hands an unhandled exception over as InternalServerError(original_exception).
        return _server_error(getattr(error, "original_exception", None) or error, status)
    # Keep the headers werkzeug means to send (Allow on 405, Retry-After...), not its HTML type.
    headers = {k: v for k, v in error.get_headers() if k.lower() != "content-type"}
    data = getattr(error, "data", None) or {}  # what webargs/flask-smorest abort() attached
    headers.update(data.get("headers") or {})
    errors = data.get("errors") or data.get("messages")
    detail = data.get("message") or http_detail(error, status) or error.description
    if errors is not None:
        # each field's refusal in the reader's language, as the detail (words.schema)
        return problem(status, words.gettext("the request does not have the expected shape"),
                       kind="malformed-request", headers=headers, errors=field_messages(errors))
    return problem(status, detail, headers=headers)


def unexpected_error(error: Exception) -> Response:
    if isinstance(error, HTTPException):
        return http_error(error)
    return _server_error(error, 500)


def _server_error(cause: BaseException, status: int) -> Response:
    """A bug, not the client's doing: logged with its traceback, answered with nothing of it."""
    current_app.logger.error("unhandled error on %s %s", request.method, request.path,
                             exc_info=(type(cause), cause, cause.__traceback__))
    return problem(status, words.gettext("the server failed; the error has been logged"),
                   kind="server-error")


def register_error_handlers(app: Flask,
                            as_page: Callable[[Response], Response] | None = None) -> None:
    """Every error's handler. ``as_page`` (the pages' :func:`api.pages.views.problem_page`,
    handed in so that this module needs no page) turns the database's and the server's own
    failures into a page for a browser that asked for one: not the problem+json a page's reader
    cannot read. A page's own refusals (its ServiceErrors) are pages already."""

    def paged(handler: Callable[[Any], Response]) -> Callable[[Any], Response]:
        if as_page is None:
            return handler
        return lambda error: as_page(handler(error))

    app.register_error_handler(ServiceError, service_error)
    app.register_error_handler(DatabaseError, paged(database_error))
    app.register_error_handler(HTTPException, paged(http_error))
    app.register_error_handler(Exception, paged(unexpected_error))
