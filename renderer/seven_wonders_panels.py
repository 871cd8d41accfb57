"""7 Wonders city panels: title bar, wonder row, holdings, last turn, structures by colour.

Why plan then draw: panel heights depend on how many structures a city has, and the two
panels of a grid row must line up, so :func:`plan_panel` measures everything first (card
chips flowed into lines per colour) and :func:`draw_panel` paints the plan into its box.
Everything drawn comes from :class:`renderer.seven_wonders_model.City`, i.e. public facts.
The row items (holdings, card chips, captions) are in :mod:`renderer.seven_wonders_items`.
"""

from __future__ import annotations

from collections.abc import Mapping
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
    PAPER,
    RGB,
    WHITE,
    cached_art,
    draw_text,
    drawing_fresh,
    fit_font,
    font,
    text_width,
    wrap,
)
from renderer.placement import Box
from renderer.seven_wonders_items import (
    CHIP_H,
    DIPLOMACY_FILL,
    Item,
    Line,
    Paint,
    caption_item,
    chip_item,
    flow,
    pack_groups,
    place,
    stat_items,
)
from renderer.seven_wonders_model import (
    City,
    Token,
    wonder_short,
)

TITLE_H: Final[int] = 86
ROW_H: Final[int] = 50
CHIP_PITCH: Final[int] = 46
LINE_H: Final[int] = 36
PAD: Final[int] = 14
ITEM_GAP: Final[int] = 18
TITLE_FILL: Final[RGB] = (54, 46, 40)
LAST_FILL: Final[RGB] = (255, 238, 160)
STAGE_FILL: Final[RGB] = (214, 168, 58)
LAST_EDGE: Final[RGB] = (190, 150, 20)  # the frame of a city's last-turn line
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


@dataclass(frozen=True, slots=True)
class Plan:
    """A measured panel: its lines of holdings, texts and structure chips, and its height."""

    stats: list[Line]
    last: list[str]
    score: list[str]
    structures: list[Line]  # colour captions and card chips
    height: float


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
    body = font(28)
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


def _pill(draw: ImageDraw.ImageDraw, right: float, cy: float, label: str, fill: RGB, size: int) -> float:
    """A rounded label ending at ``right``; returns its left edge."""
    fnt = font(size, "bold")
    w = text_width(label, fnt) + 22
    ic.rrect(draw, (right - w, cy - size * 0.75, right, cy + size * 0.75), fill, INK, cut=9)
    draw_text(draw, (right - w / 2, cy), label, fnt, INK, anchor="mm")
    return right - w


def _panel_frame(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """A panel's chamfered frame (its 3 px edge reaches 1 px outside ``box``) and its empty
    dark title bar."""
    x0, y0, x1, _ = box
    ic.rrect(draw, box, PANEL, PANEL_EDGE, width=3, cut=10)
    ic.rrect(draw, (x0 + 3, y0 + 3, x1 - 3, y0 + TITLE_H), TITLE_FILL, cut=8)


def _title(draw: ImageDraw.ImageDraw, box: Box, city: City) -> None:
    """Seat badge, city name and the phone-size facts: VP (running or final) and choice status."""
    x0, y0, x1, _ = box
    cy = y0 + 31
    badge = "FC" if city.free_city else str(city.index + 1)
    draw.ellipse((x0 + 10, cy - 21, x0 + 52, cy + 21), fill=WHITE, outline=INK, width=2)
    draw_text(draw, (x0 + 31, cy), badge, font(24 if len(badge) < 2 else 20, "bold"), INK, anchor="mm")
    right = x1 - 14
    if city.score is not None:
        place = {1: "1st", 2: "2nd", 3: "3rd"}.get(city.rank or 0, f"{city.rank}th")
        fill = HIGHLIGHT if city.rank == 1 else WHITE
        right = _pill(draw, right, cy, f"{place} · {city.score.get('total', 0)} VP", fill, 30) - 10
    elif city.vp is not None:
        right = _pill(draw, right, cy, f"{city.vp} VP", (250, 236, 190), 32) - 10
    if city.score is None and city.status:
        # The status as a big symbol only (tick: chosen, hourglass: choosing or paying; the
        # key at the bottom says so): the city's name keeps its size in a narrow panel.
        ic.status_icon(draw, right - 20, cy, 20, city.status)
        right -= 50
    x = x0 + 62
    if city.team is not None:
        team = f"Team {city.team + 1}"
        team_font = font(22, "bold")
        tw = text_width(team, team_font) + 16
        name_font = fit_font(city.name, 36, right - x - tw - 20, "bold", 16)
        draw_text(draw, (x, cy), city.name, name_font, WHITE, anchor="lm")
        tx = x + text_width(city.name, name_font) + 12
        ic.rrect(draw, (tx, cy - 15, tx + tw, cy + 15), DIPLOMACY_FILL, INK, width=1)
        draw_text(draw, (tx + tw / 2, cy), team, team_font, INK, anchor="mm")
    else:
        draw_text(draw, (x, cy), city.name, fit_font(city.name, 36, right - x - 8, "bold", 16), WHITE, anchor="lm")
    sub = f"{city.player} · " if city.player else ""
    sub += f"left: {city.left} · right: {city.right}"
    if city.played_by:
        sub += f" · played by {city.played_by} this turn"
    sub_font = fit_font(sub, 22, x1 - x0 - 28, "regular", 14)
    draw_text(draw, (x0 + 14, y0 + 68), sub, sub_font, (228, 220, 206), anchor="lm")


def _wonder_row(draw: ImageDraw.ImageDraw, x0: float, x1: float, cy: float, city: City) -> None:
    x = x0
    for st in city.stages:
        box = (x, cy - 18, x + 38, cy + 18)
        if st.new:
            ic.rrect(draw, (x - 4, cy - 22, x + 42, cy + 22), HIGHLIGHT, INK, width=1, cut=7)
        if st.built:
            ic.rrect(draw, box, STAGE_FILL, INK)
            draw_text(draw, (x + 19, cy), str(st.number), font(24, "bold"), INK, anchor="mm")
        else:
            ic.rrect(draw, box, WHITE, MUTED)
            draw_text(draw, (x + 19, cy), str(st.number), font(24), MUTED, anchor="mm")
        x += 46
    built = sum(1 for st in city.stages if st.built)
    right = x1
    small = font(22)
    if built < len(city.stages):
        cost = city.next_cost or (Token("text", "free"),)
        tw = ic.tokens_width(cost)
        ic.draw_tokens(draw, right - tw, cy, cost)
        right -= tw + 6
        draw_text(draw, (right, cy), "next:", small, MUTED, anchor="rm")
        right -= text_width("next:", small) + 14
    label = f"{wonder_short(city.wonder)} ({city.side}) {built}/{len(city.stages)}"
    draw_text(draw, (x + 4, cy), label, fit_font(label, 26, right - x - 4, "bold", 14), INK, anchor="lm")


FRAME_TOP: Final[int] = TITLE_H + 12  # rows of a frame's top sprite: its corners and title bar
FRAME_BOTTOM: Final[int] = 16  # rows of its bottom sprite: the lower chamfers and edge
FRAME_STRIP: Final[int] = 64  # rows of a middle strip: the two straight side edges
_FAR: Final[int] = 200  # how far beyond a part's tile the frame drawn for it reaches


def _paste_frame(image: Image.Image, box: Box) -> None:
    """A panel's frame (:func:`_panel_frame`) pasted from three sprites that do not depend on
    the panel's height: the top (corners and title bar), strips of straight side edges, the
    bottom. Why: a sprite of the whole frame was one per row height, and a table of new row
    heights built (drew and filled) a new 600 x 700 frame for every panel. Each part's sprite
    is the frame drawn reaching far beyond the part's tile, so its rows are the rows the whole
    frame has there (its edges are straight between the chamfers); a panel too short for the
    parts, and :func:`renderer.base.fresh_art`, draw the frame whole."""
    x0, y0, x1, y1 = box
    if drawing_fresh() or y1 - y0 < FRAME_TOP + FRAME_BOTTOM + 2 * FRAME_STRIP:
        cached_art(image, box, ("sw-panel-frame",), _panel_frame, background=PAPER, margin=2)
        return

    def top(draw: ImageDraw.ImageDraw, tile: Box) -> None:
        _panel_frame(draw, (tile[0], tile[1], tile[2], tile[3] + _FAR))

    def strip(draw: ImageDraw.ImageDraw, tile: Box) -> None:
        _panel_frame(draw, (tile[0], tile[1] - _FAR, tile[2], tile[3] + _FAR))

    def bottom(draw: ImageDraw.ImageDraw, tile: Box) -> None:
        _panel_frame(draw, (tile[0], tile[1] - _FAR, tile[2], tile[3]))

    cached_art(image, (x0, y0, x1, y0 + FRAME_TOP), ("sw-frame-top",), top, background=PAPER, margin=2)
    y = y0 + FRAME_TOP
    end = y1 - FRAME_BOTTOM
    while y < end:
        at = min(y, end - FRAME_STRIP)  # the last strip ends where the bottom begins
        cached_art(image, (x0, at, x1, at + FRAME_STRIP), ("sw-frame-strip",), strip, background=PAPER, margin=2)
        y = at + FRAME_STRIP
    cached_art(image, (x0, end, x1, y1), ("sw-frame-bottom",), bottom, background=PAPER, margin=2)


def _paste_title(image: Image.Image, box: Box, city: City) -> None:
    """The title bar's contents, pasted from :func:`renderer.base.cached_art` (a city's name,
    badge, neighbours and VP pill repeat from turn to turn; drawing them was ~130 µs a panel).
    The tile stays inside the bar's plain dark fill, clear of its chamfered corners."""
    x0, y0, x1, _ = box
    score = None if city.score is None else (city.rank, city.score.get("total", 0))
    key = (
        "sw-title",
        city.free_city,
        city.index,
        city.name,
        city.team,
        city.vp,
        score,
        city.status,
        city.player,
        city.left,
        city.right,
        city.played_by,
    )

    def art(draw: ImageDraw.ImageDraw, tile: Box, city: City = city) -> None:
        _title(draw, (tile[0] - TITLE_INSET[0], tile[1] - TITLE_INSET[1], tile[2] + TITLE_INSET[2], tile[3]), city)

    dx0, dy0, dx1, dy1 = TITLE_INSET
    cached_art(image, (x0 + dx0, y0 + dy0, x1 - dx1, y0 + TITLE_H - dy1), key, art, background=TITLE_FILL)


TITLE_INSET: Final[tuple[int, int, int, int]] = (10, 6, 12, 2)  # the title tile in the bar: left, top, right, bottom


def _paste_wonder_row(image: Image.Image, x0: float, x1: float, cy: float, city: City) -> None:
    """The wonder's stages, name and next cost, pasted from :func:`renderer.base.cached_art`:
    they change only when a stage is built."""
    key = ("sw-wonder", city.stages, city.next_cost, city.wonder, city.side)

    def art(draw: ImageDraw.ImageDraw, tile: Box, city: City = city) -> None:
        _wonder_row(draw, tile[0] + 4, tile[2], tile[1] + 22, city)

    cached_art(image, (x0 - 4, cy - 22, x1, cy + 22), key, art, background=PANEL, margin=2)


def _paint_row_item(image: Image.Image, draw: ImageDraw.ImageDraw, item: Item, x: float, top: float) -> None:
    """A holdings item in its row (``top`` to ``top + ROW_H``): pasted from
    :func:`renderer.base.cached_art` when it has a key (coins, shields, science counts repeat
    from turn to turn and each is several shapes), else painted."""
    if item.key is None:
        item.paint(draw, x, top + ROW_H / 2)
        return

    def art(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], paint: Paint = item.paint) -> None:
        paint(d, box[0], box[1] + ROW_H / 2)

    cached_art(image, (x, top, x + item.width, top + ROW_H), item.key, art, background=PANEL, margin=2)


def draw_panel(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, city: City, plan: Plan) -> None:
    """Paint a planned panel into ``box`` (as tall as the row; the plan fits inside); the empty
    frame and title bar come from :func:`renderer.base.cached_art` (a big filled polygon)."""
    x0, y0, x1, _ = box
    _paste_frame(image, box)
    _paste_title(image, box, city)
    left, right = x0 + PAD, x1 - PAD
    y = y0 + TITLE_H + 6
    _paste_wonder_row(image, left, right, y + ROW_H / 2, city)
    y += ROW_H
    for line in plan.stats:
        for dx, item in line:
            _paint_row_item(image, draw, item, left + dx, y)
        y += ROW_H
    if plan.last:
        h = LINE_H * len(plan.last) + 6
        ic.rrect(draw, (left, y, right, y + h), LAST_FILL, LAST_EDGE)
        for k, text in enumerate(plan.last):
            draw_text(draw, (left + 8, y + 4 + LINE_H * k + LINE_H / 2), text, font(28), INK, anchor="lm")
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
