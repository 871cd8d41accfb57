"""The Clash of Cultures hex map: terrain, regions, cities with their names, units, ships with
cargo, unexplored regions, exhausted land and the last turn's changes, drawn from a view dict only.

Why a cached base per set of revealed regions: the terrain only changes when a region is
explored, a few times per game; the base (hex fills, region outlines, labels) is drawn once per
such set and copied each turn, and only the pieces are drawn on top. The base itself is put
together from one cached layer per region (its four hexes, labels and outline, keyed by the
region's hexes and terrain): an exploration draws the one region it revealed and pastes the
others, instead of drawing every hex again (issue 14: a turn after an exploration took the
cold-render time).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any, Final

from PIL import Image, ImageDraw

from renderer.base import (
    HIGHLIGHT,
    INK,
    RGB,
    STATIC_LAYERS,
    WHITE,
    LayerCache,
    draw_text,
    font,
    fonts_signature,
    ink_on,
    new_canvas,
    player_fill,
    text_width,
    tint,
)
from renderer.clash_names import W_CITY, W_LABEL, W_PIECE, Obstacles, city_label, draw_names, place_names
from renderer.clash_shapes import outlined_polygon
from renderer.clash_wonders import draw_city_mark
from renderer.placement import Box
from renderer.viewdata import as_int, as_list, as_map, as_str, str_list

TERRAIN_FILL: Final[Mapping[str, RGB]] = {
    "fertile": (170, 212, 110),
    "forest": (62, 132, 72),
    "mountain": (150, 132, 116),
    "barren": (226, 206, 150),
    "sea": (120, 176, 228),
}
TERRAIN_LETTER: Final[Mapping[str, str]] = {
    "fertile": "fertile",
    "forest": "forest",
    "mountain": "mountain",
    "barren": "barren",
    "sea": "",
}
UNKNOWN_FILL: Final[RGB] = (176, 170, 160)
BARBARIAN_FILL: Final[RGB] = (110, 62, 28)
BUILDING_LETTER: Final[Mapping[str, str]] = {"temple": "T", "fortress": "F", "academy": "A", "port": "P"}
MOOD_RING: Final[Mapping[str, RGB]] = {"happy": (255, 255, 255), "angry": (140, 40, 170)}
"""Rings for happy and angry cities, in colours no player has: a red ring on a Blue city read as
Red's mark (found by play-testing a recaptured city), and a gold ring resembles Yellow."""


@functools.lru_cache(maxsize=1024)
def axial(label: str) -> tuple[int, int]:
    """Column and 1-based row of a hex label (``c4`` -> (2, 4))."""
    return ord(label[0].lower()) - ord("a"), int(label[1:])


class Geometry:
    """Pixel positions of the hexes of one layout at one hex size."""

    def __init__(self, hexes: Sequence[str], size: float, margin: float, origin: tuple[int, int] = (0, 0)) -> None:
        self.size = size
        self.origin = origin
        """Where the map's top-left pixel lies on the image drawn on (the board, or the map alone)."""
        cols = [axial(h)[0] for h in hexes]
        rows = [axial(h)[1] for h in hexes]
        self.min_col = min(cols)
        self.min_y = min(math.sqrt(3) * size * (r - 1 + 0.5 * (c & 1)) for c, r in zip(cols, rows, strict=True))
        self.margin = margin
        w = 1.5 * size * (max(cols) - self.min_col) + 2 * size
        ys = [math.sqrt(3) * size * (r - 1 + 0.5 * (c & 1)) for c, r in zip(cols, rows, strict=True)]
        h = max(ys) - self.min_y + math.sqrt(3) * size
        self.width = int(w + 2 * margin)
        self.height = int(h + 2 * margin)

    def centre(self, label: str) -> tuple[float, float]:
        """Centre pixel of a hex."""
        c, r = axial(label)
        x = self.margin + self.size + 1.5 * self.size * (c - self.min_col)
        y = self.margin + math.sqrt(3) / 2 * self.size + math.sqrt(3) * self.size * (r - 1 + 0.5 * (c & 1)) - self.min_y
        return x + self.origin[0], y + self.origin[1]

    def corners(self, label: str, shrink: float = 0.0) -> list[tuple[float, float]]:
        """The six corners (flat-topped)."""
        x, y = self.centre(label)
        s = self.size - shrink
        return [(x + s * math.cos(math.radians(60 * i)), y + s * math.sin(math.radians(60 * i))) for i in range(6)]


def hex_size_for(hexes: Sequence[str], width: int) -> float:
    """The largest hex size that fits ``width`` pixels."""
    cols = [axial(h)[0] for h in hexes]
    span = max(cols) - min(cols)
    return (width - 40) / (1.5 * span + 2)


Layer = tuple[Image.Image, Image.Image, tuple[int, int]]
"""A region's pixels (RGB), its 1-bit mask and the top-left pixel where it goes on the base."""


@functools.lru_cache(maxsize=32)
def map_geometry(hexes: tuple[str, ...], width: int, at: tuple[int, int] = (0, 0)) -> Geometry:
    """The geometry of the map of ``hexes`` drawn ``width`` wide with its corner at ``at`` (cached:
    a board asks for it several times, and the layout changes only when a region is explored)."""
    return Geometry(hexes, hex_size_for(hexes, width), 20, at)


REGIONS: LayerCache[Layer] = LayerCache(maxsize=256)
"""Static layers of single regions, shared by every base."""
SEA_BG: Final[RGB] = (214, 226, 236)
LABEL_SCALE: Final[float] = 0.34
LABEL_DARK: Final[float] = 115.0
"""Luminance under which a hex's words are white (forest, 104) rather than black (mountain, 136)."""
"""Hex label size to hex size: about 8 px high when the 1600 px board is shown 400 px wide."""


def label_ink(fill: RGB) -> RGB:
    """Black on every terrain but the darkest (forest): the mid-brown mountain reads better with
    black letters than with the white that :func:`renderer.base.ink_on` gives it."""
    r, g, b = fill
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > LABEL_DARK else WHITE


def _region_layer(hexes: Sequence[str], terrain: Sequence[str], geo: Geometry) -> Layer:
    """One region's hexes (fill, name, terrain word or "?") and its outline on a layer just large
    enough, with its mask and the top-left pixel where it goes on the base.

    Why a 1-bit mask drawn beside the layer: every pixel of a region is either drawn (inside a
    hex or on the outline; text lies only on the opaque hex fill) or not, so the shapes drawn
    once more on a 1-bit image are the exact mask, and pasting through it costs a quarter of
    blending an RGBA layer through its alpha (issue 14 follow-up: the base of a newly explored
    map is put together from about twenty regions, and the process-wide layer cache is small)."""
    corners = {h: geo.corners(h) for h in hexes}
    centres = {h: geo.centre(h) for h in hexes}
    pts = [p for h in hexes for p in corners[h]]
    pad = max(2, int(geo.size * 0.06)) + 2
    left, top = int(min(x for x, _ in pts)) - pad, int(min(y for _, y in pts)) - pad
    right, bottom = int(max(x for x, _ in pts)) + pad + 1, int(max(y for _, y in pts)) + pad + 1
    layer = Image.new("RGB", (right - left, bottom - top))
    mask = Image.new("1", layer.size, 0)
    draw, shape = ImageDraw.Draw(layer), ImageDraw.Draw(mask)
    label = font(max(14, int(geo.size * LABEL_SCALE)), "bold")
    tiny = font(max(11, int(geo.size * 0.17)))

    def at(p: tuple[float, float]) -> tuple[float, float]:
        return p[0] - left, p[1] - top

    for i, h in enumerate(hexes):
        fill = TERRAIN_FILL.get(terrain[i], UNKNOWN_FILL) if i < len(terrain) else UNKNOWN_FILL
        outline = [at(p) for p in corners[h]]
        draw.polygon(outline, fill=fill, outline=tint(INK, 0.55))
        shape.polygon(outline, fill=1, outline=1)
        x, y = at(centres[h])
        ink = label_ink(fill)
        # The label players type: large and bold so it still reads when a phone shows the map a
        # quarter of its size; it sits in the top of the hex, above the city disc, its mood
        # ring, the unit badges and ships (none reaches higher than 0.42 of the size above the
        # centre) and below the yellow outline of a changed hex. No halo: at a quarter size a
        # halo blurred the glyphs (and cost a tenth more PNG bytes).
        draw_text(draw, (x, y - geo.size * 0.57), h.upper(), label, ink, anchor="mm")
        if i < len(terrain):
            draw_text(draw, (x, y + geo.size * 0.66), TERRAIN_LETTER.get(terrain[i], ""), tiny, ink, anchor="mm")
        else:
            draw_text(draw, (x, y), "?", font(int(geo.size * 0.5), "bold"), tint(INK, 0.35), anchor="mm")
    # Region outline: the outer edges of its four hexes.
    width = max(2, int(geo.size * 0.06))
    for h in hexes:
        x0, y0 = centres[h]
        for k in range(6):
            a, b = corners[h][k], corners[h][(k + 1) % 6]
            ox, oy = a[0] + b[0] - x0, a[1] + b[1] - y0  # the centre of the hex across this edge
            inside = any(math.dist((ox, oy), centres[o]) < geo.size * 0.5 for o in hexes if o != h)
            if not inside:
                draw.line([at(a), at(b)], fill=INK, width=width)
                shape.line([at(a), at(b)], fill=1, width=width)
    return layer, mask, (left, top)


def _base(view: Mapping[str, Any], geo: Geometry) -> Image.Image:
    image = new_canvas((geo.width, geo.height), SEA_BG)
    for slot in as_list(view.get("slots")):
        slot = as_map(slot)
        hexes = str_list(slot.get("hexes"))
        terrain = str_list(slot.get("terrain"))
        key = (
            "clash-region",
            tuple(hexes),
            tuple(terrain),
            geo.size,
            geo.margin,
            geo.min_col,
            geo.min_y,
            fonts_signature(),
        )
        layer, mask, at = REGIONS.get(key, partial(_region_layer, hexes, terrain, geo))
        image.paste(layer, at, mask)
    return image


def map_height(view: Mapping[str, Any], width: int) -> int:
    """Height of the map drawn ``width`` pixels wide."""
    hexes = [h for s in as_list(view.get("slots")) for h in str_list(as_map(s).get("hexes"))]
    return map_geometry(tuple(hexes), width).height if hexes else 200


def map_image(view: Mapping[str, Any], width: int) -> Image.Image:
    """The whole map with pieces, ``width`` pixels wide, on an image of its own."""
    image = new_canvas((width, map_height(view, width)))
    draw_map(image, (0, 0), view, width)
    return image


def draw_map(image: Image.Image, origin: tuple[int, int], view: Mapping[str, Any], width: int) -> None:
    """The whole map with pieces, ``width`` pixels wide, on ``image`` with its top-left corner at
    ``origin``: the board draws it in place rather than on a copy of the base pasted afterwards
    (two fewer full-size copies per board)."""
    slots = [as_map(s) for s in as_list(view.get("slots"))]
    hexes = [h for s in slots for h in str_list(s.get("hexes"))]
    if not hexes:
        return
    geo = map_geometry(tuple(hexes), width)
    key = (
        "clash-map",
        width,
        tuple((as_str(s.get("id")), tuple(str_list(s.get("terrain")))) for s in slots),
        fonts_signature(),
    )
    base: Image.Image = STATIC_LAYERS.get(key, lambda: _base(view, geo))
    image.paste(base, origin)
    geo = map_geometry(tuple(hexes), width, origin)
    draw = ImageDraw.Draw(image)
    colours = [as_str(as_map(p).get("colour")) for p in as_list(view.get("players"))]
    for h in str_list(view.get("changed")):
        if h in hexes:
            outlined_polygon(image, geo.corners(h, geo.size * 0.06), HIGHLIGHT, max(4, int(geo.size * 0.1)))
    for h in [x for x in str_list(view.get("exhausted")) if x in hexes]:
        x, y = geo.centre(h)
        r = geo.size * 0.3
        draw.line([(x - r, y - r), (x + r, y + r)], fill=INK, width=5)
        draw.line([(x - r, y + r), (x + r, y - r)], fill=INK, width=5)
    known = set(hexes)
    obstacles = Obstacles(geo.size)
    for box in label_boxes(tuple(hexes), width, origin):
        obstacles.add(box, W_LABEL)
    cities = [as_map(c) for c in as_list(view.get("cities")) if as_str(as_map(c).get("space")) in known]
    for city in cities:
        for box in _city(image, draw, geo, city, colours):
            obstacles.add(box, W_CITY)
    units = [u for u in as_list(view.get("units")) if as_str(as_map(u).get("space")) in known]
    for box in _units(image, draw, geo, units, colours):
        obstacles.add(box, W_PIECE)
    _names(draw, geo, cities, colours, obstacles, (image.width, image.height))


def _names(
    draw: ImageDraw.ImageDraw,
    geo: Geometry,
    cities: Sequence[Mapping[str, Any]],
    colours: Sequence[str],
    obstacles: Obstacles,
    image_size: tuple[int, int],
) -> None:
    """Every city's name in a tag of its owner's colour near its disc (:mod:`renderer.clash_names`),
    inside the map and the image."""
    named = [(city_label(c), c) for c in cities]
    named = [(label, c) for label, c in named if label]
    ox, oy = geo.origin
    bounds = (max(0, ox), max(0, oy), min(image_size[0], ox + geo.width), min(image_size[1], oy + geo.height))
    spots = [(label, *geo.centre(as_str(c.get("space")))) for label, c in named]
    placed = place_names(spots, geo.size, obstacles, bounds)
    tags = [(label, owner_fill(as_int(c.get("owner"), -1), colours)) for label, c in named]
    draw_names(draw, tags, placed, geo.size)


@functools.lru_cache(maxsize=32)
def label_boxes(hexes: tuple[str, ...], width: int, at: tuple[int, int]) -> tuple[Box, ...]:
    """The boxes of the hex labels of the base (as :func:`_region_layer` draws them) on the map
    drawn ``width`` wide at ``at``: names keep clear of them."""
    geo = map_geometry(hexes, width, at)
    fnt = font(max(14, int(geo.size * LABEL_SCALE)), "bold")
    half = geo.size * LABEL_SCALE * 0.5
    boxes = []
    for h in hexes:
        x, y = geo.centre(h)
        w = text_width(h.upper(), fnt) / 2
        boxes.append((x - w, y - geo.size * 0.57 - half, x + w, y - geo.size * 0.57 + half))
    return tuple(boxes)


def owner_fill(owner: int, colours: Sequence[str]) -> RGB:
    """Fill of a seat's pieces (Barbarians brown)."""
    if owner < 0 or owner >= len(colours):
        return BARBARIAN_FILL
    return player_fill(colours[owner], owner)


def _city(
    image: Image.Image, draw: ImageDraw.ImageDraw, geo: Geometry, city: Mapping[str, Any], colours: Sequence[str]
) -> list[Box]:
    """The city marker; returns the boxes it covers (disc and ring, building badges, wonder mark,
    mood word) for the names to keep clear of."""
    space = as_str(city.get("space"))
    if not space:
        return []
    x, y = geo.centre(space)
    owner = as_int(city.get("owner"), -1)
    fill = owner_fill(owner, colours)
    r = geo.size * 0.34
    ring = MOOD_RING.get(as_str(city.get("mood")))
    edge = r + (7 if ring is not None else 0)
    boxes: list[Box] = [(x - edge, y - edge, x + edge, y + edge)]
    if as_str(city.get("wonder")):
        boxes.append((x + r * 0.35, y - r * 1.6, x + r * 1.75, y - r * 0.35))
    if ring is not None:
        draw.ellipse((x - r - 7, y - r - 7, x + r + 7, y + r + 7), fill=ring, outline=INK, width=2)
    draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=INK, width=3)
    draw_text(draw, (x, y), str(as_int(city.get("size"), 1)), font(int(r * 1.1), "bold"), ink_on(fill), anchor="mm")
    draw_city_mark(image, draw, city, x, y, r)
    pieces = as_map(city.get("pieces"))
    bx = x - (len(pieces) * r * 0.62) / 2 + r * 0.31
    if pieces:
        boxes.append((bx - r * 0.3, y + r, bx + len(pieces) * r * 0.62 - r * 0.32, y + r * 1.42))
    for name, col in pieces.items():
        bfill = owner_fill(as_int(col, -1), colours)
        s = r * 0.3
        by = y + r + s * 0.4
        draw.rectangle((bx - s, by - s, bx + s, by + s), fill=bfill, outline=INK, width=2)
        draw_text(
            draw, (bx, by), BUILDING_LETTER.get(name, "?"), font(int(s * 1.5), "bold"), ink_on(bfill), anchor="mm"
        )
        bx += r * 0.62
    mood = as_str(city.get("mood"))
    if mood in ("happy", "angry"):
        mfont = font(max(11, int(geo.size * 0.16)), "bold")
        draw_text(draw, (x - r - 8, y + r * 0.55), mood, mfont, INK, anchor="rm", stroke=2, stroke_fill=WHITE)
        half = geo.size * 0.1
        boxes.append((x - r - 10 - text_width(mood, mfont), y + r * 0.55 - half, x - r - 6, y + r * 0.55 + half))
    return boxes


def _units(
    image: Image.Image, draw: ImageDraw.ImageDraw, geo: Geometry, units: list[Any], colours: Sequence[str]
) -> list[Box]:
    """Unit badges and ships with their cargo; returns the boxes they cover."""
    boxes: list[Box] = []
    stacks: dict[tuple[str, int], dict[str, int]] = {}
    ships: list[Mapping[str, Any]] = []
    cargo: dict[tuple[int, int], list[str]] = {}
    for raw in units:
        u = as_map(raw)
        owner = as_int(u.get("owner"), -1)
        kind = as_str(u.get("kind"))
        if kind == "ship":
            ships.append(u)
        elif as_int(u.get("aboard")):
            cargo.setdefault((owner, as_int(u.get("aboard"))), []).append(kind)
        else:
            stack = stacks.setdefault((as_str(u.get("space")), owner), {})
            stack[kind] = stack.get(kind, 0) + 1
    fnt = font(max(12, int(geo.size * 0.2)), "bold")
    offsets: dict[str, int] = {}
    for (space, owner), kinds in sorted(stacks.items()):
        x, y = geo.centre(space)
        k = offsets.get(space, 0)
        offsets[space] = k + 1
        text = " ".join(f"{'A' if kind == 'army' else 'S'}{n}" for kind, n in sorted(kinds.items()))
        fill = owner_fill(owner, colours)
        cx, cy = x + geo.size * 0.5, y - geo.size * 0.28 + k * geo.size * 0.32  # under the hex label
        w = geo.size * 0.2 * len(text) * 0.55 + 8
        badge = (cx - w, cy - geo.size * 0.14, cx + w, cy + geo.size * 0.14)
        draw.rounded_rectangle(badge, radius=5, fill=fill, outline=INK, width=2)
        boxes.append(badge)
        draw_text(draw, (cx, cy), text, fnt, ink_on(fill), anchor="mm")
    for i, s in enumerate(ships):
        owner = as_int(s.get("owner"), -1)
        x, y = geo.centre(as_str(s.get("space")))
        k = offsets.get(as_str(s.get("space")), 0)
        offsets[as_str(s.get("space"))] = k + 1
        del i
        fill = owner_fill(owner, colours)
        cy = y - geo.size * 0.3 + k * geo.size * 0.36
        hw = geo.size * 0.42
        hull = [
            (x - hw, cy - geo.size * 0.1),
            (x + hw, cy - geo.size * 0.1),
            (x + hw * 0.7, cy + geo.size * 0.16),
            (x - hw * 0.7, cy + geo.size * 0.16),
        ]
        outlined_polygon(image, hull, INK, 2, fill)
        boxes.append((x - hw, cy - geo.size * 0.1, x + hw, cy + geo.size * 0.16))
        load = cargo.get((owner, as_int(s.get("number"))), [])
        label = f"{as_int(s.get('number'))}" + (
            "+" + "".join("A" if c == "army" else "S" for c in load) if load else ""
        )
        draw_text(draw, (x, cy + geo.size * 0.03), label, fnt, ink_on(fill), anchor="mm")
    return boxes
