"""What the pages and their twins share: who is asking, and the pages' use cases."""

from __future__ import annotations

from functools import lru_cache
from typing import Any
from urllib.parse import quote, urlencode

import segno
from flask import request
from segno.encoder import DataOverflowError

from referee.core.vocab import side_name
from referee.service import Caller, Unauthorized
from referee.service.pages import Pages
from words.collation import by_name

from ..auth import auth
from ..context import service

TWIN_PREFIX = "/api/v1/pages"


def event_standing_order(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """An event standing's rows, those tied on a rank listed by name as the page's language
    sorts names (Ángel & Zacarías before Nadia & Ñoño in Spanish; the service's order is the
    bytes')."""
    return by_name(rows, lambda r: r.get("player") or side_name(r.get("partners") or ()),
                   within=lambda r: r["rank"])


def page_caller() -> Caller | None:
    """The token's caller when the request carries an Authorization header, None without one
    (the service then reads a public club as its public reader). A header whose token is
    refused is Unauthorized: a bad token is never read as no token."""
    if "Authorization" not in request.headers:
        return None
    who = auth.authenticate(auth.get_auth(), None)
    if not who:
        raise Unauthorized("a valid bearer token is required")
    return who


def pages() -> Pages:
    return Pages(service())


def behind() -> float | None:
    """Seconds the page's reads are behind the primary, for the page to say (base.html), when
    its replica is that far behind; None otherwise (the service decides)."""
    return service().freshness.behind()


def twin_of(path: str) -> str:
    """A page's JSON twin: the same path and query under /api/v1/pages (empty fields of the
    filter form, which mean no filter, left out)."""
    query = urlencode([(k, v) for k, v in request.args.items(multi=True) if v])
    # The path quoted as the address carried it (flask's request.path is decoded): it goes
    # into the Link header, which carries Latin-1 only.
    return TWIN_PREFIX + quote(path) + (f"?{query}" if query else "")


def share_link() -> dict[str, Any]:
    """This page's address to pass on, and its QR code (an SVG as a data: URI, which the
    pages' policy lets an <img> show): the address as the reader sees it, filters and all
    (empty fields of a filter form left out). An address longer than a QR code can hold (some
    2,300 characters, a filter of a long text) has its address alone: ``qr`` None."""
    query = urlencode([(k, v) for k, v in request.args.items(multi=True) if v])
    url = request.host_url.rstrip("/") + request.path + (f"?{query}" if query else "")
    drawn = _qr_code(url)
    qr, width = drawn if drawn is not None else (None, 0)
    return {"url": url, "qr": qr, "size": width}


# A page's QR code is a function of its address alone, and encoding one (segno's masks scored
# one by one) cost a page read about 20 ms of CPU, more than the rest of the share box: the
# latest addresses asked for keep theirs (a few KB each).
@lru_cache(maxsize=512)
def _qr_code(url: str) -> tuple[str, int] | None:
    """The QR code of ``url`` as the share box shows it: an SVG data: URI, and its width; None
    when ``url`` is more than a QR code of this error correction holds."""
    try:
        qr = segno.make(url, error="m")
    except DataOverflowError:
        return None
    width, _ = qr.symbol_size(scale=4, border=2)
    return qr.svg_data_uri(scale=4, border=2, dark="#1b1b1b"), width
