"""A line chart's geometry, for an inline SVG drawn by the page template (no script, no image
file): the points scaled into a view box, the gridlines at round values. Only layout: the
values are the service's, and the template writes every number and label in the page's
language (a gridline's value with ``Chart.digits`` decimals)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

WIDTH, HEIGHT = 640, 240
LEFT, RIGHT, TOP, BOTTOM = 64, 16, 16, 36  # room for the axis labels


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    value: float
    label: str


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    points: tuple[Point, ...]
    ticks: tuple[tuple[float, float], ...]  # (y, value) of each gridline
    digits: int  # the decimals the gridlines' values need
    left: int
    right: int  # x of the plot's right edge
    bottom: int  # y of the plot's bottom edge

    @property
    def path(self) -> str:
        return " ".join(f"{p.x:.1f},{p.y:.1f}" for p in self.points)

    @property
    def lowest(self) -> Point:
        return min(self.points, key=lambda p: p.value)

    @property
    def highest(self) -> Point:
        return max(self.points, key=lambda p: p.value)


def _step(span: float, ticks: int = 4) -> float:
    raw = span / ticks
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)


def _digits(step: float) -> int:
    """Decimals enough for every multiple of ``step`` (2.5 -> 1, 0.25 -> 2, 5 -> 0)."""
    text = f"{step:.2f}".rstrip("0").rstrip(".")
    return len(text.partition(".")[2])


def line_chart(values: Sequence[float], labels: Sequence[str] | None = None) -> Chart | None:
    """The chart of ``values`` (in order; ``labels``, one each, else none); None for no values.
    Whole numbers get gridlines at whole numbers."""
    if not values:
        return None
    low, high = min(values), max(values)
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    step = _step(high - low)
    if all(type(v) is int for v in values):
        step = max(step, 1)  # whole numbers (the rating): gridlines at whole numbers too
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    right, bottom = WIDTH - RIGHT, HEIGHT - BOTTOM

    def y(value: float) -> float:
        return bottom - (value - low) / (high - low) * (bottom - TOP)

    n = len(values)
    xs = [LEFT + (right - LEFT) * (i / (n - 1) if n > 1 else 0.5) for i in range(n)]
    labels = list(labels) if labels is not None else [""] * n
    points = tuple(Point(x, y(v), v, label) for x, v, label in zip(xs, values, labels))
    count = round((high - low) / step)
    ticks = tuple((y(low + i * step), round(low + i * step, 6) + 0.0) for i in range(count + 1))
    return Chart(WIDTH, HEIGHT, points, ticks, _digits(step), LEFT, right, bottom)
