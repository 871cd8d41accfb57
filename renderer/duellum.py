"""Antike Duellum board image (public) and hand image (private), from a view dict only.

Layout of the public board, 1200 px wide; its height grows with what it must say:

    header: who is to move (or who won) and the score, big; the turn and awaited action
    map: 1200 x 750, the data file's coordinates scaled by 0.75 (regions, borders, pieces), legend
    rondel | last turn (every sentence, in the order it happened)
    nation panel (seat 0) | nation panel (seat 1)
    face-up event row with whole card texts, deck and discard; the bank

Why this shape: everything a player needs to decide a move is in one image, in the chat,
without a second message, and the order follows what a player looks for on a phone (whose
turn, the score, what changed, their own resources). Nothing is cut: every panel is
measured first and the image grows (see :func:`renderer.base.clip_watch`). The static map
(regions, borders, placed names, legend) is drawn once per process into
:data:`STATIC_LAYERS`; a turn copies it and draws only the changing parts.

Privacy: :func:`render` reads public fields only — never ``hand``, never the ``viewer``, and
``cards`` only for cards in the public event row — so every seat's view gives the same public
image. The hand is drawn by :func:`render_private`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw

from engine.core.text import count
from renderer.base import (
    INK,
    PAPER,
    RESOURCE_FILL,
    STATIC_LAYERS,
    WHITE,
    PaletteKind,
    draw_lines,
    draw_text,
    encode_board,
    fit_font,
    font,
    fonts_signature,
    line_height_of,
    new_canvas,
    reference_view,
    wrap,
)
from renderer.duellum_map import MapLayout, changed_regions, draw_base, draw_pieces
from renderer.duellum_model import Geometry, geometry, owner_of, owners
from renderer.duellum_nations import draw_nation, nation_height
from renderer.duellum_panels import (
    OWNED,
    bank_lines,
    draw_bank,
    draw_events,
    draw_header,
    draw_legend,
    draw_log,
    events_height,
    header_height,
    log_height,
    player_label,
    seat_flags,
)
from renderer.duellum_rondel import draw_rondel, draw_rondel_base
from renderer.placement import Box
from renderer.viewdata import as_list, as_map, as_opt_int, as_str, str_list

GAME_ID = "duellum"
WIDTH = 1200
MAP_H = 750
LEGEND_H = 84
RONDEL = 440  # the rondel's square
M = 10  # outer margin and gap between panels


@dataclass(frozen=True, slots=True)
class Base:
    """A cached static layer: the map with its legend (read-only, copied per turn) and placement."""

    image: Image.Image
    layout: MapLayout
    rondel: Image.Image
    spaces: tuple[str, ...]
    placed: dict[int, MapLayout] = field(default_factory=dict, compare=False, hash=False)

    def layout_at(self, top: int) -> MapLayout:
        """The map's placement for the map pasted ``top`` pixels down: kept per height of the
        header above it (a handful of heights recur; moving every node and slot was 0.3 ms)."""
        found = self.placed.get(top)
        if found is None:
            found = self.layout.moved(top)
            if len(self.placed) < 64:  # header heights are few; bound it all the same
                self.placed[top] = found
        return found


def _build_base(geo: Geometry) -> Base:
    image = new_canvas((WIDTH, MAP_H + LEGEND_H), PAPER)
    draw = ImageDraw.Draw(image)
    layout = draw_base(image, geo, (0, 0), (WIDTH, MAP_H))
    draw.line((0, MAP_H, WIDTH, MAP_H), fill=INK, width=2)
    draw_legend(draw, (0, MAP_H, WIDTH, MAP_H + LEGEND_H))
    rondel = new_canvas((RONDEL, RONDEL), PAPER)
    draw_rondel_base(ImageDraw.Draw(rondel), (0, 0, RONDEL, RONDEL), geo.rondel)
    return Base(image, layout, rondel, geo.rondel)


def base_for(view: Mapping[str, Any]) -> Base:
    """The static layer for this view's map, from the cache (built on first use)."""
    geo = geometry(view)
    key = (GAME_ID, as_str(view.get("map_side")), WIDTH, geo, fonts_signature())
    base: Base = STATIC_LAYERS.get(key, lambda: _build_base(geo))
    return base


@dataclass(frozen=True, slots=True)
class Layout:
    """Where each part of a turn's board goes (heights measured from the view)."""

    height: int
    header: Box
    map_top: int
    rondel: Box
    log: Box
    panels: tuple[Box, Box]
    events: Box
    bank: Box
    bank_lines: tuple[str, ...]


def layout(view: Mapping[str, Any]) -> Layout:
    """Measure every panel and stack them: nothing is cut, the board grows instead."""
    owner_list = owners(view)
    players = [as_map(p) for p in as_list(view.get("players"))]
    head_h = round(header_height(view, owner_list, WIDTH))
    y = head_h
    map_top = y
    y += MAP_H + LEGEND_H + M
    log_x = M + RONDEL + M
    band = max(RONDEL, round(log_height(view, WIDTH - log_x - M)))
    rondel = (M, y, M + RONDEL, y + RONDEL)
    log = (log_x, y, WIDTH - M, y + band)
    y += band + M
    half = (WIDTH - 3 * M) / 2
    panel_h = round(max((nation_height(p, half) for p in players), default=200.0))
    panels = ((M, y, M + half, y + panel_h), (2 * M + half, y, WIDTH - M, y + panel_h))
    y += panel_h + M
    ev_h = round(events_height(view, WIDTH - 2 * M))
    events = (M, y, WIDTH - M, y + ev_h)
    y += ev_h + 8
    lines = tuple(bank_lines(as_map(view.get("bank")), WIDTH - 2 * M))
    bank = (M, y, WIDTH - M, y + len(lines) * line_height_of(font(24)))
    y = round(bank[3]) + M
    return Layout(y, (0, 0, WIDTH, head_h), map_top, rondel, log, panels, events, bank, lines)


def board_image(view: Mapping[str, Any]) -> Image.Image:
    """The public board as a Pillow image (before PNG encoding; the benchmark times both)."""
    base = base_for(view)
    plan = layout(view)
    owner_list = owners(view)
    image = new_canvas((WIDTH, plan.height), PAPER)
    draw = ImageDraw.Draw(image)
    draw_header(draw, plan.header, view, owner_list)
    image.paste(base.image, (0, plan.map_top))
    draw_pieces(image, draw, view, base.layout_at(plan.map_top), owner_list, changed_regions(view))
    draw.line((0, plan.map_top - 1, WIDTH, plan.map_top - 1), fill=INK, width=2)
    image.paste(base.rondel, (round(plan.rondel[0]), round(plan.rondel[1])))
    players = [as_map(p) for p in as_list(view.get("players"))]
    move = as_map(as_map(view.get("last_turn")).get("rondel"))
    draw_rondel(draw, plan.rondel, base.spaces, players, owner_list, move)
    draw_log(image, draw, plan.log, view, owner_list)
    for seat, (player, box) in enumerate(zip(players, plan.panels, strict=False)):
        to_move, winner = seat_flags(view, seat)
        owner = owner_list[seat]
        draw_nation(image, draw, box, player, owner, player_label(view, owner), to_move=to_move, winner=winner)
    draw_events(image, draw, plan.events, view)
    draw_bank(draw, plan.bank, plan.bank_lines)
    return image


def palette_kind(view: Mapping[str, Any], image: str = "board") -> PaletteKind:
    """The boards (or hands) that share one palette: those of the same two nation colours.
    The colours named are those the reference positions may lack: the nations' own fills, a
    city's resource, an owned tech."""
    fills = tuple(o.fill for o in owners(view))
    return PaletteKind((GAME_ID, image, fills), (*fills, OWNED, *RESOURCE_FILL.values()), _REFERENCES[image])


REFERENCE_MOVES = 120  # automatic moves into a seeded game: pieces, cities, techs and cards out
REFERENCE_SEEDS = (3, 11)


def _reference_views(seat: int | None) -> list[Mapping[str, Any]]:
    """Canonical positions of both maps (seeded games of the automatic players, well under
    way), as ``seat`` sees them: what the Duellum palettes are chosen from, in every process
    alike (see :func:`renderer.base.kind_palette`)."""
    return [
        reference_view(GAME_ID, seed, 2, REFERENCE_MOVES, seat, {"map": side})
        for side, seed in zip(("A", "B"), REFERENCE_SEEDS, strict=True)
    ]


def _reference_boards() -> list[Image.Image]:
    return [board_image(view) for view in _reference_views(None)]


def _reference_hands() -> list[Image.Image]:
    hands = [hand_image(view) for seat in (0, 1) for view in _reference_views(seat)]
    return [hand for hand in hands if hand is not None]


_REFERENCES = {"board": _reference_boards, "hand": _reference_hands}


def render(view: Mapping[str, Any]) -> bytes:
    """The public board PNG for ``view`` (any seat's view or a spectator's: same image)."""
    return encode_board(board_image(view), palette_kind(view))


# ----------------------------------------------------------------------------- private hand

HAND_W = 1000


def render_private(view: Mapping[str, Any]) -> bytes | None:
    """The viewer's hand of event cards as a PNG; None for spectators or an empty hand."""
    image = hand_image(view)
    return None if image is None else encode_board(image, palette_kind(view, "hand"))


def hand_image(view: Mapping[str, Any]) -> Image.Image | None:
    """The viewer's hand of event cards, drawn; None for spectators or an empty hand."""
    seat = as_opt_int(view.get("viewer"))
    players = [as_map(p) for p in as_list(view.get("players"))]
    if seat is None or not 0 <= seat < len(players):
        return None
    hand = str_list(players[seat].get("hand"))
    if not hand:
        return None
    owner = owner_of(owners(view), seat)
    cards = as_map(view.get("cards"))
    body_font = font(28)
    lh = line_height_of(body_font)
    entries = []
    for card_id in hand:
        card = as_map(cards.get(card_id))
        name = as_str(card.get("name"), card_id.replace("_", " ").title())
        body = wrap(as_str(card.get("text")), body_font, HAND_W - 80)
        entries.append((name, body))
    heights = [70 + len(body) * lh + 16 for _, body in entries]
    height = 130 + sum(h + 16 for h in heights) + 10
    image = new_canvas((HAND_W, int(height)), PAPER)
    draw = ImageDraw.Draw(image)
    nation = owner.name if owner else f"Seat {seat + 1}"
    if owner is not None:
        draw.rectangle((0, 0, HAND_W, 80), fill=owner.fill)
    draw_text(
        draw,
        (24, 40),
        f"Your event cards — {nation}",
        fit_font(f"Your event cards — {nation}", 38, HAND_W - 48, "bold"),
        owner.ink if owner else INK,
        anchor="lm",
    )
    turn = view.get("turn")
    draw_text(
        draw,
        (24, 94),
        f"Private: only you see this image · turn {turn} · {count(len(hand), 'card')}",
        font(24),
        INK,
    )
    y = 140.0
    for (name, body), h in zip(entries, heights, strict=True):
        draw.rounded_rectangle((20, y, HAND_W - 20, y + h), radius=12, fill=WHITE, outline=INK, width=3)
        draw.rounded_rectangle((23, y + 3, HAND_W - 23, y + 56), radius=10, fill=(236, 214, 160))
        draw_text(draw, (40, y + 30), name, fit_font(name, 32, HAND_W - 80, "bold"), INK, anchor="lm")
        draw_lines(draw, (40, y + 68), body, body_font, INK, lh)
        y += h + 16
    return image
