"""One player's board: resources, tokens, levels on the 0-8 Scale, points, government and the 48
advances by category (owned ones filled in the player's colour)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from PIL import ImageDraw

from renderer.base import HIGHLIGHT, INK, MUTED, PANEL, WHITE, draw_text, fit_font, font, ink_on, player_fill, tint
from renderer.clash_wonders import LINE_H, draw_panel_line
from renderer.viewdata import as_int, as_map, as_str, str_list

PANEL_H: Final[int] = 580 + LINE_H
CATEGORIES: Final[tuple[tuple[str, tuple[str, ...]], ...]] = (
    ("Agriculture", ("Farming", "Storage", "Irrigat.", "Husband.")),
    ("Construction", ("Mining", "Engineer.", "Sanitat.", "Roads")),
    ("Maritime", ("Fishing", "Navigat.", "War Ships", "Cartogr.")),
    ("Education", ("Writing", "Public Ed.", "Free Ed.", "Philos.")),
    ("Warfare", ("Tactics", "Siegecr.", "Steel W.", "Draft")),
    ("Spirituality", ("Myths", "Rituals", "State Rel.", "Priesth.")),
    ("Economy", ("Barter", "Trade Rt.", "Taxes", "Currency")),
    ("Culture", ("Arts", "Circus", "Monum.", "Theater")),
    ("Science", ("Math", "Astron.", "Medicine", "Metall.")),
    ("Democracy", ("Voting", "Separat.", "Civil Lib.", "Free Ec.")),
    ("Autocracy", ("National.", "Totalit.", "Abs. Pow.", "Forced L.")),
    ("Theocracy", ("Dogma", "Devotion", "Convers.", "Fanatic.")),
)
ADVANCE_IDS: Final[tuple[tuple[str, ...], ...]] = (
    ("farming", "storage", "irrigation", "husbandry"),
    ("mining", "engineering", "sanitation", "roads"),
    ("fishing", "navigation", "war_ships", "cartography"),
    ("writing", "public_education", "free_education", "philosophy"),
    ("tactics", "siegecraft", "steel_weapons", "draft"),
    ("myths", "rituals", "state_religion", "priesthood"),
    ("bartering", "trade_routes", "taxes", "currency"),
    ("arts", "circus_sports", "monuments", "theater_music"),
    ("math", "astronomy", "medicine", "metallurgy"),
    ("voting", "separation_of_power", "civil_liberties", "free_economy"),
    ("nationalism", "totalitarianism", "absolute_power", "forced_labor"),
    ("dogma", "devotion", "conversion", "fanaticism"),
)


def draw_panel(
    draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], p: Mapping[str, Any], active: bool
) -> None:
    """Draw one player's board into ``box``."""
    x0, y0, x1, _y1 = box
    colour = as_str(p.get("colour"))
    fill = player_fill(colour, as_int(p.get("seat")))
    draw.rectangle(box, fill=PANEL, outline=HIGHLIGHT if active else INK, width=5 if active else 2)
    draw.rectangle((x0, y0, x1, y0 + 44), fill=fill)
    gov = as_str(p.get("government"))
    title = f"{colour} — {as_str(p.get('points'))} points" + (f" — {gov.capitalize()}" if gov else "")
    draw_text(draw, (x0 + 12, y0 + 22), title, font(26, "bold"), ink_on(fill), anchor="lm")
    res = as_map(p.get("resources"))
    f = font(22)
    fb = font(22, "bold")
    y = y0 + 58
    parts = [f"{as_int(res.get(k))} {k}" for k in ("food", "wood", "ore", "ideas", "gold")]
    draw_text(draw, (x0 + 12, y), "  ".join(parts), fb, INK)
    y += 34
    mood, cult = as_int(p.get("mood_tokens")), as_int(p.get("culture_tokens"))
    tokens = f"{mood} mood and {cult} culture tokens"
    if "action_cards" in p:  # hand sizes and completed objectives are public (rules 4.4)
        done = as_int(p.get("objectives_done"))
        tokens += (
            f" · cards: {as_int(p.get('action_cards'))} action, {as_int(p.get('objective_cards'))} objective"
            f" · {done} objective{'' if done == 1 else 's'} done"
        )
    draw_text(draw, (x0 + 12, y), tokens, fit_font(tokens, 22, x1 - x0 - 24), INK)
    y += 34
    for label, level in (("Culture", as_int(p.get("culture_level"))), ("Happiness", as_int(p.get("happiness_level")))):
        draw_text(draw, (x0 + 12, y + 12), f"{label} {level}", f, INK, anchor="lm")
        sx = x0 + 170
        for k in range(9):
            cx = sx + k * 30
            on = k <= level
            draw.rectangle(
                (cx, y, cx + 26, y + 24),
                fill=tint(fill, 0.1) if on and k else (WHITE if not on else tint(fill, 0.6)),
                outline=INK,
                width=2 if k in (3, 5, 7) else 1,
            )
            draw_text(
                draw, (cx + 13, y + 12), str(k), font(15), ink_on(tint(fill, 0.1)) if on and k else INK, anchor="mm"
            )
        y += 32
    y += 6
    owned = set(str_list(p.get("advances")))
    cols = 2
    cw = (x1 - x0 - 24) / cols
    ch = 62
    small = font(16)
    for i, ((cat, names), ids) in enumerate(zip(CATEGORIES, ADVANCE_IDS, strict=True)):
        cx = x0 + 12 + (i % cols) * cw
        cy = y + (i // cols) * ch
        draw_text(draw, (cx, cy), cat, font(17, "bold"), MUTED)
        bw = (cw - 12) / 4
        for k, (name, aid) in enumerate(zip(names, ids, strict=True)):
            bx = cx + k * bw
            have = aid in owned
            draw.rectangle((bx, cy + 22, bx + bw - 3, cy + 54), fill=fill if have else WHITE, outline=INK, width=1)
            draw_text(
                draw, (bx + (bw - 3) / 2, cy + 38), name, small, ink_on(fill) if have else tint(INK, 0.45), anchor="mm"
            )
    draw_panel_line(draw, x0, x1, y + 6 * ch + 4, p)
