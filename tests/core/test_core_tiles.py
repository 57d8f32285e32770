"""Tiles and sets: double-six, -nine and -twelve; parsing tile strings; pips; the heaviest tile."""

import pytest

from referee.core.tiles import TileSet, iter_bits, tile_set


@pytest.mark.parametrize("max_pip, size", [(6, 28), (9, 55), (12, 91)])
def test_set_sizes(max_pip, size):
    ts = tile_set(max_pip)
    assert ts.size == size
    assert len(set(ts.names)) == size
    assert ts.all_mask == (1 << size) - 1
    # every pip value is borne by max_pip + 1 tiles
    assert all(bin(m).count("1") == max_pip + 1 for m in ts.pip_mask)


def test_tile_set_is_cached():
    assert tile_set(9) is tile_set(9)
    assert isinstance(tile_set(6), TileSet)


@pytest.mark.parametrize("text", ["6-5", "5-6"])
def test_both_orders_name_one_tile(text):
    ts = tile_set(6)
    index = ts.parse(text)
    assert index is not None and ts.names[index] == "6-5"
    assert ts.pips[index] == 11


@pytest.mark.parametrize("max_pip, text", [
    (6, "7-0"), (6, "6-7"), (9, "10-1"), (12, "13-0"), (6, "6"), (6, "6-5-4"), (6, "a-b"),
    (6, "-1-5"), (6, " 6-5"), (6, "6-5 "), (6, "٦-٥"), (6, ""), (6, "6_5"),
])
def test_strings_that_name_no_tile(max_pip, text):
    assert tile_set(max_pip).parse(text) is None


@pytest.mark.parametrize("max_pip, text, name", [
    (9, "9-9", "9-9"), (9, "0-9", "9-0"), (12, "12-11", "12-11"), (12, "3-10", "10-3"),
    (6, "06-5", "6-5"),  # ASCII digits, a leading zero is still the pip 6
])
def test_bigger_sets_and_leading_zeros(max_pip, text, name):
    ts = tile_set(max_pip)
    assert ts.names[ts.parse(text)] == name


def test_halves_keep_the_order_written():
    ts = tile_set(6)
    assert ts.halves("5-6") == (5, 6)
    assert ts.halves("6-5") == (6, 5)


def test_mask_helpers():
    ts = tile_set(6)
    mask = (1 << ts.parse("6-6")) | (1 << ts.parse("1-0"))
    assert ts.mask_pips(mask) == 13  # a double counts both halves
    assert sorted(ts.mask_names(mask)) == ["1-0", "6-6"]
    assert sorted(iter_bits(mask)) == sorted([ts.parse("6-6"), ts.parse("1-0")])


def _mask(ts, *names):
    return sum(1 << ts.parse(n) for n in names)


@pytest.mark.parametrize("tiles, heaviest", [
    (["6-6", "5-5", "6-5"], "6-6"),
    (["1-1", "6-5", "6-4"], "1-1"),      # any double beats any other tile
    (["6-3", "5-4"], "6-3"),             # equal pips: the higher top pip wins
    (["5-4", "6-2", "4-3"], "5-4"),      # most pips first
    (["0-0", "2-2"], "2-2"),
])
def test_heaviest(tiles, heaviest):
    ts = tile_set(6)
    assert ts.names[ts.heaviest(_mask(ts, *tiles))] == heaviest


def test_heaviest_of_nothing_and_big_sets():
    assert tile_set(6).heaviest(0) is None
    ts = tile_set(12)
    assert ts.names[ts.heaviest(_mask(ts, "12-11", "9-9", "12-12"))] == "12-12"
