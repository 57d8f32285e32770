"""Bearer tokens (Flask-HTTPAuth): the HTTP part of access only.

Finding who holds a token is the service's (``tokens.authenticate``), and so is every decision
about what that caller may do or see (``referee.service.access``): the views pass the caller on
with each call. What is here: reading the ``Authorization`` header, the server admin token set
by whoever runs the server (``DOMINO_ADMIN_TOKEN``, config ``ADMIN_TOKEN``; it may create clubs
and nothing else), the 401 answer, and the limit on failed sign-ins per client address (429).
Nothing about a token is kept between requests: each asks the service, so a token revoked on any
worker is refused by every worker from the next request.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import math
import time

from flask import Flask, abort, current_app, request
from flask_httpauth import HTTPTokenAuth
from limits import parse
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter

from referee.service import SERVER_CALLER, Caller, Unauthorized
from words import N_, _

from .context import service, this_app, this_request
from .errors import AUTHENTICATE, problem

auth = HTTPTokenAuth(scheme="Bearer", realm="domino-referee")


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


# Failed sign-ins (a token or a sign-in code presented and refused) one client address may
# make, in the limits library's notation (AUTH_FAILURES, DOMINO_AUTH_FAILURES), in a moving
# window; past it, each further refused one is answered 429 until the window has room again.
# Only refusals are counted and only refusals are refused: a valid token is always let in, so
# that one guesser on a club's Wi-Fi locks out no phone sharing its address.
AUTH_FAILURES = "30 per minute"
EXTENSION = "domino-referee.failed-sign-ins"
TOO_MANY = N_("too many refused tokens from this address: this one is refused too; wait "
              "%(seconds)s s before trying another (Retry-After)")
log = logging.getLogger("domino.auth")


class FailedSignIns:
    """The refused credentials of each client address (a moving window of ``limit``, the
    counts kept where ``storage_uri`` says: ``memory://``, each process its own, or a shared
    ``redis://``)."""

    def __init__(self, limit: str, storage_uri: str) -> None:
        self.limit = parse(limit)
        self.window = MovingWindowRateLimiter(storage_from_string(storage_uri))

    def refuse(self, address: str) -> int | None:
        """Count one refused credential of ``address``: None while within the limit, else the
        seconds until the window has room for another (this one, past it, is not counted)."""
        try:
            if self.window.hit(self.limit, EXTENSION, address):
                return None
            reset = self.window.get_window_stats(self.limit, EXTENSION, address).reset_time
        except Exception as error:  # the counts' storage cannot be reached: the refusal stands
            log.warning("failed sign-ins not counted (%s: %s)", type(error).__name__, error)
            return None
        return max(1, math.ceil(reset - time.time()))


def refused() -> None:
    """A credential this request presented was refused (a token unknown or revoked, a sign-in
    code not valid): it counts against the client's address, and past the limit the request is
    answered 429 at once, before anything else is done for it."""
    wait = current_app.extensions[EXTENSION].refuse(request.remote_addr or "-")
    if wait is not None:
        abort(problem(429, _(TOO_MANY, seconds=wait), kind="too-many-attempts",
                      headers={"Retry-After": str(wait)}))


@auth.verify_token
def _verify(token: str) -> Caller | None:
    if not token:
        return None
    admin_token = this_app().config.get("ADMIN_TOKEN")  # not through the proxy (api.context)
    # Compare digests in constant time: no timing hints about the server token.
    if admin_token and hmac.compare_digest(_digest(token), _digest(admin_token)):
        who = SERVER_CALLER
    else:
        try:
            who = service().tokens.authenticate(token)
        except Unauthorized:
            refused()  # 429 past the limit
            return None
    _reads_the_match(who)
    return who


def _reads_the_match(who: Caller) -> None:
    """On a path naming a match by its id alone (``/api/v1/matches/{id}/...``), NotFound
    unless ``who`` may read the match: a token of another club is answered as an unknown id
    is, before anything else of the request is looked at (its If-Match, query or body)."""
    args = this_request().view_args or {}
    if "match_id" in args and "club" not in args:
        service().reading.require_reader(args["match_id"], who=who)


def init_auth(app: Flask) -> FailedSignIns:
    """The failed sign-ins of the app, counted per client address (docs/api.md, "Failed
    sign-ins"): AUTH_FAILURES in a moving window, the counts where RATELIMIT_STORAGE_URI says
    (``memory://`` by default, each worker its own, so a guesser spread over N workers gets N
    times the limit; a ``redis://`` URI shares them)."""
    counts = FailedSignIns(app.config.get("AUTH_FAILURES") or AUTH_FAILURES,
                           app.config.get("RATELIMIT_STORAGE_URI") or "memory://")
    app.extensions[EXTENSION] = counts
    return counts


@auth.error_handler
def _auth_error(status: int):
    if status == 401:
        return problem(401, _("a valid bearer token is required"), kind="unauthorized",
                       headers={"WWW-Authenticate": AUTHENTICATE})
    return problem(status, kind="forbidden")


def caller() -> Caller:
    """Who is calling (the view is under ``auth.login_required``)."""
    return auth.current_user()
