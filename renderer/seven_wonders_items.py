"""Row items of a 7 Wonders city panel: holdings (values, pills, tokens, science symbols),
card chips and colour captions, each of known width, flowed into lines and pasted from
cached sprites.

Why apart from :mod:`renderer.seven_wonders_panels`: the items are the panel's building
blocks, measured before anything is drawn (a panel's height depends on how they flow), and
the header's resource row reuses them."""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from PIL import Image, ImageDraw

from renderer import seven_wonders_icons as ic
from renderer.base import (
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    RGB,
    LayerCache,
    draw_text,
    font,
    fonts_signature,
    ink_on,
    new_canvas,
    text_width,
    tint,
)
from renderer.seven_wonders_model import (
    CARD_FILL,
    COLOUR_LABEL,
    City,
    card_tokens,
    short_name,
)

CHIP_H: Final[int] = 38
CAP_W: Final[int] = 124
CHIP_GAP: Final[int] = 9
GROUP_GAP: Final[int] = 16
DIPLOMACY_FILL: Final[RGB] = (190, 220, 250)

Paint = Callable[[ImageDraw.ImageDraw, float, float], None]
Sprite = tuple[Image.Image, int]  # a pre-drawn item and its margin around the item's box

# Card chips and colour tabs drawn once per process and pasted: a table shows up to ~200 of
# them, each several shapes and a text, and they repeat from turn to turn. Keys include the
# fonts in use. ~300 sprites of ~20 KB each.
SPRITES: LayerCache[Sprite] = LayerCache(maxsize=320)


@dataclass(frozen=True, slots=True)
class Item:
    """Something of known width painted at (left x, centre y); ``sprite`` (if set) gives a
    cached picture of it to paste instead of painting, for items of a chip's height."""

    width: float
    paint: Paint
    sprite: Callable[[], Sprite] | None = None
    key: Hashable | None = None  # what the painting shows: a row item with a key is drawn through cached_art


def sprite_of(key: Hashable, width: float, margin: int, paint: Paint) -> Callable[[], Sprite]:
    """A getter of the cached picture of a chip-high item (built on first use, PANEL behind)."""

    def build() -> Sprite:
        image = new_canvas((math.ceil(width) + 2 * margin + 1, CHIP_H + 2 * margin + 1), PANEL)
        paint(ImageDraw.Draw(image), margin, margin + CHIP_H / 2)
        return image, margin

    def get() -> Sprite:
        sprite: Sprite = SPRITES.get((key, fonts_signature()), build)
        return sprite

    return get


def place(image: Image.Image, draw: ImageDraw.ImageDraw, item: Item, x: float, cy: float) -> None:
    """Paste the item's sprite (chip-high items) or paint it."""
    if item.sprite is None:
        item.paint(draw, x, cy)
        return
    picture, margin = item.sprite()
    image.paste(picture, (round(x) - margin, round(cy - CHIP_H / 2) - margin))


Line = list[tuple[float, Item]]  # (x offset from the line's left edge, item)


def flow(items: Sequence[Item], width: float, gap: float) -> list[Line]:
    """Greedy left-to-right flow of ``items`` into lines at most ``width`` wide."""
    lines: list[Line] = []
    current: Line = []
    x = 0.0
    for item in items:
        if current and x + item.width > width:
            lines.append(current)
            current, x = [], 0.0
        current.append((x, item))
        x += item.width + gap
    if current:
        lines.append(current)
    return lines


def _value_item(icon: Paint, icon_w: float, text: str, icon_name: str | None) -> Item:
    """An icon and a number; ``icon_name`` names the icon for the sprite cache (None: painted
    every time, for icons drawn with trigonometry, see :func:`renderer.base.cached_art`)."""
    fnt = font(34, "bold")
    w = icon_w + 6 + text_width(text, fnt)

    def paint(draw: ImageDraw.ImageDraw, x: float, cy: float) -> None:
        icon(draw, x, cy)
        draw_text(draw, (x + icon_w + 6, cy), text, fnt, INK, anchor="lm")

    return Item(w, paint, key=None if icon_name is None else ("sw-value", icon_name, text))


def _pill_item(text: str, fill: RGB) -> Item:
    fnt = font(24, "bold")
    w = text_width(text, fnt) + 20

    def paint(draw: ImageDraw.ImageDraw, x: float, cy: float) -> None:
        ic.rrect(draw, (x, cy - 18, x + w, cy + 18), fill, INK, cut=8)
        draw_text(draw, (x + w / 2, cy), text, fnt, ink_on(fill), anchor="mm")

    return Item(w, paint, key=("sw-pill", text, fill))


def _tokens_item(tokens: Sequence[int]) -> Item:
    w = 36 * len(tokens) + 3 * (len(tokens) - 1)

    def paint(draw: ImageDraw.ImageDraw, x: float, cy: float) -> None:
        for t in tokens:
            x += ic.conflict(draw, x, cy, t) + 3

    return Item(w, paint, key=("sw-tokens", tuple(tokens)))


def _science_icon(symbol: str) -> Paint:
    def paint(draw: ImageDraw.ImageDraw, x: float, cy: float) -> None:
        ic.science(draw, x + ic.S / 2, cy, ic.S, symbol)

    return paint


def stat_items(city: City) -> list[Item]:
    """The city's holdings: coins, shields, conflict tokens, debt, diplomacy, hand, science."""
    makes = font(22)
    makes_w = text_width("makes", makes) + 6 + ic.S

    def base_resource(draw: ImageDraw.ImageDraw, x: float, cy: float) -> None:
        draw_text(draw, (x, cy), "makes", makes, MUTED, anchor="lm")
        ic.resource(draw, x + makes_w - ic.S, cy, city.resource)

    items = [
        Item(makes_w, base_resource, key=("sw-makes", city.resource)),
        _value_item(lambda d, x, cy: ic.coin(d, x + 15, cy, 15), 30, str(city.coins), "coin"),
        _value_item(lambda d, x, cy: ic.shield(d, x + 15, cy, 28), 30, str(city.shields), "shield"),
    ]
    if city.tokens:
        items.append(_tokens_item(sorted(city.tokens, reverse=True)))
    if city.debt:
        items.append(_pill_item(f"debt {city.debt}", (40, 40, 40)))
    if city.diplomacy:
        items.append(_pill_item("diplomacy" + (f" ×{city.diplomacy}" if city.diplomacy > 1 else ""), DIPLOMACY_FILL))
    if city.owes:
        items.append(_pill_item(f"owes {city.owes}c", ic.WAIT_FILL))
    items.append(_value_item(lambda d, x, cy: ic.card_back(d, x + 11, cy), 22, f"{city.hand_count} in hand", "hand"))
    compass, gear, tablet, wild, masks = city.science
    if compass or gear or tablet or wild:
        for symbol, n in (("compass", compass), ("gear", gear), ("tablet", tablet), ("any", wild)):
            if n or symbol != "any":
                items.append(_value_item(_science_icon(symbol), ic.S, str(n), None))
    if masks:
        items.append(_pill_item(f"mask ×{masks}", (230, 230, 230)))
    return items


def chip_item(card_id: str, cards: Mapping[str, Any], colour: str, new: bool) -> Item:
    """A built structure: colour stripe, key symbols, short name; ★ and a glow if built last turn."""
    tokens = card_tokens(card_id)
    fnt = font(24)
    name = ("★ " if new else "") + short_name(card_id, cards)
    tw = ic.tokens_width(tokens)
    w = 12 + tw + (6 if tokens else 0) + text_width(name, fnt) + 8
    fill = CARD_FILL.get(colour, CARD_FILL["black"])

    def paint(draw: ImageDraw.ImageDraw, x: float, cy: float) -> None:
        top, bottom = cy - CHIP_H / 2, cy + CHIP_H / 2
        if new:
            ic.rrect(draw, (x - 4, top - 4, x + w + 4, bottom + 4), HIGHLIGHT, INK, width=1, cut=7)
        ic.rrect(draw, (x, top, x + w, bottom), tint(fill, 0.8), fill)
        draw.rectangle((x + 2, top + 2, x + 8, bottom - 2), fill=fill)
        tx = ic.draw_tokens(draw, x + 12, cy, tokens)
        draw_text(draw, (tx + (6 if tokens else 0), cy), name, fnt, INK, anchor="lm")

    return Item(w, paint, sprite_of(("chip", card_id, colour, name, new), w, 4 if new else 1, paint))


def caption_item(colour: str) -> Item:
    """The colour tab that starts a group of structures: the colour and its word."""
    fill = CARD_FILL.get(colour, CARD_FILL["black"])
    label = COLOUR_LABEL.get(colour, colour.title())
    w = CAP_W - 10

    def paint(draw: ImageDraw.ImageDraw, x: float, cy: float) -> None:
        ic.rrect(draw, (x, cy - CHIP_H / 2, x + w, cy + CHIP_H / 2), fill)
        draw_text(draw, (x + w / 2, cy), label, font(22, "bold"), ink_on(fill), anchor="mm")

    return Item(w, paint, sprite_of(("caption", colour, label), w, 1, paint))


def pack_groups(groups: Sequence[tuple[Item, Sequence[Item]]], width: float) -> list[Line]:
    """Lines of structures: each colour group is its caption then its chips; a group shares
    the previous group's line only when that group took one line and this one fits there
    whole; wrapped chips are indented past the caption column so a group reads as a block."""
    lines: list[Line] = []
    current: Line = []
    x = 0.0
    wrapped = False
    for caption, chips in groups:
        whole = caption.width + CHIP_GAP + sum(c.width + CHIP_GAP for c in chips) - CHIP_GAP
        if current and (wrapped or x + GROUP_GAP + whole > width):
            lines.append(current)
            current, x = [], 0.0
        wrapped = False
        if current:
            x += GROUP_GAP
        current.append((x, caption))
        x += caption.width + CHIP_GAP
        indent = x
        for chip in chips:
            if x + chip.width > width and x > indent:
                lines.append(current)
                current, x, wrapped = [], indent, True
            current.append((x, chip))
            x += chip.width + CHIP_GAP
        x -= CHIP_GAP
    if current:
        lines.append(current)
    return lines
