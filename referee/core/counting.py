"""The points family's layouts: open ends that are counted, and the spinner's arms.

After every play of the points family (docs/rules.md, "Points during play") the open ends are
counted: ``count`` is their sum, a lone lead its pips once, a double lying at an end both its
halves, an arm once a tile lies on it. Where a tile goes is then a matter of what the open ends
become, each end a pip and a kind (a plain end, a double, an arm with no tile yet): a play
names its ``end`` only when the places it fits give different open ends (``place``).

``CountedLine`` is the line of two ends counted so (Fives and Threes, Muggins); ``SpinnerLine``
adds the spinner (All Fives): the first double placed, whose two more arms (``up``, ``down``,
"U" and "D" here) open once both its sides hold a tile, each showing the spinner's pip.
Both are the seam's Layout (referee.core.layout): a named tuple with no new fields.
"""

from __future__ import annotations

from typing import Any

from .layout import LEFT, RIGHT, Layout
from .tiles import TileSet

UP, DOWN = "U", "D"
# The sides a tile may go on, in the order the contract picks among equivalent places: right,
# left, up, down.
ORDER = (RIGHT, LEFT, UP, DOWN)
NAMED = {"right": RIGHT, "left": LEFT, "up": UP, "down": DOWN}
_LINE_ENDS = ("left", "right", "up", "down")  # (a tuple: ``in`` it takes any value)
# A tile's index is the same in every set (a-b at a(a+1)/2 + b, referee.core.tiles): the
# largest set's halves serve every match (worked out here: the largest TileSet itself, with its
# tables for every pair of ends, cost every process that imports the core 5 ms to make).
_MAX_PIP = 12
_HIGH = [a for a in range(_MAX_PIP + 1) for _ in range(a + 1)]
_LOW = [b for a in range(_MAX_PIP + 1) for b in range(a + 1)]
# The kinds of open end (docs/rules.md: "a double and an arm with no tile yet are each their
# own kind").
PLAIN, DOUBLE, EMPTY_ARM = 0, 1, 2

_new = tuple.__new__


# For each tile index, twice its pip when a double (a double at an end counts both halves),
# else 0; and each tile's pips.
DOUBLE_COUNT = [2 * a if a == b else 0 for a, b in zip(_HIGH, _LOW)]
_PIPS = [a + b for a, b in zip(_HIGH, _LOW)]
KIND = [DOUBLE if a == b else PLAIN for a, b in zip(_HIGH, _LOW)]  # each tile's, at an end


def is_double(tile: int) -> bool:
    return _HIGH[tile] == _LOW[tile]


class CountedLine(Layout):
    """The line of two open ends, counted after every play; a double at an end counts both
    halves, and where a tile goes depends on the kinds of end it leaves."""

    __slots__ = ()

    spins = False  # whether the first double becomes a spinner

    # ------------------------------------------------------------------ reading

    def open_ends(self) -> list[tuple[str, int, int]]:
        """Each open end as (side, pip, kind), in the order right, left, up, down."""
        left, right, left_tile, right_tile, spinner, arms = self
        if left is None:
            return []
        found = [(RIGHT, right, KIND[right_tile]), (LEFT, left, KIND[left_tile])]  # type: ignore[index]
        for side, (pip, tile) in zip((UP, DOWN), arms):
            found.append((side, pip, EMPTY_ARM if tile == spinner else KIND[tile]))
        return found  # type: ignore[return-value]

    def signature(self) -> tuple[tuple[int, int], ...]:
        """The open ends as a multiset of (pip, kind): two layouts alike here are the same
        layout as far as play and the count go."""
        return tuple(sorted((pip, kind) for _, pip, kind in self.open_ends()))

    def count(self) -> int:
        """The sum of the open ends: a lone lead its pips once (a double led alone, the
        spinner too, both halves); a double at an end both halves; an arm nothing until a
        tile lies on it, then its outer end (both halves of a double)."""
        left, right, left_tile, right_tile, spinner, arms = self
        if left is None:
            return 0
        if left_tile == right_tile:  # the lead alone
            return _PIPS[left_tile]  # type: ignore[index]
        # (the hot path of every play: open_ends' rule, without building its list)
        total = DOUBLE_COUNT[left_tile] or left  # type: ignore[index]
        total += DOUBLE_COUNT[right_tile] or right  # type: ignore[index]
        for pip, tile in arms:
            if tile != spinner:
                total += DOUBLE_COUNT[tile] or pip
        return total

    # ------------------------------------------------------------------ laying tiles

    def place(self, high: int, low: int, end: Any) -> str:
        """Where a tile goes, as a play's ``end`` names it: a side ("L", "R", "U", "D"), or
        "no_match" (it fits no open end named, or an arm named is not open) or "ambiguous_end"
        (the places it fits give different open ends and ``end`` does not say which). A pip
        names every open end showing it; among places that give the same open ends the first
        of right, left, up, down is taken."""
        left, right, left_tile, right_tile, spinner, arms = self
        if not arms and left is not None and (end is None or type(end) is int
                                              or end in _LINE_ENDS):
            # the common case, a line: its two ends' pips and kinds, no list made
            fits_left, fits_right = left == high or left == low, right == high or right == low
            if type(end) is int:
                if end != high and end != low:
                    return "no_match"
                fits_left, fits_right = fits_left and left == end, fits_right and right == end
            elif end == "left" or end == "right":
                fits_left, fits_right = fits_left and end == "left", fits_right and end == "right"
            elif end is not None:
                return "no_match"  # up or down: no arm is open
            if not fits_left:
                return RIGHT if fits_right else "no_match"
            if not fits_right:
                return LEFT
            # It fits both ends. Ends of different pips: the tile leaves its other pip at
            # either, beside a different pip, so the open ends differ. Ends of one pip: it
            # leaves the same end at either, so they differ only if the kinds of the end kept
            # (a double or not) do, unless the spinner's arms may open (the general way below).
            if left != right:
                return "ambiguous_end"
            if not self.spins or spinner is None and high != low:
                same = is_double(left_tile) is is_double(right_tile)  # type: ignore[arg-type]
                return RIGHT if same else "ambiguous_end"
        elif arms and (end is None or type(end) is int or type(end) is str and end in NAMED) and not (
                high == low and high == _HIGH[spinner]):  # type: ignore[index]
            return self._place_on_four(high, low, end)
        return self.place_by_ends(high, low, end)

    def _place_on_four(self, high: int, low: int, end: int | str | None) -> str:
        """``place`` once the spinner's arms are open (a tile other than the spinner): see
        :func:`place_on_four`."""
        return place_on_four(*self, high, low, end)

    def place_by_ends(self, high: int, low: int, end: Any) -> str:
        """``place`` the general way, every open end listed and the layouts each place gives
        compared (``place`` answers a line's cases without them: tests/core/test_core_points.py
        holds the two to the same answers)."""
        ends = self.open_ends()
        if end is None:
            places = [side for side, pip, _ in ends if pip == high or pip == low]
        elif type(end) is int:
            places = [side for side, pip, _ in ends if pip == end and end in (high, low)]
        else:
            side = NAMED.get(end)
            places = [s for s, pip, _ in ends if s == side and pip in (high, low)]
        if not places:
            return "no_match"
        if len(places) > 1:
            tile, pips = TileSet.index_of(high, low), high + low
            first = self.placed(places[0], tile, pips).signature()
            for side in places[1:]:
                if self.placed(side, tile, pips).signature() != first:
                    return "ambiguous_end"
        return places[0]

    def lead(self, tile: int, halves: tuple[int, int]) -> CountedLine:
        spinner = tile if self.spins and halves[0] == halves[1] else None
        return _new(type(self), (halves[0], halves[1], tile, tile, spinner, ()))

    def placed(self, side: str, tile: int, pips: int) -> CountedLine:
        """The layout after ``tile`` (``pips`` in all) goes on ``side``: its other pip is the
        open end there; with a spinner, the first double becomes it, and once both its sides
        hold a tile its arms open."""
        left, right, left_tile, right_tile, spinner, arms = self
        if side == UP or side == DOWN:
            at = 0 if side == UP else 1
            grown = list(arms)
            grown[at] = (pips - arms[at][0], tile)
            return _new(type(self), (left, right, left_tile, right_tile, spinner, tuple(grown)))
        if side == RIGHT:
            right, right_tile = pips - right, tile
        else:
            left, left_tile = pips - left, tile
        if self.spins:
            if spinner is None and is_double(tile):
                spinner = tile
            elif spinner is not None and not arms and left_tile != spinner and right_tile != spinner:
                pip = _HIGH[spinner]
                arms = ((pip, spinner), (pip, spinner))  # both its sides covered: the arms open
        return _new(type(self), (left, right, left_tile, right_tile, spinner, arms))


def place_on_four(left: int, right: int, left_tile: int, right_tile: int, spinner: int,
                  arms: tuple[tuple[int, int], tuple[int, int]], high: int, low: int,
                  end: int | str | None) -> str:
    """``place`` on a layout of these fields once the spinner's arms are open (a tile other
    than the spinner): no list made, no layout compared (the run of counted moves,
    referee.core.fastpath, calls it with the fields it holds, no layout made). A named end is
    that end, if it shows one of the tile's pips. A tile laid there changes only the end it
    goes on (the spinner and its arms are fixed), which becomes the tile's other pip, of the
    tile's kind, wherever it goes; so two places give the same open ends exactly when the ends
    they cover are alike (the same pip and kind: were they not, the multisets ``ends - a +
    new_a`` and ``ends - b + new_b`` could be equal only with ``new_a == a``, a double on its
    own pip, and then ``a == b``)."""
    (up, up_tile), (down, down_tile) = arms
    if type(end) is str:
        side = NAMED[end]
        pip = (right if side == RIGHT else left if side == LEFT else up if side == UP
               else down)
        return side if pip == high or pip == low else "no_match"
    if end is None:
        at_right, at_left = right == high or right == low, left == high or left == low
        at_up, at_down = up == high or up == low, down == high or down == low
    elif end != high and end != low:
        return "no_match"
    else:
        at_right, at_left, at_up, at_down = right == end, left == end, up == end, down == end
    places = at_right + at_left + at_up + at_down
    if places == 1:  # most plays: one end it fits, nothing to compare
        return RIGHT if at_right else LEFT if at_left else UP if at_up else DOWN
    if not places:
        return "no_match"
    found: Any = None  # the first place's side, then its (pip, kind)
    for side, pip, kind in ((RIGHT, right, KIND[right_tile]),
                            (LEFT, left, KIND[left_tile]),
                            (UP, up, EMPTY_ARM if up_tile == spinner else KIND[up_tile]),
                            (DOWN, down, EMPTY_ARM if down_tile == spinner else KIND[down_tile])):
        if (pip == end) if end is not None else (pip == high or pip == low):
            if found is None:
                found, first = side, (pip, kind)
            elif first != (pip, kind):
                return "ambiguous_end"
    return "no_match" if found is None else found


class SpinnerLine(CountedLine):
    """The counted line whose first double placed becomes the spinner, with its arms."""

    __slots__ = ()

    spins = True


COUNTED = CountedLine()
SPINNER = SpinnerLine()


def worth(count: int, rule: str) -> int:
    """What a count scores: ``fives``, the count itself when a multiple of 5; ``fives_and_
    threes``, count/5 when a multiple of 5 plus count/3 when a multiple of 3 (15 scores 8)."""
    if rule == "fives":
        return count if count % 5 == 0 else 0
    return (count // 5 if count % 5 == 0 else 0) + (count // 3 if count % 3 == 0 else 0)


# Each count's worth under each rule, for every count a layout can show (four open ends, each
# at most a double of the largest set: both its halves): the run of counted moves
# (referee.core.fastpath.run_counted) looks a play's worth up rather than working it out.
WORTH = {rule: tuple(worth(count, rule) for count in range(4 * 2 * _MAX_PIP + 1))
         for rule in ("fives", "fives_and_threes")}
