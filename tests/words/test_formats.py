"""words.formats.names: a list of names as each language writes it (CLDR, through Babel)."""

from __future__ import annotations

import pytest

from words import MARKS, PSEUDO
from words.formats import names


@pytest.mark.parametrize(("lang", "two", "three"), [
    ("en", "Ana and Beto", "Ana, Beto, and Carla"),
    ("es", "Ana y Beto", "Ana, Beto y Carla"),
    ("it", "Ana e Beto", "Ana, Beto e Carla"),
])
def test_names_are_listed_as_the_language_lists_them(lang: str, two: str, three: str) -> None:
    assert names(["Ana"], lang) == "Ana"
    assert names(["Ana", "Beto"], lang) == two
    assert names(("Ana", "Beto", "Carla"), lang) == three


def test_the_pseudo_locale_marks_its_list() -> None:
    """Its words are English (CLDR knows no pseudo-locale), so its marks hold them: a page's
    check for text outside the catalogs reads the list as marked."""
    assert names(["Ana", "Beto"], PSEUDO) == f"{MARKS[0]}Ana and Beto{MARKS[1]}"
