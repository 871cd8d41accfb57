"""7 Wonders table header: Age and turn, what the table waits for, piles, legend, seating ring.

Why a ring diagram: in 7 Wonders everything depends on who sits next to whom (trading,
military, where hands go), which a grid of panels cannot show; the ring puts the cities in
seat order clockwise with arrows in this Age's passing direction and each city's choice
status (tick or hourglass, never the choice itself).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from PIL import Image, ImageDraw

from renderer import seven_wonders_icons as ic
from renderer.base import (
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    PAPER,
    WHITE,
    draw_text,
    fit_font,
    font,
    fonts_signature,
    new_canvas,
    text_width,
    wrap,
)
from renderer.icons import arrow_head
from renderer.placement import Box
from renderer.seven_wonders_items import SPRITES, Item, Sprite, flow
from renderer.seven_wonders_model import AGE_NAMES, City, Token
from renderer.viewdata import as_bool, as_int, as_map, as_str

RING_W: Final[int] = 500
_AGE_TURN: Final[re.Pattern[str]] = re.compile(r"^\s*Age [IV]+, turn \d+/\d+:\s*")
NODE_R: Final[int] = 20


def _legend_items() -> list[Item]:
    small = font(20)

    def labelled(tokens: Sequence[Token], label: str) -> Item:
        tw = ic.tokens_width(tokens)
        w = tw + 6 + text_width(label, small)

        def paint(draw: ImageDraw.ImageDraw, x: float, cy: float) -> None:
            ic.draw_tokens(draw, x, cy, tokens)
            draw_text(draw, (x + tw + 6, cy), label, small, INK, anchor="lm")

        return Item(w, paint)

    def drawn(width: float, paint_icon: Any, label: str) -> Item:
        w = width + 6 + text_width(label, small)

        def paint(draw: ImageDraw.ImageDraw, x: float, cy: float) -> None:
            paint_icon(draw, x, cy)
            draw_text(draw, (x + width + 6, cy), label, small, INK, anchor="lm")

        return Item(w, paint)

    items = [labelled([Token("res", r)], r) for r in ("wood", "stone", "clay", "ore", "glass", "papyrus", "loom")]
    items += [
        labelled([Token("shield", n=2)], "shields"),
        labelled([Token("sci", "compass"), Token("sci", "gear"), Token("sci", "tablet")], "science"),
        labelled([Token("sci", "any")], "any symbol"),
        labelled([Token("vp", n=3)], "points"),
        labelled([Token("coin", n=5)], "coins"),
        drawn(63, lambda d, x, cy: (ic.conflict(d, x, cy, 3), ic.conflict(d, x + 33, cy, -1)), "win / loss"),
        drawn(24, lambda d, x, cy: ic.tick(d, x + 12, cy, 12), "chosen"),
        drawn(24, lambda d, x, cy: ic.hourglass(d, x + 12, cy, 12), "choosing"),
        labelled([Token("text", "★")], "built last turn"),
        labelled([Token("text", "◀ ▶")], "left / right neighbour"),
    ]
    return items


def _title(view: Mapping[str, Any], cities: Sequence[City]) -> tuple[str, str]:
    age = AGE_NAMES.get(as_int(view.get("age")), str(as_int(view.get("age"))))
    if as_str(view.get("step")) == "over":
        totals = [
            (as_int(c.score.get("total")), f"{c.name} ({c.player})" if c.player else c.name)
            for c in cities
            if c.score is not None and not c.free_city
        ]
        best = max((t for t, _ in totals), default=0)
        leaders = " and ".join(name for t, name in totals if t == best)
        status = f"Game over — top score: {leaders} with {best} VP" if totals else "Game over"
        return "7 Wonders — game over", status
    title = f"7 Wonders — Age {age}, turn {as_int(view.get('turn'))} of {as_int(view.get('turns_in_age'))}"
    # The engine's sentence starts with the Age and turn again ("Age II, turn 3/7: waiting
    # for …"): the title says it already, so the status keeps only what the table waits for.
    status = _AGE_TURN.sub("", as_str(view.get("awaiting")))
    return title, status[:1].upper() + status[1:]


def header_lines(view: Mapping[str, Any]) -> tuple[str, str]:
    """(options line, piles line) of the header."""
    opts = as_map(view.get("options"))
    players = as_int(view.get("players"))
    parts = [f"{players} players" + (" + Free City" if players == 2 else "")]
    parts.append("Cities" if as_bool(opts.get("cities")) else "base game")
    side = as_str(opts.get("side"))
    if side:
        parts.append("wonder sides at random" if side == "random" else f"wonder side {side}")
    if as_bool(opts.get("teams")):
        parts.append("team variant")
    decks = as_map(view.get("decks"))
    piles = [f"Discard pile: {as_int(view.get('discard_size'))} cards (face down)"]
    for age in (2, 3):
        left = as_int(decks.get(f"age_{age}"))
        if left:
            piles.append(f"Age {AGE_NAMES[age]} deck: {left}")
    if players == 2:
        piles.append(f"Free City pile: {as_int(view.get('free_city_pile'))}")
    return " · ".join(parts), " · ".join(piles)


def header_height(view: Mapping[str, Any], cities: Sequence[City], width: float) -> float:
    """Height of the header for this view (the awaited sentence may wrap)."""
    _, status = _title(view, cities)
    left_w = width - RING_W - 40
    status_lines = len(wrap(status, font(28, "bold"), left_w))
    direction_h = 0 if as_str(view.get("step")) == "over" else 40
    text_h = 16 + 56 + 32 + 36 * status_lines + 8 + direction_h + 34 + 10
    return max(text_h, 300.0)


def legend_image(width: float) -> Image.Image:
    """The symbol key, drawn once per process (per width and fonts) and pasted."""

    def build() -> Sprite:
        lines = flow(_legend_items(), width, 16)
        image = new_canvas((math.ceil(width), 34 * len(lines)), PAPER)
        draw = ImageDraw.Draw(image)
        for k, line in enumerate(lines):
            for dx, item in line:
                item.paint(draw, dx, 14 + 34 * k)
        return image, 0

    sprite: Sprite = SPRITES.get(("legend", width, fonts_signature()), build)
    return sprite[0]


def draw_header(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: Mapping[str, Any], cities: Sequence[City], box: Box
) -> None:
    """Title, status sentence, passing direction, piles, legend; the ring on the right."""
    x0, y0, x1, y1 = box
    left_w = x1 - x0 - RING_W - 40
    title, status = _title(view, cities)
    options, piles = header_lines(view)
    x, y = x0 + 20, y0 + 16
    draw_text(draw, (x, y), title, fit_font(title, 42, left_w, "bold", 20), INK)
    y += 56
    draw_text(draw, (x, y), options, fit_font(options, 22, left_w, "regular", 14), MUTED)
    y += 32
    for sentence in wrap(status, font(28, "bold"), left_w):
        draw_text(draw, (x, y), sentence, font(28, "bold"), INK)
        y += 36
    y += 8
    over = as_str(view.get("step")) == "over"
    players = as_int(view.get("players"))
    direction = as_str(view.get("direction"), "left")
    if not over:
        y += 36
        if players == 2:
            holder = next((c.played_by for c in cities if c.played_by), "")
            text = "Hands swap each turn" + (f"; {holder} plays the Free City this turn." if holder else ".")
        elif direction == "right":
            text = "Hands pass RIGHT this Age (counter-clockwise)."
        else:
            text = "Hands pass LEFT this Age (clockwise)."
        y += 4
        direction_font = fit_font(text, 24, left_w, "bold", 14)
        draw_text(draw, (x, y - 22), text, direction_font, INK, anchor="lm")
    draw_text(draw, (x, y), piles, fit_font(piles, 22, left_w, "regular", 14), INK)
    draw_ring(draw, view, cities, (x1 - RING_W, y0 + 10, x1 - 8, y1 - 6))


def _node_positions(n: int, box: Box) -> list[tuple[float, float]]:
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2 + 4
    rx, ry = 96.0, min(104.0, (box[3] - box[1]) / 2 - 56)
    return [
        (cx + rx * math.cos(math.radians(-90 + 360 * i / n)), cy + ry * math.sin(math.radians(-90 + 360 * i / n)))
        for i in range(n)
    ]


def _arrow(draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], both: bool = False) -> None:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    start = (a[0] + ux * (NODE_R + 5), a[1] + uy * (NODE_R + 5))
    end = (b[0] - ux * (NODE_R + 5), b[1] - uy * (NODE_R + 5))
    draw.line((start, end), fill=INK, width=4)
    angle = math.atan2(dy, dx)
    arrow_head(draw, end, angle, 16, INK)
    if both:
        arrow_head(draw, start, angle + math.pi, 16, INK)


def draw_ring(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], cities: Sequence[City], box: Box) -> None:
    """Cities in seat order clockwise, passing arrows, choice status, names outside the ring."""
    ic.rrect(draw, box, PANEL, PANEL_EDGE, width=3, cut=10)
    draw_text(draw, (box[0] + 14, box[1] + 10), "Seating", font(18, "bold"), MUTED)
    n = len(cities)
    if n == 0:
        return
    pos = _node_positions(n, box)
    players = as_int(view.get("players"))
    direction = as_str(view.get("direction"), "left")
    over = as_str(view.get("step")) == "over"
    if players == 2 and n >= 2:
        _arrow(draw, pos[0], pos[1], both=True)
    elif n >= 3 and not over:
        for i in range(n):
            j = (i + 1) % n if direction != "right" else (i - 1) % n
            _arrow(draw, pos[i], pos[j])
    elif n >= 2:
        for i in range(n):
            a, b = pos[i], pos[(i + 1) % n]
            draw.line((a, b), fill=MUTED, width=2)
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2 + 4
    if not over and players != 2:
        age = AGE_NAMES.get(as_int(view.get("age")), "")
        word = "right ↺" if direction == "right" else "left ↻"
        draw_text(draw, (cx, cy - 12), f"Age {age}", font(20, "bold"), INK, anchor="mm")
        draw_text(draw, (cx, cy + 14), f"pass {word}", font(18), INK, anchor="mm")
    for i, city in enumerate(cities):
        px, py = pos[i]
        draw.ellipse((px - NODE_R, py - NODE_R, px + NODE_R, py + NODE_R), fill=WHITE, outline=INK, width=3)
        badge = "FC" if city.free_city else str(city.index + 1)
        draw_text(draw, (px, py), badge, font(18, "bold"), INK, anchor="mm")
        ic.status_icon(draw, px + NODE_R * 0.8, py - NODE_R * 0.8, 10, city.status)
        name = city.name + (f" (T{city.team + 1})" if city.team is not None else "")
        angle = math.radians(-90 + 360 * i / n)
        c, s = math.cos(angle), math.sin(angle)
        if c > 0.3:
            room = box[2] - 10 - (px + NODE_R + 8)
            draw_text(draw, (px + NODE_R + 8, py), name, fit_font(name, 20, room, "bold", 12), INK, anchor="lm")
        elif c < -0.3:
            room = (px - NODE_R - 8) - box[0] - 10
            draw_text(draw, (px - NODE_R - 8, py), name, fit_font(name, 20, room, "bold", 12), INK, anchor="rm")
        else:
            room = box[2] - box[0] - 20
            ty = py - NODE_R - 4 if s < 0 else py + NODE_R + 4
            anchor = "md" if s < 0 else "ma"
            draw_text(draw, (px, ty), name, fit_font(name, 20, room, "bold", 12), INK, anchor=anchor)
