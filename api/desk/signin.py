"""One-time sign-in codes over HTTP (referee.service.signin): an admin issues a token with a
code (``POST /api/v1/clubs/{club}/signin-codes``), a phone's /score page exchanges the code,
once, for the token (``POST /api/v1/signin-codes/exchange``).

The code travels only in a JSON body (and, on the phone, in the address's fragment, which no
browser sends to a server): never in a path or a query string, so the access log never sees
it. A refused code counts as a refused token against the caller's address (api.auth), so that
guessing codes is limited as guessing tokens is.
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from referee.core.vocab import ROLES
from referee.service import Unauthorized
from referee.service.signin import DESK, SCORE

from ..auth import auth, caller, refused
from ..context import service
from ..openapi import Blueprint

blp = Blueprint("signin_codes", __name__, url_prefix="/api/v1",
                description="One-time sign-in codes: a token issued with a code for a QR code, "
                            "the code exchanged once for the token")


class SigninCodeCreateSchema(Schema):
    role = fields.String(required=True, validate=validate.OneOf(ROLES))
    label = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=100))


class SigninCodeCreatedSchema(Schema):
    id = fields.Integer(required=True, metadata={"description": "the token's id"})
    club = fields.String(required=True)
    role = fields.String(required=True)
    label = fields.String(allow_none=True)
    token = fields.String(required=True, metadata={"description": "shown once; only its hash is stored"})
    code = fields.String(required=True, metadata={
        "description": "the one-time sign-in code, shown once, valid 10 minutes; put it in a "
                       "URL's fragment only (/score#code=..., /clubs/{club}/desk#code=...), "
                       "never in a query string"})
    expires_at = fields.String(required=True, metadata={"format": "date-time"})
    opens = fields.String(required=True, validate=validate.OneOf((DESK, SCORE)), metadata={
        "description": "the page the code's QR code opens: desk (/clubs/{club}/desk, a "
                       "referee's or an admin's token) or score (/score, the others)"})


class SigninCodeSchema(Schema):
    code = fields.String(required=True, validate=validate.Length(min=1, max=200))


class SigninCodeTokenSchema(Schema):
    token = fields.String(required=True)
    club = fields.String(required=True)
    role = fields.String(required=True)
    label = fields.String(allow_none=True)


@blp.route("/clubs/<string:club>/signin-codes", methods=["POST"])
@auth.login_required
@blp.arguments(SigninCodeCreateSchema())
@blp.response(201, SigninCodeCreatedSchema)
@blp.errors(401, 403, 404, 415, 422)
def issue(body: dict[str, Any], club: str):
    """Issue a token of the club with a one-time sign-in code (admin): both shown this once,
    only their hashes kept. The code, exchanged once within 10 minutes, gives the token."""
    issued = service().signin.issue(club, body["role"], label=body["label"], who=caller())
    return issued, {"Cache-Control": "no-store"}


@blp.route("/signin-codes/exchange", methods=["POST"])
@blp.arguments(SigninCodeSchema())
@blp.response(200, SigninCodeTokenSchema)
@blp.errors(401, 415, 422, 429)
def exchange(body: dict[str, Any]):
    """Exchange a one-time sign-in code for its token (no token needed: the code is the
    credential). 401 for a code used already, expired, unknown, or whose token was revoked,
    the detail saying which; refused codes count against the address as refused tokens do."""
    try:
        answer = service().signin.exchange(body["code"])
    except Unauthorized:
        refused()  # counted by api.auth's limit on failed sign-ins: 429 past it
        raise
    return answer, {"Cache-Control": "no-store"}  # a token: never kept by a cache
