"""Clash of Cultures private image: the viewer's action cards and objective cards.

Why a separate image: the hands are hidden from the other seats (rules 4.4), so they can never
be part of the public board; this image is drawn only from the viewer's own view (``hand`` and
``objectives`` exist only there) and is sent to that player alone. Cards are stacked in one
column, 900 px wide, with large type so the texts stay readable scaled to a phone (400 px).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from PIL import ImageDraw

from renderer.base import (
    INK,
    MUTED,
    PANEL_EDGE,
    PAPER,
    draw_lines,
    draw_text,
    encode_board,
    font,
    line_height_of,
    new_canvas,
    player_fill,
    wrap,
)
from renderer.viewdata import as_list, as_map, as_str

WIDTH: Final[int] = 900
MARGIN: Final[int] = 20
GAP: Final[int] = 16
COLS: Final[int] = 1
ACTION_FILL: Final[tuple[int, int, int]] = (226, 236, 250)
OBJECTIVE_FILL: Final[tuple[int, int, int]] = (250, 238, 214)


def _card_lines(card: Mapping[str, Any], kind: str, width: float) -> list[tuple[str, Any, tuple[int, int, int]]]:
    """(text, font, colour) lines of one card, wrapped to ``width``."""
    body = font(27)
    out: list[tuple[str, Any, tuple[int, int, int]]] = []
    if kind == "action":
        out.append((as_str(card.get("name")), font(36, "bold"), INK))
        out.append((f"Cost: {as_str(card.get('cost'))}", font(27, "bold"), MUTED))
        out.extend((ln, body, INK) for ln in wrap(as_str(card.get("text")), body, width))
        out.append((f"In battle: {as_str(card.get('combat'))}", font(27, "bold"), INK))
        out.extend((ln, body, INK) for ln in wrap(as_str(card.get("combat_text")), body, width))
    else:
        for i, half in enumerate(("upper", "lower")):
            h = as_map(card.get(half))
            title = f"{'Or: ' if i else ''}{as_str(h.get('name'))} ({as_str(h.get('when'))})"
            out.append((title, font(31, "bold"), INK))
            out.extend((ln, body, INK) for ln in wrap(as_str(h.get("text")), body, width))
    return out


def _height(lines: list[tuple[str, Any, tuple[int, int, int]]]) -> float:
    return sum(line_height_of(f) for _, f, _ in lines) + 2 * 14


def cards_image(view: Mapping[str, Any]) -> Any:
    """The viewer's hands as a Pillow image, or None for a spectator."""
    viewer = view.get("viewer")
    if not isinstance(viewer, int) or "hand" not in view:
        return None
    players = [as_map(p) for p in as_list(view.get("players"))]
    colour = as_str(players[viewer].get("colour")) if 0 <= viewer < len(players) else ""
    col_w = (WIDTH - 2 * MARGIN - (COLS - 1) * GAP) / COLS
    inner = col_w - 28
    sections: list[tuple[str, str, list[Mapping[str, Any]]]] = [
        ("Action cards", "action", [as_map(c) for c in as_list(view.get("hand"))]),
        (
            "Objective cards (one objective per card counts)",
            "objective",
            [as_map(c) for c in as_list(view.get("objectives"))],
        ),
    ]
    layout: list[tuple[str, str, list[list[tuple[str, Any, tuple[int, int, int]]]]]] = []
    height = MARGIN + 56
    for title, kind, cards in sections:
        wrapped = [_card_lines(c, kind, inner) for c in cards]
        layout.append((title, kind, wrapped))
        height += 50
        if not wrapped:
            height += 40
        for r in range(0, len(wrapped), COLS):
            height += int(max(_height(x) for x in wrapped[r : r + COLS])) + GAP
    height += MARGIN
    image = new_canvas((WIDTH, int(height)), PAPER)
    draw = ImageDraw.Draw(image)
    fill = player_fill(colour.upper(), viewer)
    draw.rectangle((0, 0, WIDTH, 10), fill=fill)
    draw_text(draw, (MARGIN, MARGIN), f"{colour} — your cards (private)", font(38, "bold"), INK)
    y = float(MARGIN + 56)
    for title, kind, wrapped in layout:
        draw_text(draw, (MARGIN, y), title, font(30, "bold"), INK)
        y += 50
        if not wrapped:
            draw_text(draw, (MARGIN, y), "none", font(22), MUTED)
            y += 40
        for r in range(0, len(wrapped), COLS):
            row = wrapped[r : r + COLS]
            h = max(_height(x) for x in row)
            for i, lines in enumerate(row):
                x = MARGIN + i * (col_w + GAP)
                bg = ACTION_FILL if kind == "action" else OBJECTIVE_FILL
                draw.rounded_rectangle((x, y, x + col_w, y + h), radius=12, fill=bg, outline=PANEL_EDGE, width=2)
                yy = y + 14
                for text, fnt, ink in lines:
                    draw_lines(draw, (x + 14, yy), [text], fnt, ink)
                    yy += line_height_of(fnt)
            y += h + GAP
    return image


def render_private(view: Mapping[str, Any]) -> bytes | None:
    """The viewer's action and objective cards as a PNG; None for a spectator."""
    image = cards_image(view)
    return None if image is None else encode_board(image)
