"""Piece icons drawn as simple vector shapes: temple, wall, city token, legion, galley, stone.

Why shapes instead of bitmaps: no art files to ship or license, they scale to any size, stay
crisp after the chat apps resize the image, and cost microseconds. Every owner-coloured icon
takes the owner's letter as well as the colour so pieces never rely on colour alone.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import ImageDraw

from renderer.base import (
    INK,
    RESOURCE_FILL,
    RESOURCE_INK,
    RESOURCE_LETTER,
    RGB,
    WHITE,
    draw_text,
    font,
)

Point = tuple[float, float]


def outlined(draw: ImageDraw.ImageDraw, points: Sequence[Point], fill: RGB, width: int = 2) -> None:
    """A filled polygon with a dark outline.

    Why not ``polygon(..., width=w)``: Pillow draws wide polygon outlines through a temporary
    mask image, which made icons the slowest part of a turn; a fill plus a closed wide line
    looks the same at icon sizes and costs a fraction.
    """
    draw.polygon(list(points), fill=fill)
    draw.line([*points, points[0]], fill=INK, width=width, joint="curve" if width > 2 else None)


def octagon(cx: float, cy: float, radius: float) -> list[Point]:
    """Corners of a regular octagon with flat top and sides."""
    return [
        (cx + radius * math.cos(math.radians(22.5 + 45 * k)), cy + radius * math.sin(math.radians(22.5 + 45 * k)))
        for k in range(8)
    ]


def star(cx: float, cy: float, radius: float) -> list[Point]:
    """Corners of a five-pointed star (marks the variant's special unit)."""
    points = []
    for k in range(10):
        r = radius if k % 2 == 0 else radius * 0.45
        a = math.radians(-90 + 36 * k)
        points.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return points


def temple(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float, fill: RGB = WHITE) -> None:
    """A temple: triangular pediment, three columns and a base, centred on (cx, cy)."""
    h = size
    w = size * 1.1
    top = cy - h / 2
    left, right = cx - w / 2, cx + w / 2
    roof_bottom = top + h * 0.36
    outlined(draw, [(cx, top), (right, roof_bottom), (left, roof_bottom)], fill)
    base_top = cy + h * 0.32
    draw.rectangle((left, base_top, right, cy + h / 2), fill=fill, outline=INK, width=2)
    col_w = max(2.0, w * 0.14)
    for i in range(3):
        x = left + w * (0.2 + 0.3 * i)
        draw.rectangle((x - col_w / 2, roof_bottom, x + col_w / 2, base_top), fill=fill, outline=INK, width=1)


def wall(draw: ImageDraw.ImageDraw, cx: float, cy: float, width: float, fill: RGB = (150, 150, 150)) -> None:
    """A crenellated town wall, ``width`` wide, centred on (cx, cy)."""
    h = width * 0.55
    left, right = cx - width / 2, cx + width / 2
    top = cy - h / 2 + h * 0.3
    draw.rectangle((left, top, right, cy + h / 2), fill=fill, outline=INK, width=2)
    merlon = width / 5
    for i in (0, 2, 4):
        x = left + merlon * i
        draw.rectangle((x, cy - h / 2, x + merlon, top), fill=fill, outline=INK, width=2)


def resource_chip(draw: ImageDraw.ImageDraw, cx: float, cy: float, radius: float, resource: str) -> None:
    """A round chip in the resource's colour with its letter (M / I / G / $)."""
    fill = RESOURCE_FILL.get(resource, (200, 200, 200))
    draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=fill, outline=INK, width=2)
    letter = RESOURCE_LETTER.get(resource, resource[:1].upper())
    draw_text(
        draw,
        (cx, cy),
        letter,
        font(max(10, round(radius * 1.25)), "bold"),
        RESOURCE_INK.get(resource, INK),
        anchor="mm",
    )


def city_token(
    draw: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    size: float,
    fill: RGB,
    ink: RGB,
    letter: str,
    resource: str,
) -> None:
    """A city token: a square with cut corners in the owner's colour with the owner's letter,
    and a resource chip on its lower-right corner (the token's resource colour and letter)."""
    half = size / 2
    cut = size * 0.16
    corners = [
        (cx - half + cut, cy - half),
        (cx + half - cut, cy - half),
        (cx + half, cy - half + cut),
        (cx + half, cy + half - cut),
        (cx + half - cut, cy + half),
        (cx - half + cut, cy + half),
        (cx - half, cy + half - cut),
        (cx - half, cy - half + cut),
    ]
    outlined(draw, corners, fill, 3)
    draw_text(draw, (cx - size * 0.08, cy - size * 0.06), letter, font(round(size * 0.55), "bold"), ink, anchor="mm")
    r = size * 0.27
    resource_chip(draw, cx + half - r * 0.45, cy + half - r * 0.45, r, resource)


def legion(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float, fill: RGB) -> None:
    """A legion: a square block (the wooden cube of the physical game)."""
    half = size / 2
    draw.rectangle((cx - half, cy - half, cx + half, cy + half), fill=fill, outline=INK, width=2)


def galley(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float, fill: RGB) -> None:
    """A galley: a boat hull (trapezoid) with a triangular sail."""
    w = size * 1.15
    hull_top = cy + size * 0.08
    bottom = cy + size / 2
    hull = [(cx - w / 2, hull_top), (cx + w / 2, hull_top), (cx + w * 0.32, bottom), (cx - w * 0.32, bottom)]
    outlined(draw, hull, fill)
    mast = cx - size * 0.02
    sail = [(mast, cy - size / 2), (mast, hull_top - 2), (cx + size * 0.36, hull_top - 2)]
    outlined(draw, sail, fill)


def stone(draw: ImageDraw.ImageDraw, cx: float, cy: float, radius: float, fill: RGB, ink: RGB, letter: str) -> None:
    """The octagonal rondel stone in the owner's colour, with the owner's letter."""
    outlined(draw, octagon(cx, cy, radius), fill, 3)
    draw_text(draw, (cx, cy), letter, font(round(radius * 1.1), "bold"), ink, anchor="mm")


def arrow_head(draw: ImageDraw.ImageDraw, tip: tuple[float, float], angle: float, size: float, fill: RGB) -> None:
    """A filled triangular arrow head pointing along ``angle`` (radians) with its tip at ``tip``."""
    x, y = tip
    back = angle + math.pi
    left = (x + size * math.cos(back + 0.45), y + size * math.sin(back + 0.45))
    right = (x + size * math.cos(back - 0.45), y + size * math.sin(back - 0.45))
    outlined(draw, [tip, left, right], fill)
