"""The core's sentences said at the edge: ``words.say`` and ``words.localize``."""

from __future__ import annotations

import pytest

import words
from referee.core.said import said, said_n


@pytest.fixture
def spanish():
    token = words.use("es")
    yield
    words.reset(token)


def test_english_is_the_sentence_itself() -> None:
    text = said("the match is already over")
    assert words.say(text) is text
    report = {"violations": [{"message": text}]}
    assert words.localize(report) is report  # English: nothing walked, nothing copied


def test_a_sentence_and_the_sentences_inside_it_are_translated(spanish) -> None:
    player = said("%(player)s (seat %(seat)s)", player="Lucía", seat=2)
    text = said("%(player)s does not hold %(tile)s", player=player, tile="6-5")
    assert words.say(text) == "Lucía (asiento 2) no tiene 6-5"


def test_plurals_follow_the_language(spanish) -> None:
    one = said_n("%(player)s drew %(num)s tile afterwards", "%(player)s drew %(num)s tiles afterwards",
                 1, player="Ana")
    two = said_n("%(player)s drew %(num)s tile afterwards", "%(player)s drew %(num)s tiles afterwards",
                 2, player="Ana")
    assert (words.say(one), words.say(two)) == ("Ana robó 1 ficha después", "Ana robó 2 fichas después")


def test_localize_walks_a_report_and_leaves_codes_and_names_alone(spanish) -> None:
    report = {"violations": [{"code": "renege", "message": said("the boneyard is empty"),
                              "evidence": ({"seq": 3, "fact": said("the boneyard is empty")},)}],
              "players": ["Ana"]}
    out = words.localize(report)
    assert out["violations"][0]["message"] == "el pozo está vacío"
    assert out["violations"][0]["evidence"][0]["fact"] == "el pozo está vacío"
    assert out["violations"][0]["code"] == "renege" and out["players"] == ["Ana"]


def test_a_service_error_passing_a_core_sentence_on_says_it_too(spanish) -> None:
    class Refused(Exception):
        msgid = "refused (%(code)s): %(why)s"
        params = {"code": "no_match", "why": said("the boneyard is empty")}

    assert "el pozo está vacío" in words.message(Refused())


def test_every_core_sentence_is_wrapped_in_the_pseudo_locale(monkeypatch) -> None:
    monkeypatch.setenv(words.PSEUDO_SWITCH, "1")
    token = words.use(words.PSEUDO)
    try:
        text = words.say(said("%(tile)s is in a hand, not in the boneyard", tile="6-5"))
    finally:
        words.reset(token)
    assert text.startswith(words.MARKS[0]) and text.endswith(words.MARKS[1]) and "6-5" in text
