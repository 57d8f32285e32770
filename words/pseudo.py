"""The pseudo-locale (``xx``): every message of the template wrapped in ``⟦...⟧``, its
placeholders kept, so that a test reading a page or a command's output in it finds any text
that did not go through the catalogs (it has no marks). Made from the template by
``python -m words.build``; never in the language menu (``DOMINO_PSEUDO_LOCALE`` turns it on)."""

from __future__ import annotations

from . import DOMAIN, LOCALE_DIR, MARKS, PSEUDO


def wrap(text: str) -> str:
    return f"{MARKS[0]}{text}{MARKS[1]}"


def write_pseudo() -> None:
    from babel.messages.pofile import read_po, write_po

    with (LOCALE_DIR / f"{DOMAIN}.pot").open("rb") as file:
        template = read_po(file)
    template.locale = "en"  # English plural forms; the pseudo-locale is not one Babel knows
    template.fuzzy = False  # complete by construction (a fuzzy catalog is not compiled)
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, (list, tuple)):
            message.string = tuple(wrap(form) for form in message.id)
        else:
            message.string = wrap(message.id)
    target = LOCALE_DIR / PSEUDO / "LC_MESSAGES" / f"{DOMAIN}.po"
    target.parent.mkdir(parents=True, exist_ok=True)
    template.revision_date = template.creation_date  # the same template, the same file
    with target.open("wb") as file:
        write_po(file, template, width=0, omit_header=False, include_lineno=False)
