"""The Duellum map: a static base (drawn once per map and cached) and the pieces of a turn.

Why the split: regions, borders and names never change during a game and are most of the
drawing work (plus label placement), so :func:`draw_base` runs once per process and map;
each turn only copies that base and calls :func:`draw_pieces` for cities, temples, walls,
units and the highlight of what the last turn changed.

Map coordinates are the data file's 1600 x 1000 canvas, drawn 1:1 at an offset. Regions are
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
    SEA_INK,
    WHITE,
    draw_text,
    font,
    text_width,
    tint,
    wrap,
)
from renderer.duellum_model import Geometry, Owner, owner_of
from renderer.placement import Box, Placer, Segment
from renderer.viewdata import as_bool, as_int, as_list, as_map, as_str, str_list

R = 30  # region disc radius (nodes are at least ~99 px apart on both stand-in maps)
NAME_SIZE = 20
NAME_MAX_W = 190
CHIP_H = 30
CHIP_W = 112  # reserved width: owner tab + legion and galley counts
CHIP_TAB = 24
TOKEN = 42
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


def draw_base(image: Image.Image, geo: Geometry, origin: tuple[int, int], size: tuple[int, int]) -> MapLayout:
    """Draw the static map onto ``image`` (area ``size`` at ``origin``) and return its layout."""
    ox, oy = origin
    draw = ImageDraw.Draw(image)
    w, h = size
    draw.rectangle((ox, oy, ox + w - 1, oy + h - 1), fill=SEA_BG)
    nodes = {r.id: (r.x + ox, r.y + oy) for r in geo.regions}

    # Soft "territory" blobs give land masses a shape beyond the discs. (Seas have none: the
    # background is sea already, and every blob edge costs PNG bytes on every turn's board.)
    for kinds, radius, amount in ((("MIXED", "LAND"), 70, 0.45),):
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
            draw.ellipse((x - R, y - R, x + R, y + R), fill=fill, outline=INK, width=5)
        else:
            draw.ellipse((x - R + 4, y - R + 4, x + R - 4, y + R - 4), fill=fill, outline=INK, width=2)

    placer = Placer(bounds=(ox + 2, oy + 2, ox + w - 2, oy + h - 2))
    for r in geo.regions:
        x, y = nodes[r.id]
        placer.add_node(x, y, R + 2)
        if r.city_site:  # where a temple and a wall may appear later
            placer.labels.append(_temple_box(x, y))
            placer.labels.append(_wall_box(x, y))
    placer.add_segments(segments)

    for idx, r in enumerate(geo.regions):
        _place_name(draw, placer, r.name, r.kind, nodes[r.id], idx, r.city_site)

    slots: dict[str, tuple[Slot, ...]] = {}
    first = {r.id: _place_slot(placer, nodes[r.id], i, ()) for i, r in enumerate(geo.regions)}
    for i, r in enumerate(geo.regions):
        slots[r.id] = (first[r.id], _place_slot(placer, nodes[r.id], i, (first[r.id],), soft=True))
    return MapLayout(origin=origin, nodes=nodes, slots=slots)


TEMPLE = 36  # icon sizes: big enough to recognise at phone width, in boxes no label may cover
WALL = 40


def _temple_box(x: float, y: float) -> Box:
    return (x - R - 22, y - R - 20, x - R + 18, y - R + 18)


def _wall_box(x: float, y: float) -> Box:
    return (x + R - 18, y - R - 14, x + R + 24, y - R + 14)


def _draw_border(draw: ImageDraw.ImageDraw, p: tuple[int, int], q: tuple[int, int], colour: str) -> Segment:
    """One border line between two node centres, trimmed to the disc edges."""
    (x1, y1), (x2, y2) = p, q
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    a = (x1 + ux * (R - 2), y1 + uy * (R - 2))
    b = (x2 - ux * (R - 2), y2 - uy * (R - 2))
    rgb = BORDER_COLOUR.get(colour, BORDER_COLOUR["RED"])
    if colour == "REDBLUE":
        draw.line((a, b), fill=WHITE, width=13)
        draw.line((a, b), fill=rgb, width=9)
    elif colour == "BLUE":
        dash, gap = 14.0, 9.0
        t = 0.0
        span = max(0.0, length - 2 * (R - 2))
        while t < span:
            e = min(span, t + dash)
            draw.line(((a[0] + ux * t, a[1] + uy * t), (a[0] + ux * e, a[1] + uy * e)), fill=rgb, width=4)
            t = e + gap
    else:
        draw.line((a, b), fill=rgb, width=4)
    return (a[0], a[1], b[0], b[1])


def _place_name(
    draw: ImageDraw.ImageDraw,
    placer: Placer,
    name: str,
    kind: str,
    node: tuple[int, int],
    idx: int,
    city_site: bool,
) -> None:
    """Place and draw a region name: below the disc if free, else above, right or left."""
    fnt = font(NAME_SIZE, "bold" if city_site else ("italic" if kind == "SEA" else "regular"))
    lines = wrap(name, fnt, NAME_MAX_W, max_lines=2)
    lh = NAME_SIZE + 3
    tw = max(text_width(line, fnt) for line in lines) + 4
    th = lh * len(lines)
    x, y = node
    gap = R + 11  # clear of the highlight ring
    candidates: list[Box] = [
        (x - tw / 2, y + gap, x + tw / 2, y + gap + th),
        (x - tw / 2, y - gap - th, x + tw / 2, y - gap),
        (x + gap, y - th / 2, x + gap + tw, y + th / 2),
        (x - gap - tw, y - th / 2, x - gap, y + th / 2),
        (x + gap - 8, y + gap - 8, x + gap - 8 + tw, y + gap - 8 + th),
        (x - gap + 8 - tw, y + gap - 8, x - gap + 8, y + gap - 8 + th),
        (x + gap - 8, y - gap + 8 - th, x + gap - 8 + tw, y - gap + 8),
        (x - gap + 8 - tw, y - gap + 8 - th, x - gap + 8, y - gap + 8),
    ]
    box = placer.place(candidates, own_node=idx)
    colour = SEA_INK if kind == "SEA" else INK
    cx = (box[0] + box[2]) / 2
    for i, line in enumerate(lines):
        draw_text(draw, (cx, box[1] + i * lh), line, fnt, colour, anchor="ma", stroke=3, stroke_fill=WHITE)


def _place_slot(placer: Placer, node: tuple[int, int], idx: int, taken: Sequence[Slot], soft: bool = False) -> Slot:
    """Reserve a box for a unit chip next to a node (right, left, above, below, diagonals)."""
    x, y = node
    w, h = CHIP_W, CHIP_H
    g = R + 5  # close to its own disc, so a chip never seems to belong to a neighbour
    options: list[tuple[Box, str]] = [
        ((x + g, y - h / 2, x + g + w, y + h / 2), "l"),
        ((x - g - w, y - h / 2, x - g, y + h / 2), "r"),
        ((x + g - 10, y - g - h + 8, x + g - 10 + w, y - g + 8), "l"),
        ((x - g + 10 - w, y - g - h + 8, x - g + 10, y - g + 8), "r"),
        ((x + g - 10, y + g - 8, x + g - 10 + w, y + g - 8 + h), "l"),
        ((x - g + 10 - w, y + g - 8, x - g + 10, y + g - 8 + h), "r"),
        ((x - w / 2, y - g - h, x + w / 2, y - g), "c"),
        ((x - w / 2, y + g, x + w / 2, y + g + h), "c"),
    ]
    options = [o for o in options if all(o[0] != t.box for t in taken)]
    box = placer.place([o[0] for o in options], own_node=idx, soft=soft)
    align = next(a for b, a in options if b == box)
    return Slot(box, align)


# ----------------------------------------------------------------------------- per-turn pieces


def draw_pieces(
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
            draw.ellipse((x - R - 11, y - R - 11, x + R + 11, y + R + 11), outline=INK, width=13)
            draw.ellipse((x - R - 9, y - R - 9, x + R + 9, y + R + 9), outline=HIGHLIGHT, width=9)
    for item in as_list(view.get("regions")):
        region = as_map(item)
        rid = as_str(region.get("id"))
        node = layout.nodes.get(rid)
        if node is None:
            continue
        city = region.get("city")
        if isinstance(city, Mapping):
            _draw_city(draw, node, city, owner_list)
        units = [as_map(u) for u in as_list(region.get("units"))]
        units = [u for u in units if as_int(u.get("legion")) > 0 or as_int(u.get("galley")) > 0 or u.get("special")]
        units.sort(key=lambda u: as_int(u.get("owner")))
        for slot, unit in zip(layout.slots.get(rid, ()), units, strict=False):
            owner = owner_of(owner_list, unit.get("owner"))
            if owner is not None:
                counts = (as_int(unit.get("legion")), as_int(unit.get("galley")), as_bool(unit.get("special")))
                draw_chip(draw, slot, owner, counts, node)


def _draw_city(
    draw: ImageDraw.ImageDraw, node: tuple[int, int], city: Mapping[str, Any], owner_list: Sequence[Owner]
) -> None:
    x, y = node
    owner = owner_of(owner_list, city.get("owner"))
    fill = owner.fill if owner else (190, 190, 190)
    ink = owner.ink if owner else INK
    letter = owner.letter if owner else "?"
    icons.city_token(draw, x, y, TOKEN, fill, ink, letter, as_str(city.get("resource"), "marble").lower())
    if as_bool(city.get("temple")):
        tb = _temple_box(x, y)
        icons.temple(draw, (tb[0] + tb[2]) / 2, (tb[1] + tb[3]) / 2, TEMPLE)
    if as_bool(city.get("wall")):
        wb = _wall_box(x, y)
        icons.wall(draw, (wb[0] + wb[2]) / 2, (wb[1] + wb[3]) / 2, WALL)


def chip_width(legions: int, galleys: int, special: bool = False) -> float:
    """Width of a unit chip: owner tab, one icon and number per unit type, a star for the
    variant's special unit (Admiral / General-unit)."""
    fnt = font(20, "bold")
    w = CHIP_TAB + 6.0
    for n in (legions, galleys):
        if n > 0:
            w += 22 + text_width(str(n), fnt) + 7
    return w + (24 if special else 0)


def draw_chip(
    draw: ImageDraw.ImageDraw,
    slot: Slot,
    owner: Owner,
    counts: tuple[int, int, bool],
    node: tuple[int, int],
) -> None:
    """A unit chip: the owner's colour tab with its letter, then legion ■ and galley counts,
    tied to its region's disc by a short leader line (chips of neighbours can sit close)."""
    legions, galleys, special = counts
    w = chip_width(legions, galleys, special)
    left, top, right, _ = slot.box
    if slot.align == "r":
        left = right - w
    elif slot.align == "c":
        left = (left + right - w) / 2
    bottom = top + CHIP_H
    nx, ny = node
    near = (min(max(nx, left), left + w), min(max(ny, top), bottom))
    dist = math.hypot(near[0] - nx, near[1] - ny)
    if dist > R:
        edge = (nx + (near[0] - nx) * R / dist, ny + (near[1] - ny) * R / dist)
        draw.line((edge, near), fill=INK, width=4)
    draw.rectangle((left, top, left + w, bottom), fill=PANEL, outline=INK, width=2)
    draw.rectangle((left, top, left + CHIP_TAB, bottom), fill=owner.fill, outline=INK, width=2)
    draw_text(draw, (left + CHIP_TAB / 2, top + CHIP_H / 2), owner.letter, font(18, "bold"), owner.ink, anchor="mm")
    fnt = font(20, "bold")
    x = left + CHIP_TAB + 6
    cy = top + CHIP_H / 2
    for n, kind in ((legions, "legion"), (galleys, "galley")):
        if n <= 0:
            continue
        if kind == "legion":
            icons.legion(draw, x + 9, cy, 16, owner.fill)
        else:
            icons.galley(draw, x + 10, cy, 18, owner.fill)
        draw_text(draw, (x + 22, cy), str(n), fnt, INK, anchor="lm")
        x += 22 + text_width(str(n), fnt) + 7
    if special:
        icons.outlined(draw, icons.star(x + 10, cy, 11), owner.fill)


def changed_regions(view: Mapping[str, Any]) -> list[str]:
    """Region ids the last turn changed (public: from ``last_turn``)."""
    return str_list(as_map(view.get("last_turn")).get("regions"))
