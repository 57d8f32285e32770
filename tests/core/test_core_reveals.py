"""What a reveal establishes holds (closed recording, the settled points): an accepted pips total
binds later reveals of the same hand, and follows the hand through plays of known tiles and
draws in sight, until an unseen tile comes or goes."""

from __future__ import annotations

import random

from core_helpers import deal, draw, judge, play, reveal

from referee.core.log import make_log
from referee.core.match import Match
from referee.core.rules import SCORE_LIMIT
from referee.core.simulate import random_match

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


def test_the_pips_in_hands_are_every_seats_once_all_are_known() -> None:
    """Match.pips_in_hands (what a round's scoring reads, after every reveal of a closed round)
    is each seat's pips_left once none is None, else None, whatever order the reveals come in."""
    rng = random.Random(36)
    tables = [("parejas", 4), ("veracruz", 3), ("all-fives", 4), ("mano-a-mano", 2),
              ("fives-and-threes", 3)]
    checked = 0
    for i in range(30):
        preset, seats = tables[i % len(tables)]
        header, events = random_match(preset, [f"P{s}" for s in range(seats)], rng,
                                      hidden=range(i % seats, seats))
        events = _reveals_shuffled(list(events), rng)
        log = make_log(header, events)
        match = Match(log.header.rules, log.header.players)
        for event in events:
            match.push(event)
            left = [match.pips_left(seat) for seat in range(seats)]
            assert match.pips_in_hands() == (None if None in left else left)
            checked += None in left
    assert checked  # some moments had a hand not known yet


def _reveals_shuffled(events: list, rng: random.Random) -> list:
    """The events with each run of reveals (a closed round's end) in a random order."""
    at = 0
    while at < len(events):
        end = at
        while end < len(events) and events[end].get("type") == "reveal":
            end += 1
        if end > at:
            run = events[at:end]
            rng.shuffle(run)
            events[at:end] = run
        at = end + 1
    return events


def test_a_tile_named_twice_in_a_reveal_counts_once() -> None:
    """The sentence counted the names given: a 3-tile hand shown as 6-5, 6-5 and 5-5 read
    "shows 3 distinct tiles but the seat holds 3" (found by fuzzing logs)."""
    result = judge([*LED, reveal(1, tiles="6-5 6-5 5-5")], SPEC)
    assert [(v.seq, v.code) for v in result.violations] == [(3, "reveal_mismatch")]
    assert result.violations[0].message == "Beto's reveal shows 2 distinct tiles but the seat holds 3"


def test_a_pips_reveal_past_a_score_s_limit_is_unreadable() -> None:
    """The design holds a pips reveal to its known tiles alone (docs/readings.md); a number past
    any score's limit is an unreadable event, not a reveal (a total of thousands of digits was a
    traceback of validate)."""
    assert codes_after(reveal(1, pips=1000)) == []  # the design's letter: no upper bound guessed
    assert codes_after(reveal(1, pips=SCORE_LIMIT + 1)) == [(3, "bad_event")]
    assert codes_after(reveal(1, pips=10**4000)) == [(3, "bad_event")]
