"""The league engine's one error: bad input, said in a sentence for people.

:class:`LeagueError` is the service's :class:`~referee.service.errors.Invalid` (so an edge
answers it as any invalid request, HTTP 422, and says it in its reader's language with
``words.message``) and a :class:`ValueError` (so a caller of the pure engine may catch it as
the value error it is). Its first argument is its msgid, a literal %-template with named
values, which ``python -m words.build`` extracts (its class name is one of the keywords).
Nothing the engine was given is changed by a raise: every function returns a new value.
"""

from __future__ import annotations

from ..errors import Invalid


class LeagueError(Invalid, ValueError):
    """A season, schedule, result, table, average or cup the engine cannot work from."""
