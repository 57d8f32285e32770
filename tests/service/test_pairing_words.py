"""The pairing's reasons as people read them: seats and sides counted from 1, the sides called
partnerships as the tables head them, and a round stored before they were (its reasons kept as
the templates they were made of) said in today's words, in every language."""

from __future__ import annotations

import pytest

import words
from referee.core.said import packed, said
from referee.service.phrases import unpack
from words.events import TOURNAMENT_TABLE, side_word

OLD = ("seats: %(name)s on side 0 (seats 0 and 2): side 0 less side 1 held so far is "
       "%(leads)s for both, so the better placed has it")


def test_a_round_stored_with_seats_from_zero_is_said_from_one() -> None:
    stored = packed(said(OLD, name="Ana & Beto", leads="+1"))
    reason = unpack(stored)
    assert reason == ("seats: Ana & Beto as partnership 1 (seats 1 and 3): times as partnership 1 "
                      "less times as partnership 2 so far is +1 for both, so the better placed "
                      "has it")
    token = words.use("es")
    try:
        assert words.say(reason).startswith("asientos: Ana & Beto como pareja 1 (asientos 1 y 3)")
    finally:
        words.reset(token)
    plain = "an old round's reason, stored as plain English"
    assert unpack(plain) == plain


# The words of 7 December's rounds, before the reasons said "partnership" as the tables do.
SIDES = ("seats: %(name)s on side 1 (seats 1 and 3): side 1 less side 2 held so far is %(leads)s "
         "for them, %(trails)s for the other side")


@pytest.mark.parametrize("lang", ["en", "es", "it"])
def test_the_seats_name_the_partnership_as_the_tables_head_it(lang: str) -> None:
    reason = unpack(packed(said(SIDES, name="Mara & Nico", leads="+0", trails="+1")))
    token = words.use(lang)
    try:
        heading = side_word(TOURNAMENT_TABLE, number=1)
        other = side_word(TOURNAMENT_TABLE, number=2)
        text = words.say(reason)
    finally:
        words.reset(token)
    # "Partnership 1" / "Pareja 1" / "Coppia 1", as the column reads, in the reason's own case
    assert heading.lower() in text.lower() and other.lower() in text.lower()
    assert "side" not in text and "equipo" not in text.lower() and "squadra" not in text.lower()
    assert "+0" in text and "+1" in text
