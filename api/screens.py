"""A match screen as the API answers it (``GET /matches/{id}``, and an append's ``screen``):
its codes and numbers, and ``said``, what it says in words in the request's language
(``Accept-Language``): the phase line, each round's result, the entry the undo takes back and
each open dispute's foul, from words.events, so that no page (the phone's) works a sentence out.
"""

from __future__ import annotations

from typing import Any

from referee.service import Screen
from words.events import screen_words
from words.terms import term


def screen_json(screen: Screen) -> dict[str, Any]:
    shown = screen.as_dict()
    said = screen_words(shown, screen.undo_event)
    said["disputes"] = [term("violation", d["code"]) for d in shown["disputes"]]
    return {**shown, "said": said}
