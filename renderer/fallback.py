"""FALLBACK image for games that have no board renderer yet — not a real board.

Why it exists: the platform posts an image after every turn; until a game's renderer is
written (mare-nostrum, capitals), this plain card with the title,
players and status text from the view is posted instead, so a turn never fails for lack of
art. Replace it per game by adding a module to ``renderer.RENDERERS``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import ImageDraw

from renderer.base import (
    INK,
    MUTED,
    PAPER,
    draw_lines,
    draw_text,
    encode_board,
    fit_text,
    font,
    line_height_of,
    new_canvas,
    player_fill,
    wrap,
)
from renderer.viewdata import as_bool, as_int, as_list, as_map, as_opt_int, as_str

WIDTH = 1200
HEIGHT = 700

_STATUS_KEYS = ("awaiting", "status", "phase_text", "message")


def render_fallback(game_id: str, title: str, view: Mapping[str, Any]) -> bytes:
    """A FALLBACK status card: title, players and the view's status text (public fields only)."""
    image = new_canvas((WIDTH, HEIGHT), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, 90), fill=(60, 52, 44))
    heading = font(40, "bold")
    draw_text(draw, (30, 45), fit_text(title, heading, WIDTH - 60), heading, (255, 255, 255), anchor="lm")
    y = 110.0
    info = []
    if "turn" in view or "round" in view:
        info.append(f"Turn {as_int(view.get('turn', view.get('round')))}")
    if as_str(view.get("phase")):
        info.append(f"Phase: {as_str(view.get('phase'))}")
    if info:
        draw_text(draw, (30, y), " · ".join(info), font(26), INK)
        y += 44
    to_move = {as_opt_int(s) for s in as_list(view.get("to_move"))}
    name_font = font(28, "bold")
    for i, item in enumerate(as_list(view.get("players"))[:8]):
        player = as_map(item) if isinstance(item, Mapping) else {"name": as_str(item)}
        name = _player_name(player, i)
        colour = player_fill(as_str(player.get("colour")), i)
        draw.rounded_rectangle((30, y, 62, y + 32), radius=6, fill=colour, outline=INK, width=2)
        marker = "  ◀ to move" if i in to_move and not as_bool(view.get("over")) else ""
        draw_text(draw, (76, y + 16), fit_text(name + marker, name_font, WIDTH - 120), name_font, INK, anchor="lm")
        y += 46
    status = _status(view)
    body = font(26)
    lines = wrap(status, body, WIDTH - 60, max_lines=max(1, int((HEIGHT - 80 - y) // line_height_of(body))))
    draw_lines(draw, (30, y + 16), lines, body, INK)
    note = f"{game_id}: simple status image (the full board for this game is not drawn yet)"
    draw_text(draw, (30, HEIGHT - 30), fit_text(note, font(20), WIDTH - 60), font(20), MUTED, anchor="lm")
    return encode_board(image)


def _player_name(player: Mapping[str, Any], index: int) -> str:
    for key in ("name", "nation", "civilization", "display_name"):
        value = as_str(player.get(key))
        if value:
            return value
    return f"Player {index + 1}"


def _status(view: Mapping[str, Any]) -> str:
    if as_bool(view.get("over")):
        return "The game is over."
    for key in _STATUS_KEYS:
        value = as_str(view.get(key))
        if value:
            return value
    return "Waiting for the next move."
