"""The Capitals images from a view dict only: the public board with every city, one city
alone, and a seat's private prosperity hand.

Layout of the public image, 1000 px wide and as tall as it needs: the central board (round
track, Start track, Projects area, one row of tracks per city) first, then each city full
width below it, one under the other. Each city is also available alone (:func:`city_image`)
for chats that post one image per city.

Why one tall image (issue 17): a phone shows a picture about 400 px wide; two cities side by
side left tile names at 5 px. Full-width cities keep every tile label at 22 px (9 px on the
phone). A 5-player table is about 1000 x 5000 px, inside Telegram's photo limits (width +
height <= 10000, ratio <= 20); Telegram stores photos at most about 2560 px on the long side,
so the chat copy is about 500 px wide: as legible as the 400-px check, but zooming in adds
nothing (a chat that wants more can post :func:`city_image` per city or the PNG as a file).

Privacy: :func:`render` reads ``players`` (public facts only: the hand appears there as a
size), ``rows``, ``start_track``, ``recent`` and the headline keys — never ``hand``; the hand
is drawn by :func:`render_private`. Prestige shows as "hidden" when the view hides it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from PIL import Image, ImageDraw

from renderer.base import INK, PAPER, draw_text, encode_board, font, new_canvas, wrap
from renderer.capitals_board import PAD, WIDTH, draw_board, plan_board
from renderer.capitals_city import CELL, MIN_CELL, TYPE_FILL, city_size, draw_city
from renderer.viewdata import as_list, as_map, as_str

GAP: Final[int] = 14
PHOTO_SUM: Final[int] = 9900  # Telegram: a photo's width + height at most 10000 (some margin)


def table_image(view: Mapping[str, Any]) -> Image.Image:
    """The public board and every city (before PNG encoding; the benchmark times both)."""
    players = [as_map(p) for p in as_list(view.get("players"))]
    plan = plan_board(view)
    cap = CELL
    while True:
        sizes = [city_size(p, cap) for p in players]
        widest = max([WIDTH, *(w + 2 * PAD for w, _ in sizes)])
        height = plan.height + sum(h + GAP for _, h in sizes) + PAD
        # Telegram refuses a photo whose width + height passes 10000: big cities get smaller cells.
        if widest + height <= PHOTO_SUM or cap <= MIN_CELL:
            break
        cap -= 4
    image = new_canvas((widest, height), PAPER)
    draw = ImageDraw.Draw(image)
    y = draw_board(image, draw, view, plan)
    recent = [as_map(r) for r in as_list(view.get("recent"))]
    for p, (_, h) in zip(players, sizes, strict=True):
        draw_city(image, draw, (PAD, y), p, recent, cap)
        y += h + GAP
    return image


def board_image(view: Mapping[str, Any]) -> Image.Image:
    """The central board alone."""
    plan = plan_board(view)
    image = new_canvas((WIDTH, plan.height), PAPER)
    draw_board(image, ImageDraw.Draw(image), view, plan)
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
    return encode_board(table_image(view))


def render_private(view: Mapping[str, Any]) -> bytes | None:
    """The viewer's prosperity hand, or None for a spectator or an empty hand (720 px wide,
    texts of 20 px and more, the requirement wrapped rather than cut)."""
    hand = [as_map(t) for t in as_list(view.get("hand"))]
    if not hand:
        return None
    width = 720
    name_font, req_font = font(24, "bold"), font(20)
    blocks = [wrap(f"needs the {as_str(tile.get('requirement'))}", req_font, width - 64) for tile in hand]
    heights = [44 + 26 * len(lines) for lines in blocks]
    image = new_canvas((width, 64 + sum(h + 8 for h in heights)), PAPER)
    draw = ImageDraw.Draw(image)
    draw_text(draw, (16, 30), "Your prosperity tiles (hidden from the others)", font(24, "bold"), anchor="lm")
    y = 60
    for tile, lines, h in zip(hand, blocks, heights, strict=True):
        draw.rounded_rectangle((16, y, width - 16, y + h), 8, fill=TYPE_FILL["PRO"], outline=INK)
        draw_text(draw, (28, y + 8), as_str(tile.get("name")), name_font, (255, 255, 255))
        for i, line in enumerate(lines):
            draw_text(draw, (28, y + 40 + 26 * i), line, req_font, (255, 255, 255))
        y += h + 8
    return encode_board(image)
