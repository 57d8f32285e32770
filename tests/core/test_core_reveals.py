"""What a reveal establishes holds (closed recording, the settled points): an accepted pips total
binds later reveals of the same hand, and follows the hand through plays of known tiles and
draws in sight, until an unseen tile comes or goes."""

from __future__ import annotations

from core_helpers import deal, draw, judge, play, reveal

SPEC = {"preset": "mano-a-mano", "hand_size": 3}  # until_playable, 22 tiles in the boneyard
LED = [deal(None, None), play(0, "6-6")]  # seat 1 (closed, 3 tiles) is on turn


def codes_after(*events: dict) -> list[tuple[int, str]]:
    return [(v.seq, v.code) for v in judge([*LED, *events], SPEC).violations]


def test_a_second_pips_reveal_must_agree() -> None:
    assert codes_after(reveal(1, pips=10), reveal(1, pips=10)) == []
    assert codes_after(reveal(1, pips=10), reveal(1, pips=11)) == [(4, "reveal_mismatch")]


def test_a_tiles_reveal_must_sum_to_the_pips_revealed() -> None:
    assert codes_after(reveal(1, pips=10), reveal(1, tiles="5-4 1-0 0-0")) == []
    assert codes_after(reveal(1, pips=10), reveal(1, tiles="5-5 1-0 0-0")) == [(4, "reveal_mismatch")]


def test_a_draw_in_sight_adds_its_pips_and_keeps_the_total() -> None:
    drew = [reveal(1, pips=10), draw(1, "2-1")]
    assert codes_after(*drew, reveal(1, pips=13)) == []
    assert codes_after(*drew, reveal(1, pips=10)) == [(5, "reveal_mismatch")]


def test_an_unseen_draw_makes_the_total_unknown_again() -> None:
    assert codes_after(reveal(1, pips=10), draw(1), reveal(1, pips=25)) == []


def test_a_play_of_a_known_tile_keeps_the_total_of_the_rest() -> None:
    known = [reveal(1, pips=10), draw(1, "6-1"), play(1, "6-1")]
    assert codes_after(*known, reveal(1, pips=10)) == []
    assert codes_after(*known, reveal(1, pips=11)) == [(6, "reveal_mismatch")]


def test_a_play_of_an_unseen_tile_makes_it_unknown() -> None:
    assert codes_after(reveal(1, pips=10), play(1, "6-3"), reveal(1, pips=2)) == []


def test_the_total_belongs_to_its_round() -> None:
    result = judge([*LED, reveal(1, pips=10)], SPEC)
    assert result.match.pips_left(1) == 10
