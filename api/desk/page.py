"""How every page of the club desk answers (docs/desk.md, "Signing in"): the home, the
disputes desk, the tournament desk, a tournament, its pairing sheet and its table cards.

One path for all of them: the view is called with the token's caller, or None without a token,
and asks its desk use case, which decides (referee.service.access.desk_caller: no token is the
sign-in, whether the club is public or not; then what the role may). A ServiceError is answered
as a page: 401 the sign-in page, whose script signs in with the token kept in the tab (or typed)
and fetches the page again with it as a bearer header; 403 and 404 the error page. A desk page
has no JSON twin (its data is the API's own endpoints) and is never kept by a cache.
"""

from __future__ import annotations

from functools import wraps
from typing import Any, Callable

from flask import Response, request

from referee.service import ServiceError

from ..pages.common import page_caller
from ..pages.views import _headers, error_page


def desk_page(view: Callable[..., str]) -> Callable[..., Response]:
    """A desk page's view, called as ``view(who=caller or None, **address)``."""

    @wraps(view)
    def wrapped(**kwargs: Any) -> Response:
        try:
            body = view(who=page_caller(), **kwargs)
        except ServiceError as error:
            return error_page(error, "Authorization" in request.headers, twin=None,
                              back=kwargs.get("club"), desk=True)
        return _headers(Response(body, mimetype="text/html"), signed_in=True)

    return wrapped
