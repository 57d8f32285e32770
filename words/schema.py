"""The API's field-by-field refusals (a 400 or 422 ``malformed-request``'s ``errors``) in the
reader's language. The schemas' checks (marshmallow's fields and validators, under webargs)
write English sentences such as "Must be greater than or equal to 1 and less than or equal to
10000."; :func:`field_message` recognises each one they write and says it in the reader's
language, with its numbers; a sentence it does not know is kept as written. A list of allowed
values is not repeated (they are codes): "not one of the values allowed".

Standard library only (and :mod:`words`), as the package.
"""

from __future__ import annotations

import re
from typing import Any

from . import N_, each_text, gettext

# (the English the schemas write, as a pattern; the msgid it is said as)
_KNOWN: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(pattern), msgid) for pattern, msgid in (
    (r"Must be greater than or equal to (?P<min>\S+) and less than or equal to (?P<max>\S+)\.",
     N_("must be from %(min)s to %(max)s")),
    (r"Must be greater than or equal to (?P<min>\S+)\.", N_("must be at least %(min)s")),
    (r"Must be less than or equal to (?P<max>\S+)\.", N_("must be at most %(max)s")),
    (r"Must be greater than (?P<min>\S+)\.", N_("must be more than %(min)s")),
    (r"Must be less than (?P<max>\S+)\.", N_("must be less than %(max)s")),
    (r"Length must be between (?P<min>\d+) and (?P<max>\d+)\.",
     N_("must be %(min)s to %(max)s characters long")),
    (r"Shorter than minimum length (?P<min>\d+)\.", N_("must be at least %(min)s characters long")),
    (r"Longer than maximum length (?P<max>\d+)\.", N_("must be at most %(max)s characters long")),
    (r"Length must be (?P<equal>\d+)\.", N_("must be %(equal)s characters long")),
    (r"Must be one of: .*\.", N_("is not one of the values allowed")),
    (r"String does not match expected pattern\.", N_("is not written as expected")),
    (r"Not a valid integer\.", N_("must be a whole number")),
    (r"Not a valid number\.", N_("must be a number")),
    (r"Not a valid string\.", N_("must be text")),
    (r"Not a valid boolean\.", N_("must be true or false")),
    (r"Not a valid date\.", N_("must be a date (YYYY-MM-DD)")),
    (r"Not a valid list\.", N_("must be a list")),
    (r"Not a valid mapping type\.", N_("must be an object")),
    (r"Invalid input type\.", N_("is not of the expected kind")),
    (r"Missing data for required field\.", N_("is required")),
    (r"Field may not be null\.", N_("may not be empty")),
    (r"Unknown field\.", N_("is not a field of this request")),
))


def field_message(text: str) -> str:
    """One refusal of a schema's check, in the reader's language (as written when unknown)."""
    for pattern, msgid in _KNOWN:
        found = pattern.fullmatch(text.strip())
        if found:
            return gettext(msgid, **found.groupdict())
    return text


def field_messages(errors: Any) -> Any:
    """``errors`` as webargs gives them (by location, then field, then a list of sentences; a
    nested field's or a list item's own errors nested likewise), each sentence said by
    :func:`field_message`."""
    return each_text(errors, field_message)
