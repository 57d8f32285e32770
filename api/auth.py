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
import time

from flask import Flask, Response, current_app, g, request
from flask_httpauth import HTTPTokenAuth
from flask_limiter import Limiter, RequestLimit

from referee.service import SERVER_CALLER, Caller, Unauthorized

from .context import service
from .errors import AUTHENTICATE, problem

auth = HTTPTokenAuth(scheme="Bearer", realm="domino-referee")


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


# Failed sign-ins (a token presented and refused) an address may make, in the limits
# library's notation (AUTH_FAILURES, DOMINO_AUTH_FAILURES); past it, every request from that
# address is answered 429 until the window has passed. A token typed wrong now and then never
# gets there; a guesser does at once.
AUTH_FAILURES = "30 per minute"
REFUSED = "domino_token_refused"
TOO_MANY = ("too many refused tokens from this address; wait {seconds} s before trying again "
            "(Retry-After)")


@auth.verify_token
def _verify(token: str) -> Caller | None:
    if not token:
        return None
    admin_token = current_app.config.get("ADMIN_TOKEN")
    # Compare digests in constant time: no timing hints about the server token.
    if admin_token and hmac.compare_digest(_digest(token), _digest(admin_token)):
        who = SERVER_CALLER
    else:
        try:
            who = service().tokens.authenticate(token)
        except Unauthorized:
            setattr(g, REFUSED, True)  # counted against the address (init_auth)
            return None
    _reads_the_match(who)
    return who


def _reads_the_match(who: Caller) -> None:
    """On a path naming a match by its id alone (``/api/v1/matches/{id}/...``), NotFound
    unless ``who`` may read the match: a token of another club is answered as an unknown id
    is, before anything else of the request is looked at (its If-Match, query or body)."""
    args = request.view_args or {}
    if "match_id" in args and "club" not in args:
        service().reading.require_reader(args["match_id"], who=who)


def _refused(response: Response) -> bool:
    return bool(g.get(REFUSED))


def _too_many(limit: RequestLimit) -> Response:
    seconds = max(1, round(limit.reset_at - time.time()))
    return problem(429, TOO_MANY.format(seconds=seconds), kind="too-many-attempts",
                   headers={"Retry-After": str(seconds)})


def init_auth(app: Flask) -> Limiter:
    """Failed sign-ins limited per client address (Flask-Limiter): one limit over the whole
    app, counted only on a refused token. Its counts live where RATELIMIT_STORAGE_URI says
    (DOMINO_RATELIMIT_STORAGE_URI): ``memory://`` by default, each worker its own, so a guesser
    spread over N workers gets N times the limit; a ``redis://`` URI shares them (docs/api.md,
    "Failed sign-ins")."""
    app.config.setdefault("RATELIMIT_STORAGE_URI", "memory://")
    return Limiter(lambda: request.remote_addr or "-", app=app,
                   application_limits=[app.config.get("AUTH_FAILURES") or AUTH_FAILURES],
                   application_limits_deduct_when=_refused, on_breach=_too_many,
                   key_prefix="domino-auth")


@auth.error_handler
def _auth_error(status: int):
    if status == 401:
        return problem(401, "a valid bearer token is required", kind="unauthorized",
                       headers={"WWW-Authenticate": AUTHENTICATE})
    return problem(status, kind="forbidden")


def caller() -> Caller:
    """Who is calling (the view is under ``auth.login_required``)."""
    return auth.current_user()
