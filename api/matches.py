"""Matches: listing, creating, importing a whole log; the match now, its report, its log."""

from __future__ import annotations

import json
from functools import wraps
from typing import Any, Callable

from flask import Response, request, url_for

from referee.service import Caller

from .auth import auth, caller
from .context import service
from .headers import (
    ETAG_HEADER,
    PAGE_HEADERS,
    REPLAYED_HEADER,
    etag_headers,
    not_modified,
    paginate,
    seen_seqs,
    unchanged,
)
from .openapi import Blueprint
from .schemas import (
    LOG_BODY,
    LOG_MEDIA_TYPE,
    IdempotencyHeadersSchema,
    MatchCreateSchema,
    MatchListArgsSchema,
    MatchSchema,
    MatchSummarySchema,
    NewPlayersArgsSchema,
    ReportSchema,
)
from .screens import screen_json

blp = Blueprint("matches", __name__, url_prefix="/api/v1",
                description="Matches: the table now, the report, the log")

LOCATION = {"Location": {"schema": {"type": "string"}}}


def _created(summary: dict[str, Any]):  # type: ignore[no-untyped-def]
    location = url_for("matches.get_match", match_id=summary["id"])
    return summary, {"Location": location, **etag_headers(summary["last_seq"])}


@blp.route("/clubs/<string:club>/matches", methods=["GET"])
@auth.login_required
@blp.arguments(MatchListArgsSchema(), location="query")
@blp.response(200, MatchSummarySchema(many=True), headers=PAGE_HEADERS)
@blp.errors(401, 403, 404)
def list_matches(args: dict[str, Any], club: str):
    """The club's matches, newest first; filter by status, player and date (YYYY-MM-DD)."""
    day = args.get("date")
    date_from, date_to = args.get("date_from", day), args.get("date_to", day)
    matches, total = service().reading.list_matches(
        club, status=args.get("status"), player=args.get("player"),
        date_from=date_from, date_to=date_to, limit=args["limit"], offset=args["offset"],
        who=caller())
    return matches, paginate(total, args["limit"], args["offset"])


@blp.route("/clubs/<string:club>/matches", methods=["POST"])
@auth.login_required
@blp.arguments(IdempotencyHeadersSchema(), location="headers")
@blp.arguments(MatchCreateSchema())
@blp.response(201, MatchSummarySchema, headers={**LOCATION, **ETAG_HEADER, **REPLAYED_HEADER})
@blp.errors(401, 403, 404, 413, 415, 422)
def create_match(headers: dict[str, Any], body: dict[str, Any], club: str):
    """Start a match (scorekeeper or referee): {"rules": preset or object, "players": [...]}.

    New player names are registered in the club; names are matched case-insensitively ("ana"
    sits Ana) and the match keeps them as typed. A new name close to a player's is refused (422,
    "did you mean ...?") unless "new": true. Optional header fields: table, date, event, match.
    An Idempotency-Key makes a retry safe: the same key and body get the first answer again (with
    Idempotent-Replayed: true, and no second match); the same key with another body is refused
    (422). A retry that leaves out the date stands for the first request's date.
    """
    fields = {k: v for k, v in body.items() if k not in ("rules", "players", "new")}
    created = service().recording.create_match(
        club, body["rules"], body["players"], who=caller(),
        client_key=headers.get("idempotency_key"), confirm_new=body["new"], **fields)
    summary, response_headers = _created(created)
    if created.replayed:
        response_headers["Idempotent-Replayed"] = "true"
    return summary, response_headers


@blp.route("/clubs/<string:club>/matches/import", methods=["POST"])
@auth.login_required
@blp.arguments(NewPlayersArgsSchema(), location="query")
@blp.doc(requestBody={"required": True, "content": {
    LOG_MEDIA_TYPE: {"schema": LOG_BODY}, "text/plain": {"schema": LOG_BODY}}})
@blp.response(201, MatchSummarySchema, headers={**LOCATION, **ETAG_HEADER})
@blp.errors(401, 403, 404, 413, 422)
def import_match(args: dict[str, Any], club: str):
    """Import a whole domino-log/1 (referee): every event is stored, or none.

    The header's players are seated as a created match's: a new name close to a player's is
    refused (422, line 1, "did you mean ...?") unless ?new=true.

    An event the referee refuses fails the import (422, naming it) unless it carries
    "disputed": true. The body may be at most MAX_CONTENT_LENGTH bytes (413 beyond).
    """
    return _created(service().recording.import_log(club, request.get_data(), who=caller(),
                                                   confirm_new=args["new"]))


def match_read(schema: Any, **response: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A GET of one match's resource (documented: 200 with ``schema`` and the ETag, or 304).

    The caller must be a reader of the match's club. If-None-Match naming the last seq answers
    304 before any replay: a polling screen costs one small query. The view is called with the
    summary and the caller."""
    def decorator(view: Callable[..., Any]) -> Callable[..., Any]:
        @wraps(view)
        def read(match_id: int) -> Any:
            who = caller()
            summary = service().reading.get_match(match_id, who=who)
            if (unchanged := not_modified(summary["last_seq"])) is not None:
                return unchanged
            return view(match_id, summary, who)

        headers = {**ETAG_HEADER, **response.pop("headers", {})}
        documented = blp.response(200, schema, headers=headers, **response)(read)
        documented = blp.alt_response(304, response="NOT_MODIFIED")(documented)
        return blp.errors(401, 403, 404)(documented)
    return decorator


CHAIN_HEADER = "Domino-Chain-Head"
CHAIN_HEADERS = {**ETAG_HEADER, CHAIN_HEADER: {
    "description": "a finished match's chain head (domino-chain/1, lowercase hex: docs/verify.md); "
                   "absent while the match is in play", "schema": {"type": "string"}}}


def chain_headers(match_id: int, seq: int, who: Caller) -> tuple[str | None, dict[str, str]]:
    """The match's published chain head (None while it is in play: the service decides) and
    the headers that carry it with the ETag."""
    head = service().actas.head(match_id, who=who)
    headers = etag_headers(seq)
    if head is not None:
        headers[CHAIN_HEADER] = head
    return head, headers


@blp.route("/matches/<int:match_id>", methods=["GET"])
@auth.login_required
@blp.response(200, MatchSchema, headers=CHAIN_HEADERS)
@blp.alt_response(304, response="NOT_MODIFIED")
@blp.errors(401, 403, 404)
def get_match(match_id: int):
    """The match now, as a scorekeeper's screen shows it.

    The line, open ends, whose turn and what that seat may do, hand counts, the boneyard, round,
    totals and open disputes. Hands the table has not seen are null for everyone but referees
    while a round is in progress. Send If-None-Match to poll cheaply. A finished match carries
    its chain head (chain_head, and the Domino-Chain-Head header).
    """
    seq, screen = service().reading.screen_if_changed(match_id, seen_seqs(), who=caller())
    if screen is None:
        return unchanged(seq)
    headers = etag_headers(seq)
    if screen.chain_head is not None:
        headers[CHAIN_HEADER] = screen.chain_head
    return screen_json(screen), headers



@blp.route("/matches/<int:match_id>/report", methods=["GET"])
@auth.login_required
@match_read(ReportSchema)
def get_report(match_id: int, summary: dict[str, Any], who: Caller):
    """The domino-report/1: every violation, each round's outcome and points, totals, winner."""
    return service().reading.report(match_id, who=who), etag_headers(summary["last_seq"])


@blp.route("/matches/<int:match_id>/log", methods=["GET"])
@auth.login_required
@match_read(LOG_BODY, content_type=LOG_MEDIA_TYPE, description="the domino-log/1")
def get_log(match_id: int, summary: dict[str, Any], who: Caller):
    """The domino-log/1 export: the header and every event, as recorded (JSON Lines).

    During a round in progress, a token other than a referee's gets that round's deal and draws
    as the table saw them (hands and drawn tiles closed).
    """
    text = service().reading.export_log(match_id, who=who)
    _, headers = chain_headers(match_id, summary["last_seq"], who)
    return Response(text, mimetype=LOG_MEDIA_TYPE, headers=headers)


ACTA_BODY = {"type": "object", "description": "the domino-acta/2, signed (docs/verify.md)"}
LEAF_HEADER = "Domino-Leaf-Index"
ACTA_HEADERS = {**CHAIN_HEADERS, LEAF_HEADER: {
    "description": "the acta's leaf in its club's transparency log (also its leaf_index)",
    "schema": {"type": "integer"}}}


@blp.route("/matches/<int:match_id>/acta", methods=["GET"])
@auth.login_required
@match_read(ACTA_BODY, headers=ACTA_HEADERS)
@blp.errors(409)
def get_acta(match_id: int, summary: dict[str, Any], who: Caller):
    """The signed score sheet (domino-acta/2) of a finished match; 409 while it is in play.

    Players and sides, table, event, round, when its first and last events were recorded, each
    round's points per side, the rulings, totals and winner, the chain head, its leaf in the
    club's transparency log, and the club's Ed25519 signature over the rest (check it with GET
    /api/v1/clubs/{club}/keys, or offline with domino verify --acta). 409 acta-pending while it
    is not signed yet (the club's key cannot sign it, or the server has not yet: reading it
    never signs it), 409 record-broken for a record that fails its chain check.
    """
    acta = service().actas.acta(match_id, who=who)
    headers = {**etag_headers(summary["last_seq"]), CHAIN_HEADER: acta["chain"]["head"],
               LEAF_HEADER: str(acta["leaf_index"])}
    # As signed: not through a schema, which could drop or reorder a member.
    return Response(json.dumps(acta, ensure_ascii=False), mimetype="application/json",
                    headers=headers)
