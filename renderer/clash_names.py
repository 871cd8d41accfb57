"""City names on the Clash of Cultures map: each city's name in a tag of its owner's colour,
under the city disc, placed clear of the other cities, names, unit badges and hex labels.

Why (new-user play-test): commands and events name cities (``collect athens food``, "Red founds
Sparta on E2"), but the map showed only a city's size, so nobody could tell which disc was
"athens". The tag sits at the bottom of the city's hex, over the small terrain word (the hex's
fill still tells the terrain); where that spot is taken (a neighbour's unit badge or a wide name
of a city next door) or would leave the map, the tag moves sideways, down across the hex edge or
above the hex label, whichever collides least (:data:`SPOTS`).

Cost: obstacles are kept in a coarse grid, so each candidate is scored against the few boxes
near it; the common case (the first spot is clear) scores one candidate per city.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from PIL import ImageDraw, ImageFont

from renderer.base import INK, RGB, Font, draw_text, font, ink_on, text_width
from renderer.placement import Box, outside, overlap
from renderer.viewdata import as_str

NAME_SCALE: Final[float] = 0.26
"""Name size to hex size: 23 px on the 1600-px board, about 6 px when it is shown 400 px wide."""
NAME_MIN_SCALE: Final[float] = 0.22
"""A name wider than :data:`MAX_WIDTH` hex sizes shrinks down to this before it may grow wider."""
MAX_WIDTH: Final[float] = 2.0
MIN_WIDTH: Final[float] = 0.8
"""The narrowest tag, in hex sizes: a short name ("Ur") still hides the whole terrain word under it."""
SPOTS: Final[tuple[tuple[float, float], ...]] = (
    (0.0, 0.66),  # under the disc and its building badges, over the terrain word
    (0.28, 0.66),
    (-0.28, 0.66),
    (0.0, 0.86),  # across the bottom edge of the hex
    (0.5, 0.70),
    (-0.5, 0.70),
    (0.0, -0.94),  # above the hex label, across the top edge
)
"""Centres of the candidate tags, in hex sizes from the hex centre, best first."""
STEP_COST: Final[float] = 60.0
"""Score added per step down :data:`SPOTS` (a few pixels of overlap beat moving the tag)."""

# Weights per pixel of overlap: a name or a city marker hidden is worse than a unit badge or a
# hex label touched; leaving the map is worst of all.
W_OUTSIDE: Final[float] = 40.0
W_NAME: Final[float] = 12.0
W_CITY: Final[float] = 10.0
W_LABEL: Final[float] = 8.0
W_PIECE: Final[float] = 6.0


def city_label(city: Mapping[str, Any]) -> str:
    """The name written on the map: the city's name, without a trailing hex label that repeats
    the hex's own (``Barbarian camp G7`` on G7 reads ``Barbarian camp``)."""
    name = as_str(city.get("name")).strip()
    space = as_str(city.get("space")).upper()
    if space and name.upper().endswith(" " + space):
        name = name[: -len(space) - 1].rstrip()
    return name


@functools.lru_cache(maxsize=64)
def _extent(fnt: Font) -> tuple[float, float]:
    """Top and bottom of a line of ``fnt`` around a middle (``mm``) anchor, the same for every name
    so that all tags are equally high."""
    if isinstance(fnt, ImageFont.FreeTypeFont):
        _, top, _, bottom = fnt.getbbox("Hg", anchor="mm")
        return float(top), float(bottom)
    _, top, _, bottom = fnt.getbbox("Hg")
    return -(bottom - top) / 2, (bottom - top) / 2


def name_font(label: str, size: float) -> Font:
    """The largest font from :data:`NAME_SCALE` down to :data:`NAME_MIN_SCALE` of the hex size that
    writes ``label`` within :data:`MAX_WIDTH` hex sizes (the smallest one if none does)."""
    top = max(12, int(size * NAME_SCALE))
    low = max(11, int(size * NAME_MIN_SCALE))
    for px in range(top, low - 1, -1):
        fnt = font(px, "bold")
        if text_width(label, fnt) <= size * MAX_WIDTH:
            return fnt
    return font(low, "bold")


class Obstacles:
    """Weighted boxes in a grid of cells about a hex wide, for quick scoring of a tag."""

    def __init__(self, cell: float) -> None:
        self.cell = max(8.0, cell)
        self.cells: dict[tuple[int, int], list[tuple[Box, float]]] = {}

    def _keys(self, box: Box) -> Iterable[tuple[int, int]]:
        c = self.cell
        for i in range(int(box[0] // c), int(box[2] // c) + 1):
            for j in range(int(box[1] // c), int(box[3] // c) + 1):
                yield i, j

    def add(self, box: Box, weight: float) -> None:
        """An obstacle of ``weight`` per pixel of overlap."""
        entry = (box, weight)
        for key in self._keys(box):
            self.cells.setdefault(key, []).append(entry)

    def score(self, box: Box) -> float:
        """Weighted overlap of ``box`` with every obstacle near it (each counted once)."""
        seen: set[int] = set()
        total = 0.0
        for key in self._keys(box):
            for entry in self.cells.get(key, ()):
                if id(entry) not in seen:
                    seen.add(id(entry))
                    total += entry[1] * overlap(box, entry[0])
        return total


def _tag(cx: float, cy: float, width: float, extent: tuple[float, float], pad: float) -> Box:
    return (cx - width / 2 - pad, cy + extent[0] - pad * 0.6, cx + width / 2 + pad, cy + extent[1] + pad * 0.6)


def _inside(box: Box, bounds: Box) -> Box:
    """``box`` moved (not shrunk) to lie inside ``bounds`` where it fits."""
    dx = max(0.0, bounds[0] - box[0]) - max(0.0, box[2] - bounds[2])
    dy = max(0.0, bounds[1] - box[1]) - max(0.0, box[3] - bounds[3])
    return box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy


def place_names(
    cities: Sequence[tuple[str, float, float]], size: float, obstacles: Obstacles, bounds: Box
) -> list[tuple[Box, Font]]:
    """A tag box and font for each ``(label, x, y)`` city (the hex centre), in order; each placed
    tag becomes an obstacle for the next ones."""
    out: list[tuple[Box, Font]] = []
    pad = max(4.0, size * 0.07)
    for label, x, y in cities:
        fnt = name_font(label, size)
        width, extent = max(text_width(label, fnt), size * MIN_WIDTH), _extent(fnt)
        best: Box | None = None
        best_score = 0.0
        for i, (dx, dy) in enumerate(SPOTS):
            if best is not None and i * STEP_COST >= best_score:
                break  # every spot further down costs more already
            box = _tag(x + dx * size, y + dy * size, width, extent, pad)
            score = i * STEP_COST + W_OUTSIDE * outside(box, bounds) + obstacles.score(box)
            if best is None or score < best_score:
                best, best_score = box, score
        assert best is not None
        best = _inside(best, bounds)
        obstacles.add(best, W_NAME)
        out.append((best, fnt))
    return out


def draw_names(
    draw: ImageDraw.ImageDraw, tags: Sequence[tuple[str, RGB]], placed: Sequence[tuple[Box, Font]], size: float
) -> None:
    """Each ``(label, owner fill)`` in its placed tag: the owner's colour, a dark edge, and the
    name in black or white, whichever reads on that colour."""
    edge = max(2, int(size * 0.025))
    for (label, fill), (box, fnt) in zip(tags, placed, strict=True):
        draw.rectangle(box, fill=fill, outline=INK, width=edge)
        top, bottom = _extent(fnt)
        pad = (box[3] - box[1] - (bottom - top)) / 2
        draw_text(draw, ((box[0] + box[2]) / 2, box[1] + pad - top), label, fnt, ink_on(fill), anchor="mm")
