"""The words people read, in their language: the gettext catalogs of ``en``, ``es`` and ``it``
(``words/locale/``), which language to use, and the sentences of errors made at the edge.

Every layer that talks to people may use this package (``api/``, ``cli/``); it sits beside them
rather than inside one because the CLI's fast path (``domino validate``, ``domino --help``) must
translate without loading the service, SQLAlchemy or flask, and the rules core stays pure (its
sentences are made at the edge). So this module imports the standard library only: catalogs are
read with :mod:`gettext` from the compiled ``.mo`` files committed beside their ``.po``
(docs/i18n.md says how a developer updates them). Babel (formats) and ICU (collation) are in
:mod:`words.formats` and :mod:`words.collation`, imported by what needs them.

Which language: the caller says, with :func:`use` (the CLI once, from ``--lang`` or the
environment; the API per request); :func:`current` is what was said, else the environment
(:func:`from_environment`), else English. An unknown language is never an error: the next
choice is taken. A catalog that cannot be read is (:class:`CatalogError`, naming the file).
"""

from __future__ import annotations

import contextvars
import gettext as _gettext
import os
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

LANGUAGES = ("en", "es", "it")  # the menu's, in its order
DEFAULT = "en"  # the language of the msgids: no catalog
# The names in the menu, each in its own language (never translated).
NAMES = {"en": "English", "es": "Español", "it": "Italiano"}
# The pseudo-locale of the tests: every message wrapped in MARKS (words/pseudo.py makes its
# catalog from the template). Taken only where DOMINO_PSEUDO_LOCALE is set; never in the menu.
PSEUDO = "xx"
MARKS = ("⟦", "⟧")
PSEUDO_SWITCH = "DOMINO_PSEUDO_LOCALE"
DOMAIN = "domino"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
ENVIRONMENT = ("LC_ALL", "LC_MESSAGES", "LANG")  # POSIX: the first one set decides


class CatalogError(Exception):
    """A compiled catalog that cannot be read: a start-up error naming the file."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"cannot read the message catalog {path}: {reason}")
        self.path = path
        self.reason = reason


def pseudo_enabled(environ: Mapping[str, str] = os.environ) -> bool:
    return environ.get(PSEUDO_SWITCH, "").strip().lower() not in ("", "0", "false", "no", "off")


def known(value: Any, *, pseudo: bool | None = None) -> str | None:
    """The language ``value`` names ("es", "es-MX", "it_IT.UTF-8", "ES"), if it is one of ours,
    else None. ``pseudo``: whether the pseudo-locale counts (default: DOMINO_PSEUDO_LOCALE)."""
    if not isinstance(value, str):
        return None
    code = value.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    if code in LANGUAGES:
        return code
    if code == PSEUDO and (pseudo_enabled() if pseudo is None else pseudo):
        return code
    return None


def from_environment(environ: Mapping[str, str] = os.environ) -> str:
    """The language of the locale environment: the first of LC_ALL, LC_MESSAGES, LANG that is
    set decides, as POSIX has it ("C", or a language we have no catalog for, is English)."""
    for name in ENVIRONMENT:
        if value := environ.get(name, "").strip():
            return known(value, pseudo=pseudo_enabled(environ)) or DEFAULT
    return DEFAULT


class Catalog(_gettext.GNUTranslations):
    """A compiled catalog, answering also to the names Babel's and Flask-Babel's code call
    (``ugettext``...), so that the app's templates read the same catalogs as the CLI."""

    ugettext = _gettext.GNUTranslations.gettext
    ungettext = _gettext.GNUTranslations.ngettext
    upgettext = _gettext.GNUTranslations.pgettext
    unpgettext = _gettext.GNUTranslations.npgettext


class Source(_gettext.NullTranslations):
    """English, the language of the msgids: no catalog."""

    ugettext = _gettext.NullTranslations.gettext
    ungettext = _gettext.NullTranslations.ngettext
    upgettext = _gettext.NullTranslations.pgettext
    unpgettext = _gettext.NullTranslations.npgettext


def mo_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"


@lru_cache(maxsize=None)
def catalog(lang: str) -> _gettext.NullTranslations:
    """The compiled catalog of ``lang`` (English: the msgids themselves)."""
    if lang == DEFAULT:
        return Source()
    path = mo_path(lang)
    try:
        with path.open("rb") as file:
            return Catalog(file)
    except (OSError, ValueError, KeyError, IndexError, UnicodeDecodeError) as error:
        # a missing or truncated file (OSError, struct's errors are ValueErrors or
        # IndexErrors), a bad magic number or header (OSError, ValueError, KeyError)
        raise CatalogError(path, str(error) or type(error).__name__) from None


def check_catalogs(languages: Iterable[str] = (*LANGUAGES, PSEUDO)) -> None:
    """Read every catalog now (start-up): CatalogError names the first that cannot be read.
    The pseudo-locale's is checked only where it is taken."""
    for lang in languages:
        if lang != PSEUDO or pseudo_enabled():
            catalog(lang)


_current: contextvars.ContextVar[str | None] = contextvars.ContextVar("words_language",
                                                                     default=None)


def use(lang: str | None) -> contextvars.Token[str | None]:
    """Speak ``lang`` from now on in this context (a thread, a request); None: the environment's.
    Returns the token that puts the previous choice back (``reset``)."""
    return _current.set(lang)


def reset(token: contextvars.Token[str | None]) -> None:
    _current.reset(token)


def current() -> str:
    return _current.get() or _environment_language()


@lru_cache(maxsize=1)
def _environment_language() -> str:
    return from_environment()


def gettext(msgid: str, **params: Any) -> str:
    """``msgid`` in the current language, its ``%(name)s`` placeholders filled from ``params``
    (a sentence of the rules core among them said in that language too: :func:`say`)."""
    text = catalog(current()).gettext(msgid)
    return text % {k: say(v) for k, v in params.items()} if params else text


def ngettext(singular: str, plural: str, n: int, **params: Any) -> str:
    """The plural form for ``n`` (in the text as ``%(num)s`` unless ``params`` names it)."""
    params.setdefault("num", n)
    return catalog(current()).ngettext(singular, plural, n) % {k: say(v) for k, v in params.items()}


def pgettext(context: str, msgid: str, **params: Any) -> str:
    """``msgid`` as said in ``context`` ("partnership": a sentence whose subject is two players,
    where Spanish and Italian make the verb agree); English: the msgid."""
    text = catalog(current()).pgettext(context, msgid)
    return text % {k: say(v) for k, v in params.items()} if params else text


def npgettext(context: str, singular: str, plural: str, n: int, **params: Any) -> str:
    """:func:`ngettext` in ``context``."""
    params.setdefault("num", n)
    text = catalog(current()).npgettext(context, singular, plural, n)
    return text % {k: say(v) for k, v in params.items()}


def say(text: Any) -> Any:
    """A sentence of the rules core (``referee.core.said.Said``: a str that remembers its
    template and values) in the current language; anything else as it is. English is the
    sentence itself, untouched."""
    template = getattr(text, "template", None)
    if template is None:
        return text
    lang = current()
    if lang == DEFAULT:
        return text
    words = catalog(lang)
    form = (words.gettext(template) if text.plural is None
            else words.ngettext(template, text.plural, text.n))
    return form % {k: say(v) for k, v in text.values.items()} if text.values else form


def localize(value: Any) -> Any:
    """``value`` (a report, a screen, any JSON-shaped answer) with every sentence of the rules
    core in it said in the current language (:func:`say`); English: ``value`` itself."""
    if current() == DEFAULT:
        return value
    return each_text(value, say)


def each_text(value: Any, said: Callable[[str], Any]) -> Any:
    """``value`` (JSON-shaped) with ``said`` applied to every text in it, keys aside."""
    if isinstance(value, str):
        return said(value)
    if isinstance(value, dict):
        return {k: each_text(v, said) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [each_text(v, said) for v in value]
    return value


_ = gettext


def N_(msgid: str) -> str:
    """Marks ``msgid`` for the catalog where it is written; translated where it is shown."""
    return msgid


def N_plural(singular: str, plural: str) -> tuple[str, str]:
    """Marks a plural msgid (its two English forms) where it is written: ``ngettext`` where it
    is shown."""
    return singular, plural


def message(error: BaseException) -> str:
    """An error's sentence in the current language: an error that carries its ``msgid`` and
    ``params`` (the service's, :class:`referee.service.ServiceError`) is translated, each
    param with it (:func:`_param`); any other, as it says."""
    msgid = getattr(error, "msgid", None)
    if getattr(msgid, "template", None) is not None:  # a sentence of the core, passed on
        return str(say(msgid))
    if not isinstance(msgid, str):
        return str(say(getattr(error, "message", None) or str(error)))
    params = {key: _param(value) for key, value in (getattr(error, "params", None) or {}).items()}
    return gettext(msgid, **params)  # a core sentence among the params is said too


def _param(value: Any) -> Any:
    """A service error's param as said: one marked ``translatable`` in the language, an
    ``OSError`` (the reason a file could not be read or written) in the system's words
    (:func:`words.oserrors.reason`), any other as it is."""
    if getattr(value, "translatable", False):
        return gettext(value)
    if isinstance(value, OSError):
        from .oserrors import reason

        return reason(value)
    return value


__all__ = ["CatalogError", "DEFAULT", "LANGUAGES", "N_", "NAMES", "PSEUDO", "catalog",
           "check_catalogs", "current", "from_environment", "gettext", "known", "localize",
           "message", "N_plural", "ngettext", "npgettext", "pgettext", "reset", "say", "use"]
