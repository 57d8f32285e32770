"""One register per language (docs/glossary.md, "Register"): Spanish says usted, Italian tu,
everywhere people read. A translation in the other register fails here: the second person's
pronouns and the imperatives the catalogs use to ask something of the reader."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from words import LOCALE_DIR

# The other register's forms that cannot be anything else: Spanish tú (the reader is usted):
# its pronouns, its verbs' second person, its imperatives with a pronoun joined (a bare
# imperative, "revisa", is also the third person, "the server checks", and is left to review);
# Italian Lei (the reader is tu): its pronoun and imperatives; and voi, the plural.
OTHER = {
    "es": re.compile(
        r"\b(tú|tu|tus|te|ti|contigo|puedes|quieres|quisiste|querías|tienes|debes|sabes|estás|"
        r"inténtalo|revísal[ao]s?|míral[ao]s?|hazlo|dime|escríbel[ao]s?|elígel[ao]s?|pégal[ao]|"
        r"ábrel[ao]|confírmal[ao]s?|compruébal[ao]s?|recárgal[ao]|emparéjal[ao])\b",
        re.IGNORECASE),
    "it": re.compile(
        r"\b(Lei|La prego|indichi|scriva|provi|scelga|ripeta|prema|faccia|metta|conservi|"
        r"ripristini|dia|abbini|tolga|intendeva|confermi|unisca|segni|inserisca|"
        r"verifichi|chieda|aspetti|apra|chiuda|legga|incolli|stampi|riprovi|ricarichi|"
        # and voi, the plural "you" (the reader is one person, tu)
        r"vostr[oaie]|controllate|scegliete|copiatela|custoditela|scansionatelo|"
        r"aprite)\b"),
}


def translations(lang: str) -> list[tuple[str, str]]:
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "domino.po").open("rb") as file:
        catalog = read_po(file)
    found = []
    for message in catalog:
        if not message.id:
            continue
        msgid = message.id[0] if isinstance(message.id, tuple) else message.id
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        found += [(msgid, text) for text in forms]
    return found


@pytest.mark.parametrize("lang", ["es", "it"])
def test_the_catalog_keeps_its_languages_register(lang: str) -> None:
    wrong = []
    for msgid, text in translations(lang):
        cleaned = re.sub(r"`[^`]*`|--[\w-]+|\bdomino [a-z-]+(?: [a-z-]+)?", " ", text)
        if found := OTHER[lang].search(cleaned):
            wrong.append((found.group(0), msgid[:60], text[:100]))
    assert wrong == [], "\n".join(map(str, wrong))
