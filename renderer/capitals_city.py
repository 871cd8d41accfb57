"""One city of The Capitals: its grid of tiles, construction markers, cubes and tourists.

Why the grid is cropped to the city: cities are unbounded but small (at most 19 tiles), so
each panel shows only the occupied cells plus one ring of free cells, with column letters and
row numbers exactly as players type them (``build market n12``). Cells built in the last
turn get the shared yellow highlight.

Why a tile shows its label (``King George`` rather than the whole name): the label is what
``moves`` lists and what a player types (``activate king``), and it fits a cell in letters
large enough for a phone (issue 17): a city panel is as wide as the board (1000 px), its cells
up to 140 px, tile labels 22 px bold; a word too long for its cell is hyphenated, never cut.
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
    fit_font,
    font,
    ink_on,
    player_fill,
    text_width,
)
from renderer.viewdata import as_bool, as_int, as_list, as_map, as_str

CELL: Final[int] = 140  # the largest cell; wide cities get smaller ones (see cell_size)
MIN_CELL: Final[int] = 96
RULER: Final[int] = 30
HEAD: Final[int] = 84
PANEL_W: Final[int] = 968  # the board's width less its margins
PAGE_MIN_W: Final[int] = 560  # a city alone (one image per city): never narrower
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


def cell_size(player: Mapping[str, Any], cap: int = CELL) -> int:
    """The cell's side: as large as the panel's width allows, at most :data:`CELL`.

    Decision: a city wider than the panel at :data:`MIN_CELL` makes the panel wider than the
    board rather than its letters smaller (it takes a sprawl of nine or more columns)."""
    x0, _, x1, _ = bounds(player)
    cols = x1 - x0 + 1
    return max(MIN_CELL, min(cap, (PANEL_W - RULER - 12) // cols))


def city_size(player: Mapping[str, Any], cap: int = CELL, min_width: int = PANEL_W) -> tuple[int, int]:
    """Pixel size of a city panel whose cells are at most ``cap`` pixels, at least
    ``min_width`` wide (the board's width in the whole-table image)."""
    x0, y0, x1, y1 = bounds(player)
    cell = cell_size(player, cap)
    width = max(min_width, RULER + (x1 - x0 + 1) * cell + 12)
    return width, HEAD + RULER + (y1 - y0 + 1) * cell + 10


def header_texts(player: Mapping[str, Any]) -> tuple[str, str]:
    """The panel's title (whose city) and its information line (station, tourists beside)."""
    head = f"{as_str(player.get('name'))}'s city"
    if as_bool(player.get("highest_culture")):
        head += "  ★ Highest Culture"
    station = as_map(player.get("station"))
    beside = [as_str(b) for b in as_list(player.get("beside"))]
    info = (f"Station level {as_int(station.get('level'))}: {count(as_int(station.get('cubes')), 'cube')}, "
            f"{count(as_int(station.get('activations')), 'activation')}")
    if beside:
        info += ". Tourists beside the city: " + ", ".join(beside)
    return head, info


def page_width(player: Mapping[str, Any]) -> int:
    """The narrowest panel that shows the city's header in full at its normal size.

    Why a city alone is as narrow as it can be: a phone scales a picture to about 400 px
    wide, so a narrower page shows its tiles larger (an early city of five columns is about
    740 px wide: its 22-px labels stay 12 px on the phone instead of 9)."""
    head, info = header_texts(player)
    return max(PAGE_MIN_W, round(text_width(head, font(26, "bold"))) + 24, round(text_width(info, font(22))) + 24)


def _col(x: int) -> str:
    return chr(ord("a") + x + 12) if 0 <= x + 12 < 26 else "?"


GRIDS: LayerCache[Image.Image] = LayerCache(maxsize=64)
"""Static layer: the rulers and grid lines of a city of a given extent (drawn once per size)."""


def _grid_layer(x0: int, y0: int, x1: int, y1: int, cell: int) -> Image.Image:
    """Rulers (column letters, row numbers) and cell outlines, ready to paste."""
    w = RULER + 2 + (x1 - x0 + 1) * cell + 1
    h = RULER + (y1 - y0 + 1) * cell + 1
    layer = Image.new("RGB", (w, h), PANEL)
    draw = ImageDraw.Draw(layer)
    ruler = font(22, "bold")
    gx, gy = RULER + 2, RULER
    for x in range(x0, x1 + 1):
        draw_text(draw, (gx + (x - x0) * cell + cell / 2, gy - RULER / 2), _col(x), ruler, MUTED, anchor="mm")
    for y in range(y0, y1 + 1):
        draw_text(draw, (2 + RULER / 2, gy + (y - y0) * cell + cell / 2), str(y + 13), ruler, MUTED, anchor="mm")
    for x in range(x0, x1 + 1):
        for y in range(y0, y1 + 1):
            px, py = gx + (x - x0) * cell, gy + (y - y0) * cell
            draw.rectangle((px, py, px + cell, py + cell), outline=(222, 214, 200))
    return layer


def display_label(tile: Mapping[str, Any]) -> str:
    """The label a move types, spelled as on the tile (``King``, ``Art Deco``, ``DaVinci``)."""
    name = as_str(tile.get("name"))
    label = as_str(tile.get("label"))
    words = name.replace("-", " ").split()
    n = len(label.split()) if label and label != as_str(tile.get("slug")) else len(words)
    return " ".join(words[:n]) or name


def hyphenated(text: str, fnt: Any, width: float) -> list[str]:
    """Word-wrapped lines; a word wider than ``width`` is split with a hyphen (never cut)."""
    pieces: list[str] = []
    for word in text.split():
        while text_width(word, fnt) > width and len(word) > 3:
            cut = len(word) - 2
            while cut > 2 and text_width(word[:cut] + "-", fnt) > width:
                cut -= 1
            pieces.append(word[:cut] + "-")
            word = word[cut:]
        pieces.append(word)
    out: list[str] = []
    for piece in pieces:
        if out and not out[-1].endswith("-") and text_width(f"{out[-1]} {piece}", fnt) <= width:
            out[-1] = f"{out[-1]} {piece}"
        else:
            out.append(piece)
    return out


def _label_lines(tile: Mapping[str, Any], cell: int) -> tuple[list[str], Any]:
    """The tile's whole name when it fits two lines in bold 22 to 19 px without a hyphen,
    else its label (the first words of the name, what a move types) down to 16 px, else the
    label hyphenated at the largest size."""
    size = 22 if cell >= 120 else 20
    texts = [as_str(tile.get("name")), display_label(tile)]
    for text, smallest in zip(texts, (19, 16), strict=True):
        for s in range(size, smallest - 1, -1):
            lines = hyphenated(text, font(s, "bold"), cell - 10)
            if len(lines) <= 2 and not any(line.endswith("-") for line in lines):
                return lines, font(s, "bold")
    return hyphenated(texts[1], font(size, "bold"), cell - 10), font(size, "bold")


def draw_city(image: Image.Image, draw: ImageDraw.ImageDraw, origin: tuple[int, int],
              player: Mapping[str, Any], recent: list[Mapping[str, Any]], cap: int = CELL,
              min_width: int = PANEL_W) -> None:
    """Draw one city panel with its top-left corner at ``origin`` (cells at most ``cap`` px,
    the panel at least ``min_width`` wide)."""
    ox, oy = origin
    w, h = city_size(player, cap, min_width)
    cell = cell_size(player, cap)
    seat = as_int(player.get("seat"))
    fill = colour_fill(as_str(player.get("colour")))
    draw.rectangle((ox, oy, ox + w - 1, oy + h - 1), fill=PANEL, outline=PANEL_EDGE, width=2)
    draw.rectangle((ox, oy, ox + w - 1, oy + 38), fill=fill)
    head, info = header_texts(player)
    draw_text(draw, (ox + 10, oy + 19), head, font(26, "bold"), ink_on(fill), anchor="lm")
    draw_text(draw, (ox + 10, oy + 61), info, fit_font(info, 22, w - 20, min_size=18), INK, anchor="lm")
    x0, y0, x1, y1 = bounds(player)
    gx, gy = ox + RULER + 4, oy + HEAD + RULER
    grid = GRIDS.get((x0, y0, x1, y1, cell), lambda: _grid_layer(x0, y0, x1, y1, cell))
    image.paste(grid, (ox + 2, gy - RULER))
    hot = {as_str(r.get("cell")) for r in recent if as_int(r.get("seat"), -1) == seat and r.get("cell")}
    small = font(20, "bold")
    for c in as_list(player.get("city")):
        spot = as_map(c)
        x, y = as_int(spot.get("x")), as_int(spot.get("y"))
        px, py = gx + (x - x0) * cell, gy + (y - y0) * cell
        if as_str(spot.get("cell")) in hot:
            draw.rectangle((px - 4, py - 4, px + cell + 4, py + cell + 4), fill=HIGHLIGHT, outline=INK)
        tile = as_map(spot.get("tile"))
        if as_bool(spot.get("lake")):
            draw.rectangle((px + 3, py + 3, px + cell - 3, py + cell - 3), fill=LAKE_FILL, outline=INK)
            draw_text(draw, (px + cell / 2, py + cell / 2), "Lake", font(22, "bold"), INK, anchor="mm")
            continue
        tfill = TYPE_FILL.get(as_str(tile.get("type")), (200, 200, 200))
        draw.rectangle((px + 3, py + 3, px + cell - 3, py + cell - 3), fill=tfill, outline=INK, width=2)
        ink = ink_on(tfill)
        lines, fnt = _label_lines(tile, cell)
        step = fnt.size + 3 if hasattr(fnt, "size") else 24
        for i, line in enumerate(lines):
            draw_text(draw, (px + cell / 2, py + 8 + i * step), line, fnt, ink, anchor="ma")
        if tile.get("act") is not None:
            draw_text(draw, (px + 8, py + cell - 8), f"⚡{as_int(tile.get('act'))}", small, ink, anchor="ld")
        cubes = as_int(spot.get("cubes"))
        if cubes:
            draw.rectangle((px + cell - 36, py + cell - 34, px + cell - 8, py + cell - 8), fill=CUBE, outline=INK)
            draw_text(draw, (px + cell - 22, py + cell - 21), str(cubes), small, INK, anchor="mm")
        r = max(9, cell // 14)
        for i, owner in enumerate(as_list(spot.get("tourists"))):
            cx, cy = px + 14 + r + i * (2 * r + 3), py + cell - 30 - 2 * r
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour_fill(as_str(owner)), outline=(255, 255, 255),
                         width=2)
    for m in as_list(player.get("markers")):
        marker = as_map(m)
        vx, vy = as_int(marker.get("x")), as_int(marker.get("y"))
        px, py = gx + (vx - x0) * cell, gy + (vy - y0) * cell
        colour = (200, 30, 30) if as_bool(marker.get("full")) else INK
        draw.line((px - 16, py, px + 16, py), fill=colour, width=7)
        draw.line((px, py - 16, px, py + 16), fill=colour, width=7)
