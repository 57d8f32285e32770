"""A club's bearer tokens: issued, listed and revoked by the club's admins."""

from __future__ import annotations

from typing import Any

from .auth import auth, caller
from .context import service
from .headers import PAGE_HEADERS, paginate
from .openapi import Blueprint
from .schemas import (
    PageArgsSchema,
    RevokeArgsSchema,
    TokenCreatedSchema,
    TokenCreateSchema,
    TokenRevokedSchema,
    TokenSchema,
)

blp = Blueprint("tokens", __name__, url_prefix="/api/v1",
                description="A club's bearer tokens: issue, list, revoke (admin)")


@blp.route("/clubs/<string:club>/tokens", methods=["GET"])
@auth.login_required
@blp.arguments(PageArgsSchema(), location="query")
@blp.response(200, TokenSchema(many=True), headers=PAGE_HEADERS)
@blp.errors(401, 403, 404)
def list_tokens(args: dict[str, Any], club: str):
    """The club's tokens, oldest first (admin): label, role, when created, last used (to the
    minute) and revoked, and which token issued it (``issued_by``; null when issued from the
    command line or by the server admin token). Never a token itself: only its holder has it."""
    tokens, total = service().tokens.list_tokens(club, limit=args["limit"], offset=args["offset"],
                                                 who=caller())
    return tokens, paginate(total, args["limit"], args["offset"])


@blp.route("/clubs/<string:club>/tokens", methods=["POST"])
@auth.login_required
@blp.arguments(TokenCreateSchema())
@blp.response(201, TokenCreatedSchema)
@blp.errors(401, 403, 404, 415, 422)
def create_token(body: dict[str, Any], club: str):
    """Issue a token of the club (admin). The token is shown this once; only its hash is kept."""
    token = service().tokens.create_token(club, body["role"], label=body["label"], who=caller())
    return {"club": club, "role": body["role"], "label": body["label"], "token": token}


@blp.route("/clubs/<string:club>/tokens/<int:token_id>", methods=["DELETE"])
@auth.login_required
@blp.arguments(RevokeArgsSchema(), location="query")
@blp.response(200, TokenRevokedSchema, description="the revoked token's record")
@blp.errors(401, 403, 404, 422)
def revoke_token(args: dict[str, Any], club: str, token_id: int):
    """Revoke a token of the club (admin); answers 200 with the token's record, its
    ``revoked_at`` set. Every worker refuses it (401) from the next request on. With
    ``?cascade=true`` the tokens it issued are revoked too, and theirs, and so on (a stolen
    admin token's offspring), listed in ``revoked_with``. Revoking a revoked token changes
    nothing and answers the same; 404 for no such token in the club."""
    return service().tokens.revoke_token(club, token_id, who=caller(), cascade=args["cascade"])
