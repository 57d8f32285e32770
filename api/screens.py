"""A match screen as the API answers it (``GET /matches/{id}``, and an append's ``screen``):
its codes and numbers, and ``said``, what it says in words in the request's language
(``Accept-Language``): the phase line, each round's result, the entry the undo takes back and
each open dispute's foul, from words.events, so that no page (the phone's) works a sentence out.
With the open ends counted (the points family's rules), ``said.scored`` says each round's scoring plays
as the table hears them ("15 — 8 points", "bust: 62 is past 61"), in the order of its
``scored``.
"""

from __future__ import annotations

from typing import Any

from referee.service import Screen
from words import gettext, ngettext
from words.events import screen_words
from words.terms import term


def scored_words(play: dict[str, Any], target: int) -> str:
    """A scoring play in words: its count and what it scored, or its bust and what total it
    would have made (``total``, where the screen has it)."""
    if play.get("bust"):
        if "total" in play:
            return gettext("bust: %(total)s is past %(target)s", total=play["total"], target=target)
        return gettext("bust: past %(target)s", target=target)
    return ngettext("%(count)s — %(num)s point", "%(count)s — %(num)s points", play["points"],
                    count=play["count"])


def screen_json(screen: Screen) -> dict[str, Any]:
    shown = screen.as_dict()
    told = screen_words(shown, screen.undo_event)
    told["disputes"] = [term("violation", d["code"]) for d in shown["disputes"]]
    if shown["rules"].get("scoring") == "ends":  # the points family's rules only
        target = shown["rules"]["target"]
        told["scored"] = [[scored_words(play, target) for play in r["scored"]] if "scored" in r
                          else None for r in shown["rounds"]]
    return {**shown, "said": told}
