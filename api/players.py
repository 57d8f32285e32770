"""A club's players: listed, registered, shown with their history, renamed and merged."""

from __future__ import annotations

from typing import Any

from flask import url_for

from .auth import auth, caller
from .context import service
from .headers import PAGE_HEADERS, paginate
from .openapi import Blueprint
from .schemas import (
    PageArgsSchema,
    PlayerCreateSchema,
    PlayerDetailSchema,
    PlayerMergeSchema,
    PlayerRenameSchema,
    PlayerSchema,
)

blp = Blueprint("players", __name__, url_prefix="/api/v1",
                description="A club's players: one person, one player, renamed and merged auditably")

LOCATION = {"Location": {"schema": {"type": "string"}}}


@blp.route("/clubs/<string:club>/players", methods=["GET"])
@auth.login_required
@blp.arguments(PageArgsSchema(), location="query")
@blp.response(200, PlayerSchema(many=True), headers=PAGE_HEADERS)
@blp.errors(401, 403, 404)
def list_players(args: dict[str, Any], club: str):
    """The club's players, by name (a player merged into another is no longer listed)."""
    players, total = service().players.list(club, limit=args["limit"], offset=args["offset"],
                                            who=caller())
    return players, paginate(total, args["limit"], args["offset"])


@blp.route("/clubs/<string:club>/players", methods=["POST"])
@auth.login_required
@blp.arguments(PlayerCreateSchema())
@blp.response(201, PlayerSchema, headers=LOCATION)
@blp.errors(401, 403, 404, 409, 415, 422)
def create_player(body: dict[str, Any], club: str):
    """Register a player (admin).

    The name is normalised (Unicode NFC, spaces trimmed and collapsed; control and bidi
    characters refused, 422) and matched case-insensitively: a name that is a player's already
    ("ana" for Ana) is 409. A new name close to a player's is refused (422, "did you mean Ana
    Pérez?") unless the body says "new": true.
    """
    player = service().players.create(club, body["name"], confirm_new=body["new"], who=caller())
    return player, {"Location": url_for("players.get_player", club=club, player_id=player["id"])}


@blp.route("/clubs/<string:club>/players/<int:player_id>", methods=["GET"])
@auth.login_required
@blp.response(200, PlayerDetailSchema)
@blp.errors(401, 403, 404)
def get_player(club: str, player_id: int):
    """A player with its history: renames and merges, its own and those of the players merged
    into it. A player merged away shows merged_into."""
    return service().players.get(club, player_id, who=caller())


@blp.route("/clubs/<string:club>/players/<int:player_id>/rename", methods=["POST"])
@auth.login_required
@blp.arguments(PlayerRenameSchema())
@blp.response(200, PlayerDetailSchema, description="the player renamed, with its history")
@blp.errors(401, 403, 404, 409, 415, 422)
def rename_player(body: dict[str, Any], club: str, player_id: int):
    """Rename a player (admin), recorded in its history with the reason.

    409 when the new name is another player's (merge them instead); 422 for a player merged
    away. Matches keep the names they were recorded with; standings show the new one.
    """
    return service().players.rename(club, player_id, body["name"], body["reason"], who=caller())


@blp.route("/clubs/<string:club>/players/<int:player_id>/merge", methods=["POST"])
@auth.login_required
@blp.arguments(PlayerMergeSchema())
@blp.response(200, PlayerDetailSchema, description="the player merged into, with its history")
@blp.errors(401, 403, 404, 415, 422)
def merge_player(body: dict[str, Any], club: str, player_id: int):
    """Merge this player into the player "into" (admin), recorded in both histories.

    Every match this player sat in moves to "into" (standings and match lists count them as
    one), and this player's name finds "into" from then on. 422 when they are one player
    already, when either was merged away, or when both sat in one match.
    """
    return service().players.merge(club, player_id, body["into"], body["reason"], who=caller())
