"""Antike Duellum board image (public) and hand image (private), from a view dict only.

Layout of the public board, 1600 px wide, readable on a phone (labels ≥ 18 px):

    header: game, nations, turn; the awaited action; legend of borders/kinds
    map: 1600 x 1000, the data file's coordinates 1:1 (regions, borders, pieces)
    rondel | nation panel (seat 0) | nation panel (seat 1)
    face-up event row, deck and discard | last turn's summary

Why this shape: everything a player needs to decide a move is in one image, in the chat,
without a second message. The static parts (map base with placed names, rondel wheel,
frames, legend) are drawn once per process and map into :data:`STATIC_LAYERS`; a turn copies
that base and draws only the changing parts.

Privacy: :func:`render` reads public fields only — never ``hand``, never the ``viewer``, and
``cards`` only for cards in the public event row — so every seat's view gives the same public
image. The hand is drawn by :func:`render_private`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from renderer.base import (
    INK,
    PAPER,
    STATIC_LAYERS,
    WHITE,
    draw_lines,
    draw_text,
    encode_board,
    fit_text,
    font,
    fonts_signature,
    line_height_of,
    new_canvas,
    wrap,
)
from renderer.duellum_map import MapLayout, changed_regions, draw_base, draw_pieces
from renderer.duellum_model import Geometry, geometry, owner_of, owners
from renderer.duellum_panels import (
    draw_events,
    draw_events_base,
    draw_header,
    draw_legend,
    draw_log,
    draw_log_base,
    draw_nation,
    draw_nation_base,
    seat_flags,
)
from renderer.duellum_rondel import draw_rondel, draw_rondel_base
from renderer.placement import Box
from renderer.viewdata import as_list, as_map, as_opt_int, as_str, str_list

GAME_ID = "duellum"
WIDTH = 1600
HEADER_H = 100
MAP_H = 1000
BAND1_H = 440
BAND2_H = 250
HEIGHT = HEADER_H + MAP_H + BAND1_H + BAND2_H
B1 = HEADER_H + MAP_H
B2 = B1 + BAND1_H

HEADER_BOX: Box = (0, 0, 1070, HEADER_H)
LEGEND_BOX: Box = (1080, 4, WIDTH - 10, HEADER_H - 4)
RONDEL_BOX: Box = (8, B1 + 8, 460, B1 + BAND1_H - 4)
PANEL_BOXES: tuple[Box, Box] = ((468, B1 + 8, 1030, B1 + BAND1_H - 4), (1038, B1 + 8, WIDTH - 8, B1 + BAND1_H - 4))
EVENTS_BOX: Box = (8, B2 + 4, 1000, HEIGHT - 8)
LOG_BOX: Box = (1008, B2 + 4, WIDTH - 8, HEIGHT - 8)


@dataclass(frozen=True, slots=True)
class Base:
    """A cached static layer: the image (read-only, copied per turn) and the map placement."""

    image: Image.Image
    layout: MapLayout
    rondel: tuple[str, ...]


def _build_base(geo: Geometry) -> Base:
    image = new_canvas((WIDTH, HEIGHT), PAPER)
    draw = ImageDraw.Draw(image)
    layout = draw_base(image, geo, (0, HEADER_H), (WIDTH, MAP_H))
    draw.line((0, HEADER_H - 1, WIDTH, HEADER_H - 1), fill=INK, width=2)
    draw.line((0, B1, WIDTH, B1), fill=INK, width=2)
    draw_legend(draw, LEGEND_BOX)
    draw_rondel_base(draw, RONDEL_BOX, geo.rondel)
    for box in PANEL_BOXES:
        draw_nation_base(draw, box)
    draw_events_base(draw, EVENTS_BOX)
    draw_log_base(draw, LOG_BOX)
    return Base(image, layout, geo.rondel)


def base_for(view: Mapping[str, Any]) -> Base:
    """The static layer for this view's map, from the cache (built on first use)."""
    geo = geometry(view)
    key = (GAME_ID, as_str(view.get("map_side")), (WIDTH, HEIGHT), geo, fonts_signature())
    base: Base = STATIC_LAYERS.get(key, lambda: _build_base(geo))
    return base


def board_image(view: Mapping[str, Any]) -> Image.Image:
    """The public board as a Pillow image (before PNG encoding; the benchmark times both)."""
    base = base_for(view)
    image = base.image.copy()
    draw = ImageDraw.Draw(image)
    owner_list = owners(view)
    draw_header(draw, HEADER_BOX, view, owner_list, HEADER_BOX[2] - HEADER_BOX[0])
    draw_pieces(draw, view, base.layout, owner_list, changed_regions(view))
    players = [as_map(p) for p in as_list(view.get("players"))]
    draw_rondel(draw, RONDEL_BOX, base.rondel, players, owner_list, as_map(as_map(view.get("last_turn")).get("rondel")))
    for seat, (player, box) in enumerate(zip(players, PANEL_BOXES, strict=False)):
        to_move, winner = seat_flags(view, seat)
        draw_nation(draw, box, player, owner_list[seat], to_move=to_move, winner=winner)
    draw_events(draw, EVENTS_BOX, view)
    draw_log(draw, LOG_BOX, view, owner_list)
    return image


def render(view: Mapping[str, Any]) -> bytes:
    """The public board PNG for ``view`` (any seat's view or a spectator's: same image)."""
    return encode_board(board_image(view))


# ----------------------------------------------------------------------------- private hand

HAND_W = 1000


def render_private(view: Mapping[str, Any]) -> bytes | None:
    """The viewer's hand of event cards as a PNG; None for spectators or an empty hand."""
    seat = as_opt_int(view.get("viewer"))
    players = [as_map(p) for p in as_list(view.get("players"))]
    if seat is None or not 0 <= seat < len(players):
        return None
    hand = str_list(players[seat].get("hand"))
    if not hand:
        return None
    owner = owner_of(owners(view), seat)
    cards = as_map(view.get("cards"))
    title_font = font(34, "bold")
    name_font = font(28, "bold")
    body_font = font(24)
    lh = line_height_of(body_font)
    entries = []
    for card_id in hand:
        card = as_map(cards.get(card_id))
        name = as_str(card.get("name"), card_id.replace("_", " ").title())
        body = wrap(as_str(card.get("text")), body_font, HAND_W - 80)
        entries.append((name, body))
    heights = [64 + len(body) * lh + 16 for _, body in entries]
    height = 120 + sum(h + 16 for h in heights) + 10
    image = new_canvas((HAND_W, int(height)), PAPER)
    draw = ImageDraw.Draw(image)
    nation = owner.name if owner else f"Seat {seat + 1}"
    if owner is not None:
        draw.rectangle((0, 0, HAND_W, 76), fill=owner.fill)
    draw_text(
        draw,
        (24, 38),
        fit_text(f"Your event cards — {nation}", title_font, HAND_W - 48),
        title_font,
        owner.ink if owner else INK,
        anchor="lm",
    )
    turn = view.get("turn")
    draw_text(
        draw,
        (24, 90),
        f"Private: only you see this image · turn {turn} · {len(hand)} card{'s' if len(hand) != 1 else ''}",
        font(22),
        INK,
    )
    y = 130.0
    for (name, body), h in zip(entries, heights, strict=True):
        draw.rounded_rectangle((20, y, HAND_W - 20, y + h), radius=12, fill=WHITE, outline=INK, width=3)
        draw.rounded_rectangle((23, y + 3, HAND_W - 23, y + 52), radius=10, fill=(236, 214, 160))
        draw_text(draw, (40, y + 28), fit_text(name, name_font, HAND_W - 80), name_font, INK, anchor="lm")
        draw_lines(draw, (40, y + 64), body, body_font, INK, lh)
        y += h + 16
    return encode_board(image)
