"""Clash of Cultures public images, from a view dict only: the board image (a header with round,
turn and who is awaited, the hex map, the battle strip and one summary line per player) and one
page per player with that player's whole board (:func:`render_pages`).

Layout: the board is 1600 px wide (the map needs it); the player boards are pages of their own,
800 px wide, because four of them under the map were unreadable on a phone (issue 14). Every
image shows public facts only, so every view gives the same images (the card hands get a
private image, :mod:`renderer.clash_cards`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from PIL import ImageDraw

from renderer.base import INK, PAPER, draw_text, encode_board, fit_font, font, new_canvas
from renderer.clash_battle import draw_strip, mark_battles, strip_height
from renderer.clash_map import draw_map, map_height
from renderer.clash_panels import draw_pieces, draw_summary, page_image, summary_height
from renderer.clash_wonders import offer_line, revealed_line
from renderer.viewdata import as_int, as_list, as_map, as_str

WIDTH: Final[int] = 1600
HEADER_H: Final[int] = 96
MARGIN: Final[int] = 14
GAP: Final[int] = 14

WAITING: Final[Mapping[str, str]] = {
    "orient": "to turn an explored region",
    "anchor": "to place an exploring ship",
    "barbarians": "to place Barbarians",
    "income": "to take trade route income",
    "free": "to choose a free advance",
    "dogma": "to choose Dogma's free advance",
    "raze": "to decide on razing a city",
    "first": "to choose the first player",
    "reserve": "to reserve a wonder",
    "card": "to answer an event or a card",
    "boost": "to decide on culture tokens for the influence roll",
    "pyramids": "to make the Pyramids' free influence attempts",
    "lighthouse": "to move a ship with the Lighthouse",
    "offer": "to finish a trade offer",
    "trade": "to answer a trade offer",
    "battle": "to continue the battle or retreat",
    "siege": "to decide on Siegecraft payments",
    "combat_card": "to decide on a combat card",
    "refugee": "to place a refugee Settler",
    "fanatic": "to place Fanaticism's free army unit",
    "camp": "to keep or raze a Barbarian settlement",
    "barbarian_spawn": "to place a new Barbarian settlement",
    "barbarian_unit": "to reinforce a Barbarian settlement",
    "barbarian_target": "to choose the Barbarians' target",
    "barbarian_losses": "to choose the losses from a Barbarian attack",
}


def header_text(view: Mapping[str, Any]) -> tuple[str, str]:
    """Two header lines: where the game stands and who is awaited."""
    names = [as_str(as_map(p).get("colour")) for p in as_list(view.get("players"))]
    rnd, turn = as_int(view.get("round"), 1), as_int(view.get("turn"), 1)
    phase = as_str(view.get("phase"))
    first = as_int(view.get("first"))
    line1 = f"Clash of Cultures — round {rnd}" + (f", turn {turn}" if phase == "turn" else ", status phase")
    if 0 <= first < len(names):
        line1 += f" — first player {names[first]}"
    pending = as_map(view.get("pending"))
    if phase == "over":
        return line1, f"The game is over: {as_str(view.get('result'))}" if view.get("result") else "The game is over."
    if pending:
        seat = as_int(pending.get("seat"))
        who = names[seat] if 0 <= seat < len(names) else "?"
        return line1, f"Waiting for {who} {WAITING.get(as_str(pending.get('kind')), '')}".rstrip() + "."
    active = as_int(view.get("active"))
    left = as_int(view.get("actions_left"))
    who = names[active] if 0 <= active < len(names) else "?"
    return (
        line1,
        f"{who} to play — {left} {'action' if left == 1 else 'actions'} left. Yellow outlines: the latest changes.",
    )


def choice_line(view: Mapping[str, Any]) -> str:
    """For an open orientation choice: what each orientation would put on which space."""
    choices = as_map(as_map(view.get("pending")).get("choices"))
    parts = []
    for name, ter in choices.items():
        spaces = ", ".join(f"{as_str(h).upper()} {as_str(t)}" for h, t in as_map(ter).items())
        parts.append(f"orient {as_str(name)}: {spaces}")
    return "; ".join(parts)


def board_image(view: Mapping[str, Any]) -> Any:
    """The public image as a Pillow image (before encoding; the benchmark times both)."""
    map_h = map_height(view, WIDTH - 2 * MARGIN)
    strip = strip_height(view)
    summary = summary_height(view)
    extra = choice_line(view) or offer_line(view) or revealed_line(view)
    head = HEADER_H + (36 if extra else 0)
    height = head + MARGIN + map_h + GAP + (strip + GAP if strip else 0) + summary + MARGIN
    image = new_canvas((WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    l1, l2 = header_text(view)
    draw_pieces(draw, (MARGIN, 14), l1, font(32, "bold"), anchor="la")
    draw_pieces(draw, (MARGIN, 56), l2, font(26), anchor="la")
    if extra:
        draw_text(draw, (MARGIN, 94), extra, fit_font(extra, 24, WIDTH - 2 * MARGIN), INK)  # rarely changes
    draw.line((0, head, WIDTH, head), fill=INK, width=2)
    draw_map(image, (MARGIN, head + MARGIN), view, WIDTH - 2 * MARGIN)
    mark_battles(image, view, WIDTH - 2 * MARGIN, (MARGIN, head + MARGIN))
    y = head + MARGIN + map_h + GAP
    if strip:
        draw_strip(draw, (MARGIN, y, WIDTH - MARGIN, y + strip), view)
        y += strip + GAP
    draw_summary(draw, MARGIN, WIDTH - MARGIN, y, view)
    return image


def render(view: Mapping[str, Any]) -> bytes:
    """The public PNG (every seat's view gives the same image)."""
    return encode_board(board_image(view))


def render_pages(view: Mapping[str, Any]) -> list[bytes]:
    """One PNG per player, in seat order: that player's whole board (public facts only)."""
    return [encode_board(page_image(view, seat)) for seat in range(len(as_list(view.get("players"))))]
