"""The HTTP headers this API speaks: ETag / If-Match / If-None-Match on a match's sequence
number, and RFC 8288 Link plus X-Total-Count on paginated lists."""

from __future__ import annotations

import re
from typing import Any, Callable, Container
from urllib.parse import urlencode

from flask import Response, request

from referee.core.vocab import MAX_INT
from words import _

from .context import this_request
from .errors import problem

# An entity tag as RFC 9110 writes it: optional W/ then a quoted string.
_ETAG = re.compile(r'\s*(W/)?"([^"]*)"\s*(?:,|$)')
MAX_SEQ = MAX_INT  # the events.seq column's range

# On every answer, whatever made it (a view, an error handler, the edge): no content sniffing,
# no framing by another site, no Referer beyond this origin. HTML pages carry their own
# Content-Security-Policy (the pages', the docs'); every other answer gets NO_CONTENT: it is
# data, nothing in it may run or load anything (and so no page can frame it).
SECURITY_HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin"}
NO_CONTENT = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

ETAG_HEADER = {"ETag": {"description": 'the match\'s last sequence number, quoted: "N"',
                        "schema": {"type": "string"}}}
REPLAYED_HEADER = {"Idempotent-Replayed": {
    "description": "true when this answers a retry (the same Idempotency-Key): nothing new was "
                   "stored", "schema": {"type": "string"}}}
PAGE_HEADERS = {
    "Link": {"description": "RFC 8288 links: first, prev, next, last", "schema": {"type": "string"}},
    "X-Total-Count": {"description": "items matching, over all pages", "schema": {"type": "integer"}},
}


def etag(seq: int) -> str:
    return f'"{seq}"'


def etag_headers(seq: int) -> dict[str, str]:
    """The ETag; the body depends on the token (hidden hands) and its words on the language
    asked for, so caches must key on both too."""
    return {"ETag": etag(seq), "Vary": "Authorization, Accept-Language"}


def _tags(value: str) -> list[tuple[bool, str]] | None:
    """The entity tags of an If-Match / If-None-Match value as (weak, opaque part); None when
    the value is not a list of tags."""
    tags, pos = [], 0
    while pos < len(value):
        m = _ETAG.match(value, pos)
        if m is None or m.end() == pos:
            return None
        tags.append((bool(m.group(1)), m.group(2)))
        pos = m.end()
    return tags


def _seq(tag: str) -> int | None:
    if not (tag.isascii() and tag.isdigit()):
        return None
    # A number of thousands of digits is a sequence number past any the store holds (stale,
    # 412), and int() would refuse to parse it at all.
    return int(tag) if len(tag) <= 18 else MAX_SEQ + 1


def expected_seq(current_seq: Callable[[], int]) -> int | Response:
    """The sequence number If-Match names, or the response refusing the request.

    428 when the header is missing, or is * (an append must say what it follows). 400 when it
    is not a list of entity tags each quoting a sequence number ("3", or "2", "3"): a client
    bug, not a stale read. If-Match compares strongly (RFC 9110), so a weak tag (W/"3") never
    matches: 412 with the current ETag, as for tags naming no current sequence number. With
    several tags, the one naming the current seq (if any) is the expectation; the service still
    checks it as it appends."""
    value = this_request().headers.get("If-Match")  # not through the proxy (api.context)
    if value is None or value.strip() == "*":
        return problem(428, _('appending takes If-Match: "N", N the last sequence number seen '
                              "(the ETag of the match or its events)"), kind="if-match-required")
    tags = _tags(value) or []
    seqs = [_seq(tag) for _, tag in tags]
    if not tags or None in seqs:
        return problem(400, _('If-Match must quote sequence numbers, as in If-Match: "3"; '
                              "got %(given)s", given=repr(value[:80])), kind="malformed-if-match")
    # A number past any seq the store can hold is as stale as any other.
    strong = [seq for (weak, _), seq in zip(tags, seqs) if not weak and seq <= MAX_SEQ]
    if len(strong) == 1:
        return strong[0]
    current = current_seq()  # only now: the common case needs no read
    if current in strong:
        return current
    return problem(412, _("If-Match names no current sequence number; the last event is "
                          "%(current)s", current=current),
                   kind="stale-if-match", headers={"ETag": etag(current)}, current_seq=current)


class _Everything:
    def __contains__(self, item: object) -> bool:
        return True


def seen_seqs() -> Container[int]:
    """The seqs If-None-Match names (weakly compared: W/"3" names seq 3 as well); ``*``: any."""
    value = request.headers.get("If-None-Match")
    if value is None:
        return ()
    if value.strip() == "*":
        return _Everything()
    return {seq for _, tag in _tags(value) or () if (seq := _seq(tag)) is not None}


def unchanged(seq: int) -> Response:
    """The 304 of a resource still at ``seq``."""
    return Response(status=304, headers=etag_headers(seq))


def not_modified(seq: int) -> Response | None:
    """304 when If-None-Match already names ``seq``: a polling screen skips the replay."""
    value = request.headers.get("If-None-Match")
    if value is None:
        return None
    # If-None-Match compares weakly: W/"3" names seq 3 as well.
    tags = [tag for _, tag in _tags(value) or ()]
    if value.strip() == "*" or str(seq) in tags:
        return unchanged(seq)
    return None


def _link(rel: str, **args: Any) -> str:
    # Relative links keep the other query arguments and hold behind any proxy.
    query = urlencode({**request.args.to_dict(), **args})
    return f'<{request.path}?{query}>; rel="{rel}"'


def paginate(total: int, limit: int, offset: int) -> dict[str, str]:
    """X-Total-Count and RFC 8288 Link (first, prev, next, last) for a limit/offset page."""
    last = max(0, (total - 1) // limit * limit)
    links = [_link("first", limit=limit, offset=0)]
    if offset > 0:
        links.append(_link("prev", limit=limit, offset=max(0, min(offset - limit, last))))
    if offset + limit < total:
        links.append(_link("next", limit=limit, offset=offset + limit))
    links.append(_link("last", limit=limit, offset=last))
    return {"Link": ", ".join(links), "X-Total-Count": str(total)}


def paginate_seq(total: int, limit: int, after: int, last_returned: int | None) -> dict[str, str]:
    """The same for a list read by sequence number (?after=N): events 1..total."""
    links = [_link("first", limit=limit, after=0)]
    if after > 0:
        links.append(_link("prev", limit=limit, after=max(0, min(after, total) - limit)))
    if last_returned is not None and last_returned < total:
        links.append(_link("next", limit=limit, after=last_returned))
    links.append(_link("last", limit=limit, after=max(0, total - limit)))
    return {"Link": ", ".join(links), "X-Total-Count": str(total)}


# What secure() adds, in order, each unless the answer has it already.
_SECURE = (*SECURITY_HEADERS.items(), ("Content-Security-Policy", NO_CONTENT))


def secure(response: Response) -> Response:
    """The security headers on ``response`` (an ``after_request`` of the app).

    As ``headers.setdefault`` each would, in one pass over the answer's headers: three
    setdefaults on werkzeug's Headers (each a lookup, then a set that looks again) were 2.6 %
    of the app's time an append (cProfile; docs/performance.md, "Over HTTP, 7 December")."""
    if 300 <= response.status_code < 400:
        _bare_redirect(response)
    present = {name.lower() for name, _ in response.headers}
    missing = [(name, value) for name, value in _SECURE if name.lower() not in present]
    if missing:
        response.headers.extend(missing)
    return response


def _bare_redirect(response: Response) -> None:
    """A redirect as its status and Location alone. werkzeug writes a page under each of its
    redirects, in English whatever the caller's language ("Redirecting... You should be
    redirected automatically"): a trailing slash's 308 (/clubs -> /clubs/), flask.redirect's
    (the language menu's 303, /clubs' 308). Every client follows the Location; no page of the
    product is a redirect's body, so an HTML body under a redirect is werkzeug's."""
    if response.mimetype == "text/html" and "Location" in response.headers:
        response.set_data(b"")
        del response.headers["Content-Type"]
