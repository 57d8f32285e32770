"""The points family's players knock (docs/glossary.md): hindsight's sentences of a pass, said
in their words. Hindsight (``hindsight.py``) says a pass through :func:`words_of_a_pass`:
``said`` itself whatever the game, but under rules that score during play (``scoring: ends``)
:func:`said_as_knock`, the same values in a knock's sentence ("Beto knocked with the ends at 6
and 6"); a finding that nests the sentence (a suspicion's fact) holds the knock. The move
judges (``moves.py``) choose their own knock sentences as they judge. Standard library only."""

from __future__ import annotations

from typing import Any, Callable

from .said import Said, said


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


def said_as_knock(template: str, /, **values: Any) -> Said:
    """Hindsight's sentence of a pass (``template``, one of KNOCKED's) said as a knock."""
    return KNOCKED[template](values)


def words_of_a_pass(rules: Any) -> Callable[..., Said]:
    """How hindsight says a pass under ``rules`` (a template of KNOCKED and its values): as a
    knock where they score during play; else as a pass (``said``). Said so in the first
    place, rather than reworded afterwards: rewording every finding of a closed recording
    cost the points family some 2,000 instructions an event validated."""
    return said_as_knock if rules.scoring == "ends" else said
