"""Input checks shared by the use cases: what a caller typed, refused with ``Invalid`` naming
what was wrong before anything reaches the store."""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from typing import Any

from ..core.events import disputed, unsighted
from ..core.log import iso_date
from ..core.vocab import MAX_INT as MAX_ID
from ..core.vocab import NAME_LENGTH, REWRITES, SLUG, kind_of, whole_number
from ..store.schema import KEY_LENGTH
from .errors import N_, Invalid, Phrase

# Characters that reorder the text around them (bidi embeddings, overrides, isolates and marks,
# Cf): in a name they make one string display as another ("\u202eoniN" shows as "Nino").
# Unicode's control characters (Cc: U+0000-U+001F, U+007F-U+009F) and surrogates (Cs:
# U+D800-U+DFFF), both categories fixed for good by the standard: what :func:`name` refuses,
# found by one search where asking unicodedata each character's category cost an append's
# two names some 10 us.
_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")

BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                          "\u2066\u2067\u2068\u2069")


def name(value: Any, what: str, line: int | None = None) -> str:
    """A name people typed: text, not blank, at most NAME_LENGTH characters, no control
    characters (PostgreSQL cannot store a NUL in a text column, and none belongs in a name).
    ``what`` names it in the error: a field's name, or a :class:`.errors.Phrase`."""
    if not isinstance(value, str) or not value.strip():
        raise Invalid("%(what)s: must be non-empty text", line=line, what=what)
    if len(value) > NAME_LENGTH:
        raise Invalid("%(what)s: at most %(length)s characters", line=line, what=what,
                      length=NAME_LENGTH)
    if _CONTROLS.search(value):
        raise Invalid("%(what)s: may not contain control characters", line=line, what=what)
    return value


def player_name(value: Any, what: str = Phrase(N_("player name")), line: int | None = None) -> str:
    """A player's name as the club keeps it: Unicode NFC, white space trimmed and each run of it
    one space, at most NAME_LENGTH characters. Control characters (Cc: NUL, tab, newline...),
    lone surrogates (Cs) and bidi controls (:data:`BIDI_CONTROLS`) are refused, not removed:
    a name is what people typed, or nothing."""
    if not isinstance(value, str) or not value.strip():
        raise Invalid("%(what)s: must be non-empty text", line=line, what=what)
    for ch in value:
        if unicodedata.category(ch) in ("Cc", "Cs"):
            raise Invalid("%(what)s: may not contain control characters (%(char)r)", line=line,
                          what=what, char=ch)
        if ch in BIDI_CONTROLS:
            raise Invalid("%(what)s: may not contain bidi controls (%(char)s)", line=line,
                          what=what, char="U+%04X %s" % (ord(ch), unicodedata.name(ch, "")))
    text = " ".join(unicodedata.normalize("NFC", value).split())
    if len(text) > NAME_LENGTH or len(name_key(text)) > KEY_LENGTH - 16:
        raise Invalid("%(what)s: at most %(length)s characters", line=line, what=what,
                      length=NAME_LENGTH)
    return text


def name_key(name: str) -> str:
    """What player names are matched by: the normalised name (:func:`player_name`) casefolded,
    so that "ana", "Ana" and "Ana " are one player (and "Straße" is "STRASSE")."""
    return unicodedata.normalize("NFC", name.casefold())


def optional_name(value: Any, what: str) -> str | None:
    return None if value is None else name(value, what)


def slug(value: Any, what: str = Phrase(N_("club slug"))) -> str:
    if not isinstance(value, str) or not SLUG.fullmatch(value):
        raise Invalid("%(what)s: 1 to 64 lowercase letters, digits and dashes, starting and "
                      "ending with a letter or digit", what=what)
    return value


MAX_PAGE = 10_000  # of a paged page (the club's matches, the disputes desk): far enough back


def page_number(value: Any) -> int:
    """A page's number, 1 for the first; from a query string too (``"2"``)."""
    number = whole_number(value) if isinstance(value, str) else value
    if type(number) is not int or not 1 <= number <= MAX_PAGE:
        raise Invalid("page must be a whole number from 1 to %(max)s, not %(value)r",
                      max=MAX_PAGE, value=value)
    return number


def count(value: Any, what: str) -> int:
    if type(value) is not int or not 0 <= value <= MAX_ID:
        raise Invalid("%(what)s must be a whole number from 0 to %(max)s, not %(value)r",
                      what=what, max=MAX_ID, value=value)
    return value


def match_number(value: Any) -> int | None:
    """A match id as an int, or None when ``value`` cannot name one."""
    if type(value) is str:
        value = whole_number(value)
    if type(value) is int and 1 <= value <= MAX_ID:
        return value
    return None


def date(value: Any, what: str) -> str | None:
    """An ISO 8601 date (or a date object) as YYYY-MM-DD; ``what`` names it in the error."""
    if value is None:
        return None
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    parsed = iso_date(value) if isinstance(value, str) else None
    if parsed is None:
        raise Invalid("%(what)s must be an ISO 8601 date, not %(value)r", what=what, value=value)
    return parsed.isoformat()


def one_of(value: Any, choices: tuple[str, ...], what: str) -> str:
    if value not in choices:
        raise Invalid("%(what)s must be one of %(choices)s, not %(value)r", what=what,
                      choices=", ".join(choices), value=value)
    return value


def rewrites_the_record(event: Any) -> bool:
    """A void or an amend: it changes what earlier events stand for, so the match is replayed."""
    return kind_of(event) in REWRITES


def kept(event: Any, violation: Any) -> bool:
    """Whether an event the referee refuses (``violation``) is stored all the same: recorded
    ``"disputed": true``, as an open dispute, unless it is the disputed event just before it
    again (``repeat``: the table did it once, and once is recorded); or stored
    ``"unsighted": true`` (judged on a record that could not see the hand it contradicts: an
    exported log holds it so)."""
    return (disputed(event) or unsighted(event)) and violation.code != "repeat"
