"""The Duellum map: a static base (drawn once per map and cached) and the pieces of a turn.

Why the split: regions, borders and names never change during a game and are most of the
drawing work (plus label placement), so :func:`draw_base` runs once per process and map;
each turn only copies that base and calls :func:`draw_pieces` for cities, temples, walls,
units and the highlight of what the last turn changed.

Map coordinates are the data file's 1600 x 1000 canvas scaled by
:data:`renderer.duellum_model.MAP_SCALE` (to 1200 x 750: a phone then shows the board at a third
of its size, not a quarter), drawn at an offset. Regions are
discs coloured by kind (LAND tan / MIXED green / SEA light blue) with a thick outline for
city sites; borders are lines: RED solid, BLUE dashed, REDBLUE thick purple — the line
style tells them apart without colour.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from renderer import icons
from renderer.base import (
    BORDER_COLOUR,
    HIGHLIGHT,
    INK,
    KIND_FILL,
    PANEL,
    PIECES,
    SEA_INK,
    WHITE,
    draw_text,
    font,
    masked_art,
    text_width,
    tint,
    wrap,
)
from renderer.duellum_model import Geometry, Owner, owner_of
from renderer.placement import Box, Placer, Segment, overlap
from renderer.viewdata import as_bool, as_int, as_list, as_map, as_str, str_list

R = 23  # region disc radius (nodes are at least ~74 px apart on both stand-in maps, scaled)
NAME_SIZE = 17
NAME_MAX_W = 150
CHIP_H = 25
CHIP_W = 90  # reserved width: owner tab + legion and galley counts
CHIP_TAB = 19
TOKEN = 33
CHIP_FONT = 18
SEA_BG = (206, 226, 240)


@dataclass(frozen=True, slots=True)
class Slot:
    """Where a unit chip goes: its reserved box and which side hugs the node."""

    box: Box
    align: str  # "l": chip starts at box left; "r": ends at box right; "c": centred


@dataclass(frozen=True, slots=True)
class MapLayout:
    """Placement computed with the base and reused every turn."""

    origin: tuple[int, int]
    nodes: Mapping[str, tuple[int, int]]  # region id -> canvas centre
    slots: Mapping[str, tuple[Slot, ...]]  # region id -> chip slots, best first
    names: tuple[Box, ...] = ()  # where the region names were drawn

    def moved(self, dy: int) -> MapLayout:
        """The same placement for the map pasted ``dy`` pixels lower (pieces are then drawn
        straight onto the board instead of onto a copy of the map)."""
        if dy == 0:
            return self

        def box(b: Box) -> Box:
            return (b[0], b[1] + dy, b[2], b[3] + dy)

        nodes = {k: (x, y + dy) for k, (x, y) in self.nodes.items()}
        slots = {k: tuple(Slot(box(s.box), s.align) for s in v) for k, v in self.slots.items()}
        return MapLayout((self.origin[0], self.origin[1] + dy), nodes, slots, tuple(box(b) for b in self.names))


def draw_base(image: Image.Image, geo: Geometry, origin: tuple[int, int], size: tuple[int, int]) -> MapLayout:
    """Draw the static map onto ``image`` (area ``size`` at ``origin``) and return its layout."""
    ox, oy = origin
    draw = ImageDraw.Draw(image)
    w, h = size
    draw.rectangle((ox, oy, ox + w - 1, oy + h - 1), fill=SEA_BG)
    nodes = {r.id: (r.x + ox, r.y + oy) for r in geo.regions}

    # Soft "territory" blobs give land masses a shape beyond the discs. (Seas have none: the
    # background is sea already, and every blob edge costs PNG bytes on every turn's board.)
    for kinds, radius, amount in ((("MIXED", "LAND"), 53, 0.45),):
        for r in geo.regions:
            if r.kind in kinds:
                x, y = nodes[r.id]
                fill = tint(KIND_FILL.get(r.kind, KIND_FILL["LAND"]), amount)
                draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=fill)

    segments: list[Segment] = []
    for a, b, colour in geo.borders:
        if a in nodes and b in nodes:
            segments.append(_draw_border(draw, nodes[a], nodes[b], colour))

    for r in geo.regions:
        x, y = nodes[r.id]
        fill = KIND_FILL.get(r.kind, KIND_FILL["LAND"])
        if r.city_site:
            draw.ellipse((x - R, y - R, x + R, y + R), fill=fill, outline=INK, width=4)
        else:
            draw.ellipse((x - R + 3, y - R + 3, x + R - 3, y + R - 3), fill=fill, outline=INK, width=2)

    placer = Placer(bounds=(ox + 2, oy + 2, ox + w - 2, oy + h - 2))
    for r in geo.regions:
        x, y = nodes[r.id]
        placer.add_node(x, y, R + 2)
        if r.city_site:  # where a temple and a wall may appear later
            placer.labels.append(_temple_box(x, y))
            placer.labels.append(_wall_box(x, y))
    placer.add_segments(segments)

    names: list[Box] = []
    for idx, r in enumerate(geo.regions):
        names.append(_place_name(draw, placer, r.name, r.kind, nodes[r.id], idx, r.city_site))

    slots: dict[str, tuple[Slot, ...]] = {}
    icons = [f(*nodes[r.id]) for r in geo.regions if r.city_site for f in (_temple_box, _wall_box)]
    keep = _Keep(tuple(nodes.values()), tuple(icons), tuple(names))
    first = {r.id: _place_slot(placer, nodes[r.id], i, (), keep) for i, r in enumerate(geo.regions)}
    for i, r in enumerate(geo.regions):
        slots[r.id] = (first[r.id], _place_slot(placer, nodes[r.id], i, (first[r.id],), keep, soft=True))
    return MapLayout(origin=origin, nodes=nodes, slots=slots, names=tuple(names))


TEMPLE = 28  # icon sizes: big enough to recognise at phone width, in boxes no label may cover
WALL = 31


def _temple_box(x: float, y: float) -> Box:
    return (x - R - 17, y - R - 15, x - R + 14, y - R + 14)


def _wall_box(x: float, y: float) -> Box:
    return (x + R - 14, y - R - 11, x + R + 19, y - R + 11)


def _draw_border(draw: ImageDraw.ImageDraw, p: tuple[int, int], q: tuple[int, int], colour: str) -> Segment:
    """One border line between two node centres, trimmed to the disc edges."""
    (x1, y1), (x2, y2) = p, q
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    a = (x1 + ux * (R - 2), y1 + uy * (R - 2))
    b = (x2 - ux * (R - 2), y2 - uy * (R - 2))
    rgb = BORDER_COLOUR.get(colour, BORDER_COLOUR["RED"])
    if colour == "REDBLUE":
        draw.line((a, b), fill=WHITE, width=10)
        draw.line((a, b), fill=rgb, width=7)
    elif colour == "BLUE":
        dash, gap = 11.0, 7.0
        t = 0.0
        span = max(0.0, length - 2 * (R - 2))
        while t < span:
            e = min(span, t + dash)
            draw.line(((a[0] + ux * t, a[1] + uy * t), (a[0] + ux * e, a[1] + uy * e)), fill=rgb, width=3)
            t = e + gap
    else:
        draw.line((a, b), fill=rgb, width=3)
    return (a[0], a[1], b[0], b[1])


def _place_name(
    draw: ImageDraw.ImageDraw,
    placer: Placer,
    name: str,
    kind: str,
    node: tuple[int, int],
    idx: int,
    city_site: bool,
) -> Box:
    """Place and draw a region name: below the disc if free, else above, right or left."""
    fnt = font(NAME_SIZE, "bold" if city_site else ("italic" if kind == "SEA" else "regular"))
    lines = wrap(name, fnt, NAME_MAX_W, max_lines=2)
    lh = NAME_SIZE + 2
    tw = max(text_width(line, fnt) for line in lines) + 4
    th = lh * len(lines)
    x, y = node
    gap = R + 8  # clear of the highlight ring
    candidates: list[Box] = [
        (x - tw / 2, y + gap, x + tw / 2, y + gap + th),
        (x - tw / 2, y - gap - th, x + tw / 2, y - gap),
        (x + gap, y - th / 2, x + gap + tw, y + th / 2),
        (x - gap - tw, y - th / 2, x - gap, y + th / 2),
        (x + gap - 6, y + gap - 6, x + gap - 6 + tw, y + gap - 6 + th),
        (x - gap + 6 - tw, y + gap - 6, x - gap + 6, y + gap - 6 + th),
        (x + gap - 6, y - gap + 6 - th, x + gap - 6 + tw, y - gap + 6),
        (x - gap + 6 - tw, y - gap + 6 - th, x - gap + 6, y - gap + 6),
    ]
    box = placer.place(candidates, own_node=idx)
    colour = SEA_INK if kind == "SEA" else INK
    cx = (box[0] + box[2]) / 2
    for i, line in enumerate(lines):
        draw_text(draw, (cx, box[1] + i * lh), line, fnt, colour, anchor="ma", stroke=3, stroke_fill=WHITE)
    return box


@dataclass(frozen=True, slots=True)
class _Keep:
    """What a unit chip must keep clear of: other regions' nodes and every temple and wall."""

    nodes: tuple[tuple[int, int], ...]
    icons: tuple[Box, ...]
    names: tuple[Box, ...] = ()

    def on_names(self, box: Box) -> float:
        """Area of ``box`` over region names (a chip must not hide where it is)."""
        return sum(overlap(box, name) for name in self.names)

    def clear(self, box: Box) -> bool:
        """True if ``box`` covers no temple or wall."""
        return all(overlap(box, icon) == 0 for icon in self.icons)

    def near(self, box: Box, node: tuple[int, int]) -> bool:
        """True if ``box`` is nearer ``node`` than any other node (so the chip cannot be read
        as a neighbour's)."""
        own = _gap(box, node)
        return all(_gap(box, other) > own + 4 for other in self.nodes if other != node)


def _aligned(box: Box, align: str, width: float) -> Box:
    """The part of a slot a chip ``width`` wide takes, by the slot's alignment."""
    left, top, right, bottom = box
    if align == "r":
        left = right - width
    elif align == "c":
        left = (left + right - width) / 2
    return (left, top, left + width, bottom)


def _gap(box: Box, node: tuple[int, int]) -> float:
    """Distance from a node's centre to the nearest point of ``box``."""
    x = min(max(node[0], box[0]), box[2])
    y = min(max(node[1], box[1]), box[3])
    return math.hypot(x - node[0], y - node[1])


def _place_slot(
    placer: Placer, node: tuple[int, int], idx: int, taken: Sequence[Slot], keep: _Keep, soft: bool = False
) -> Slot:
    """Reserve a box for a unit chip next to a node (right, left, above, below, diagonals):
    the one that collides least with names and other chips, with a heavy penalty for covering
    a temple or wall and a lighter one for lying nearer another region than its own."""
    x, y = node
    w, h = CHIP_W, CHIP_H
    g = R + 4  # close to its own disc, so a chip never seems to belong to a neighbour
    options: list[tuple[Box, str]] = [
        ((x + g, y - h / 2, x + g + w, y + h / 2), "l"),
        ((x - g - w, y - h / 2, x - g, y + h / 2), "r"),
        ((x + g - 8, y - g - h + 6, x + g - 8 + w, y - g + 6), "l"),
        ((x - g + 8 - w, y - g - h + 6, x - g + 8, y - g + 6), "r"),
        ((x + g - 8, y + g - 6, x + g - 8 + w, y + g - 6 + h), "l"),
        ((x - g + 8 - w, y + g - 6, x - g + 8, y + g - 6 + h), "r"),
        ((x - w / 2, y - g - h, x + w / 2, y - g), "c"),
        ((x - w / 2, y + g, x + w / 2, y + g + h), "c"),
        # Further choices for crowded corners of a map: level with the disc's top or bottom.
        ((x + g - 2, y - h - 2, x + g - 2 + w, y - 2), "l"),
        ((x + g - 2, y + 2, x + g - 2 + w, y + h + 2), "l"),
        ((x - g + 2 - w, y - h - 2, x - g + 2, y - 2), "r"),
        ((x - g + 2 - w, y + 2, x - g + 2, y + h + 2), "r"),
    ]
    options = [o for o in options if all(o[0] != t.box for t in taken)]

    single = chip_width(9, 0)  # the usual chip: one unit type; the slot is for the widest

    def badness(i: int) -> tuple[float, int]:
        box, side = options[i]
        chip = _aligned(box, side, single)
        penalty = (0.0 if keep.clear(chip) else 15000.0) + (0.0 if keep.near(chip, node) else 3000.0)
        penalty += 20.0 * keep.on_names(chip)
        return placer.score(box, idx) + 40.0 * i + penalty, i

    box, align = options[min(range(len(options)), key=badness)]
    (placer.soft if soft else placer.labels).append(box)
    return Slot(box, align)


# ----------------------------------------------------------------------------- per-turn pieces


def draw_pieces(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: Mapping[str, Any],
    layout: MapLayout,
    owner_list: Sequence[Owner],
    changed: Sequence[str],
) -> None:
    """Draw the last turn's highlight rings, then cities (token, temple, wall) and unit chips."""
    for rid in changed:
        node = layout.nodes.get(rid)
        if node is not None:
            x, y = node
            draw.ellipse((x - R - 9, y - R - 9, x + R + 9, y + R + 9), outline=INK, width=11)
            draw.ellipse((x - R - 7, y - R - 7, x + R + 7, y + R + 7), outline=HIGHLIGHT, width=7)
    for item in as_list(view.get("regions")):
        region = as_map(item)
        rid = as_str(region.get("id"))
        node = layout.nodes.get(rid)
        if node is None:
            continue
        city = region.get("city")
        if isinstance(city, Mapping):
            _draw_city(image, node, city, owner_list)
        units = [as_map(u) for u in as_list(region.get("units"))]
        units = [u for u in units if as_int(u.get("legion")) > 0 or as_int(u.get("galley")) > 0 or u.get("special")]
        units.sort(key=lambda u: as_int(u.get("owner")))
        for slot, unit in zip(layout.slots.get(rid, ()), units, strict=False):
            owner = owner_of(owner_list, unit.get("owner"))
            if owner is not None:
                counts = (as_int(unit.get("legion")), as_int(unit.get("galley")), as_bool(unit.get("special")))
                draw_chip(image, draw, slot, owner, counts, node)


def _draw_city(
    image: Image.Image, node: tuple[int, int], city: Mapping[str, Any], owner_list: Sequence[Owner]
) -> None:
    """A city token with its temple and wall, pasted from :func:`renderer.base.masked_art`
    (the same few tokens recur on every board: drawing one cost ~85 µs, pasting ~20 µs)."""
    x, y = node
    owner = owner_of(owner_list, city.get("owner"))
    fill = owner.fill if owner else (190, 190, 190)
    ink = owner.ink if owner else INK
    letter = owner.letter if owner else "?"
    resource = as_str(city.get("resource"), "marble").lower()
    temple, wall = as_bool(city.get("temple")), as_bool(city.get("wall"))

    def art(pen: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
        cx, cy = box[0] + CITY_LEFT, box[1] + CITY_UP  # the node, in the tile
        icons.city_token(pen, cx, cy, TOKEN, fill, ink, letter, resource)
        if temple:
            tb = _temple_box(cx, cy)
            icons.temple(pen, (tb[0] + tb[2]) / 2, (tb[1] + tb[3]) / 2, TEMPLE)
        if wall:
            wb = _wall_box(cx, cy)
            icons.wall(pen, (wb[0] + wb[2]) / 2, (wb[1] + wb[3]) / 2, WALL)

    box = (x - CITY_LEFT, y - CITY_UP, x + CITY_RIGHT, y + CITY_DOWN)
    masked_art(image, box, ("duellum-city", fill, ink, letter, resource, temple, wall), art, margin=3, cache=PIECES)


CITY_LEFT, CITY_UP, CITY_RIGHT, CITY_DOWN = R + 18, R + 16, R + 20, 22  # a city's art around its node


def chip_width(legions: int, galleys: int, special: bool = False) -> float:
    """Width of a unit chip: owner tab, one icon and number per unit type, a star for the
    variant's special unit (Admiral / General-unit)."""
    fnt = font(CHIP_FONT, "bold")
    w = CHIP_TAB + 5.0
    for n in (legions, galleys):
        if n > 0:
            w += 18 + text_width(str(n), fnt) + 6
    return w + (20 if special else 0)


def draw_chip(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    slot: Slot,
    owner: Owner,
    counts: tuple[int, int, bool],
    node: tuple[int, int],
) -> None:
    """A unit chip: the owner's colour tab with its letter, then legion ■ and galley counts,
    tied to its region's disc by a short leader line (chips of neighbours can sit close).
    The chip itself is pasted from :func:`renderer.base.masked_art` (the same chips recur)."""
    legions, galleys, special = counts
    w = chip_width(legions, galleys, special)
    left, top, right, _ = slot.box
    if slot.align == "r":
        left = right - w
    elif slot.align == "c":
        left = (left + right - w) / 2
    # Decision: a chip's corner sits on a whole pixel (at most half a pixel from its slot's
    # exact corner), so that the chip drawn for one region is the sprite pasted for every
    # region (a fractional corner made each region's chip a sprite of its own).
    left, top = round(left), round(top)
    bottom = top + CHIP_H
    nx, ny = node
    near = (min(max(nx, left), left + w), min(max(ny, top), bottom))
    dist = math.hypot(near[0] - nx, near[1] - ny)
    if dist > R:
        edge = (nx + (near[0] - nx) * R / dist, ny + (near[1] - ny) * R / dist)
        draw.line((edge, near), fill=INK, width=3)

    def art(pen: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
        _draw_chip_body(pen, box, owner, counts)

    key = ("duellum-chip", owner.fill, owner.ink, owner.letter, counts)
    masked_art(image, (left, top, left + w, bottom), key, art, margin=2, cache=PIECES)


def _draw_chip_body(
    draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], owner: Owner, counts: tuple[int, int, bool]
) -> None:
    legions, galleys, special = counts
    left, top, right, bottom = box
    draw.rectangle((left, top, right, bottom), fill=PANEL, outline=INK, width=2)
    draw.rectangle((left, top, left + CHIP_TAB, bottom), fill=owner.fill, outline=INK, width=2)
    draw_text(draw, (left + CHIP_TAB / 2, top + CHIP_H / 2), owner.letter, font(16, "bold"), owner.ink, anchor="mm")
    fnt = font(CHIP_FONT, "bold")
    x = left + CHIP_TAB + 5
    cy = top + CHIP_H / 2
    for n, kind in ((legions, "legion"), (galleys, "galley")):
        if n <= 0:
            continue
        if kind == "legion":
            icons.legion(draw, x + 7, cy, 13, owner.fill)
        else:
            icons.galley(draw, x + 8, cy, 15, owner.fill)
        draw_text(draw, (x + 18, cy), str(n), fnt, INK, anchor="lm")
        x += 18 + text_width(str(n), fnt) + 6
    if special:
        icons.outlined(draw, icons.star(x + 9, cy, 9), owner.fill)


def changed_regions(view: Mapping[str, Any]) -> list[str]:
    """Region ids the last turn changed (public: from ``last_turn``)."""
    return str_list(as_map(view.get("last_turn")).get("regions"))
