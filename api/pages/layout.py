"""The tiles on the table as a drawing, for an inline SVG the match page writes (no script, no
image file): the line left to right, a double crosswise, and the points family's spinner with
its up and down arms drawn above and below it. Only geometry: the tiles and where they lie are
the service's (``view.round_lines``: the line, the spinner, each arm from the spinner outward
with the pip toward it first), and the template writes every number and label."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

UNIT = 22  # a tile's half: a tile is 2 x 1 units
GAP = 2  # between two tiles
PAD = 2  # round the drawing
NEAR = 2  # a phone's drawing keeps this many tiles at each end of the line (and the spinner's)


@dataclass(frozen=True)
class Tile:
    """A tile drawn at (x, y), ``w`` by ``h``: ``first`` is the pip of its left (or top) half,
    ``second`` of its right (or bottom) half."""

    x: float
    y: float
    w: float
    h: float
    first: str
    second: str
    spinner: bool = False

    @property
    def vertical(self) -> bool:
        return self.h > self.w

    @property
    def divider(self) -> tuple[float, float, float, float]:
        """The line between its halves: x1, y1, x2, y2."""
        if self.vertical:
            return (self.x, self.y + self.h / 2, self.x + self.w, self.y + self.h / 2)
        return (self.x + self.w / 2, self.y, self.x + self.w / 2, self.y + self.h)

    @property
    def centres(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """Where each half's pip is written."""
        if self.vertical:
            return ((self.x + self.w / 2, self.y + self.h / 4),
                    (self.x + self.w / 2, self.y + 3 * self.h / 4))
        return ((self.x + self.w / 4, self.y + self.h / 2),
                (self.x + 3 * self.w / 4, self.y + self.h / 2))


@dataclass(frozen=True)
class Gap:
    """Where tiles of the line are left out of a phone's drawing (drawn as an ellipsis)."""

    x: float
    y: float
    hidden: int  # how many


@dataclass(frozen=True)
class Drawing:
    width: float
    height: float
    tiles: tuple[Tile, ...]
    gaps: tuple[Gap, ...] = ()


def _pips(name: str) -> tuple[str, str]:
    first, _, second = name.partition("-")
    return first, second


def _kept(count: int, spinner: int | None, near: int | None) -> list[int | None]:
    """The indexes of the line's tiles a drawing shows, in order, None where some are left
    out: every tile, or (``near``) that many at each end and the spinner with its neighbours."""
    if near is None or count <= 2 * near + 3:
        return list(range(count))
    wanted = set(range(near)) | set(range(count - near, count))
    if spinner is not None:
        wanted |= {spinner - 1, spinner, spinner + 1}
    kept: list[int | None] = []
    last = -1
    for index in sorted(i for i in wanted if 0 <= i < count):
        if index != last + 1:
            kept.append(None)
        kept.append(index)
        last = index
    return kept


def layout_drawing(line: Sequence[str], spinner: str | None = None,
                   arms: dict[str, Sequence[str]] | None = None,
                   near: int | None = None) -> Drawing | None:
    """The drawing of ``line`` (tiles left to right, each written left pip first), the
    ``spinner`` (a tile of the line) and its ``arms`` ({"up": [...], "down": [...]}, from the
    spinner outward, each tile written with the pip toward it first); None for no tile. With
    ``near``, a phone's drawing: of a long line only ``near`` tiles at each end (the open ends,
    which the count is made of) and the spinner with its neighbours, an ellipsis between."""
    if not line:
        return None
    u = UNIT
    spinner_pips = sorted(_pips(spinner)) if spinner else None
    spinner_index = next((i for i, name in enumerate(line)
                          if spinner_pips and sorted(_pips(name)) == spinner_pips), None)
    placed: list[Tile] = []
    gaps: list[Gap] = []
    x = 0.0
    spinner_at: Tile | None = None
    kept = _kept(len(line), spinner_index, near)
    for at, index in enumerate(kept):
        if index is None:
            following = next(i for i in kept[at + 1:] if i is not None)
            previous = next(i for i in reversed(kept[:at]) if i is not None)
            gaps.append(Gap(x + u / 2, 0, following - previous - 1))
            x += u + GAP
            continue
        a, b = _pips(line[index])
        if a == b:  # a double lies crosswise
            tile = Tile(x, -u, u, 2 * u, a, b, spinner=index == spinner_index)
            if tile.spinner:
                spinner_at = tile
        else:
            tile = Tile(x, -u / 2, 2 * u, u, a, b)
        placed.append(tile)
        x += tile.w + GAP
    if spinner_at is not None and arms:
        centre = spinner_at.x + spinner_at.w / 2
        top, bottom = spinner_at.y, spinner_at.y + spinner_at.h
        for name in arms.get("up") or ():
            inner, outer = _pips(name)
            w, h = (2 * u, u) if inner == outer else (u, 2 * u)
            top -= GAP + h
            placed.append(Tile(centre - w / 2, top, w, h, outer, inner))  # the outer pip on top
        for name in arms.get("down") or ():
            inner, outer = _pips(name)
            w, h = (2 * u, u) if inner == outer else (u, 2 * u)
            placed.append(Tile(centre - w / 2, bottom + GAP, w, h, inner, outer))
            bottom += GAP + h
    left = min(t.x for t in placed)
    high = min(t.y for t in placed)
    right = max(t.x + t.w for t in placed)
    low = max(t.y + t.h for t in placed)
    shifted = tuple(Tile(t.x - left + PAD, t.y - high + PAD, t.w, t.h, t.first, t.second,
                         t.spinner) for t in placed)
    moved = tuple(Gap(g.x - left + PAD, g.y - high + PAD, g.hidden) for g in gaps)
    return Drawing(right - left + 2 * PAD, low - high + 2 * PAD, shifted, moved)


def drawings(rounds: Sequence[dict[str, Any]]) -> dict[int, tuple[Drawing, Drawing | None]]:
    """Each round's drawings, by its number (the page's rounds: line, spinner, arms): the
    whole layout, and a phone's (:data:`NEAR`), or None where the whole one is as short. Only
    a round with a spinner is drawn: without one the layout is its line, which the page's list
    of tiles already lays out."""
    found: dict[int, tuple[Drawing, Drawing | None]] = {}
    for r in rounds:
        line, spinner, arms = r.get("line") or (), r.get("spinner"), r.get("arms")
        if spinner is None:
            continue
        whole = layout_drawing(line, spinner, arms)
        if whole is None:
            continue
        near = layout_drawing(line, spinner, arms, near=NEAR)
        found[r["round"]] = (whole, near if near is not None and near.gaps else None)
    return found
