"""7 Wonders table image (public) and hand image (private), from a view dict only.

Layout of the public table, 1600 px wide, readable on a phone with 8 players (text ≥ 18 px):

    header: Age and turn, what the table waits for, passing direction, piles, legend | seating ring
    city panels, 2 columns x up to 4 rows (9 cities with the Free City: 5 rows), each with
    the city's wonder and stages, coins, shields, conflict/debt/diplomacy tokens, hand size,
    science totals, last turn's actions, and its structures grouped by colour

Why a grid of panels: every city is public and players compare neighbours constantly, so all
of them are shown at once at the same size; panel rows grow with the structures built.

Privacy: :func:`render` reads the view only through :func:`renderer.seven_wonders_model.cities`
and the header's list of public keys — never ``hand``, ``free_city_hand``, ``teammate_hand``,
``tucked``, ``my_picks``, ``prompt`` or ``viewer`` — and looks up ``cards`` only for built or
last-turn cards, so every seat's view gives the same public image. Who has chosen is shown
(tick or hourglass), what they chose is not. The hand is drawn by :func:`render_private`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from PIL import Image, ImageDraw

from renderer.base import INK, PAPER, RGB, PaletteKind, encode_board, new_canvas, reference_view, tint
from renderer.seven_wonders_hand import render_hand
from renderer.seven_wonders_header import draw_header, header_height, legend_image
from renderer.seven_wonders_icons import (
    COIN_FILL,
    LOSS_FILL,
    RES_FILL,
    SHIELD_FILL,
    TICK_FILL,
    VP_FILL,
    WAIT_FILL,
    WIN_FILL,
)
from renderer.seven_wonders_items import DIPLOMACY_FILL
from renderer.seven_wonders_model import CARD_FILL, cities
from renderer.seven_wonders_panels import (
    LAST_EDGE,
    LAST_FILL,
    STAGE_FILL,
    TITLE_FILL,
    draw_panel,
    plan_panel,
)
from renderer.viewdata import as_map

GAME_ID: Final[str] = "seven-wonders"
WIDTH: Final[int] = 1200
MARGIN: Final[int] = 14
GAP: Final[int] = 14
COLUMNS: Final[int] = 2
PANEL_W: Final[float] = (WIDTH - 2 * MARGIN - GAP * (COLUMNS - 1)) / COLUMNS


def table_image(view: Mapping[str, Any]) -> Image.Image:
    """The public table as a Pillow image (before PNG encoding; the benchmark times both).

    With an odd number of cities the last one spans the whole width (a 3-player table used
    to leave a quarter of the image empty); the symbol key is a short strip at the bottom.
    """
    city_list = cities(view)
    cards = as_map(view.get("cards"))
    full_w = WIDTH - 2 * MARGIN
    widths = [PANEL_W] * len(city_list)
    if len(city_list) % COLUMNS:
        widths[-1] = full_w
    plans = [plan_panel(c, w, cards) for c, w in zip(city_list, widths, strict=True)]
    head_h = header_height(view, city_list, WIDTH)
    rows = [list(range(i, min(i + COLUMNS, len(plans)))) for i in range(0, len(plans), COLUMNS)]
    row_heights = [max(plans[i].height for i in row) for row in rows]
    legend = legend_image(WIDTH - 2 * MARGIN)
    height = int(head_h + MARGIN + sum(h + GAP for h in row_heights) + legend.height + MARGIN)
    image = new_canvas((WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    draw_header(image, draw, view, city_list, (0, 0, WIDTH, head_h))
    draw.line((0, head_h + 2, WIDTH, head_h + 2), fill=INK, width=2)
    y = head_h + MARGIN
    for r, row in enumerate(rows):
        for k, index in enumerate(row):
            x = MARGIN + k * (PANEL_W + GAP)
            box = (x, y, x + widths[index], y + row_heights[r])
            draw_panel(image, draw, box, city_list[index], plans[index])
        y += row_heights[r] + GAP
    image.paste(legend, (MARGIN, round(y)))
    return image


PALETTE_COLOURS: Final[tuple[RGB, ...]] = (
    *CARD_FILL.values(),
    *(tint(fill, 0.8) for fill in CARD_FILL.values()),  # the card chips' backgrounds
    *RES_FILL.values(),
    COIN_FILL,
    VP_FILL,
    SHIELD_FILL,
    WIN_FILL,
    LOSS_FILL,
    TICK_FILL,
    WAIT_FILL,
    TITLE_FILL,
    LAST_FILL,
    STAGE_FILL,
    DIPLOMACY_FILL,
    LAST_EDGE,
)
"""Flat colours a table may show although the first one a process draws did not (a blue card
on a table of brown ones, a built stage, a diplomacy token)."""
REFERENCE_GAMES = ((3, 5, 11), (7, 9, 16))  # (players, seed, picks each) of the reference positions


def _reference_views(seat: int | None) -> list[Mapping[str, Any]]:
    """Canonical positions (seeded games of the automatic players: 3 players in Age II, 7 in
    Age III) as ``seat`` sees them: what the 7 Wonders palettes are chosen from, in every
    process alike (see :func:`renderer.base.kind_palette`)."""
    return [reference_view(GAME_ID, seed, players, picks * players, seat) for players, seed, picks in REFERENCE_GAMES]


def _reference_tables() -> list[Image.Image]:
    return [table_image(view) for view in _reference_views(None)]


def _reference_hands() -> list[Image.Image]:
    hands = [render_hand(view) for view in _reference_views(0)]
    return [hand for hand in hands if hand is not None]


TABLE_PALETTE: Final[PaletteKind] = PaletteKind((GAME_ID, "table"), PALETTE_COLOURS, _reference_tables)
"""Every table shares one palette, chosen from the reference positions (see
:func:`renderer.base.kind_palette`)."""
HAND_PALETTE: Final[PaletteKind] = PaletteKind((GAME_ID, "hand"), TABLE_PALETTE.colours, _reference_hands)


def render(view: Mapping[str, Any]) -> bytes:
    """The public table PNG for ``view`` (any seat's view or a spectator's: same image)."""
    return encode_board(table_image(view), TABLE_PALETTE)


def render_private(view: Mapping[str, Any]) -> bytes | None:
    """The viewer's hand as a PNG; None for a spectator or when the viewer holds no card."""
    image = render_hand(view)
    return None if image is None else encode_board(image, HAND_PALETTE)
