"""Request bodies read whole, and never past MAX_CONTENT_LENGTH, however they are sent.

With a Content-Length over the limit werkzeug refuses the request (413) before anything reads
it. A chunked body has no Content-Length: werkzeug then reads it through a stream that stops at
the limit, and reading it whole gives the first MAX_CONTENT_LENGTH bytes without a word, so an
oversized event was "Invalid JSON" and an oversized log was cut short. Here such a body is read
once, before the view, and one byte more than the limit is a 413.
"""

from __future__ import annotations

from flask import Flask
from werkzeug.exceptions import RequestEntityTooLarge

from .context import this_request


def _read_unsized_body() -> None:
    request = this_request()  # every request's: not through the proxy (api.context)
    if request.content_length is not None or not request.environ.get("wsgi.input_terminated"):
        return  # sized (werkzeug checked it), or a server that sends no unsized body
    limit = request.max_content_length
    data = request.get_data(cache=True)  # what the views read later, from the cache
    # werkzeug's stream stops at the limit; the server's stream says whether more was sent.
    if limit is not None and len(data) >= limit and request.environ["wsgi.input"].read(1):
        # the detail is api.errors's, in the request's language, naming the limit
        raise RequestEntityTooLarge()


def init_body(app: Flask) -> None:
    app.before_request(_read_unsized_body)
