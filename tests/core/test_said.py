"""The core's sentences: English text that remembers its template and values (no catalog here)."""

from __future__ import annotations

import json

from referee.core import Match, resolve_rules
from referee.core.said import Said, packed, said, said_n, unpacked


def test_a_sentence_is_its_english_text_and_remembers_how_it_was_made() -> None:
    text = said("%(player)s does not hold %(tile)s", player="Ana", tile="6-5")
    assert text == "Ana does not hold 6-5" and isinstance(text, str)
    assert text.template == "%(player)s does not hold %(tile)s"
    assert text.values == {"player": "Ana", "tile": "6-5"}
    assert json.dumps({"message": text}) == '{"message": "Ana does not hold 6-5"}'


def test_a_plural_takes_the_form_for_its_count() -> None:
    one = said_n("%(num)s tile", "%(num)s tiles", 1)
    many = said_n("%(num)s tile", "%(num)s tiles", 3)
    assert (one, many) == ("1 tile", "3 tiles")
    assert many.plural == "%(num)s tiles" and many.n == 3 and many.values["num"] == 3


def test_a_violation_carries_its_code_and_a_sentence_made_of_values() -> None:
    match = Match(resolve_rules("mano-a-mano", 2), ("Ana", "Beto"))
    match.push({"type": "deal", "hands": [["6-6", "6-5", "5-5", "4-4", "3-3", "2-2", "1-1"],
                                         ["0-0", "1-0", "2-0", "3-0", "4-0", "5-0", "6-0"]]})
    found = match.push({"type": "play", "seat": 0, "tile": "0-0"})
    assert found is not None and found.code == "not_in_hand"
    assert isinstance(found.message, Said)
    assert found.message == "Ana does not hold 0-0"
    assert found.message.values["player"] == "Ana"


def test_a_seat_is_named_by_its_player_and_by_number_from_1_only_between_namesakes() -> None:
    match = Match(resolve_rules("parejas", 4), ("Ana", "Beto", "Ana", "Dani"))
    assert [match.name(s) for s in range(4)] == ["Ana (seat 1)", "Beto", "Ana (seat 3)", "Dani"]
    namesake = match.name(2)
    assert isinstance(namesake, Said) and namesake.values == {"player": "Ana", "seat": 3}


def test_a_namesakes_violation_counts_seats_from_1_and_its_log_seat_from_0() -> None:
    match = Match(resolve_rules("parejas", 4), ("Ana", "Beto", "Ana", "Dani"))
    match.push({"type": "deal", "hands": [
        ["6-6", "6-5", "5-5", "4-4", "3-3", "2-2", "1-1"], ["6-4", "6-3", "6-2", "6-1", "6-0", "5-4", "5-3"],
        ["5-2", "5-1", "5-0", "4-3", "4-2", "4-1", "4-0"], ["3-2", "3-1", "3-0", "2-1", "2-0", "1-0", "0-0"]]})
    found = match.push({"type": "play", "seat": 2, "tile": "6-6"})
    assert found is not None and found.seat == 2
    assert "Ana (seat 3)" in found.message and "(seat 2)" not in found.message


def test_a_sentence_packed_for_storage_comes_back_whole() -> None:
    inner = said_n("%(num)s tile", "%(num)s tiles", 2)
    text = said("%(player)s drew %(what)s", player="Ana", what=inner)
    stored = json.loads(json.dumps(packed(text)))
    again = unpacked(stored)
    assert again == text and again.template == text.template
    assert again.values["what"].plural == "%(num)s tiles" and again.values["what"].n == 2
    assert unpacked("a reason stored as plain text") == "a reason stored as plain text"
    assert packed("plain") == "plain"
