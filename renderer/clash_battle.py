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
from renderer.clash_map import Geometry, hex_size_for, owner_fill
from renderer.viewdata import as_int, as_list, as_map, as_str, str_list

ROW_H: Final[int] = 58
TITLE_H: Final[int] = 44
PAD: Final[int] = 12
MAX_BATTLES: Final[int] = 2
MAX_ROUNDS: Final[int] = 3


def battles(view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The battles to draw (the latest ones last)."""
    return [as_map(b) for b in as_list(view.get("battles"))][-MAX_BATTLES:]


def _colours(view: Mapping[str, Any]) -> list[str]:
    return [as_str(as_map(p).get("colour")) for p in as_list(view.get("players"))]


def _name(seat: int, colours: Sequence[str]) -> str:
    return colours[seat] if 0 <= seat < len(colours) else "Barbarians"


def mark_battles(image: Image.Image, view: Mapping[str, Any], width: int) -> None:
    """On the map image (as :func:`renderer.clash_map.map_image` drew it ``width`` wide): an arrow
    in the attacker's colour from its origin and crossed swords on the battle space."""
    found = battles(view)
    if not found:
        return
    hexes = [h for s in as_list(view.get("slots")) for h in str_list(as_map(s).get("hexes"))]
    if not hexes:
        return
    geo = Geometry(hexes, hex_size_for(hexes, width), 20)
    draw = ImageDraw.Draw(image)
    colours = _colours(view)
    known = set(hexes)
    for b in found:
        space, origin = as_str(b.get("space")), as_str(b.get("origin"))
        if space not in known:
            continue
        fill = owner_fill(as_int(b.get("attacker"), -1), colours)
        x1, y1 = geo.centre(space)
        if origin in known and origin != space:
            _arrow(draw, geo.centre(origin), (x1, y1), fill, geo.size)
        _swords(draw, (x1 + geo.size * 0.55, y1 + geo.size * 0.4), geo.size * 0.24)


def _arrow(draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], fill: RGB, size: float) -> None:
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    start = (a[0] + math.cos(ang) * size * 0.35, a[1] + math.sin(ang) * size * 0.35)
    tip = (b[0] - math.cos(ang) * size * 0.86, b[1] - math.sin(ang) * size * 0.86)
    w = max(6, int(size * 0.14))
    draw.line([start, tip], fill=INK, width=w + 4)
    draw.line([start, tip], fill=fill, width=w)
    head = size * 0.3
    left = (tip[0] - head * math.cos(ang - 0.5), tip[1] - head * math.sin(ang - 0.5))
    right = (tip[0] - head * math.cos(ang + 0.5), tip[1] - head * math.sin(ang + 0.5))
    draw.polygon([tip, left, right], fill=fill, outline=INK, width=2)


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
        draw_text(draw, (x0 + PAD, y + 4), fit_text(title, font(28, "bold"), x1 - x0 - 2 * PAD), font(28, "bold"), INK)
        y += TITLE_H
        rounds = [as_map(r) for r in as_list(b.get("rounds"))]
        if not rounds:
            draw_text(draw, (x0 + PAD, y + 10), "No resistance: no dice were rolled.", font(24), INK)
            y += ROW_H
        first = max(0, len(rounds) - MAX_ROUNDS)
        for i, r in enumerate(rounds[first:], start=first + 1):
            draw_text(draw, (x0 + PAD, y + ROW_H / 2), f"Round {i}", font(24, "bold"), INK, anchor="lm")
            half = (x1 - x0 - 150) / 2
            _side(draw, (x0 + 140, y), as_map(r.get("attacker")), owner_fill(att, colours), half)
            _side(draw, (x0 + 140 + half, y), as_map(r.get("defender")), owner_fill(dfd, colours), half)
            y += ROW_H
        y += PAD


def _title(b: Mapping[str, Any], colours: Sequence[str]) -> str:
    att, dfd = as_int(b.get("attacker"), -1), as_int(b.get("defender"), -1)
    where = as_str(b.get("space")).upper()
    kind = as_str(b.get("kind"))
    result = as_str(b.get("result"))
    a, d = _name(att, colours), _name(dfd, colours)
    if kind == "barbarian_attack":
        head = f"Barbarians attack {as_str(b.get('city')) or where}"
        tail = {"losses": "the city takes losses", "repelled": "the city holds"}.get(result, "in progress")
        return f"{head}: {tail}"
    head = f"{a} attacks {d} on {where}" + (" (ships)" if kind == "naval" else "")
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
    """One side's dice as numbered squares, then its hits."""
    x, y = at
    size = 42
    dice = [as_int(d) for d in as_list(r.get("dice"))]
    hits = as_int(r.get("hits"))
    label = f"{hits} {'hit' if hits == 1 else 'hits'}"
    notes = str_list(r.get("notes"))
    room = width - 130
    shown = dice[: max(1, int(room // (size + 6)))]
    for d in shown:
        draw.rounded_rectangle((x, y + 8, x + size, y + 8 + size), radius=7, fill=fill, outline=INK, width=2)
        draw_text(draw, (x + size / 2, y + 8 + size / 2), str(d), font(26, "bold"), ink_on(fill), anchor="mm")
        x += size + 6
    if not dice:
        draw_text(draw, (x, y + ROW_H / 2), "no dice", font(22), tint(INK, 0.3), anchor="lm")
        x += 90
    text = label + (f" ({', '.join(notes)})" if notes else "")
    draw_text(
        draw, (x + 8, y + ROW_H / 2), fit_text(text, font(22), at[0] + width - x - 12), font(22), INK, anchor="lm"
    )
