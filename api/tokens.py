"""A club's bearer tokens: issued, listed and revoked by the club's admins."""

from __future__ import annotations

from typing import Any

from .auth import auth, caller, forget_token
from .context import service
from .headers import PAGE_HEADERS, paginate
from .openapi import Blueprint
from .schemas import PageArgsSchema, TokenCreatedSchema, TokenCreateSchema, TokenSchema

blp = Blueprint("tokens", __name__, url_prefix="/api/v1",
                description="A club's bearer tokens: issue, list, revoke (admin)")


@blp.route("/clubs/<string:club>/tokens", methods=["GET"])
@auth.login_required
@blp.arguments(PageArgsSchema(), location="query")
@blp.response(200, TokenSchema(many=True), headers=PAGE_HEADERS)
@blp.errors(401, 403, 404)
def list_tokens(args: dict[str, Any], club: str):
    """The club's tokens, oldest first (admin): label, role, when created, last used (to the
    minute) and revoked. Never a token itself: only its holder has it."""
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
@blp.response(200, TokenSchema, description="the revoked token's record")
@blp.errors(401, 403, 404)
def revoke_token(club: str, token_id: int):
    """Revoke a token of the club (admin); answers 200 with the token's record, its
    ``revoked_at`` set. The token is refused (401) at once by the worker that revoked it, and by
    every other worker within TOKEN_CACHE_SECONDS (default 30), how long a worker trusts a token
    it has seen. Revoking a revoked token changes nothing and answers the same; 404 for no such
    token in the club."""
    revoked = service().tokens.revoke_token(club, token_id, who=caller())
    forget_token(revoked["id"])
    return revoked
