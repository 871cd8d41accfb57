"""Duellum side panels: header, legend, one panel per nation, event row and turn log.

Why each panel has a ``*_base`` and a per-turn function: frames, captions and the legend are
static and go into the cached base image; the per-turn functions only draw values. Everything
here is public information: the nation panels show the size of a hand, never its cards (those
are drawn only by the private hand image).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import ImageDraw

from renderer import icons
from renderer.base import (
    BORDER_COLOUR,
    HIGHLIGHT,
    INK,
    KIND_FILL,
    MUTED,
    PANEL,
    PANEL_EDGE,
    RGB,
    WHITE,
    draw_lines,
    draw_text,
    fit_text,
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
    owner_of,
    space_label,
)
from renderer.placement import Box
from renderer.viewdata import as_bool, as_int, as_list, as_map, as_opt_int, as_str, str_list

OWNED: RGB = (30, 110, 60)


def frame(draw: ImageDraw.ImageDraw, box: Box, title: str | None = None) -> None:
    """A panel frame with an optional caption in its top-left corner."""
    draw.rounded_rectangle(box, radius=12, fill=PANEL, outline=PANEL_EDGE, width=3)
    if title:
        draw_text(draw, (box[0] + 16, box[1] + 10), title, font(22, "bold"), INK)


# ----------------------------------------------------------------------------- header and legend


def draw_header(
    draw: ImageDraw.ImageDraw, box: Box, view: Mapping[str, Any], owner_list: Sequence[Owner], width: float
) -> None:
    """Title line (game, nations, turn) and the awaited-action line, with the mover's colour."""
    x, y = box[0] + 16, box[1] + 8
    names = " vs ".join(o.name for o in owner_list) or "Antike Duellum"
    turn = as_int(view.get("turn"))
    side = as_str(view.get("map_side"))
    title = f"Antike Duellum {side} — {names} — turn {turn}" if side else f"Antike Duellum — {names} — turn {turn}"
    draw_text(draw, (x, y), fit_text(title, font(30, "bold"), width - 32), font(30, "bold"), INK)
    if as_bool(view.get("over")):
        winner = owner_of(owner_list, view.get("winner"))
        status = f"Game over — {winner.name} win" if winner else "Game over"
        movers: list[Owner] = [winner] if winner else []
    else:
        status = as_str(view.get("awaiting"), "")
        movers = [o for s in as_list(view.get("to_move")) if (o := owner_of(owner_list, s)) is not None]
        if not movers and (active := owner_of(owner_list, view.get("active"))) is not None:
            movers = [active]
    cx = x
    cy = y + 52
    for o in movers:
        icons.stone(draw, cx + 15, cy, 15, o.fill, o.ink, o.letter)
        cx += 36
    fnt = font(24)
    draw_text(draw, (cx + 4, cy), fit_text(status, fnt, width - (cx - box[0]) - 24), fnt, INK, anchor="lm")


def draw_legend(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """Static key: border styles and region kinds (so colour is never the only cue)."""
    x0, y0 = box[0], box[1]
    fnt = font(18)
    x = x0
    y = y0 + 14
    for colour, label in (("RED", "legions"), ("BLUE", "galleys"), ("REDBLUE", "both")):
        rgb = BORDER_COLOUR[colour]
        if colour == "BLUE":
            for dx in (0, 20):
                draw.line((x + dx, y, x + dx + 13, y), fill=rgb, width=4)
        elif colour == "REDBLUE":
            draw.line((x, y, x + 34, y), fill=rgb, width=9)
        else:
            draw.line((x, y, x + 34, y), fill=rgb, width=4)
        draw_text(draw, (x + 42, y), label, fnt, INK, anchor="lm")
        x += 42 + text_width(label, fnt) + 22
    x = x0
    y = y0 + 46
    for kind, label in (("LAND", "land"), ("MIXED", "coast"), ("SEA", "sea")):
        draw.ellipse((x, y - 11, x + 22, y + 11), fill=KIND_FILL[kind], outline=INK, width=2)
        draw_text(draw, (x + 30, y), label, fnt, INK, anchor="lm")
        x += 30 + text_width(label, fnt) + 18
    draw.ellipse((x, y - 11, x + 22, y + 11), fill=KIND_FILL["MIXED"], outline=INK, width=5)
    draw_text(draw, (x + 30, y), "city site", fnt, INK, anchor="lm")


# ----------------------------------------------------------------------------- nation panels

CAPTION_W = 118
ROW = 44


def draw_nation_base(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """Frame and row captions of a nation panel (the same for both nations)."""
    frame(draw, box)
    x, y = box[0] + 16, box[1] + 66
    fnt = font(18)
    for caption, rows in (("Resources", 1), ("Box", 1), ("Supply", 1), ("Techs", 2)):
        draw_text(draw, (x, y + ROW / 2), caption, fnt, MUTED, anchor="lm")
        y += ROW * rows


def draw_nation(
    draw: ImageDraw.ImageDraw,
    box: Box,
    player: Mapping[str, Any],
    owner: Owner,
    *,
    to_move: bool,
    winner: bool,
) -> None:
    """One nation's public holdings: resources, units, walls, techs, personalities, VP, sea, hand size."""
    x0, y0, x1, _ = box
    draw.rounded_rectangle((x0 + 3, y0 + 3, x1 - 3, y0 + 54), radius=10, fill=owner.fill)
    draw.line((x0 + 3, y0 + 54, x1 - 3, y0 + 54), fill=INK, width=2)
    icons.stone(draw, x0 + 30, y0 + 29, 17, owner.fill, owner.ink, owner.letter)
    vp = as_int(player.get("vp"))
    vp_text = f"{vp}/{WIN_PERSONALITIES} VP"
    vp_font = font(28, "bold")
    vp_w = text_width(vp_text, vp_font)
    draw_text(draw, (x1 - 18, y0 + 29), vp_text, vp_font, owner.ink, anchor="rm")
    tag = "WINNER" if winner else ("to move" if to_move else "")
    name_font = font(26, "bold")
    room = x1 - x0 - vp_w - 100
    title = f"{owner.name} — {tag}" if tag else owner.name
    tag_in_footer = bool(tag) and text_width(title, name_font) > room
    if tag_in_footer:
        title = owner.name
    draw_text(
        draw,
        (x0 + 56, y0 + 29),
        fit_text(title, name_font, room),
        name_font,
        owner.ink,
        anchor="lm",
    )
    if to_move or winner:
        draw.rounded_rectangle((x0 + 1, y0 + 1, x1 - 1, box[3] - 1), radius=12, outline=HIGHLIGHT, width=5)
        draw.rounded_rectangle((x0 - 2, y0 - 2, x1 + 2, box[3] + 2), radius=14, outline=INK, width=2)

    x = x0 + 16 + CAPTION_W
    y = y0 + 66 + ROW / 2
    num = font(24, "bold")
    resources = as_map(player.get("resources"))
    cx = x
    for res in ("marble", "iron", "gold", "coins"):
        icons.resource_chip(draw, cx + 14, y, 14, res)
        draw_text(draw, (cx + 34, y), str(as_int(resources.get(res))), num, INK, anchor="lm")
        cx += 100
    y += ROW
    _unit_counts(draw, x, y, as_map(player.get("recruitment_box")), owner, num)
    y += ROW
    cx = _unit_counts(draw, x, y, as_map(player.get("supply")), owner, num)
    icons.wall(draw, cx + 20, y, 30)
    walls = as_int(player.get("walls_in_supply"))
    draw_text(draw, (cx + 42, y), f"{walls} wall{'s' if walls != 1 else ''}", font(22, "bold"), INK, anchor="lm")
    y += ROW
    owned = {t.upper().replace("_", " ") for t in str_list(player.get("techs"))}
    _tech_badges(draw, x, y - ROW / 2 + 4, x1 - 14, owned)
    y += 2 * ROW + 8
    pers = as_map(player.get("personalities"))
    cx = x0 + 16
    step = (x1 - x0 - 32) / len(PERSONALITIES)
    for key in PERSONALITIES:
        _personality(draw, cx, y, key, as_int(pers.get(key)))
        cx += step
    y += ROW + 2
    sea = as_int(player.get("sea_points"))
    hand = as_int(player.get("hand_count"))
    foot = font(20)
    rondel = as_str(player.get("rondel"), "")
    parts = [f"Sea points {sea} (Navigator per {NAVIGATOR_STEP})", f"{hand} event card{'s' if hand != 1 else ''}"]
    draw_text(draw, (x0 + 16, y), fit_text(" · ".join(parts), foot, x1 - x0 - 32), foot, INK)
    where = f"Rondel: {space_label(rondel) if rondel else 'not placed yet'}"
    draw_text(draw, (x0 + 16, y + 26), where, foot, INK)
    if tag_in_footer:
        draw_text(draw, (x1 - 16, y + 26), f"▶ {tag}", font(20, "bold"), INK, anchor="ra")


def _unit_counts(
    draw: ImageDraw.ImageDraw, x: float, y: float, counts: Mapping[str, Any], owner: Owner, num: Any
) -> float:
    icons.legion(draw, x + 12, y, 22, owner.fill)
    draw_text(draw, (x + 32, y), str(as_int(counts.get("legion"))), num, INK, anchor="lm")
    icons.galley(draw, x + 112, y, 24, owner.fill)
    draw_text(draw, (x + 132, y), str(as_int(counts.get("galley"))), num, INK, anchor="lm")
    return x + 200


def _tech_badges(draw: ImageDraw.ImageDraw, x: float, y: float, right: float, owned: set[str]) -> None:
    """Five technology badges: owned ones filled with a check mark, missing ones pale."""
    fnt = font(18, "bold")
    cx, cy = x, y
    for tech in TECHS:
        have = tech in owned
        text = ("✓ " if have else "") + tech
        w = text_width(text, fnt) + 16
        if cx + w > right:
            cx, cy = x, cy + ROW
        box = (cx, cy, cx + w, cy + 34)
        if have:
            draw.rectangle(box, fill=OWNED, outline=INK, width=2)
            draw_text(draw, (cx + w / 2, cy + 17), text, fnt, WHITE, anchor="mm")
        else:
            draw.rectangle(box, fill=PANEL, outline=(170, 160, 150), width=2)
            draw_text(draw, (cx + w / 2, cy + 17), text, fnt, (130, 122, 114), anchor="mm")
        cx += w + 8


def _personality(draw: ImageDraw.ImageDraw, x: float, y: float, key: str, count: int) -> None:
    """One personality type: a small card with its initial, count beside it, name below."""
    colour = INK if count else (150, 142, 134)
    draw.rectangle((x, y - 20, x + 28, y + 16), fill=WHITE if count else PANEL, outline=colour, width=2)
    draw_text(draw, (x + 14, y - 2), key[:1].upper(), font(20, "bold"), colour, anchor="mm")
    draw_text(draw, (x + 34, y - 2), str(count), font(24, "bold"), colour, anchor="lm")
    draw_text(draw, (x, y + 20), key.title(), font(18), colour)


# ----------------------------------------------------------------------------- event row and log


def draw_events_base(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """Frame of the face-up event row."""
    frame(draw, box, "Event cards (face up)")


def draw_events(draw: ImageDraw.ImageDraw, box: Box, view: Mapping[str, Any]) -> None:
    """The face-up cards with names and (public) texts, plus deck and discard sizes."""
    x0, y0, x1, y1 = box
    info = f"deck {as_int(view.get('deck_size'))} · discard {as_int(view.get('discard_size'))}"
    draw_text(draw, (x1 - 16, y0 + 12), info, font(20), INK, anchor="ra")
    cards = as_map(view.get("cards"))
    row = str_list(view.get("event_row"))
    slots = 3
    gap = 12
    cw = (x1 - x0 - 32 - gap * (slots - 1)) / slots
    top = y0 + 44
    for i in range(slots):
        left = x0 + 16 + i * (cw + gap)
        card_box = (left, top, left + cw, y1 - 14)
        if i >= len(row):
            draw.rounded_rectangle(card_box, radius=10, outline=(170, 160, 150), width=2)
            draw_text(
                draw,
                ((card_box[0] + card_box[2]) / 2, (card_box[1] + card_box[3]) / 2),
                "empty",
                font(20),
                MUTED,
                anchor="mm",
            )
            continue
        card_id = row[i]
        card = as_map(cards.get(card_id))
        draw_card(
            draw,
            card_box,
            as_str(card.get("name"), card_id.replace("_", " ").title()),
            as_str(card.get("text")),
            body_size=18,
        )


def draw_card(draw: ImageDraw.ImageDraw, box: Box, name: str, text: str, *, body_size: int) -> None:
    """An event card: bold name on a coloured strip, the effect text wrapped below."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=10, fill=WHITE, outline=INK, width=2)
    title_font = font(22, "bold")
    draw.rounded_rectangle((x0 + 2, y0 + 2, x1 - 2, y0 + 38), radius=9, fill=(236, 214, 160))
    draw_text(draw, (x0 + 12, y0 + 20), fit_text(name, title_font, x1 - x0 - 24), title_font, INK, anchor="lm")
    body = font(body_size)
    lh = line_height_of(body)
    max_lines = max(1, int((y1 - y0 - 50) // lh))
    draw_lines(draw, (x0 + 12, y0 + 46), wrap(text, body, x1 - x0 - 24, max_lines), body, INK, lh)


def draw_log_base(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """Frame of the last-turn log."""
    frame(draw, box, "Last turn")


def draw_log(draw: ImageDraw.ImageDraw, box: Box, view: Mapping[str, Any], owner_list: Sequence[Owner]) -> None:
    """The last turn's public summary lines, wrapped; the mover's stone next to the caption."""
    x0, y0, x1, y1 = box
    last = as_map(view.get("last_turn"))
    mover = owner_of(owner_list, last.get("seat"))
    if mover is not None:
        icons.stone(draw, x0 + 150, y0 + 24, 14, mover.fill, mover.ink, mover.letter)
        draw_text(draw, (x0 + 172, y0 + 24), mover.name, font(20, "bold"), INK, anchor="lm")
    small = font(18)
    bank = [fit_text(line, small, x1 - x0 - 32) for line in bank_lines(as_map(view.get("bank")))]
    small_lh = line_height_of(small)
    draw_lines(draw, (x0 + 16, y1 - 12 - small_lh * len(bank)), bank, small, MUTED, small_lh)
    body = font(19)
    lh = line_height_of(body)
    max_lines = int((y1 - y0 - 60 - small_lh * len(bank)) // lh)
    lines: list[str] = []
    for sentence in str_list(last.get("summary")):
        lines += wrap("• " + sentence, body, x1 - x0 - 32)
    if not lines:
        lines = ["Nothing yet."]
    if len(lines) > max_lines:
        lines = [*lines[: max_lines - 1], f"… and {len(lines) - max_lines + 1} more lines"]
    draw_lines(draw, (x0 + 16, y0 + 46), lines, body, INK, lh)


def bank_lines(bank: Mapping[str, Any]) -> list[str]:
    """What is left in the bank (public): coins, temples, walls, city tokens, personalities."""
    if not bank:
        return []
    tokens = as_map(bank.get("city_tokens"))
    pers = as_map(bank.get("personalities"))
    first = (
        f"Bank: {as_int(bank.get('coins'))} coins · {as_int(bank.get('temples'))} temples · "
        f"{as_int(bank.get('walls'))} walls · city tokens "
        + " ".join(f"{k[:1].upper()}{as_int(tokens.get(k))}" for k in ("marble", "iron", "gold"))
    )
    second = "Personalities left: " + " · ".join(f"{k[:1].upper()} {as_int(pers.get(k))}" for k in PERSONALITIES)
    return [first, second]


def seat_flags(view: Mapping[str, Any], seat: int) -> tuple[bool, bool]:
    """(awaited now, has won) for ``seat``, from public fields only."""
    over = as_bool(view.get("over"))
    to_move = not over and seat in {as_opt_int(s) for s in as_list(view.get("to_move"))}
    winner = over and as_opt_int(view.get("winner")) == seat
    return to_move, winner
