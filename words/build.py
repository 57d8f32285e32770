"""Bring the catalogs up to date with the code (a developer's tool; docs/i18n.md):

    python -m words.build          # extract, update es and it, remake the pseudo-locale, compile

1. extract every message of the sources named in babel.cfg into ``words/locale/domino.pot``;
2. merge it into ``es`` and ``it``'s ``.po`` (new messages arrive empty, for a translator; none
   is guessed fuzzily from another);
3. make the pseudo-locale's ``.po`` from the template (:mod:`words.pseudo`);
4. compile every ``.po`` to the ``.mo`` the code reads (committed: a fresh install has them).

``tests/words/test_catalogs.py`` fails while any step is due, or a message is not translated.
"""

from __future__ import annotations

import sys

from . import DOMAIN, LANGUAGES, LOCALE_DIR, PSEUDO

ROOT = LOCALE_DIR.parents[1]
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
# The keywords of babel.cfg's Python sources besides gettext's own: N_ marks a msgid, the rules
# core's said()/said_n() make a sentence from one, and the service's errors take theirs first.
KEYWORDS = ("N_", "N_plural:1,2", "said", "said_n:1,2", "NotFound", "Invalid", "Forbidden", "Unauthorized", "Duplicate",
            "NotFinished", "IdempotencyMismatch", "ServiceError",
            # the service's other errors whose first argument is their msgid
            "RoundRefused", "Busy", "RecordBroken", "TreeBroken", "ActaPending",
            "SigningKeyError", "NoSigningKey",
            # the league engine's (referee/service/leagues/errors.py)
            "LeagueError")


def pybabel(*args: str) -> None:
    """``pybabel ARGS`` from the repository's root (babel.cfg's paths, the .pot's locations)."""
    import os

    from babel.messages.frontend import CommandLineInterface

    here = os.getcwd()
    os.chdir(ROOT)
    try:
        CommandLineInterface().run(["pybabel", "-q", *args])
    finally:
        os.chdir(here)


def extract() -> None:
    keywords = [arg for word in KEYWORDS for arg in ("-k", word)]
    pybabel("extract", "-F", str(ROOT / "babel.cfg"), *keywords, "--add-location=file",
            "--sort-by-file", "--no-wrap", "--project=domino-referee",
            "--copyright-holder=domino-referee", "-o", str(TEMPLATE), ".")


def update() -> None:
    for lang in LANGUAGES[1:]:
        po = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
        command = "update" if po.exists() else "init"
        extra = ["--no-fuzzy-matching", "--ignore-obsolete", "--no-wrap"] if po.exists() else ["--no-wrap"]
        pybabel(command, "-i", str(TEMPLATE), "-d", str(LOCALE_DIR), "-D", DOMAIN, "-l", lang, *extra)


def compile_all() -> None:
    for lang in (*LANGUAGES[1:], PSEUDO):
        pybabel("compile", "-d", str(LOCALE_DIR), "-D", DOMAIN, "-l", lang)


def main(argv: list[str]) -> int:
    from .pseudo import write_pseudo

    known = {"extract": extract, "update": update, "pseudo": write_pseudo, "compile": compile_all}
    unknown = [step for step in argv if step not in known]
    if unknown:  # said before any step runs: a half-built catalog helps no one
        print(f"python -m words.build: no step {', '.join(map(repr, unknown))}; "
              f"the steps are {', '.join(known)} (none: all four, in that order)", file=sys.stderr)
        return 2
    for step in argv or known:
        known[step]()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
