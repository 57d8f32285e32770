"""A match's events: reading the record, and appending to it under optimistic concurrency."""

from __future__ import annotations

import functools
from typing import Any, Callable

from flask import jsonify
from marshmallow import validate

from .auth import auth, caller
from .context import service, this_app, this_request
from .headers import (
    ETAG_HEADER,
    PAGE_HEADERS,
    REPLAYED_HEADER,
    etag_headers,
    expected_seq,
    paginate_seq,
)
from .openapi import Blueprint
from .schemas import (
    AppendedSchema,
    AppendHeadersSchema,
    DryRunArgsSchema,
    EventListArgsSchema,
    EventSchema,
    PreviewSchema,
    RecordedEventSchema,
)
from .screens import screen_json

blp = Blueprint("events", __name__, url_prefix="/api/v1",
                description="The record: read it, append to it")


@blp.route("/matches/<int:match_id>/events", methods=["GET"])
@auth.login_required
@blp.arguments(EventListArgsSchema(), location="query")
@blp.response(200, RecordedEventSchema(many=True), headers={**ETAG_HEADER, **PAGE_HEADERS})
@blp.errors(401, 403, 404)
def list_events(args: dict[str, Any], match_id: int):
    """The events after sequence number `after` (at most `limit`), oldest first.

    The ETag is the last sequence number: send it back in If-Match to append. During a round in
    progress, a token other than a referee's gets that round's deal and draws as the table saw
    them (hands and drawn tiles closed, as a closed recording would read).
    """
    after, limit = args["after"], args["limit"]
    records, total = service().reading.events_page(match_id, after=after, limit=limit,
                                                   who=caller())
    last = records[-1]["seq"] if records else None
    return records, {**etag_headers(total), **paginate_seq(total, limit, after, last)}


@blp.arguments(DryRunArgsSchema(), location="query")
@blp.arguments(AppendHeadersSchema(), location="headers")
@blp.arguments(EventSchema())
@blp.response(201, AppendedSchema, headers={**ETAG_HEADER, **REPLAYED_HEADER})
@blp.alt_response(200, schema=PreviewSchema, description="with ?dry_run=true: the preview")
@blp.errors(400, 401, 403, 404, 412, 413, 415, 422, 428)
def _append_read_by_webargs(args: dict[str, Any], headers: dict[str, Any],
                            event: dict[str, Any], match_id: int):
    """Append one event (a log line's JSON) to the record.

    Needs If-Match: "N", N the last sequence number seen (428 without it; 412 with the current
    ETag when another event came first). The referee judges the event on the record as this
    token may see it: an illegal one is refused with 422 naming the violation, unless it
    carries "disputed": true, which stores it as an open dispute for a referee to rule on (an
    event that only a hand this token may not see contradicts is stored as such a dispute, and
    answered as the token's record has it). Rulings (penalty, void, annul, forfeit, stands,
    amend) take a referee's token; play (deal, play, draw, pass, reveal, note) a scorekeeper's
    or better, and so does a void of the token's own last entry (an undo).
    An Idempotency-Key makes a retry safe: the same key and body get the first answer again; the
    same key with another body is refused (422). With ``?dry_run=true`` (a referee previewing a
    ruling, say) the answer is 200 with the report as it would be and what changes, and nothing
    is stored (no If-Match needed). The 201 answer carries the match screen after the event
    (`screen`, what GET /matches/{id} answers at that seq), so a screen needs no second request.
    """
    return _append(args["dry_run"], headers.get("idempotency_key"), event, match_id)


# The event's fields as EventSchema loads them: the declared ones in their order, then the
# rest as sent (INCLUDE).
_EVENT_FIELDS = tuple(EventSchema().load_fields)
_KEY_LENGTH = next(v for v in AppendHeadersSchema().fields["idempotency_key"].validators
                   if isinstance(v, validate.Length))


def _plain_arguments() -> tuple[str | None, dict[str, Any]] | None:
    """The append's Idempotency-Key and event as webargs would read them, for the request every
    scorekeeper sends (no query string, an event object, a key of the allowed length if any);
    None for anything else, which webargs then reads, and refuses, as documented.

    Why: webargs' three passes (query, headers, body), each a marshmallow load, and
    flask-smorest's wrappers around them were a fifth of the HTTP layer's CPU an append
    (bench/api_bench.py), for a reading that only ever says "as sent"."""
    asked = this_request()  # not through the proxy: some 8,500 instructions a read (api.context)
    if asked.args:
        return None
    key = asked.headers.get("Idempotency-Key")
    if key is not None and not _KEY_LENGTH.min <= len(key) <= _KEY_LENGTH.max:
        return None
    try:
        data = blp.ARGUMENTS_PARSER._raw_load_json(asked)
    except Exception:  # webargs says what was wrong (400, 415), reading the cached body again
        return None
    if type(data) is not dict:
        return None
    event = {}
    for name in _EVENT_FIELDS:
        if name in data:
            event[name] = data[name]
    if len(event) < len(data):
        event.update((k, v) for k, v in data.items() if k not in event)
    return key, event


def _documented_as(full: Callable[..., Any]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The view documented as ``full`` is (its words, parameters, body and answers), before the
    route stores its document."""
    def decorator(view: Callable[..., Any]) -> Callable[..., Any]:
        view.__doc__ = full.__doc__
        view._apidoc = full._apidoc  # type: ignore[attr-defined]
        return view
    return decorator


def _one_connection(view: Callable[..., Any]) -> Callable[..., Any]:
    """``view`` with its request's token lookup and append sharing one of the pool's
    connections (``Units.sharing``), one checkout and return where each took its own: 2.8 %
    of waitress's instructions an append (bench/api_bench.py --callgrind)."""
    @functools.wraps(view)
    def shared(*args: Any, **kwargs: Any) -> Any:
        with service().units.sharing():
            return view(*args, **kwargs)
    return shared


@blp.route("/matches/<int:match_id>/events", methods=["POST"])
@_one_connection
@auth.login_required
@_documented_as(_append_read_by_webargs)
def append_event(match_id: int):
    read = _plain_arguments()
    if read is None:
        return _append_read_by_webargs(match_id=match_id)
    return _append(False, *read, match_id)


def _append(dry_run: bool, idempotency_key: str | None, event: dict[str, Any], match_id: int):
    svc, who = service(), caller()
    if dry_run:
        return jsonify(PreviewSchema().dump(svc.disputes.preview(match_id, [event], who=who)))
    expected = expected_seq(lambda: svc.reading.get_match(match_id, who=who)["last_seq"])
    if not isinstance(expected, int):
        return expected
    recorded = svc.recording.record_event(
        match_id, event, expected_seq=expected, client_event_id=idempotency_key, who=who)
    violation = recorded.violation.as_dict() if recorded.violation is not None else None
    screen = screen_json(recorded.screen)
    position = {**recorded.state.as_dict(), "hands_hidden": recorded.hands_hidden}
    body = {"seq": recorded.seq, "event": recorded.event, "violation": violation,
            "position": position, "screen": screen}
    # The body is JSON already, as AppendedSchema would dump it (tests/api/test_api_endpoints.py
    # holds the two equal): returning a response skips the dump, a tenth of the server's CPU
    # for an append (bench/api_bench.py).
    response = this_app().json.response(body)  # jsonify's, not through current_app's proxy
    response.status_code = 201
    response.headers.extend(etag_headers(recorded.seq))  # neither is on a new answer: added
    if recorded.duplicate:  # the body is the first answer's; this says nothing was stored now
        response.headers["Idempotent-Replayed"] = "true"
    return response
