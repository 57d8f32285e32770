"""A cup's bracket's geometry, for an inline SVG drawn by the page template (no script, no image
file): a box for each tie, in columns by round (the winners' bracket above, the losers' below,
the grand final and, when it is to be played, its second match at the right), and the lines
from each tie to the one its winner goes on to. Only layout: the ties are the service's, and
the template writes every word in the page's language.

Round 1's ties stand one under another; a later tie stands level with the middle of the ties
it is filled from (a losers' round that takes the winners' drop-outs, level with the one tie
of the losers' round before)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

BOX_W, BOX_H = 200, 48  # a tie: two lines, an entrant and the matches it won each
COLUMN = BOX_W + 40  # a round's column, with room for the lines between
SLOT = BOX_H + 16  # round 1's ties, one under another
HEADER = 28  # a column's title
GAP = 40  # between the winners' bracket and the losers'
MARGIN = 8
NAME_CHARS = 19  # a name longer than this is cut, the whole name in the box's title


@dataclass(frozen=True)
class Box:
    tie: Mapping[str, Any]
    x: float
    y: float

    @property
    def middle(self) -> float:
        return self.y + BOX_H / 2

    @property
    def right(self) -> float:
        return self.x + BOX_W


@dataclass(frozen=True)
class Column:
    part: str  # winners, losers, final
    round: int
    x: float
    y: float  # its title's baseline
    last: bool  # the winners' bracket's last round (the final of single elimination)


@dataclass(frozen=True)
class Layout:
    width: int
    height: int
    boxes: tuple[Box, ...]
    columns: tuple[Column, ...]
    lines: tuple[str, ...]  # each an SVG path's d


def short(name: str | None) -> str:
    """A name as the box fits it."""
    if not name:
        return ""
    return name if len(name) <= NAME_CHARS else name[:NAME_CHARS - 1] + "…"


def _feeders(t: Mapping[str, Any], known: Any, last: tuple[str, str]) -> list[str]:
    """The ties ``t`` is filled from that the drawing shows (``known``), drawn to it by lines;
    ``last``: the winners' and the losers' final ties, which fill the grand final."""
    r, k, part = t["round"], t["number"], t["bracket"]
    if part == "winners":
        found = [f"W{r - 1}-{2 * k - 1}", f"W{r - 1}-{2 * k}"] if r > 1 else []
    elif part == "losers" and r % 2 == 0:
        found = [f"L{r - 1}-{k}"]
    elif part == "losers":
        found = [f"L{r - 1}-{2 * k - 1}", f"L{r - 1}-{2 * k}"] if r > 1 else []
    else:
        found = list(last) if t["id"] == "F1" else ["F1"]
    return [f for f in found if f in known]


def _tops(parts: dict[str, dict[int, list[Mapping[str, Any]]]], last: tuple[str, str]
          ) -> tuple[dict[str, float], float, float]:
    """Each tie's box's top, the losers' bracket's top and the drawing's bottom: round 1 one
    under another, a later round level with the middle of its feeders."""
    at: dict[str, float] = {}
    top, bottom = MARGIN + HEADER, MARGIN + HEADER
    losers_top = top
    for part in ("winners", "losers", "final"):
        rounds = parts.get(part, {})
        if part == "losers" and rounds:
            top = losers_top = bottom + GAP + HEADER
        for rnd in sorted(rounds):
            for k, t in enumerate(rounds[rnd]):
                sources = _feeders(t, at, last)
                at[t["id"]] = (sum(at[s] for s in sources) / len(sources) if sources
                               else top + k * SLOT)
                bottom = max(bottom, at[t["id"]] + BOX_H)
    return at, losers_top, bottom


def layout(ties: Sequence[Mapping[str, Any]]) -> Layout | None:
    """Where each tie of the bracket goes (None for a cup not drawn: no ties). The grand
    final's second match is drawn only once it is to be played (ready, played)."""
    if not ties:
        return None
    shown = [t for t in ties if t["id"] != "F2" or t["status"] in ("ready", "played")]
    parts: dict[str, dict[int, list[Mapping[str, Any]]]] = {}
    for t in shown:
        parts.setdefault(t["bracket"], {}).setdefault(t["round"], []).append(t)
    rounds = {part: max(parts[part]) if part in parts else 0 for part in ("winners", "losers")}
    last = (f"W{rounds['winners']}-1", f"L{rounds['losers']}-1")
    at, losers_top, bottom = _tops(parts, last)
    final_x = MARGIN + max(rounds.values()) * COLUMN
    boxes = tuple(Box(t, (final_x if t["bracket"] == "final" else MARGIN)
                      + (t["round"] - 1) * COLUMN, at[t["id"]]) for t in shown)
    title_y = {"winners": MARGIN + 18, "losers": losers_top - 10, "final": MARGIN + 18}
    columns = tuple(Column(part, r, (final_x if part == "final" else MARGIN) + (r - 1) * COLUMN,
                           title_y[part], part == "winners" and r == rounds["winners"])
                    for part in ("winners", "losers", "final") for r in sorted(parts.get(part, {})))
    place_of = {b.tie["id"]: b for b in boxes}
    lines = []
    for b in boxes:
        for s in _feeders(b.tie, place_of, last):
            one = place_of[s]
            bend = (one.right + b.x) / 2
            lines.append(f"M{one.right:.0f},{one.middle:.0f} H{bend:.0f} V{b.middle:.0f} "
                         f"H{b.x:.0f}")
    width = int(max(b.right for b in boxes) + MARGIN)
    height = int(max(bottom, max(b.y + BOX_H for b in boxes)) + MARGIN)
    return Layout(width, height, boxes, columns, tuple(lines))
