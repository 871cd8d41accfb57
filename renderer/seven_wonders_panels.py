"""7 Wonders city panels: title bar, wonder row, holdings, last turn, structures by colour.

Why plan then draw: panel heights depend on how many structures a city has, and the two
panels of a grid row must line up, so :func:`plan_panel` measures everything first (card
chips flowed into lines per colour) and :func:`draw_panel` paints the plan into its box.
Everything drawn comes from :class:`renderer.seven_wonders_model.City`, i.e. public facts.
"""

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
    PANEL_EDGE,
    RGB,
    WHITE,
    LayerCache,
    draw_text,
    fit_font,
    font,
    fonts_signature,
    ink_on,
    new_canvas,
    text_width,
    tint,
    wrap,
)
from renderer.placement import Box
from renderer.seven_wonders_model import (
    CARD_FILL,
    COLOUR_LABEL,
    City,
    Token,
    card_tokens,
    short_name,
    wonder_short,
)

TITLE_H: Final[int] = 70
ROW_H: Final[int] = 40
CHIP_H: Final[int] = 30
CHIP_PITCH: Final[int] = 37
CAP_W: Final[int] = 100
NAME_MAX: Final[int] = 200
LINE_H: Final[int] = 31
PAD: Final[int] = 14
ITEM_GAP: Final[int] = 18
CHIP_GAP: Final[int] = 9
GROUP_GAP: Final[int] = 16
TITLE_FILL: Final[RGB] = (54, 46, 40)
LAST_FILL: Final[RGB] = (255, 238, 160)
STAGE_FILL: Final[RGB] = (214, 168, 58)
SCORE_WORDS: Final[tuple[tuple[str, str], ...]] = (
    ("military", "military"),
    ("treasury", "treasury"),
    ("wonder", "wonder"),
    ("civilian", "civic"),
    ("commercial", "trade"),
    ("guilds", "guilds"),
    ("science", "science"),
    ("cities", "city"),
)

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


@dataclass(frozen=True, slots=True)
class Plan:
    """A measured panel: its lines of holdings, texts and structure chips, and its height."""

    stats: list[Line]
    last: list[str]
    score: list[str]
    structures: list[Line]  # colour captions and card chips
    height: float


# ----------------------------------------------------------------------------- items


def _value_item(icon: Paint, icon_w: float, text: str) -> Item:
    fnt = font(28, "bold")
    w = icon_w + 5 + text_width(text, fnt)

    def paint(draw: ImageDraw.ImageDraw, x: float, cy: float) -> None:
        icon(draw, x, cy)
        draw_text(draw, (x + icon_w + 5, cy), text, fnt, INK, anchor="lm")

    return Item(w, paint)


def _pill_item(text: str, fill: RGB) -> Item:
    fnt = font(18, "bold")
    w = text_width(text, fnt) + 18

    def paint(draw: ImageDraw.ImageDraw, x: float, cy: float) -> None:
        ic.rrect(draw, (x, cy - 14, x + w, cy + 14), fill, INK, cut=8)
        draw_text(draw, (x + w / 2, cy), text, fnt, ink_on(fill), anchor="mm")

    return Item(w, paint)


def _tokens_item(tokens: Sequence[int]) -> Item:
    w = 30 * len(tokens) + 3 * (len(tokens) - 1)

    def paint(draw: ImageDraw.ImageDraw, x: float, cy: float) -> None:
        for t in tokens:
            x += ic.conflict(draw, x, cy, t) + 3

    return Item(w, paint)


def _science_icon(symbol: str) -> Paint:
    def paint(draw: ImageDraw.ImageDraw, x: float, cy: float) -> None:
        ic.science(draw, x + ic.S / 2, cy, ic.S, symbol)

    return paint


def stat_items(city: City) -> list[Item]:
    """The city's holdings: coins, shields, conflict tokens, debt, diplomacy, hand, science."""
    items = [
        _value_item(lambda d, x, cy: ic.coin(d, x + 12, cy, 12), 24, str(city.coins)),
        _value_item(lambda d, x, cy: ic.shield(d, x + 12, cy, 22), 24, str(city.shields)),
    ]
    if city.tokens:
        items.append(_tokens_item(sorted(city.tokens, reverse=True)))
    if city.debt:
        items.append(_pill_item(f"debt {city.debt}", (40, 40, 40)))
    if city.diplomacy:
        items.append(_pill_item("diplomacy" + (f" ×{city.diplomacy}" if city.diplomacy > 1 else ""), (190, 220, 250)))
    if city.owes:
        items.append(_pill_item(f"owes {city.owes}c", ic.WAIT_FILL))
    items.append(_value_item(lambda d, x, cy: ic.card_back(d, x + 9, cy), 18, f"{city.hand_count} in hand"))
    compass, gear, tablet, wild, masks = city.science
    if compass or gear or tablet or wild:
        for symbol, n in (("compass", compass), ("gear", gear), ("tablet", tablet), ("any", wild)):
            if n or symbol != "any":
                items.append(_value_item(_science_icon(symbol), ic.S, str(n)))
    if masks:
        items.append(_pill_item(f"mask ×{masks}", (230, 230, 230)))
    return items


def chip_item(card_id: str, cards: Mapping[str, Any], colour: str, new: bool) -> Item:
    """A built structure: colour stripe, key symbols, short name; ★ and a glow if built last turn."""
    tokens = card_tokens(card_id)
    fnt = font(20)
    name = ("★ " if new else "") + short_name(card_id, cards)
    tw = ic.tokens_width(tokens)
    w = 12 + tw + (6 if tokens else 0) + text_width(name, fnt) + 8
    fill = CARD_FILL.get(colour, CARD_FILL["black"])

    def paint(draw: ImageDraw.ImageDraw, x: float, cy: float) -> None:
        top, bottom = cy - CHIP_H / 2, cy + CHIP_H / 2
        if new:
            ic.rrect(draw, (x - 4, top - 4, x + w + 4, bottom + 4), HIGHLIGHT, INK, width=1, cut=7)
        ic.rrect(draw, (x, top, x + w, bottom), tint(fill, 0.8), fill)
        draw.rectangle((x + 2, top + 2, x + 7, bottom - 2), fill=fill)
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
        draw_text(draw, (x + w / 2, cy), label, font(18, "bold"), ink_on(fill), anchor="mm")

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


# ----------------------------------------------------------------------------- plan and draw


def _score_line(score: Mapping[str, Any] | None) -> str:
    if score is None:
        return ""
    parts = " · ".join(f"{word} {score.get(key, 0)}" for key, word in SCORE_WORDS)
    return f"Score {score.get('total', 0)} VP = {parts}"


def plan_panel(city: City, width: float, cards: Mapping[str, Any]) -> Plan:
    """Measure a panel ``width`` pixels wide."""
    inner = width - 2 * PAD
    stats = flow(stat_items(city), inner, ITEM_GAP)
    body = font(24)
    last: list[str] = []
    if city.last:
        last = wrap("Last turn: " + "; ".join(city.last), body, inner - 16)
    score = wrap(_score_line(city.score), font(20), inner - 16) if city.score is not None else []
    groups = [
        (caption_item(colour), [chip_item(cid, cards, colour, cid in city.new_cards) for cid in ids])
        for colour, ids in city.structures
        if ids
    ]
    structures = pack_groups(groups, inner)
    height = TITLE_H + 6 + ROW_H + ROW_H * len(stats)
    height += (LINE_H * len(last) + 12) if last else 0
    height += (LINE_H * len(score) + 8) if score else 0
    height += 6 + (CHIP_PITCH * len(structures) if structures else 32) + 8
    return Plan(stats, last, score, structures, height)


def _title(draw: ImageDraw.ImageDraw, box: Box, city: City) -> None:
    x0, y0, x1, _ = box
    ic.rrect(draw, (x0 + 3, y0 + 3, x1 - 3, y0 + TITLE_H), TITLE_FILL, cut=8)
    badge = "FC" if city.free_city else str(city.index + 1)
    draw.ellipse((x0 + 12, y0 + 10, x0 + 48, y0 + 46), fill=WHITE, outline=INK, width=2)
    draw_text(draw, (x0 + 30, y0 + 28), badge, font(20 if len(badge) < 2 else 18, "bold"), INK, anchor="mm")
    right = x1 - 14
    if city.score is not None:
        place = {1: "1st", 2: "2nd", 3: "3rd"}.get(city.rank or 0, f"{city.rank}th")
        label = f"{place} · {city.score.get('total', 0)} VP"
        fill = HIGHLIGHT if city.rank == 1 else WHITE
        w = text_width(label, font(20, "bold")) + 20
        ic.rrect(draw, (right - w, y0 + 12, right, y0 + 44), fill, INK, cut=9)
        draw_text(draw, (right - w / 2, y0 + 28), label, font(20, "bold"), INK, anchor="mm")
        right -= w + 10
    else:
        if city.vp is not None:
            label = f"{city.vp} VP"
            w = text_width(label, font(26, "bold")) + 20
            ic.rrect(draw, (right - w, y0 + 10, right, y0 + 46), (250, 236, 190), INK, cut=9)
            draw_text(draw, (right - w / 2, y0 + 28), label, font(26, "bold"), INK, anchor="mm")
            right -= w + 10
    if city.score is None and city.status:
        w = text_width(city.status, font(20, "bold")) + 50
        ic.rrect(draw, (right - w, y0 + 12, right, y0 + 44), WHITE, INK, cut=9)
        ic.status_icon(draw, right - w + 17, y0 + 28, 12, city.status)
        draw_text(draw, (right - w + 34, y0 + 28), city.status, font(20, "bold"), INK, anchor="lm")
        right -= w + 10
    name_font = fit_font(city.name, 30, right - x0 - 66 - (90 if city.team is not None else 0), "bold", 18)
    name = city.name
    if city.team is not None:
        team = f"Team {city.team + 1}"
        room = right - (x0 + 58) - text_width(team, font(18, "bold")) - 34
        name_font = fit_font(name, 30, room, "bold", 16)
        draw_text(draw, (x0 + 58, y0 + 28), name, name_font, WHITE, anchor="lm")
        tx = x0 + 58 + text_width(name, name_font) + 12
        tw = text_width(team, font(18, "bold")) + 16
        ic.rrect(draw, (tx, y0 + 15, tx + tw, y0 + 41), (190, 220, 250), INK, width=1)
        draw_text(draw, (tx + tw / 2, y0 + 28), team, font(18, "bold"), INK, anchor="mm")
    else:
        draw_text(draw, (x0 + 58, y0 + 28), name, name_font, WHITE, anchor="lm")
    sub = f"left: {city.left} · right: {city.right}"
    if city.played_by:
        sub += f" · played by {city.played_by} this turn"
    sub_font = fit_font(sub, 20, x1 - x0 - 28, "regular", 14)
    draw_text(draw, (x0 + 14, y0 + 56), sub, sub_font, (228, 220, 206), anchor="lm")


def _wonder_row(draw: ImageDraw.ImageDraw, x0: float, x1: float, cy: float, city: City) -> None:
    x = x0
    for st in city.stages:
        box = (x, cy - 15, x + 34, cy + 15)
        if st.new:
            ic.rrect(draw, (x - 4, cy - 19, x + 38, cy + 19), HIGHLIGHT, INK, width=1, cut=7)
        if st.built:
            ic.rrect(draw, box, STAGE_FILL, INK)
            draw_text(draw, (x + 17, cy), str(st.number), font(20, "bold"), INK, anchor="mm")
        else:
            ic.rrect(draw, box, WHITE, MUTED)
            draw_text(draw, (x + 17, cy), str(st.number), font(20), MUTED, anchor="mm")
        x += 42
    built = sum(1 for st in city.stages if st.built)
    right = x1
    base_w = text_width("makes", font(18)) + 6 + ic.S
    draw_text(draw, (right - ic.S - 6, cy), "makes", font(18), MUTED, anchor="rm")
    ic.resource(draw, right - ic.S, cy, city.resource)
    right -= base_w + 16
    if built < len(city.stages):
        cost = city.next_cost or (Token("text", "free"),)
        tw = ic.tokens_width(cost)
        ic.draw_tokens(draw, right - tw, cy, cost)
        right -= tw + 6
        draw_text(draw, (right, cy), "next:", font(18), MUTED, anchor="rm")
        right -= text_width("next:", font(18)) + 14
    label = f"{wonder_short(city.wonder)} ({city.side}) {built}/{len(city.stages)}"
    draw_text(draw, (x + 4, cy), label, fit_font(label, 22, right - x - 4, "bold", 14), INK, anchor="lm")


def draw_panel(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, city: City, plan: Plan) -> None:
    """Paint a planned panel into ``box`` (as tall as the row; the plan fits inside)."""
    x0, y0, x1, _ = box
    ic.rrect(draw, box, PANEL, PANEL_EDGE, width=3, cut=10)
    _title(draw, box, city)
    left, right = x0 + PAD, x1 - PAD
    y = y0 + TITLE_H + 6
    _wonder_row(draw, left, right, y + ROW_H / 2, city)
    y += ROW_H
    for line in plan.stats:
        for dx, item in line:
            item.paint(draw, left + dx, y + ROW_H / 2)
        y += ROW_H
    if plan.last:
        h = LINE_H * len(plan.last) + 6
        ic.rrect(draw, (left, y, right, y + h), LAST_FILL, (190, 150, 20))
        for k, text in enumerate(plan.last):
            draw_text(draw, (left + 8, y + 4 + LINE_H * k + LINE_H / 2), text, font(24), INK, anchor="lm")
        y += h + 6
    if plan.score:
        for k, text in enumerate(plan.score):
            draw_text(draw, (left + 4, y + LINE_H * k + LINE_H / 2), text, font(20), INK, anchor="lm")
        y += LINE_H * len(plan.score) + 8
    y += 6
    if not plan.structures:
        draw_text(draw, (left, y + 14), "No structures yet", font(18), MUTED, anchor="lm")
    for line in plan.structures:
        for dx, item in line:
            place(image, draw, item, left + dx, y + CHIP_H / 2)
        y += CHIP_PITCH
