"""A club's keys and its transparency log (docs/verify.md): readable as the club's pages are,
by anyone on a public club, else with a token of the club.

- ``GET /api/v1/clubs/{club}/keys``: every key the club signed with, and when;
- ``GET /api/v1/clubs/{club}/transparency/head``: its latest signed tree head;
- ``.../leaves?start=&end=``: the actas of leaves start to end - 1, in order;
- ``.../inclusion?index=&size=``: an acta's audit path (RFC 9162 §2.1.3);
- ``.../consistency?from=&to=``: that the tree of ``from`` leaves is a prefix of that of ``to``
  (§2.1.4).

What is signed is answered as it was signed: never through a schema, which could reorder or
drop a member.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Response
from marshmallow import Schema, validate

from .context import service
from .openapi import Blueprint
from .pages.common import page_caller
from .schemas import QueryInteger

blp = Blueprint("transparency", __name__, url_prefix="/api/v1/clubs/<string:club>",
                description="A club's signing keys and its transparency log of signed actas")

OPTIONAL_BEARER = [{}, {"bearer": []}]
COUNT = validate.Range(min=0, max=2**31 - 1)
KEYS_BODY = {"type": "object", "description": "club, keys: [{key_id, algorithm, public_key "
             "(base64 of the 32 raw bytes), pem, status (signing, rotated, retired), valid_from, "
             "valid_until, retired_at, retired_reason, adopted}]"}
HEAD_BODY = {"type": "object", "description": "the domino-tree-head/1: format, club, size, root "
             "(hex), timestamp, key_id, signature (Ed25519 over the RFC 8785 bytes of the rest)"}
LEAVES_BODY = {"type": "array", "items": {"type": "object"},
               "description": "the signed actas (domino-acta/2), leaf start first"}
INCLUSION_BODY = {"type": "object", "description": "index, size, path (hex hashes)"}
CONSISTENCY_BODY = {"type": "object", "description": "from, to, path (hex hashes)"}


class LeavesArgsSchema(Schema):
    start = QueryInteger(load_default=0, validate=COUNT)
    end = QueryInteger(validate=COUNT, metadata={
        "description": "one past the last leaf (default: the tree's size); at most 1000 a call"})


class InclusionArgsSchema(Schema):
    index = QueryInteger(required=True, validate=COUNT, metadata={"description": "the leaf"})
    size = QueryInteger(validate=COUNT, metadata={
        "description": "the tree's size the proof is for (default: its latest head's)"})


class ConsistencyArgsSchema(Schema):
    first = QueryInteger(data_key="from", required=True, validate=COUNT)
    second = QueryInteger(data_key="to", validate=COUNT, metadata={
        "description": "default: the latest head's size"})


def _json(value: Any) -> Response:
    return Response(json.dumps(value, ensure_ascii=False), mimetype="application/json")


@blp.route("/keys", methods=["GET"])
@blp.doc(security=OPTIONAL_BEARER)
@blp.response(200, KEYS_BODY)
@blp.errors(401, 403, 404)
def keys(club: str):
    """The club's signing keys, oldest first, each with its validity: what signed its actas
    and tree heads, and when (domino verify --key takes this JSON)."""
    return _json(service().keys.listing(club, who=page_caller()))


@blp.route("/transparency/head", methods=["GET"])
@blp.doc(security=OPTIONAL_BEARER)
@blp.response(200, HEAD_BODY)
@blp.errors(401, 403, 404)
def head(club: str):
    """The latest signed head of the club's tree of actas. Keep it: a later head must extend
    it (domino verify --since)."""
    return _json(service().transparency.head(club, who=page_caller()))


@blp.route("/transparency/leaves", methods=["GET"])
@blp.doc(security=OPTIONAL_BEARER)
@blp.arguments(LeavesArgsSchema(), location="query")
@blp.response(200, LEAVES_BODY)
@blp.errors(401, 403, 404, 422)
def leaves(args: dict[str, Any], club: str):
    """The signed actas of leaves start to end - 1, in the order the club signed them (at most
    1000; fewer past the tree's size)."""
    return _json(service().transparency.leaves(club, args["start"], args.get("end"),
                                               who=page_caller()))


@blp.route("/transparency/inclusion", methods=["GET"])
@blp.doc(security=OPTIONAL_BEARER)
@blp.arguments(InclusionArgsSchema(), location="query")
@blp.response(200, INCLUSION_BODY)
@blp.errors(401, 403, 404, 422)
def inclusion(args: dict[str, Any], club: str):
    """The audit path of leaf index in the tree of size leaves (RFC 9162 §2.1.3)."""
    return _json(service().transparency.inclusion(club, args["index"], args.get("size"),
                                                  who=page_caller()))


@blp.route("/transparency/consistency", methods=["GET"])
@blp.doc(security=OPTIONAL_BEARER)
@blp.arguments(ConsistencyArgsSchema(), location="query")
@blp.response(200, CONSISTENCY_BODY)
@blp.errors(401, 403, 404, 422)
def consistency(args: dict[str, Any], club: str):
    """The proof that the tree of from leaves is a prefix of the tree of to (RFC 9162 §2.1.4)."""
    return _json(service().transparency.consistency(club, args["first"], args.get("second"),
                                                    who=page_caller()))
