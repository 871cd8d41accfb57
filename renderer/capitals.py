"""The Capitals images from a view dict only: the central board, one image per city, the
whole table in one image, and a seat's private prosperity hand.

What a turn post shows (issue 17): the central board (round track, Start track, Projects
area, one row of tracks per city; 1000 px wide) is the board image (:func:`render`), and each
city is a page of its own (:func:`render_pages`, about 1000 x 900-1350 px), posted after it
(an album in Telegram, extra files in Discord).

Why pages rather than one tall image: a phone shows a picture about 400 px wide, and Telegram
stores a photo at most 1280-2560 px on its long side. The whole table in one image
(:func:`table_image`, about 1000 x 5000-7500 px for five players) ended up 230-450 px wide in
the chat, tile names unreadable and zooming in adding nothing. A city page stays under about
1400 px, so the chat keeps it near full size: tile labels of 22 px are 9 px on a 400-px
phone view and sharp when zoomed in. :func:`table_image` stays for benchmarks and tests.

Privacy: the images read ``players`` (public facts only: the hand appears there as a size),
``rows``, ``start_track``, ``recent`` and the headline keys — never ``hand``; the hand is
drawn by :func:`render_private`. Prestige shows as "hidden" when the view hides it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from PIL import Image, ImageDraw

from renderer.base import INK, PAPER, draw_text, encode_board, font, new_canvas, wrap
from renderer.capitals_board import PAD, WIDTH, draw_board, plan_board
from renderer.capitals_city import CELL, MIN_CELL, TYPE_FILL, city_size, draw_city, page_width
from renderer.viewdata import as_list, as_map, as_str

GAP: Final[int] = 14
PHOTO_SUM: Final[int] = 9900  # Telegram: a photo's width + height at most 10000 (some margin)


def table_image(view: Mapping[str, Any]) -> Image.Image:
    """The central board and every city in one image (before PNG encoding; the benchmark
    times both). Not posted to chats any more (see the module note): too tall for a photo."""
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
    """One city alone (a page of the turn post): as narrow as its grid and header allow, so
    a phone shows it larger."""
    players = [as_map(p) for p in as_list(view.get("players"))]
    player = players[seat]
    narrow = page_width(player)
    w, h = city_size(player, min_width=narrow)
    image = new_canvas((w + 16, h + 16), PAPER)
    recent = [as_map(r) for r in as_list(view.get("recent"))]
    draw_city(image, ImageDraw.Draw(image), (8, 8), player, recent, min_width=narrow)
    return image


def render(view: Mapping[str, Any]) -> bytes:
    """The central board PNG (any seat's view gives the same image except the viewer's own
    prestige when scores are closed); the cities follow as :func:`render_pages`."""
    return encode_board(board_image(view))


def render_pages(view: Mapping[str, Any]) -> list[bytes]:
    """One PNG per city, in seat order (the order of the board's rows)."""
    return [encode_board(city_image(view, seat)) for seat in range(len(as_list(view.get("players"))))]


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
