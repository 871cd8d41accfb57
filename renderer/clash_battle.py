"""Battles on the Clash of Cultures image: an arrow from where the attackers came to the battle
space, crossed swords on it, and a strip under the map with each round's dice and the result.

Why a separate strip rather than text on the map: a battle has up to a dozen dice per round and
the map hexes are small on a phone; dice drawn as large numbered squares in the players' colours
read at 400 px, and the map only needs to say where the fight was.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, Final

from PIL import Image, ImageDraw

from renderer.base import INK, PANEL, RGB, WHITE, draw_text, fit_text, font, ink_on, tint
from renderer.clash_map import map_geometry, owner_fill
from renderer.viewdata import as_int, as_list, as_map, as_str, str_list

ROW_H: Final[int] = 76
TITLE_H: Final[int] = 54
PAD: Final[int] = 12
MAX_BATTLES: Final[int] = 2
MAX_ROUNDS: Final[int] = 3
ARROW_ALPHA: Final[int] = 175
NOTE_WORDS: Final[Mapping[str, str]] = {
    "fortress": "Fortress",
    "Steel Weapons": "Steel Weapons +1 hit",
    "War Ships": "War Ships cancel 1 enemy hit",
    "Fanaticism": "Fanaticism +2",
}
"""What changed a side's hits, with what it did (War Ships cancel the *enemy's* hits)."""


def battles(view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The battles to draw (the latest ones last)."""
    return [as_map(b) for b in as_list(view.get("battles"))][-MAX_BATTLES:]


def _colours(view: Mapping[str, Any]) -> list[str]:
    return [as_str(as_map(p).get("colour")) for p in as_list(view.get("players"))]


def _name(seat: int, colours: Sequence[str]) -> str:
    return colours[seat] if 0 <= seat < len(colours) else "Barbarians"


def mark_battles(image: Image.Image, view: Mapping[str, Any], width: int, at: tuple[int, int] = (0, 0)) -> None:
    """On the map (as :func:`renderer.clash_map.draw_map` drew it ``width`` wide with its corner
    at ``at`` of ``image``): an arrow in the attacker's colour from its origin and crossed swords on the
    battle space."""
    found = battles(view)
    if not found:
        return
    hexes = [h for s in as_list(view.get("slots")) for h in str_list(as_map(s).get("hexes"))]
    if not hexes:
        return
    geo = map_geometry(tuple(hexes), width, at)
    draw = ImageDraw.Draw(image)
    # Arrows are see-through: where one crosses a hex's name, terrain word or a city's mood
    # word, the word still reads (play-test: an opaque arrow hid "angry" and "forest").
    colours = _colours(view)
    known = set(hexes)
    for b in found:
        space, origin = as_str(b.get("space")), as_str(b.get("origin"))
        if space in known and origin in known and origin != space:
            fill = owner_fill(as_int(b.get("attacker"), -1), colours)
            # A small see-through layer around the two hexes only (a full-size one cost 20 ms).
            (ax, ay), (bx, by) = geo.centre(origin), geo.centre(space)
            x0, y0 = int(min(ax, bx) - geo.size), int(min(ay, by) - geo.size)
            w, h = int(abs(ax - bx) + 2 * geo.size), int(abs(ay - by) + 2 * geo.size)
            layer = Image.new("RGBA", (w, h), (0, 0, 0, 0))
            _arrow(ImageDraw.Draw(layer), (ax - x0, ay - y0), (bx - x0, by - y0), fill, geo.size)
            image.paste(layer, (x0, y0), layer)
    for b in found:
        space = as_str(b.get("space"))
        if space not in known:
            continue
        x1, y1 = geo.centre(space)
        # Right of the city, clear of the terrain word at the bottom of the hex.
        _swords(draw, (x1 + geo.size * 0.6, y1 + geo.size * 0.3), geo.size * 0.2)


def _arrow(draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], fill: RGB, size: float) -> None:
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    start = (a[0] + math.cos(ang) * size * 0.35, a[1] + math.sin(ang) * size * 0.35)
    tip = (b[0] - math.cos(ang) * size * 0.8, b[1] - math.sin(ang) * size * 0.8)
    w = max(6, int(size * 0.14))
    see = (*fill, ARROW_ALPHA)
    ink = (*INK, ARROW_ALPHA)
    draw.line([start, tip], fill=ink, width=w + 4)
    draw.line([start, tip], fill=see, width=w)
    head = size * 0.3
    left = (tip[0] - head * math.cos(ang - 0.5), tip[1] - head * math.sin(ang - 0.5))
    right = (tip[0] - head * math.cos(ang + 0.5), tip[1] - head * math.sin(ang + 0.5))
    draw.polygon([tip, left, right], fill=see, outline=ink, width=2)


def _swords(draw: ImageDraw.ImageDraw, c: tuple[float, float], r: float) -> None:
    draw.ellipse((c[0] - r, c[1] - r, c[0] + r, c[1] + r), fill=WHITE, outline=INK, width=3)
    k = r * 0.6
    for sx in (-1, 1):
        draw.line([(c[0] - sx * k, c[1] + k), (c[0] + sx * k, c[1] - k)], fill=INK, width=max(3, int(r * 0.22)))
        draw.line(
            [(c[0] - sx * k * 0.9 - k * 0.35, c[1] + k * 0.55), (c[0] - sx * k * 0.9 + k * 0.35, c[1] + k * 0.95)],
            fill=INK,
            width=max(2, int(r * 0.16)),
        )


def strip_height(view: Mapping[str, Any]) -> int:
    """Height of the battle strip (0 when there is no battle to show)."""
    h = 0
    for b in battles(view):
        rounds = min(len(as_list(b.get("rounds"))), MAX_ROUNDS)
        h += TITLE_H + max(1, rounds) * ROW_H + PAD
    return h + PAD if h else 0


def draw_strip(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], view: Mapping[str, Any]) -> None:
    """Each battle: who attacked whom where and the result, then one row of dice per round."""
    x0, y, x1, _ = box
    colours = _colours(view)
    draw.rounded_rectangle(box, radius=10, fill=PANEL, outline=INK, width=2)
    y += PAD
    for b in battles(view):
        att, dfd = as_int(b.get("attacker"), -1), as_int(b.get("defender"), -1)
        title = _title(b, colours)
        draw_text(draw, (x0 + PAD, y + 4), fit_text(title, font(36, "bold"), x1 - x0 - 2 * PAD), font(36, "bold"), INK)
        y += TITLE_H
        rounds = [as_map(r) for r in as_list(b.get("rounds"))]
        if not rounds:
            draw_text(
                draw, (x0 + PAD, y + ROW_H / 2), "No resistance: no dice were rolled.", font(30), INK, anchor="lm"
            )
            y += ROW_H
        first = max(0, len(rounds) - MAX_ROUNDS)
        for i, r in enumerate(rounds[first:], start=first + 1):
            draw_text(draw, (x0 + PAD, y + ROW_H / 2), f"Round {i}", font(30, "bold"), INK, anchor="lm")
            half = (x1 - x0 - 170) / 2
            _side(draw, (x0 + 160, y), as_map(r.get("attacker")), owner_fill(att, colours), half)
            _side(draw, (x0 + 160 + half, y), as_map(r.get("defender")), owner_fill(dfd, colours), half)
            y += ROW_H
        y += PAD


def _title(b: Mapping[str, Any], colours: Sequence[str]) -> str:
    att, dfd = as_int(b.get("attacker"), -1), as_int(b.get("defender"), -1)
    where = as_str(b.get("space")).upper()
    kind = as_str(b.get("kind"))
    result = as_str(b.get("result"))
    a, d = _name(att, colours), _name(dfd, colours)
    if kind == "barbarian_attack":
        head = f"The Barbarians attack {as_str(b.get('city')) or where}"
        tail = {"losses": "the city takes losses", "repelled": "the city holds"}.get(result, "in progress")
        return f"{head}: {tail}"
    head = f"{a} attacks {'the ' if dfd < 0 else ''}{d} on {where}" + (" (ships)" if kind == "naval" else "")
    if result == "attacker":
        tail = f"{a} wins" + (f" and takes {as_str(b.get('city'))}" if b.get("captured") and b.get("city") else "")
        if b.get("captured") and dfd < 0:
            tail = f"{a} takes the Barbarian settlement"
    elif result == "defender":
        tail = f"{d} holds"
    elif result == "none":
        tail = "both sides wiped out"
    elif result == "retreat":
        tail = f"{a} retreats"
    else:
        tail = f"waiting for {a}"
    return f"{head}: {tail}"


def _side(draw: ImageDraw.ImageDraw, at: tuple[float, float], r: Mapping[str, Any], fill: RGB, width: float) -> None:
    """One side's dice as numbered squares, then its hits, and under them what changed the hits
    (sized to read on a phone, where the 1600-pixel image is shown about 400 pixels wide)."""
    x, y = at
    size = 58
    dice = [as_int(d) for d in as_list(r.get("dice"))]
    hits = as_int(r.get("hits"))
    label = f"{hits} {'hit' if hits == 1 else 'hits'}"
    notes = str_list(r.get("notes"))
    room = width - 150
    shown = dice[: max(1, int(room // (size + 6)))]
    top = y + (ROW_H - size) / 2
    for d in shown:
        draw.rounded_rectangle((x, top, x + size, top + size), radius=8, fill=fill, outline=INK, width=2)
        draw_text(draw, (x + size / 2, top + size / 2), str(d), font(36, "bold"), ink_on(fill), anchor="mm")
        x += size + 6
    if not dice:
        draw_text(draw, (x, y + ROW_H / 2), "no dice", font(28), tint(INK, 0.3), anchor="lm")
        x += 120
    left = at[0] + width - x - 14
    if not notes:
        draw_text(draw, (x + 8, y + ROW_H / 2), label, font(30, "bold"), INK, anchor="lm")
        return
    draw_text(draw, (x + 8, y + ROW_H * 0.3), label, font(30, "bold"), INK, anchor="lm")
    text = fit_text(", ".join(NOTE_WORDS.get(n, n) for n in notes), font(22), left)
    draw_text(draw, (x + 8, y + ROW_H * 0.74), text, font(22), INK, anchor="lm")
