"""Disputes: the club's and a match's, the dispute sheet (JSON, or a printable page), and the
rules' standard penalty applied in one call. Rulings themselves are events (POST .../events,
referees only), previewed with ``?dry_run=true``."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify, render_template

from .auth import auth, caller
from .context import service
from .headers import ETAG_HEADER, PAGE_HEADERS, etag_headers, expected_seq, paginate
from .openapi import Blueprint
from .schemas import (
    DisputeListArgsSchema,
    DisputeSchema,
    DisputeStatusArgsSchema,
    DryRunArgsSchema,
    PreviewSchema,
    SheetArgsSchema,
    SheetSchema,
    StandardPenaltySchema,
)

blp = Blueprint("disputes", __name__, url_prefix="/api/v1",
                description="Disputes, their rulings and dispute sheets")


@blp.route("/clubs/<string:club>/disputes", methods=["GET"])
@auth.login_required
@blp.arguments(DisputeListArgsSchema(), location="query")
@blp.response(200, DisputeSchema(many=True), headers=PAGE_HEADERS)
@blp.errors(401, 403, 404)
def club_disputes(args: dict[str, Any], club: str):
    """The disputes of the club's matches, open first, each with its match and ruling."""
    found, total = service().disputes.for_club(club, status=args["status"], limit=args["limit"],
                                               offset=args["offset"], who=caller())
    return found, paginate(total, args["limit"], args["offset"])


@blp.route("/matches/<int:match_id>/disputes", methods=["GET"])
@auth.login_required
@blp.arguments(DisputeStatusArgsSchema(), location="query")
@blp.response(200, DisputeSchema(many=True))
@blp.errors(401, 403, 404)
def match_disputes(args: dict[str, Any], match_id: int):
    """The match's disputes, open first, with their rulings."""
    return service().disputes.for_match(match_id, status=args["status"], who=caller())


@blp.route("/matches/<int:match_id>/disputes/<int:seq>", methods=["GET"])
@auth.login_required
@blp.arguments(SheetArgsSchema(), location="query")
@blp.response(200, SheetSchema)
@blp.alt_response(200, schema={"type": "string"}, content_type="text/html", success=True,
                  description="with ?format=html: the printable sheet")
@blp.errors(401, 403, 404)
def dispute_sheet(args: dict[str, Any], match_id: int, seq: int):
    """The dispute sheet a referee hands to both sides: the match and table, the moment, the foul
    and its evidence event by event, the ruling, and the score before and after."""
    sheet = service().disputes.sheet(match_id, seq, who=caller())
    if args["format"] == "html":
        return Response(render_template("dispute_sheet.html", sheet=sheet, sides=sheet["sides"]),
                        mimetype="text/html")
    return sheet


@blp.route("/matches/<int:match_id>/disputes/<int:seq>/penalty", methods=["POST"])
@auth.login_required
@blp.arguments(DryRunArgsSchema(), location="query")
@blp.response(201, StandardPenaltySchema, headers=ETAG_HEADER)
@blp.alt_response(200, schema=PreviewSchema, description="with ?dry_run=true: the preview")
@blp.errors(400, 401, 403, 404, 412, 422, 428)
def standard_penalty(args: dict[str, Any], match_id: int, seq: int):
    """Apply the rules' standard penalty for dispute ``seq`` (referee): the points the match's
    rules name (foul_points, foul_share) to each side opposing the seat at fault, recorded as
    penalties naming the dispute. Needs If-Match like an append; ``?dry_run=true`` previews."""
    svc, who = service(), caller()
    if args["dry_run"]:
        events = svc.disputes.standard_penalty(match_id, seq, who=who)
        return jsonify(PreviewSchema().dump(svc.disputes.preview(match_id, events, who=who)))
    svc.disputes.standard_penalty(match_id, seq, who=who)  # 403 (or 404) before 428
    expected = expected_seq(lambda: svc.reading.get_match(match_id, who=who)["last_seq"])
    if not isinstance(expected, int):
        return expected
    recorded = svc.disputes.apply_standard_penalty(match_id, seq, expected_seq=expected, who=who)
    body = {"events": [{"seq": r.seq, "event": r.event} for r in recorded]}
    return body, etag_headers(recorded[-1].seq)


