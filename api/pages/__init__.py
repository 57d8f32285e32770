"""The club pages: server-rendered HTML for people (:mod:`.views`, under ``/clubs/...``) and
each page's JSON twin in the API (:mod:`.twins`, the same path under ``/api/v1/pages``).

A page holds no rule, no query and no access decision: it asks :mod:`referee.service.pages`
(which asks the other use cases, the caller passed on) and lays the answer out. Someone without
a token reads a public club; a private club's pages answer a sign-in page (docs/pages.md).
"""

from __future__ import annotations

from . import twins, views  # api/__init__.py registers twins.blp and views.blp

__all__ = ["twins", "views"]
