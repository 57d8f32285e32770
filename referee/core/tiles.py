"""Tiles and sets: a tile is an index into its set, a hand is a bit mask of indexes.

Integers keep the replay fast: a hand is one ``int``, "does this seat hold a tile
that fits" is one ``&``.
"""

from __future__ import annotations

import re
from functools import cache
from sys import intern
from typing import Any, Iterator

_TILE_TEXT = re.compile(r"([0-9]+)-([0-9]+)")


class TileSet:
    """The double-``max_pip`` set: every pair ``a-b`` with ``0 <= b <= a <= max_pip``."""

    __slots__ = ("max_pip", "size", "high", "low", "pips", "names", "pip_mask", "double",
                 "all_mask", "by_text", "bit_of", "parts", "written")

    def __init__(self, max_pip: int) -> None:
        self.max_pip = max_pip
        self.high: list[int] = []
        self.low: list[int] = []
        for a in range(max_pip + 1):
            for b in range(a + 1):
                self.high.append(a)
                self.low.append(b)
        self.size = len(self.high)
        self.pips = [a + b for a, b in zip(self.high, self.low)]
        self.names = [f"{a}-{b}" for a, b in zip(self.high, self.low)]
        self.pip_mask = [0] * (max_pip + 1)
        for i, (a, b) in enumerate(zip(self.high, self.low)):
            self.pip_mask[a] |= 1 << i
            self.pip_mask[b] |= 1 << i
        self.double = [self.index_of(v, v) for v in range(max_pip + 1)]
        self.all_mask = (1 << self.size) - 1
        self.by_text: dict[str, int] = {}
        self.written: dict[str, tuple[int, int]] = {}  # text -> its pips as written (halves)
        # The texts interned, as the log reader interns a kept line's strings: a tile's text
        # in an event is then the very key object here, found by identity
        for i, (a, b) in enumerate(zip(self.high, self.low)):
            ab, ba = intern(f"{a}-{b}"), intern(f"{b}-{a}")
            self.by_text[ab] = self.by_text[ba] = i
            self.written[ab] = (a, b)
            self.written[ba] = (b, a)
        # For the replay's hot paths, keyed by the same texts: a tile's bit (a deal adds up a
        # hand in one go), and for a play (one lookup for all) its index, bit, high pip, low
        # pip, both pips, and where it goes: what placement() says of a play that names no end,
        # for every pair of open ends (at left * (max_pip + 1) + right), "L" or "R", or None
        # where it goes nowhere without a word.
        self.bit_of = {text: 1 << i for text, i in self.by_text.items()}
        ends = range(max_pip + 1)
        where = [tuple(side if (side := placement(a, b, left, right, None)) in ("L", "R") else None
                       for left in ends for right in ends)
                 for a, b in zip(self.high, self.low)]
        self.parts = {text: (i, 1 << i, self.high[i], self.low[i], self.pips[i], where[i])
                      for text, i in self.by_text.items()}

    @staticmethod
    def index_of(a: int, b: int) -> int:
        if a < b:
            a, b = b, a
        return a * (a + 1) // 2 + b

    def parse(self, text: str) -> int | None:
        """The tile a string names (``"6-5"`` and ``"5-6"`` alike), or None if it names none."""
        index = self.by_text.get(text)
        if index is not None:
            return index
        match = _TILE_TEXT.fullmatch(text)
        if match is None:
            return None
        a, b = _pip(match[1]), _pip(match[2])
        if a > self.max_pip or b > self.max_pip:
            return None
        return self.index_of(a, b)

    def halves(self, text: str) -> tuple[int, int]:
        """The two pips of a tile string as written (left, right); the string must parse."""
        pips = self.written.get(text)
        if pips is not None:
            return pips
        match = _TILE_TEXT.fullmatch(text)
        assert match is not None
        return _pip(match[1]), _pip(match[2])

    def mask_pips(self, mask: int) -> int:
        pips, total = self.pips, 0
        while mask:  # iter_bits, without a generator: every round's scoring comes here
            low = mask & -mask
            total += pips[low.bit_length() - 1]
            mask ^= low
        return total

    def mask_names(self, mask: int) -> list[str]:
        names, found = self.names, []
        while mask:  # iter_bits, without a generator: every suspicion names its tiles
            low = mask & -mask
            found.append(names[low.bit_length() - 1])
            mask ^= low
        return found

    def heaviest(self, mask: int) -> int | None:
        """The tile a round-1 rule names in ``mask``: the highest double, else the heaviest tile
        (most pips; equal pips go to the higher top pip: 6-3 beats 5-4)."""
        for v in range(self.max_pip, -1, -1):
            if mask >> self.double[v] & 1:
                return self.double[v]
        best = None
        for i in iter_bits(mask):
            if best is None or (self.pips[i], self.high[i]) > (self.pips[best], self.high[best]):
                best = i
        return best


def placement(high: int, low: int, left: int, right: int, end: Any) -> str:
    """Where a tile of pips ``high`` and ``low`` goes on a line whose open ends show ``left``
    and ``right``, as a play's ``end`` names it (None, "left", "right" or a pip): "L" or "R",
    or why it goes nowhere: "ambiguous_end" (it fits both ends, they differ and no end is
    named) or "no_match". With both ends alike and no end named, it goes on the right."""
    fits_left = high == left or low == left
    fits_right = high == right or low == right
    if end is None:
        if fits_right:
            return "R" if left == right or not fits_left else "ambiguous_end"
        return "L" if fits_left else "no_match"
    if end == "left":
        return "L" if fits_left else "no_match"
    if end == "right":
        return "R" if fits_right else "no_match"
    if end == right and fits_right:  # a pip
        return "R"
    if end == left and fits_left:
        return "L"
    return "no_match"


def _pip(digits: str) -> int:
    """The pip an ASCII digit string names. Leading zeros are dropped first, and more than three
    digits left name more pips than any set has: int() of thousands of digits would raise."""
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= 3 else 1000


def iter_bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@cache
def tile_set(max_pip: int) -> TileSet:
    return TileSet(max_pip)
