"""Duellum nation panels: one per nation, with its resources, units in box and supply,
technologies, personalities, rondel place, event cards in hand and sea points.

Why apart from the other panels: a nation panel is the board's largest and most detailed
part, drawn twice per board and mostly pasted from cached art; the header, event row, last
turn and bank are in :mod:`renderer.duellum_panels`. Public information only: a hand's
size, never its cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from PIL import Image, ImageDraw

from engine.core.text import count
from renderer import icons
from renderer.base import (
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    PAPER,
    WHITE,
    Font,
    cached_art,
    draw_lines,
    draw_text,
    fit_font,
    font,
    line_height_of,
    text_width,
    wrap,
)
from renderer.duellum_model import (
    NAVIGATOR_STEP,
    PERSONALITIES,
    TECHS,
    WIN_PERSONALITIES,
    Owner,
    space_label,
)
from renderer.duellum_panels import OWNED, PAD
from renderer.placement import Box
from renderer.viewdata import as_int, as_map, as_opt_int, as_str, str_list

TITLE_H = 64
ROW = 58
CAPTION_W = 128
NUM = 38
TECH_SIZE = 24
FOOT_SIZE = 28


def _tech_items(player: Mapping[str, Any]) -> list[tuple[str, bool, int | None]]:
    """(name, owned, price in gold or None) per technology, in the board's order."""
    owned = {t.upper().replace("_", " ") for t in str_list(player.get("techs"))}
    prices = {k.upper().replace("_", " "): as_opt_int(v) for k, v in as_map(player.get("tech_prices")).items()}
    return [(t, t in owned, None if t in owned else prices.get(t)) for t in TECHS]


def _tech_badge_width(name: str, owned: bool, price: int | None) -> float:
    fnt = font(TECH_SIZE, "bold")
    w = text_width(("✓ " if owned else "") + name, fnt) + 20
    if price is not None:
        w += 10 + text_width(str(price), fnt) + 30
    return w


def _tech_lines(player: Mapping[str, Any], width: float) -> list[list[tuple[float, tuple[str, bool, int | None]]]]:
    lines: list[list[tuple[float, tuple[str, bool, int | None]]]] = [[]]
    x = 0.0
    for item in _tech_items(player):
        w = _tech_badge_width(*item)
        if lines[-1] and x + w > width:
            lines.append([])
            x = 0.0
        lines[-1].append((x, item))
        x += w + 10
    return lines


def _footer_lines(player: Mapping[str, Any], width: float) -> list[str]:
    sea = as_int(player.get("sea_points"))
    hand = as_int(player.get("hand_count"))
    rondel = as_str(player.get("rondel"), "")
    where = space_label(rondel) if rondel else "not placed yet"
    text = (
        f"Rondel: {where} · {count(hand, 'event card')} in hand · sea points {sea} (a Navigator every {NAVIGATOR_STEP})"
    )
    return wrap(text, font(FOOT_SIZE), width)


def nation_height(player: Mapping[str, Any], width: float) -> float:
    """Height of a nation panel ``width`` wide (tech badges and the footer may wrap)."""
    inner = width - 2 * PAD
    techs = len(_tech_lines(player, inner - CAPTION_W))
    foot = len(_footer_lines(player, inner))
    rows = TITLE_H + 10 + ROW / 2 + ROW * 3 + (ROW - 8) * techs + 14 + 96
    return rows + line_height_of(font(FOOT_SIZE)) * foot + 14


def draw_nation(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    box: Box,
    player: Mapping[str, Any],
    owner: Owner,
    label: str,
    *,
    to_move: bool,
    winner: bool,
) -> None:
    """One nation's public holdings: VP, resources, units, walls, techs with prices,
    personalities, rondel, hand size and sea points. The mover's panel has a yellow frame and
    a "TO MOVE" badge in its title bar (the same place for both nations). The frame, with the
    stone and the mover's yellow edge, comes from :func:`renderer.base.cached_art` (it changes
    only with the panel's size and the mover)."""
    x0, y0, x1, _ = box
    vp_text = f"{as_int(player.get('vp'))}/{WIN_PERSONALITIES}"
    tag = "WINNER" if winner else ("TO MOVE" if to_move else "")
    highlighted = bool(tag)
    frame_key = ("duellum-nation-frame", owner, highlighted)
    frame_art = partial(_nation_frame, owner=owner, highlighted=highlighted)
    cached_art(image, box, frame_key, frame_art, background=PAPER, margin=2)
    _nation_title(draw, box, owner, label, vp_text, tag)

    num = font(NUM, "bold")
    x = x0 + PAD + CAPTION_W
    y = y0 + TITLE_H + 10 + ROW / 2
    resources = as_map(player.get("resources"))
    step = (x1 - PAD - x) / 4
    for k, res in enumerate(("marble", "iron", "gold", "coins")):
        draw_text(draw, (x + k * step + 46, y), str(as_int(resources.get(res))), num, INK, anchor="lm")
    y += ROW
    _unit_counts(draw, x, y, step, as_map(player.get("recruitment_box")), num)
    y += ROW
    _unit_counts(draw, x, y, step, as_map(player.get("supply")), num)
    walls = str(as_int(player.get("walls_in_supply")))
    draw_text(draw, (x + 2 * step + 50, y), walls, num, INK, anchor="lm")
    draw_text(draw, (x + 2 * step + 58 + text_width(walls, num), y), "walls", font(24), INK, anchor="lm")
    y += ROW
    for line in _tech_lines(player, x1 - PAD - x):
        for dx, item in line:
            w = _tech_badge_width(*item)
            badge = (x + dx, y - 4 - 21, x + dx + w, y - 4 + 21)
            cached_art(image, badge, ("duellum-tech", item), partial(_tech_badge, item=item), background=PANEL)
        y += ROW - 8
    y += 14
    pers = as_map(player.get("personalities"))
    cx = x0 + PAD
    pstep = (x1 - x0 - 2 * PAD) / len(PERSONALITIES)
    for key in PERSONALITIES:
        n = as_int(pers.get(key))
        card = (cx, y + 1, cx + pstep - 6, y + 78)
        cached_art(image, card, ("duellum-personality", key, n), partial(_personality, key=key, n=n), background=PANEL)
        cx += pstep
    y += 96
    draw_lines(draw, (x0 + PAD, y), _footer_lines(player, x1 - x0 - 2 * PAD), font(FOOT_SIZE), INK)


def _nation_frame(draw: ImageDraw.ImageDraw, box: Box, owner: Owner, highlighted: bool) -> None:
    """What a nation panel shows every turn: frame, empty title bar with the nation's stone
    (the mover's or winner's panel with a yellow frame, drawn up to 2 px outside ``box``),
    the row captions and the icons the counts stand beside."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=12, fill=PANEL, outline=PANEL_EDGE, width=3)
    draw.rounded_rectangle((x0 + 3, y0 + 3, x1 - 3, y0 + TITLE_H), radius=10, fill=owner.fill)
    draw.line((x0 + 3, y0 + TITLE_H, x1 - 3, y0 + TITLE_H), fill=INK, width=2)
    icons.stone(draw, x0 + 34, y0 + 3 + (TITLE_H - 3) / 2, 21, owner.fill, owner.ink, owner.letter)
    if highlighted:
        draw.rounded_rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), radius=12, outline=HIGHLIGHT, width=6)
        draw.rounded_rectangle((x0 - 2, y0 - 2, x1 + 2, y1 + 2), radius=14, outline=INK, width=2)
    cap = font(22)
    x = x0 + PAD + CAPTION_W
    y = y0 + TITLE_H + 10 + ROW / 2
    step = (x1 - PAD - x) / 4
    draw_text(draw, (x0 + PAD, y), "Resources", cap, MUTED, anchor="lm")
    for k, res in enumerate(("marble", "iron", "gold", "coins")):
        icons.resource_chip(draw, x + k * step + 19, y, 19, res)
    for caption in ("Box", "Supply"):
        y += ROW
        draw_text(draw, (x0 + PAD, y), caption, cap, MUTED, anchor="lm")
        icons.legion(draw, x + 17, y, 30, owner.fill)
        icons.galley(draw, x + step + 18, y, 34, owner.fill)
    icons.wall(draw, x + 2 * step + 22, y, 40)
    y += ROW
    draw_text(draw, (x0 + PAD, y - 4), "Techs", cap, MUTED, anchor="lm")


def _nation_title(draw: ImageDraw.ImageDraw, box: Box, owner: Owner, label: str, vp_text: str, tag: str) -> None:
    """The title bar's texts: name, score and the TO MOVE / WINNER badge."""
    x0, y0, x1, _ = box
    mid = y0 + 3 + (TITLE_H - 3) / 2
    vp_font = font(40, "bold")
    right = x1 - PAD
    draw_text(draw, (right, mid + 2), "VP", font(22, "bold"), owner.ink, anchor="rm")
    right -= text_width("VP", font(22, "bold")) + 6
    draw_text(draw, (right, mid), vp_text, vp_font, owner.ink, anchor="rm")
    right -= text_width(vp_text, vp_font) + 14
    if tag:
        tag_font = font(22, "bold")
        tw = text_width(tag, tag_font) + 24
        draw.rounded_rectangle((right - tw, mid - 18, right, mid + 18), radius=8, fill=HIGHLIGHT, outline=INK, width=2)
        draw_text(draw, (right - tw / 2, mid), tag, tag_font, INK, anchor="mm")
        right -= tw + 12
    name_font = fit_font(label, 34, right - (x0 + 64), "bold", min_size=18)
    draw_text(draw, (x0 + 64, mid), label, name_font, owner.ink, anchor="lm")


def _unit_counts(
    draw: ImageDraw.ImageDraw, x: float, y: float, step: float, counts: Mapping[str, Any], num: Font
) -> None:
    """The legion and galley counts of a row (their icons are part of the panel's frame)."""
    draw_text(draw, (x + 46, y), str(as_int(counts.get("legion"))), num, INK, anchor="lm")
    draw_text(draw, (x + step + 46, y), str(as_int(counts.get("galley"))), num, INK, anchor="lm")


def _tech_badge(draw: ImageDraw.ImageDraw, box: Box, item: tuple[str, bool, int | None]) -> None:
    """A technology in ``box`` (42 px high): owned ones filled with a check mark; missing ones
    pale with their price in gold for this nation now (a gold chip and the number)."""
    name, owned, price = item
    fnt = font(TECH_SIZE, "bold")
    x, cy = box[0], box[1] + 21
    if owned:
        draw.rectangle(box, fill=OWNED, outline=INK, width=2)
        draw_text(draw, (x + 10, cy), "✓ " + name, fnt, WHITE, anchor="lm")
        return
    draw.rectangle(box, fill=PANEL, outline=(150, 140, 130), width=2)
    draw_text(draw, (x + 10, cy), name, fnt, (95, 88, 80), anchor="lm")
    if price is not None:
        px = x + 10 + text_width(name, fnt) + 10
        icons.resource_chip(draw, px + 13, cy, 13, "gold")
        draw_text(draw, (px + 30, cy), str(price), fnt, INK, anchor="lm")


def _personality(draw: ImageDraw.ImageDraw, box: Box, key: str, n: int) -> None:
    """One personality type: a small card with its initial, the count beside it, name below
    (``box`` from 25 px above the card's centre line)."""
    x, y = box[0], box[1] + 25
    colour = INK if n else (150, 142, 134)
    draw.rectangle((x, y - 24, x + 34, y + 20), fill=WHITE if n else PANEL, outline=colour, width=2)
    draw_text(draw, (x + 17, y - 2), key[:1].upper(), font(26, "bold"), colour, anchor="mm")
    draw_text(draw, (x + 42, y - 2), str(n), font(36, "bold"), colour, anchor="lm")
    draw_text(draw, (x, y + 26), key.title(), font(20), colour)
