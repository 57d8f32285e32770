"""Dates, numbers and percentages written as the language writes them (Babel, CLDR's data):
"Dec 1, 2026" / "1 dic 2026", "100.0%" / "100,0 %", "12.50" / "12,50".

The pseudo-locale writes English numbers, and dates in its marks (a date is words: "Mar").
``lang`` defaults to :func:`words.current`. Babel is imported on first use, so that a command
that formats nothing never loads it.
"""

from __future__ import annotations

import datetime as dt
from functools import lru_cache
from typing import Any

from . import DEFAULT, MARKS, PSEUDO, current


def babel_locale(lang: str | None = None) -> str:
    """The CLDR locale of a language of ours (the pseudo-locale formats as English)."""
    lang = lang or current()
    return DEFAULT if lang == PSEUDO else lang


@lru_cache(maxsize=None)
def _locale(code: str) -> Any:
    from babel import Locale

    return Locale.parse(code)


def _day(value: Any) -> dt.date | None:
    if value is None or value == "":
        return None
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value)[:10])
    except ValueError:
        return None


def date(value: Any, lang: str | None = None, form: str = "medium") -> str:
    """A day (a date, or ISO 8601 text) in words: "Dec 1, 2026", "1 dic 2026"; "" for none;
    text that is no date, as it is."""
    from babel.dates import format_date

    day = _day(value)
    if day is None:
        return "" if value in (None, "") else str(value)
    text = format_date(day, form, locale=_locale(babel_locale(lang)))
    return f"{MARKS[0]}{text}{MARKS[1]}" if (lang or current()) == PSEUDO else text


def _moment(value: Any) -> dt.datetime | None:
    """A moment from ISO 8601 text or a datetime (one without an offset is UTC, as stored)."""
    if isinstance(value, dt.datetime):
        moment = value
    else:
        try:
            moment = dt.datetime.fromisoformat(str(value).replace("Z", "+00:00"))
        except ValueError:
            return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.timezone.utc)


def _zone(zone: str | None) -> Any:
    from zoneinfo import ZoneInfo

    try:
        return ZoneInfo(zone) if zone else dt.timezone.utc
    except (ValueError, LookupError):  # a zone the system no longer knows: UTC, said so
        return None


def moment(value: Any, zone: str | None = None, lang: str | None = None, *,
           day: bool = True) -> str:
    """A moment as people of the club read it: in the club's time zone (``zone``, an IANA
    name), its day and time of day as the language writes them ("Dec 6, 2026, 2:05 PM",
    "6 dic 2026, 14:05"); ``day=False``: the time of day only ("14:05"). With no zone (or one
    the system does not know) it is UTC, and says so ("14:05 UTC"). "" for none; text that is
    no moment, as it is."""
    from babel.dates import format_datetime

    when = _moment(value) if value not in (None, "") else None
    if when is None:
        return "" if value in (None, "") else str(value)
    tz = _zone(zone)
    locale = _locale(babel_locale(lang))
    clock = locale.time_formats["short"].pattern
    pattern = (str(locale.datetime_formats["medium"]).replace("{1}", locale.date_formats["medium"].pattern)
               .replace("{0}", clock) if day else clock)
    text = format_datetime(when, pattern, tzinfo=tz or dt.timezone.utc, locale=locale)
    if not zone or tz is None:
        text += " UTC"
    return f"{MARKS[0]}{text}{MARKS[1]}" if (lang or current()) == PSEUDO else text


def names(items: Any, lang: str | None = None) -> str:
    """Names listed as the language lists them: "Ana and Beto", "Ana, Beto y Carla", "Ana e
    Beto" (CLDR's list patterns; the phone's script does the same with Intl.ListFormat). The
    pseudo-locale's list is English, in its marks."""
    from babel.lists import format_list

    text = format_list([str(item) for item in items], locale=_locale(babel_locale(lang)))
    return f"{MARKS[0]}{text}{MARKS[1]}" if (lang or current()) == PSEUDO else text


def number(value: int | float, lang: str | None = None) -> str:
    """A whole number with the language's grouping ("1,234", "1234" in Spanish, "1.234")."""
    from babel.numbers import format_decimal

    return format_decimal(value, locale=_locale(babel_locale(lang)))


def decimal(value: float, digits: int = 2, lang: str | None = None) -> str:
    """A number with exactly ``digits`` decimals: "12.50", "12,50"."""
    from babel.numbers import format_decimal

    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    return format_decimal(value, format=pattern, locale=_locale(babel_locale(lang)))


def percent(value: float, digits: int = 1, lang: str | None = None) -> str:
    """A fraction as a percentage with ``digits`` decimals, in the language's own pattern
    (its sign's place and spacing): 1.0 -> "100.0%", "100,0 %", "100,0%"."""
    from babel.numbers import parse_pattern

    locale = _locale(babel_locale(lang))
    pattern = parse_pattern(locale.percent_formats[None].pattern)
    pattern.frac_prec = (digits, digits)
    return pattern.apply(value, locale)
