"""Greedy label placement: pick, for each label, the candidate box that collides least.

Why: region names and unit markers sit next to map nodes that can be as close as 100 px, so
fixed offsets would overlap on some map. Placement runs once per map when its static base
is built (then cached), so it can afford a simple exhaustive score per candidate.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

Box = tuple[float, float, float, float]  # left, top, right, bottom
Segment = tuple[float, float, float, float]  # x1, y1, x2, y2


def overlap(a: Box, b: Box) -> float:
    """Area of the intersection of two boxes."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def outside(box: Box, bounds: Box) -> float:
    """Area of ``box`` lying outside ``bounds``."""
    area = (box[2] - box[0]) * (box[3] - box[1])
    return area - overlap(box, bounds)


def segment_inside(seg: Segment, box: Box) -> float:
    """Length of the part of segment ``seg`` inside ``box`` (Liang–Barsky clipping)."""
    x1, y1, x2, y2 = seg
    dx, dy = x2 - x1, y2 - y1
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, x1 - box[0]), (dx, box[2] - x1), (-dy, y1 - box[1]), (dy, box[3] - y1)):
        if p == 0:
            if q < 0:
                return 0.0
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return 0.0
    return (t1 - t0) * math.hypot(dx, dy)


def _circle_box(x: float, y: float, r: float) -> Box:
    return (x - r, y - r, x + r, y + r)


@dataclass(slots=True)
class Placer:
    """Collects obstacles and places boxes one by one where they collide least.

    Weights: covering a node or another label is far worse than crossing a border line,
    and leaving the drawing area is worst of all; a small preference per candidate index
    keeps the natural position (e.g. name below the node) when the others are no better.
    """

    bounds: Box
    nodes: list[Box] = field(default_factory=list)
    labels: list[Box] = field(default_factory=list)
    soft: list[Box] = field(default_factory=list)
    segments: list[Segment] = field(default_factory=list)

    def add_node(self, x: float, y: float, r: float) -> None:
        """A node disc that labels should not cover."""
        self.nodes.append(_circle_box(x, y, r))

    def add_segments(self, segments: Iterable[Segment]) -> None:
        """Border lines (crossing them is allowed but discouraged)."""
        self.segments.extend(segments)

    def score(self, box: Box, own_node: int | None = None) -> float:
        """How bad ``box`` is (0 = collides with nothing)."""
        s = 30.0 * outside(box, self.bounds)
        for i, n in enumerate(self.nodes):
            if i != own_node:
                s += 6.0 * overlap(box, n)
            else:
                s += 12.0 * overlap(box, n)
        for lab in self.labels:
            s += 6.0 * overlap(box, lab)
        for lab in self.soft:
            s += 1.5 * overlap(box, lab)
        for seg in self.segments:
            s += 8.0 * segment_inside(seg, box)
        return s

    def place(self, candidates: Sequence[Box], own_node: int | None = None, *, soft: bool = False) -> Box:
        """The best of ``candidates``; it becomes an obstacle (hard, or soft for optional boxes)."""
        best = min(
            range(len(candidates)),
            key=lambda i: (self.score(candidates[i], own_node) + 40.0 * i, i),
        )
        box = candidates[best]
        (self.soft if soft else self.labels).append(box)
        return box
