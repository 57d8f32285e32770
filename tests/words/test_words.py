"""words: which language (the environment, an unknown one passed over), messages and plural
forms, an error's sentence made at the edge, formats (Babel) and names in the language's order
(ICU), the JavaScript messages a page embeds."""

from __future__ import annotations

from pathlib import Path

import pytest

import words
from referee.core.vocab import LANGUAGES as CLUB_LANGUAGES
from referee.service import Invalid, NotFound
from referee.service.errors import N_, Phrase
from words import formats, scripts
from words.collation import by_name, sort_key
from words.terms import TERMS, term

STATIC = Path(__file__).resolve().parents[2] / "api" / "static"


@pytest.fixture
def speak():
    tokens = []

    def use(lang: str) -> None:
        tokens.append(words.use(lang))

    yield use
    for token in reversed(tokens):
        words.reset(token)


@pytest.mark.parametrize("value, lang", [
    ("es", "es"), ("es-MX", "es"), ("it_IT.UTF-8", "it"), ("IT", "it"), ("en_GB", "en"),
    ("fr", None), ("", None), (None, None), ("xx", None), ("es@euro", "es"),
])
def test_known_reads_a_language_or_passes_it_over(value, lang) -> None:
    assert words.known(value, pseudo=False) == lang


def test_the_pseudo_locale_only_where_it_is_switched_on() -> None:
    assert words.known("xx", pseudo=True) == "xx"
    assert words.known("xx", pseudo=False) is None


@pytest.mark.parametrize("environ, lang", [
    ({"LANG": "es_ES.UTF-8"}, "es"), ({"LC_ALL": "it_IT.UTF-8", "LANG": "es_ES"}, "it"),
    ({"LC_MESSAGES": "it_IT", "LANG": "es_ES"}, "it"), ({"LC_ALL": "C", "LANG": "es_ES"}, "en"),
    ({"LANG": "fr_FR.UTF-8"}, "en"), ({}, "en"), ({"LC_ALL": "", "LANG": "it"}, "it"),
])
def test_the_environment_decides_as_posix_says(environ, lang) -> None:
    assert words.from_environment(environ) == lang


def test_the_club_setting_takes_the_catalogs_languages() -> None:
    assert CLUB_LANGUAGES == words.LANGUAGES


def test_messages_and_plural_forms(speak) -> None:
    assert words.gettext("Standings") == "Standings"
    speak("es")
    assert words.gettext("Standings") == "Clasificación"
    assert words.gettext("Match %(id)s", id=7) == "Partida 7"
    assert [words.ngettext("%(num)s tile", "%(num)s tiles", n) for n in (1, 2, 0)] == \
        ["1 ficha", "2 fichas", "0 fichas"]
    speak("it")
    assert words.ngettext("%(num)s tile", "%(num)s tiles", 1) == "1 tessera"
    assert words.ngettext("%(num)s tile", "%(num)s tiles", 7) == "7 tessere"
    assert words.gettext("a message no catalog has") == "a message no catalog has"


def test_a_service_error_is_said_in_the_language_of_the_edge(speak) -> None:
    error = NotFound("no club %(slug)r", slug="casino")
    assert error.message == "no club 'casino'"  # the service's own, English
    speak("es")
    assert words.message(error) == "no existe el club 'casino'"
    named = Invalid("%(what)s: must be non-empty text", what=Phrase(N_("club name")))
    assert words.message(named) == "nombre del club: debe ser un texto no vacío"
    assert words.message(ValueError("plain")) == "plain"


def test_every_code_has_its_word_in_each_language(speak) -> None:
    for lang in ("es", "it"):
        speak(lang)
        for kind, codes in TERMS.items():
            for code, msgid in codes.items():
                assert term(kind, code) != msgid or msgid in ("Club", "Domino", "domino"), (lang, code)
    assert term("violation", "no_such_code") == "no_such_code"


def test_formats_follow_the_language() -> None:
    assert formats.percent(1.0, lang="en") == "100.0%"
    assert formats.percent(1.0, lang="es") == "100,0\xa0%"
    assert formats.percent(0.4567, lang="it") == "45,7%"
    assert formats.date("2026-12-01", lang="es") == "1 dic 2026"
    assert formats.date("2026-12-01", lang="it") == "1 dic 2026"
    assert formats.date("2026-12-01", lang="en") == "Dec 1, 2026"
    assert formats.date("2026-12-01", lang="xx") == "⟦Dec 1, 2026⟧"
    assert formats.decimal(12.5, lang="es") == "12,50"
    assert formats.number(12345, lang="it") == "12.345"
    assert formats.date(None, lang="es") == ""


def test_names_sort_as_the_language_does() -> None:
    names = ["Xiomara", "Ñico", "Nuria", "nadia", "Ángel", "Zoe", "Mesa 10", "Mesa 2", "Oscar"]
    assert by_name(names, lang="es") == ["Ángel", "Mesa 2", "Mesa 10", "nadia", "Nuria", "Ñico",
                                        "Oscar", "Xiomara", "Zoe"]
    # English and Italian read Ñ as an N with a tilde
    assert by_name(names, lang="en").index("Ñico") < by_name(names, lang="en").index("Nuria")
    assert sorted(names, key=sort_key("it"))[0] == "Ángel"


def test_sorting_within_ranks_keeps_the_ranks() -> None:
    rows = [{"rank": 1, "name": "Zoe"}, {"rank": 1, "name": "Ñico"}, {"rank": 3, "name": "Ana"},
            {"rank": 1, "name": "Nuria"}]
    ordered = by_name(rows, lambda r: r["name"], lang="es", within=lambda r: r["rank"])
    assert [r["name"] for r in ordered] == ["Nuria", "Ñico", "Zoe", "Ana"]


def test_a_pages_scripts_messages_are_embedded_in_its_language() -> None:
    paths = [STATIC / "scoreboard.js"]
    found = dict(scripts.msgids(paths))
    assert found["Reconnecting…"] is None and found["%(num)s open dispute"] == "%(num)s open disputes"
    es = scripts.messages("es", paths)
    assert es["lang"] == "es" and es["plural"] == {"one": 0, "many": 1, "other": 2}
    assert es["messages"]["Live"] == "En juego"
    assert es["messages"]["%(num)s open dispute"][0] == "%(num)s disputa abierta"
    en = scripts.messages("en", paths)
    assert en["messages"] == {} and en["plural"] == {"one": 0, "other": 1}
