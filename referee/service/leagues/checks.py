"""The engine's checks of what it is given, each written once: a whole number within bounds, a
list of ids (a division's teams, a cup's entrants)."""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import N_, Phrase
from .errors import LeagueError


def count(value: object, least: int, what: str) -> int:
    """``value`` if it is a whole number of at least ``least``; ``what`` is the parameter's
    name, quoted as the code spells it."""
    if type(value) is not int or value < least:
        raise LeagueError("%(what)s is a whole number of at least %(least)s, not %(value)r",
                          what=what, least=least, value=value)
    return value


TEAMS = (Phrase(N_("a division")), Phrase(N_("team")), Phrase(N_("teams")))
ENTRANTS = (Phrase(N_("a cup")), Phrase(N_("entrant")), Phrase(N_("entrants")))


def ids(values: Sequence[str], words: tuple[Phrase, Phrase, Phrase]) -> tuple[str, ...]:
    """``values`` as a tuple of ids: a list of non-empty texts, none twice, at least two.
    ``words`` name the whole, one and many (``TEAMS``, ``ENTRANTS``) in the errors."""
    whole, one, many = words
    if isinstance(values, str) or not isinstance(values, Sequence):
        raise LeagueError("the %(many)s are a list of ids, not %(value)r", many=many,
                          value=values)
    for value in values:
        if not isinstance(value, str) or not value.strip():
            raise LeagueError("an id is a non-empty text, not %(value)r", value=value)
    seen: set[str] = set()
    for value in values:
        if value in seen:
            raise LeagueError("%(one)s %(id)r is listed twice", one=one, id=value)
        seen.add(value)
    if len(values) < 2:
        raise LeagueError("%(whole)s needs at least 2 %(many)s, and has %(count)s",
                          whole=whole, many=many, count=len(values))
    return tuple(values)
