"""Names in the order the language sorts them (ICU's collation, through PyICU): in Spanish "Ñico"
comes after every "N..." name, accents and case do not scatter a list ("Ángel" by "Ana", "ana"
by "Ana"), and digits count as numbers ("Mesa 2" before "Mesa 10").

Sorting is presentation: the edge (a page, a command's output, an API list) sorts once, with
:func:`sort_key` or :func:`by_name`. ICU is imported on first use. A collator is made once per
thread and language (ICU's collators are cheap to use and not to be shared while in use).
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Iterable, TypeVar

from .formats import babel_locale

T = TypeVar("T")
_local = threading.local()


def _collator(lang: str) -> Any:
    made = getattr(_local, "collators", None)
    if made is None:
        made = _local.collators = {}
    if lang not in made:
        import icu

        collator = icu.Collator.createInstance(icu.Locale(babel_locale(lang)))
        collator.setAttribute(icu.UCollAttribute.NUMERIC_COLLATION, icu.UCollAttributeValue.ON)
        made[lang] = collator
    return made[lang]


def sort_key(lang: str | None = None) -> Callable[[str], bytes]:
    """The key that sorts text as ``lang`` does (default: the current language)."""
    collator = _collator(babel_locale(lang))
    return lambda text: collator.getSortKey(text or "")


def by_name(items: Iterable[T], name: Callable[[T], str] = str, lang: str | None = None, *,
            within: Callable[[T], Any] | None = None) -> list[T]:
    """``items`` sorted by ``name(item)`` in the language's order; ``within``: sorted by name only
    inside each run of equal ``within(item)`` (a rank), the runs kept in their order."""
    listed = list(items)
    position: dict[Any, int] = {}
    for item in listed if within is not None else ():
        position.setdefault(within(item), len(position))
    # Nothing to order (no two items, or no two in one run): no collator, so a command that
    # lists one row or no tie does not load ICU (tests/cli/test_cli_startup.py).
    if len(listed) < 2 or (within is not None and len(position) == len(listed)):
        return listed
    key = sort_key(lang)
    if within is None:
        return sorted(listed, key=lambda item: key(name(item)))
    return sorted(listed, key=lambda item: (position[within(item)], key(name(item))))
