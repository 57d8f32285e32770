"""Bearer tokens (Flask-HTTPAuth): the HTTP part of access only.

Finding who holds a token is the service's (``tokens.authenticate``), and so is every decision
about what that caller may do or see (``referee.service.access``): the views pass the caller on
with each call. What is here: reading the ``Authorization`` header, the server admin token set
by whoever runs the server (``DOMINO_ADMIN_TOKEN``, config ``ADMIN_TOKEN``; it may create clubs
and nothing else), and the 401 answer. Nothing about a token is kept between requests: each asks
the service, so a token revoked on any worker is refused by every worker from the next request.
"""

from __future__ import annotations

import hashlib
import hmac

from flask import current_app
from flask_httpauth import HTTPTokenAuth
from referee.service import SERVER_CALLER, Caller, Unauthorized

from .context import service
from .errors import AUTHENTICATE, problem

auth = HTTPTokenAuth(scheme="Bearer", realm="domino-referee")


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


@auth.verify_token
def _verify(token: str) -> Caller | None:
    if not token:
        return None
    admin_token = current_app.config.get("ADMIN_TOKEN")
    # Compare digests in constant time: no timing hints about the server token.
    if admin_token and hmac.compare_digest(_digest(token), _digest(admin_token)):
        return SERVER_CALLER
    try:
        return service().tokens.authenticate(token)
    except Unauthorized:
        return None


@auth.error_handler
def _auth_error(status: int):
    if status == 401:
        return problem(401, "a valid bearer token is required", kind="unauthorized",
                       headers={"WWW-Authenticate": AUTHENTICATE})
    return problem(status, kind="forbidden")


def caller() -> Caller:
    """Who is calling (the view is under ``auth.login_required``)."""
    return auth.current_user()
