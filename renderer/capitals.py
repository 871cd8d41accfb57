"""The Capitals images from a view dict only: the public board with every city, one city
alone, and a seat's private prosperity hand.

Layout of the public image, 1200 px wide: the central board (round track, Start track,
Projects area, one row of tracks per city) on top, then the city grids two per row. Each
city is also available alone (:func:`city_image`) for chats that post one image per city.

Privacy: :func:`render` reads ``players`` (public facts only: the hand appears there as a
size), ``rows``, ``start_track``, ``recent`` and the headline keys — never ``hand``; the hand
is drawn by :func:`render_private`. Prestige shows as "hidden" when the view hides it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from PIL import Image, ImageDraw

from renderer.base import INK, PAPER, draw_text, encode_png, font, new_canvas, wrap
from renderer.capitals_board import WIDTH, board_height, draw_board
from renderer.capitals_city import TYPE_FILL, city_size, draw_city
from renderer.viewdata import as_list, as_map, as_str

GAP: Final[int] = 14


def _layout(view: Mapping[str, Any]) -> tuple[list[Mapping[str, Any]], list[list[int]], list[int]]:
    players = [as_map(p) for p in as_list(view.get("players"))]
    rows: list[list[int]] = []
    current: list[int] = []
    used = 16
    for i, p in enumerate(players):
        w, _ = city_size(p)
        if current and used + w > WIDTH - 16:
            rows.append(current)
            current, used = [], 16
        current.append(i)
        used += w + GAP
    if current:
        rows.append(current)
    heights = [max(city_size(players[i])[1] for i in row) for row in rows]
    return players, rows, heights


def table_image(view: Mapping[str, Any]) -> Image.Image:
    """The public board and every city (before PNG encoding; the benchmark times both)."""
    players, rows, heights = _layout(view)
    widest = max([16 + sum(city_size(players[i])[0] + GAP for i in row) for row in rows] + [WIDTH])
    height = board_height(view) + sum(h + GAP for h in heights) + 16
    image = new_canvas((widest, height), PAPER)
    draw = ImageDraw.Draw(image)
    y = draw_board(image, draw, view)
    recent = [as_map(r) for r in as_list(view.get("recent"))]
    for row, h in zip(rows, heights, strict=True):
        x = 16
        for i in row:
            draw_city(image, draw, (x, y), players[i], recent)
            x += city_size(players[i])[0] + GAP
        y += h + GAP
    return image


def board_image(view: Mapping[str, Any]) -> Image.Image:
    """The central board alone."""
    image = new_canvas((WIDTH, board_height(view)), PAPER)
    draw_board(image, ImageDraw.Draw(image), view)
    return image


def city_image(view: Mapping[str, Any], seat: int) -> Image.Image:
    """One city alone (for one image per city)."""
    players = [as_map(p) for p in as_list(view.get("players"))]
    player = players[seat]
    w, h = city_size(player)
    image = new_canvas((w + 16, h + 16), PAPER)
    draw_city(image, ImageDraw.Draw(image), (8, 8), player, [as_map(r) for r in as_list(view.get("recent"))])
    return image


def render(view: Mapping[str, Any]) -> bytes:
    """The public PNG (any seat's view gives the same image except the viewer's own prestige
    when scores are closed)."""
    return encode_png(table_image(view))


def render_private(view: Mapping[str, Any]) -> bytes | None:
    """The viewer's prosperity hand, or None for a spectator or an empty hand."""
    hand = [as_map(t) for t in as_list(view.get("hand"))]
    if not hand:
        return None
    width, row_h = 720, 64
    image = new_canvas((width, 60 + row_h * len(hand)), PAPER)
    draw = ImageDraw.Draw(image)
    draw_text(draw, (16, 28), "Your prosperity tiles (hidden from the others)", font(22, "bold"), anchor="lm")
    for i, tile in enumerate(hand):
        y = 56 + i * row_h
        draw.rounded_rectangle((16, y, width - 16, y + row_h - 8), 8, fill=TYPE_FILL["PRO"], outline=INK)
        draw_text(draw, (28, y + 18), as_str(tile.get("name")), font(19, "bold"), (255, 255, 255), anchor="lm")
        req = wrap(f"needs the {as_str(tile.get('requirement'))}", font(16), width - 60, max_lines=1)[0]
        draw_text(draw, (28, y + 42), req, font(16), (255, 255, 255), anchor="lm")
    return encode_png(image)
