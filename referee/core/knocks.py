"""The points family's players knock (docs/glossary.md): what hindsight found, said in their
words. Hindsight (``hindsight.py``) words a pass as a pass, whatever the game; under rules that
score during play (``scoring: ends``) :func:`in_their_words` rewords its findings' sentences,
and the findings' values that are sentences, as knocks ("Beto knocked with the ends at 6 and
6"). The move judges (``moves.py``) choose their own knock sentences as they judge. Standard
library only."""

from __future__ import annotations

from typing import Any, Callable

from .events import Violation
from .hindsight import Findings
from .said import Said, said, said_n


def _holding(values: dict[str, Any]) -> Said:
    return said("%(player)s knocked holding a tile that fits %(ends)s, as its plays and reveals "
                "up to event %(seq)s prove", **values)


def _open_ends(values: dict[str, Any]) -> Said:
    return said("%(player)s knocked with the open ends at %(ends)s", **values)


def _ends(values: dict[str, Any]) -> Said:
    return said("%(player)s knocked with the ends at %(left)s and %(right)s", **values)


# hindsight's sentences of a pass -> the same said as a knock, from the same values
KNOCKED: dict[str, Callable[[dict[str, Any]], Said]] = {
    "%(player)s passed holding a tile that fits %(ends)s, as its plays and reveals up to event "
    "%(seq)s prove": _holding,
    "%(player)s passed with the open ends at %(ends)s": _open_ends,
    "%(player)s passed with the ends at %(left)s and %(right)s": _ends,
}


def knocked(text: Any, memo: dict[int, Any] | None = None) -> Any:
    """``text`` (a sentence of the core, or anything else) with every pass in it said as a
    knock; the same object where nothing changes. ``memo``: the sentences said so far, by
    identity (hindsight gives one sentence object to many findings), for one call's lifetime."""
    if not isinstance(text, Said):
        return text
    if memo is not None and id(text) in memo:
        return memo[id(text)]
    values = {name: knocked(value, memo) for name, value in text.values.items()}
    make = KNOCKED.get(text.template)
    if make is not None:
        made = make(values)
    elif all(values[name] is text.values[name] for name in values):
        made = text
    elif text.plural is not None and text.n is not None:
        made = said_n(text.template, text.plural, text.n, **values)
    else:
        made = said(text.template, **values)
    if memo is not None:
        memo[id(text)] = made
    return made


def in_their_words(rules: Any, found: Findings) -> Findings:
    """``found`` said in the game's words: under rules that score during play, a pass is a
    knock; under any other, ``found`` itself."""
    if rules.scoring != "ends" or not (found.proven or found.suspicions):
        return found
    memo: dict[int, Any] = {}  # keyed by id: every sentence is held by ``found`` meanwhile

    def reworded(v: Violation) -> Violation:
        return v._replace(message=knocked(v.message, memo), evidence=tuple(
            {**fact, "fact": knocked(fact["fact"], memo)} for fact in v.evidence))

    return Findings(tuple(map(reworded, found.proven)), tuple(map(reworded, found.suspicions)))
