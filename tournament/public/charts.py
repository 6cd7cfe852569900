"""A rating history as an inline SVG line chart: coordinates computed here, drawn by a template.

>>> c = rating_chart([1500.0, 1510.0, 1490.0], ["1 Mar", "2 Mar", "3 Mar"])
>>> c.points[0], c.points[-1]
((62.0, 110.0), (632.0, 186.0))
>>> [t.label for t in c.ticks]
['1490', '1495', '1500', '1505', '1510']
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

WIDTH, HEIGHT = 640, 220
LEFT, RIGHT, TOP, BOTTOM = 62, 8, 34, 34


@dataclass(frozen=True, slots=True)
class Tick:
    y: float
    label: str


@dataclass(frozen=True, slots=True)
class Chart:
    """Everything the template needs: the polyline, the dots, the value axis."""

    width: int
    height: int
    points: tuple[tuple[float, float], ...]
    ticks: tuple[Tick, ...]
    labels: tuple[str, ...]
    first_label: str
    last_label: str

    @property
    def polyline(self) -> str:
        return " ".join(f"{x:.1f},{y:.1f}" for x, y in self.points)

    @property
    def left(self) -> int:
        return LEFT

    @property
    def right(self) -> int:
        return self.width - RIGHT

    @property
    def bottom(self) -> int:
        return self.height - BOTTOM

    @property
    def dots(self) -> list[tuple[float, float, str]]:
        return [(x, y, label) for (x, y), label in zip(self.points, self.labels, strict=True)]


def _step(span: float) -> float:
    """A round tick step giving three to six ticks over ``span``."""
    raw = max(span, 1.0) / 4
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return float(factor * power)
    return float(10 * power)


def rating_chart(values: Sequence[float], labels: Sequence[str]) -> Chart:
    """Place ``values`` (the ratings, oldest first) on a chart; ``labels`` name each point."""
    if not values:
        raise ValueError("a chart needs at least one value")
    low, high = min(values), max(values)
    step = _step(high - low)
    low_tick = math.floor(low / step) * step
    high_tick = math.ceil(high / step) * step
    if high_tick == low_tick:
        low_tick, high_tick = low_tick - step, high_tick + step
    inner_w = WIDTH - LEFT - RIGHT
    inner_h = HEIGHT - TOP - BOTTOM

    def y_of(value: float) -> float:
        return TOP + (high_tick - value) / (high_tick - low_tick) * inner_h

    count = len(values)
    points = tuple(
        (LEFT + (inner_w * i / (count - 1) if count > 1 else inner_w / 2), y_of(v))
        for i, v in enumerate(values)
    )
    ticks = []
    tick = low_tick
    while tick <= high_tick + step / 2:
        ticks.append(Tick(y_of(tick), f"{tick:.0f}"))
        tick += step
    return Chart(
        WIDTH,
        HEIGHT,
        tuple((round(x, 1), round(y, 1)) for x, y in points),
        tuple(ticks),
        tuple(labels),
        labels[0] if labels else "",
        labels[-1] if labels else "",
    )
