"""The messages a page's JavaScript shows, for the page to embed (docs/i18n.md, "JavaScript").

A page's scripts say ``_(msgid, params)`` and ``ngettext(singular, plural, n, params)``; the
server embeds, in ``<script type="application/json" id="messages">``, the translations of the
msgids those scripts hold (found in the files themselves by Babel's JavaScript extractor, the
one ``pybabel extract`` uses, so the two never disagree) and how to pick a plural form::

    {"lang": "es",
     "plural": {"one": 0, "many": 1, "other": 2},   # Intl.PluralRules category -> form
     "messages": {"Live": "En juego",
                  "%(num)s open dispute": ["%(num)s disputa abierta", "...", "..."]}}

A msgid missing from ``messages`` is shown as it is (English), as gettext does. A message
said in a context (``pgettext("partnership", msgid)``: a verb agreeing with two players) is
keyed ``context + "\x04" + msgid``, as gettext keys it. The plural map comes from the
catalog's Plural-Forms and CLDR's categories, so a script needs no ``eval`` (the pages'
Content-Security-Policy forbids it).

The phone's page also embeds the sentences of an event (:data:`words.events.EVENTS`, with
their translations), so that its script says an event the way the server does, even offline.
"""

from __future__ import annotations

import gettext as _gettext
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

from . import DEFAULT, catalog
from .formats import babel_locale

KEYWORDS = {"_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}
CONTEXT = "\x04"  # between a message's context and its msgid, as gettext keys them
SAMPLES = (*range(0, 200), 1000, 10_000, 100_000, 1_000_000, 2_000_000, 10_000_000)


@lru_cache(maxsize=None)
def _extracted(path: Path, mtime: float) -> tuple[tuple[str, str | None], ...]:
    from babel.messages.extract import extract

    with path.open("rb") as file:
        found = extract("javascript", file, keywords=KEYWORDS, comment_tags=(),
                        options={"encoding": "utf-8"})
        out = []
        for _line, message, _comments, context in found:
            if isinstance(message, tuple):
                out.append((message[0], message[1]))
            else:
                out.append((f"{context}{CONTEXT}{message}" if context else message, None))
    return tuple(dict.fromkeys(out))


def msgids(paths: Iterable[Path]) -> tuple[tuple[str, str | None], ...]:
    """(singular, plural or None) of each message the scripts at ``paths`` show, in order."""
    found: dict[tuple[str, str | None], None] = {}
    for path in paths:
        found.update(dict.fromkeys(_extracted(path, path.stat().st_mtime)))
    return tuple(found)


def _plural(lang: str) -> Any:
    """The catalog's plural function: n -> the index of its form (English's for no catalog)."""
    found = getattr(catalog(lang), "plural", None)
    if found is None:
        from babel.messages.plurals import get_plural

        found = _gettext.c2py(get_plural(DEFAULT).plural_expr)
    return found


@lru_cache(maxsize=None)
def plural_map(lang: str) -> dict[str, int]:
    """CLDR plural category -> the catalog's plural form, for ``lang``."""
    locale, plural = _locale(babel_locale(lang)), _plural(lang)
    found: dict[str, int] = {}
    for n in SAMPLES:
        category, form = locale.plural_form(n), plural(n)
        if found.setdefault(category, form) != form:
            raise ValueError(f"{lang}: the catalog's plural forms disagree with CLDR's at {n}")
    return found


@lru_cache(maxsize=None)
def _form_samples(lang: str) -> tuple[int, ...]:
    """One n for each plural form of ``lang``, in form order."""
    plural, by_form = _plural(lang), {}
    for n in SAMPLES:
        by_form.setdefault(plural(n), n)
    return tuple(by_form[form] for form in sorted(by_form))


@lru_cache(maxsize=None)
def _locale(code: str) -> Any:
    from babel import Locale

    return Locale.parse(code)


def _said(translations: Any, key: str) -> tuple[str, str]:
    """A singular message's msgid (without its context) and its translation."""
    if CONTEXT in key:
        context, msgid = key.split(CONTEXT, 1)
        return msgid, translations.pgettext(context, msgid)
    return key, translations.gettext(key)


def messages(lang: str, paths: Iterable[Path], *, events: bool = False) -> dict[str, Any]:
    """The embedded JSON's object for the scripts at ``paths``, in ``lang``: only what differs
    from the msgids (English embeds none). ``events``: with the sentences of an event
    (``events``, words.events' table) and the reasons the system writes (``reasons``), their
    translations among the messages."""
    translations = catalog(lang)
    out: dict[str, Any] = {}
    wanted = msgids(paths)
    if events:
        from . import events as said

        wanted = tuple(dict.fromkeys((*wanted, *said.msgids())))
    for singular, plural in wanted:
        if plural is None:
            msgid, text = _said(translations, singular)
            if text != msgid:
                out[singular] = text
            continue
        texts = [translations.ngettext(singular, plural, n) for n in _form_samples(lang)]
        if texts != [singular, plural]:
            out[singular] = texts
    found: dict[str, Any] = {"lang": lang, "plural": plural_map(lang), "messages": out}
    if events:
        found["events"], found["reasons"] = said.table(), list(said.REASONS)
    return found
