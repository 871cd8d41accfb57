"""One city of The Capitals: its grid of tiles, construction markers, cubes and tourists.

Why the grid is cropped to the city: cities are unbounded but small (at most 19 tiles), so
each panel shows only the occupied cells plus one ring of free cells, with column letters and
row numbers exactly as players type them (``build market n12``). Cells built in the last
turn get the shared yellow highlight.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from PIL import Image, ImageDraw

from engine.core.text import count
from renderer.base import (
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    RGB,
    LayerCache,
    draw_text,
    font,
    ink_on,
    player_fill,
    wrap,
)
from renderer.viewdata import as_bool, as_int, as_list, as_map, as_str

CELL: Final[int] = 74
RULER: Final[int] = 22
HEAD: Final[int] = 58
TYPE_FILL: Final[Mapping[str, RGB]] = {
    "RES": (236, 196, 70),
    "IND": (150, 120, 96),
    "COM": (84, 140, 210),
    "TOU": (86, 170, 96),
    "PUB": (206, 92, 80),
    "PRO": (150, 100, 180),
}
LAKE_FILL: Final[RGB] = (140, 196, 236)
CUBE: Final[RGB] = (240, 130, 30)
COLOUR_FILL: Final[Mapping[str, RGB]] = {
    "red": (196, 40, 40),
    "blue": (36, 84, 180),
    "green": (40, 130, 60),
    "purple": (128, 64, 160),
    "black": (40, 40, 40),
    "grey": (150, 150, 150),
}


def colour_fill(name: str) -> RGB:
    """Fill of a seat colour word (the neutral is grey)."""
    return COLOUR_FILL.get(name, player_fill(name))


def bounds(player: Mapping[str, Any]) -> tuple[int, int, int, int]:
    """Cell range shown: every tile and marker corner, plus one free ring."""
    xs: list[int] = []
    ys: list[int] = []
    for c in as_list(player.get("city")):
        xs.append(as_int(as_map(c).get("x")))
        ys.append(as_int(as_map(c).get("y")))
    for m in as_list(player.get("markers")):
        xs.extend((as_int(as_map(m).get("x")) - 1, as_int(as_map(m).get("x"))))
        ys.extend((as_int(as_map(m).get("y")) - 1, as_int(as_map(m).get("y"))))
    if not xs:
        xs, ys = [0], [0]
    return min(xs) - 1, min(ys) - 1, max(xs) + 1, max(ys) + 1


def city_size(player: Mapping[str, Any]) -> tuple[int, int]:
    """Pixel size of a city panel."""
    x0, y0, x1, y1 = bounds(player)
    return RULER + (x1 - x0 + 1) * CELL + 8, HEAD + RULER + (y1 - y0 + 1) * CELL + 8


def _col(x: int) -> str:
    return chr(ord("a") + x + 12) if 0 <= x + 12 < 26 else "?"


GRIDS: LayerCache[Image.Image] = LayerCache(maxsize=64)
"""Static layer: the rulers and grid lines of a city of a given extent (drawn once per size)."""


def _grid_layer(x0: int, y0: int, x1: int, y1: int) -> Image.Image:
    """Rulers (column letters, row numbers) and cell outlines, ready to paste."""
    w = RULER + 2 + (x1 - x0 + 1) * CELL + 1
    h = RULER + (y1 - y0 + 1) * CELL + 1
    layer = Image.new("RGB", (w, h), PANEL)
    draw = ImageDraw.Draw(layer)
    small = font(13)
    gx, gy = RULER + 2, RULER
    for x in range(x0, x1 + 1):
        draw_text(draw, (gx + (x - x0) * CELL + CELL / 2, gy - 11), _col(x), small, MUTED, anchor="mm")
    for y in range(y0, y1 + 1):
        draw_text(draw, (2 + RULER / 2, gy + (y - y0) * CELL + CELL / 2), str(y + 13), small, MUTED, anchor="mm")
    for x in range(x0, x1 + 1):
        for y in range(y0, y1 + 1):
            px, py = gx + (x - x0) * CELL, gy + (y - y0) * CELL
            draw.rectangle((px, py, px + CELL, py + CELL), outline=(222, 214, 200))
    return layer


def draw_city(image: Image.Image, draw: ImageDraw.ImageDraw, origin: tuple[int, int],
              player: Mapping[str, Any], recent: list[Mapping[str, Any]]) -> None:
    """Draw one city panel with its top-left corner at ``origin``."""
    ox, oy = origin
    w, h = city_size(player)
    seat = as_int(player.get("seat"))
    fill = colour_fill(as_str(player.get("colour")))
    draw.rectangle((ox, oy, ox + w - 1, oy + h - 1), fill=PANEL, outline=PANEL_EDGE, width=2)
    draw.rectangle((ox, oy, ox + w - 1, oy + 28), fill=fill)
    name = as_str(player.get("name"))
    station = as_map(player.get("station"))
    head = f"{name}'s city"
    if as_bool(player.get("highest_culture")):
        head += "  ★ Highest Culture"
    draw_text(draw, (ox + 8, oy + 14), head, font(18, "bold"), ink_on(fill), anchor="lm")
    beside = [as_str(b) for b in as_list(player.get("beside"))]
    info = (f"Station level {as_int(station.get('level'))}: {count(as_int(station.get('cubes')), 'cube')}, "
            f"{count(as_int(station.get('activations')), 'activation')}")
    if beside:
        info += "  Tourists beside: " + ", ".join(beside)
    draw_text(draw, (ox + 8, oy + 43), info, font(15), INK, anchor="lm")
    x0, y0, x1, y1 = bounds(player)
    gx, gy = ox + RULER + 4, oy + HEAD + RULER
    small = font(13)
    grid = GRIDS.get((x0, y0, x1, y1), lambda: _grid_layer(x0, y0, x1, y1))
    image.paste(grid, (ox + 2, gy - RULER))
    hot = {as_str(r.get("cell")) for r in recent if as_int(r.get("seat"), -1) == seat and r.get("cell")}
    name_font = font(12, "bold")
    for c in as_list(player.get("city")):
        cell = as_map(c)
        x, y = as_int(cell.get("x")), as_int(cell.get("y"))
        px, py = gx + (x - x0) * CELL, gy + (y - y0) * CELL
        if as_str(cell.get("cell")) in hot:
            draw.rectangle((px - 3, py - 3, px + CELL + 3, py + CELL + 3), fill=HIGHLIGHT, outline=INK)
        tile = as_map(cell.get("tile"))
        if as_bool(cell.get("lake")):
            draw.rectangle((px + 2, py + 2, px + CELL - 2, py + CELL - 2), fill=LAKE_FILL, outline=INK)
            draw_text(draw, (px + CELL / 2, py + CELL / 2), "Lake", name_font, INK, anchor="mm")
            continue
        tfill = TYPE_FILL.get(as_str(tile.get("type")), (200, 200, 200))
        draw.rectangle((px + 2, py + 2, px + CELL - 2, py + CELL - 2), fill=tfill, outline=INK)
        ink = ink_on(tfill)
        lines = wrap(as_str(tile.get("name")), name_font, CELL - 8, max_lines=3)
        for i, line in enumerate(lines):
            draw_text(draw, (px + CELL / 2, py + 6 + i * 14), line, name_font, ink, anchor="ma")
        if tile.get("act") is not None:
            draw_text(draw, (px + 5, py + CELL - 6), f"⚡{as_int(tile.get('act'))}", small, ink, anchor="ld")
        cubes = as_int(cell.get("cubes"))
        if cubes:
            draw.rectangle((px + CELL - 24, py + CELL - 20, px + CELL - 6, py + CELL - 5), fill=CUBE, outline=INK)
            draw_text(draw, (px + CELL - 15, py + CELL - 12), str(cubes), small, INK, anchor="mm")
        for i, owner in enumerate(as_list(cell.get("tourists"))):
            cx, cy = px + 34 + i * 11, py + CELL - 12
            draw.ellipse((cx - 6, cy - 6, cx + 6, cy + 6), fill=colour_fill(as_str(owner)), outline=(255, 255, 255))
    for m in as_list(player.get("markers")):
        marker = as_map(m)
        vx, vy = as_int(marker.get("x")), as_int(marker.get("y"))
        px, py = gx + (vx - x0) * CELL, gy + (vy - y0) * CELL
        colour = (200, 30, 30) if as_bool(marker.get("full")) else INK
        draw.line((px - 12, py, px + 12, py), fill=colour, width=5)
        draw.line((px, py - 12, px, py + 12), fill=colour, width=5)
