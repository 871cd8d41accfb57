"""Wonders and trade offers in the Clash of Cultures image: a gold pyramid mark on the city that
holds a wonder, a line on each player's page (wonders owned and the wonder reserved with
Monuments), the revealed wonders or the open trade offer under the header, all from the view only.

Why a module of its own: the map and the boards are drawn by other modules that change for other
reasons (speed, layout); the wonder marks are small additions each of them calls in one line.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from PIL import Image, ImageDraw

from renderer.base import INK, RGB, draw_text, font
from renderer.clash_shapes import outlined_polygon
from renderer.viewdata import as_list, as_map, as_str

GOLD: Final[RGB] = (232, 178, 30)


def draw_city_mark(
    image: Image.Image, draw: ImageDraw.ImageDraw, city: Mapping[str, Any], x: float, y: float, r: float
) -> None:
    """A gold pyramid with a W above the right of a city that holds a wonder."""
    if not as_str(city.get("wonder")):
        return
    s = r * 0.7
    cx, cy = x + r * 1.05, y - r * 0.9
    tri = [(cx, cy - s), (cx + s, cy + s * 0.75), (cx - s, cy + s * 0.75)]
    outlined_polygon(image, tri, INK, 2, GOLD)
    draw_text(draw, (cx, cy + s * 0.25), "W", font(max(10, int(s * 0.9)), "bold"), INK, anchor="mm")


def panel_line(p: Mapping[str, Any]) -> str:
    """``Wonders: Pyramids of Giza in Memphis; reserved: Colossus of Rhodes`` (or ``""``)."""
    owned = [f"{as_str(as_map(w).get('name'))} in {as_str(as_map(w).get('city'))}" for w in as_list(p.get("wonders"))]
    reserved = [as_str(w) for w in as_list(p.get("reserved_wonders"))]
    parts = []
    if owned:
        parts.append("Wonders: " + ", ".join(owned))
    if reserved:
        parts.append("reserved: " + ", ".join(reserved))
    return "; ".join(parts)


def revealed_line(view: Mapping[str, Any]) -> str:
    """``Wonders to build: Great Wall, Library of Alexandria`` (or ``""``)."""
    names = [as_str(as_map(w).get("name")) for w in as_list(view.get("wonders_on_offer"))]
    return ("Wonders to build: " + ", ".join(names)) if names else ""


def _goods(goods: Mapping[str, Any]) -> str:
    words = {"mood": ("mood token", "mood tokens"), "culture": ("culture token", "culture tokens")}
    words["ideas"] = ("idea", "ideas")
    words["action"] = ("action card", "action cards")  # cards in an offer are counted, never named
    words["objective"] = ("objective card", "objective cards")
    parts = []
    for item, n in goods.items():
        k = int(n) if isinstance(n, int) else 0
        one, many = words.get(str(item), (str(item), str(item)))
        parts.append(f"{k} {one if k == 1 else many}")
    if not parts:
        return "nothing"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def offer_line(view: Mapping[str, Any]) -> str:
    """The open trade offer under the header: ``Trade offer: Red gives 2 food for 1 ore``."""
    pending = as_map(view.get("pending"))
    offer = as_map(pending.get("offer"))
    if as_str(pending.get("kind")) != "trade" or not offer:
        return ""
    names = [as_str(as_map(p).get("colour")) for p in as_list(view.get("players"))]
    src = offer.get("from")
    who = names[src] if isinstance(src, int) and 0 <= src < len(names) else "?"
    give, get = as_map(offer.get("give")), as_map(offer.get("get"))
    if not get:
        return f"Trade offer: {who} gives {_goods(give)} as a gift"
    if not give:
        return f"Trade offer: {who} asks for {_goods(get)} as a gift"
    return f"Trade offer: {who} gives {_goods(give)} for {_goods(get)}"
