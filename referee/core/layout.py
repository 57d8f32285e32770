"""The layout: the tiles on the table as their open ends show them, an immutable value.

A new value after every play (the match holds the current one). The line's two ends are
``left`` and ``right``: the pips a tile must match there, and the tile lying outermost at each
(``left_tile``, ``right_tile``: the same tile while the lead lies alone). The outer tile tells a
double lying crosswise (a family that counts the ends counts both its halves) and a lone lead.
A family with a spinner (the first double played off on four sides once both its sides hold a
tile) keeps the spinner's tile in ``spinner`` and its opened arms in ``arms``, each (the pip it
shows, its outer tile); the line's families leave them empty.

Families that lay tiles otherwise subclass it (see docs/core.md): ``place`` says where a tile
goes and ``placed`` lays it; the match reads the open ends only through ``ends``.
"""

from __future__ import annotations

from collections import namedtuple
from typing import Any

from .tiles import TileSet, placement

# Where a placed tile went on the line: "L" or "R" (a family with arms adds its own).
LEFT, RIGHT = "L", "R"


# A named tuple, not a Record: a layout is made after every play the slow path applies, and a
# tuple is made in a third of the time (its fields read as fast as a slot's).
_Fields = namedtuple("_Fields", ("left", "right", "left_tile", "right_tile", "spinner", "arms"),
                     defaults=(None, None, None, None, None, ()))
_new = tuple.__new__


class Layout(_Fields):
    """The open ends of the tiles on the table (nothing yet: every field None)."""

    __slots__ = ()

    @property
    def started(self) -> bool:
        """Whether the lead is down."""
        return self.left is not None

    @property
    def ends(self) -> tuple[int, ...]:
        """The pips of the open ends, left and right first, then the arms' (none before the
        lead)."""
        if self.left is None:
            return ()
        if not self.arms:
            return (self.left, self.right)  # type: ignore[return-value]
        return (self.left, self.right, *[pip for pip, _ in self.arms])  # type: ignore[return-value]

    def fitting(self, tiles: TileSet) -> int:
        """The mask of tiles that fit an open end (every tile before the lead)."""
        if self.left is None:
            return tiles.all_mask
        pip_mask, mask = tiles.pip_mask, 0
        for pip in self.ends:
            mask |= pip_mask[pip]
        return mask

    def crosswise(self, tiles: TileSet) -> tuple[bool, ...]:
        """For each open end (as ``ends``), whether its outer tile is a double lying crosswise."""
        if self.left is None:
            return ()
        high, low = tiles.high, tiles.low
        outer = (self.left_tile, self.right_tile, *(tile for _, tile in self.arms))
        return tuple(high[tile] == low[tile] for tile in outer)  # type: ignore[index]

    def blocked(self, line: int, tiles: TileSet) -> bool:
        """Whether no tile left can ever be played: every open end shows one pip and every tile
        bearing it is on the line."""
        pip = self.left
        if pip is None or self.right != pip or self.arms and any(end != pip for end, _ in self.arms):
            return False
        mask = tiles.pip_mask[pip]
        return line & mask == mask

    def place(self, high: int, low: int, end: Any) -> str:
        """Where a tile of pips ``high`` and ``low`` goes, as a play's ``end`` names it: a side
        (LEFT or RIGHT), or why it goes nowhere ("ambiguous_end" or "no_match"; see
        tiles.placement)."""
        return placement(high, low, self.left, self.right, end)  # type: ignore[arg-type]

    def lead(self, tile: int, halves: tuple[int, int]) -> Layout:
        """The layout of a lead: the tile alone, lying as written."""
        return _new(type(self), (halves[0], halves[1], tile, tile, None, ()))

    def placed(self, side: str, tile: int, pips: int) -> Layout:
        """The layout after ``tile`` (``pips`` in all) goes on ``side``: its other pip is the
        open end there."""
        left, right, left_tile, right_tile, spinner, arms = self
        if side == RIGHT:
            return _new(type(self), (left, pips - right, left_tile, tile, spinner, arms))
        return _new(type(self), (pips - left, right, tile, right_tile, spinner, arms))


EMPTY = Layout()  # the table before a round's lead
