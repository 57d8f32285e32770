"""The layout (referee.core.layout): the table's open ends as an immutable value, a new one
after each play, that knows each end's outer tile (a double lying crosswise, a lone lead)."""

from __future__ import annotations

import random

import pytest
from core_helpers import BASE, NAMES, judge, play
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.core.layout import EMPTY, Layout
from referee.core.match import Match
from referee.core.rules import resolve_rules
from referee.core.simulate import random_match
from referee.core.tiles import tile_set

TILES = tile_set(6)
T = TILES.by_text


def test_a_lead_and_two_plays_as_values():
    lead = EMPTY.lead(T["6-6"], (6, 6))
    assert (lead.ends, lead.crosswise(TILES)) == ((6, 6), (True, True))
    assert lead.left_tile == lead.right_tile == T["6-6"]  # the lead alone
    right = lead.placed("R", T["6-4"], 10)
    assert (right.ends, right.crosswise(TILES)) == ((6, 4), (True, False))
    left = right.placed("L", T["6-2"], 8)
    assert (left.ends, left.crosswise(TILES)) == ((2, 4), (False, False))
    assert lead.ends == (6, 6)  # values: laying a tile made new ones
    with pytest.raises(AttributeError):
        lead.left = 5  # type: ignore[misc]


def test_what_fits_and_what_blocks():
    assert EMPTY.ends == () and EMPTY.fitting(TILES) == TILES.all_mask
    layout = Layout(3, 3, T["3-1"], T["3-2"])
    assert layout.fitting(TILES) == TILES.pip_mask[3]
    assert not layout.blocked(0, TILES)
    everything_with_3 = TILES.pip_mask[3]
    assert layout.blocked(everything_with_3, TILES)
    assert not Layout(3, 4, T["3-1"], T["4-2"]).blocked(TILES.all_mask, TILES)
    assert layout.place(TILES.high[T["3-0"]], TILES.low[T["3-0"]], None) == "R"
    assert Layout(3, 4, 0, 0).place(4, 3, None) == "ambiguous_end"


def test_the_match_holds_the_layout():
    match = judge(BASE + [play(1, "4-2", "left")]).match  # BASE: ends 4 and 2
    layout = match.layout
    assert (layout.left, layout.right, layout.left_tile, layout.right_tile) == (
        2, 2, T["4-2"], T["6-2"])
    assert (match.left, match.right) == (2, 2)


def _outer_tiles(match: Match) -> tuple[int | None, int | None]:
    """The tiles at the line's two ends, read from the round's trail."""
    left = right = None
    for _, kind, _, tile, side in match.round.trail if match.round else ():
        if kind != "play":
            continue
        if side == "L":
            left = tile
        elif side == "R":
            right = tile
        else:
            left = right = tile
    return left, right


@pytest.mark.parametrize("spec, players", [("mano-a-mano", 2), ("parejas", 4), ("veracruz", 3)])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_the_layout_agrees_with_the_line_after_every_event(spec, players, seed):
    names = NAMES[:players]
    _, events = random_match(spec, names, random.Random(seed), max_rounds=4)
    match = Match(resolve_rules(spec, players), names)
    for event in events:
        match.push(event)
        placed = match.placed
        ends = None
        if placed:  # the last tile laid at each end shows the pip that is open there
            ends = (next(p[1] for p in reversed(placed) if p[0] in ("L", "lead")),
                    next(p[2] for p in reversed(placed) if p[0] in ("R", "lead")))
        assert (match.layout.ends or None) == ends
        assert (match.layout.left_tile, match.layout.right_tile) == _outer_tiles(match)
