"""The pairing's reasons as people read them: seats and sides counted from 1, and a round
stored before they were (its reasons kept as the templates they were made of) said in today's
words, in every language."""

from __future__ import annotations

import words
from referee.core.said import packed, said
from referee.service.phrases import unpack

OLD = ("seats: %(name)s on side 0 (seats 0 and 2): side 0 less side 1 held so far is "
       "%(leads)s for both, so the better placed has it")


def test_a_round_stored_with_seats_from_zero_is_said_from_one() -> None:
    stored = packed(said(OLD, name="Ana & Beto", leads="+1"))
    reason = unpack(stored)
    assert reason == ("seats: Ana & Beto on side 1 (seats 1 and 3): side 1 less side 2 held so "
                      "far is +1 for both, so the better placed has it")
    token = words.use("es")
    try:
        assert words.say(reason).startswith("asientos: Ana & Beto en la pareja 1 (asientos 1 y 3)")
    finally:
        words.reset(token)
    plain = "an old round's reason, stored as plain English"
    assert unpack(plain) == plain
