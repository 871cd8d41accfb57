"""One player's board as a page of its own: resources, tokens, card counts, levels on the 0-8
Scale, points, government, the 48 advances by category (owned ones filled in the player's colour)
and the wonders; plus the one-line-per-player summary under the map of the board image.

Why a page per player (issue 14): the four boards under the map of one 1600-px image were about
4 px text on a phone. A page is 800 px wide with text of 20 px and more, so scaled to a phone's
400 px its smallest text is still 10 px; the advance names are written in full, on two lines
where needed. Only public facts of ``players`` (hand sizes, never the hand) are read.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from PIL import Image, ImageDraw

from engine.core.text import count
from renderer.base import (
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PAPER,
    WHITE,
    Font,
    draw_text,
    fit_font,
    font,
    ink_on,
    new_canvas,
    player_fill,
    safe_text,
    text_width,
    tint,
    wrap,
)
from renderer.clash_wonders import GOLD, panel_line
from renderer.viewdata import as_int, as_list, as_map, as_str, str_list

PAGE_W: Final[int] = 800
PIECE_BREAK: Final[re.Pattern[str]] = re.compile(r"(?<=, )|(?<= · )|(?<= — )|(?<=\. )|(?<=: )")
"""Where a line that changes every turn is cut into pieces drawn one by one (:func:`draw_pieces`)."""
PAD: Final[int] = 16
TITLE_H: Final[int] = 64
LINE: Final[int] = 38
SCALE_ROW: Final[int] = 50
BOX_H: Final[int] = 58
CAT_HEAD: Final[int] = 30
CAT_H: Final[int] = CAT_HEAD + 2 * (BOX_H + 6) + 10
SUMMARY_ROW: Final[int] = 52
RESOURCES: Final[tuple[str, ...]] = ("food", "wood", "ore", "ideas", "gold")
CATEGORIES: Final[tuple[tuple[str, tuple[tuple[str, str], ...]], ...]] = (
    (
        "Agriculture",
        (("farming", "Farming"), ("storage", "Storage"), ("irrigation", "Irrigation"), ("husbandry", "Husbandry")),
    ),
    (
        "Construction",
        (("mining", "Mining"), ("engineering", "Engineering"), ("sanitation", "Sanitation"), ("roads", "Roads")),
    ),
    (
        "Maritime",
        (
            ("fishing", "Fishing"),
            ("navigation", "Navigation"),
            ("war_ships", "War Ships"),
            ("cartography", "Cartography"),
        ),
    ),
    (
        "Education",
        (
            ("writing", "Writing"),
            ("public_education", "Public Education"),
            ("free_education", "Free Education"),
            ("philosophy", "Philosophy"),
        ),
    ),
    (
        "Warfare",
        (("tactics", "Tactics"), ("siegecraft", "Siegecraft"), ("steel_weapons", "Steel Weapons"), ("draft", "Draft")),
    ),
    (
        "Spirituality",
        (
            ("myths", "Myths"),
            ("rituals", "Rituals"),
            ("state_religion", "State Religion"),
            ("priesthood", "Priesthood"),
        ),
    ),
    (
        "Economy",
        (("bartering", "Bartering"), ("trade_routes", "Trade Routes"), ("taxes", "Taxes"), ("currency", "Currency")),
    ),
    (
        "Culture",
        (
            ("arts", "Art & Sculptures"),
            ("circus_sports", "Circus & Sports"),
            ("monuments", "Monuments"),
            ("theater_music", "Theater & Music"),
        ),
    ),
    ("Science", (("math", "Math"), ("astronomy", "Astronomy"), ("medicine", "Medicine"), ("metallurgy", "Metallurgy"))),
    (
        "Democracy",
        (
            ("voting", "Voting"),
            ("separation_of_power", "Separation of Power"),
            ("civil_liberties", "Civil Liberties"),
            ("free_economy", "Free Economy"),
        ),
    ),
    (
        "Autocracy",
        (
            ("nationalism", "Nationalism"),
            ("totalitarianism", "Totalitarianism"),
            ("absolute_power", "Absolute Power"),
            ("forced_labor", "Forced Labor"),
        ),
    ),
    (
        "Theocracy",
        (("dogma", "Dogma"), ("devotion", "Devotion"), ("conversion", "Conversion"), ("fanaticism", "Fanaticism")),
    ),
)


def _stock(res: Mapping[str, Any], k: str) -> str:
    """``3 food``, ``1 idea``, ``2 ideas`` (only ideas are counted as things)."""
    n = as_int(res.get(k))
    return count(n, "idea") if k == "ideas" else f"{n} {k}"


def _title(p: Mapping[str, Any]) -> str:
    gov = as_str(p.get("government"))
    return f"{as_str(p.get('colour'))} — {as_str(p.get('points'))} points" + (f" — {gov.capitalize()}" if gov else "")


def _resources(p: Mapping[str, Any]) -> str:
    res = as_map(p.get("resources"))
    return "  ".join(_stock(res, k) for k in RESOURCES)


def _tokens(p: Mapping[str, Any]) -> str:
    mood, culture = as_int(p.get("mood_tokens")), as_int(p.get("culture_tokens"))
    return f"{count(mood, 'mood token')}, {count(culture, 'culture token')}"


def _cards(p: Mapping[str, Any]) -> str:
    """Hand sizes and completed objectives, public (rules 4.4); empty before the cards exist."""
    if "action_cards" not in p:
        return ""
    return (
        f"Cards in hand: {as_int(p.get('action_cards'))} action, {as_int(p.get('objective_cards'))} objective"
        f" · {count(as_int(p.get('objectives_done')), 'objective')} done"
    )


def cities_line(view: Mapping[str, Any], seat: int) -> str:
    """``Cities: Athens (I2), Sparta (H3)``: the names players type in commands, with the hex each
    stands on (the map writes the names too); ``""`` for a player without a city."""
    names = [
        f"{as_str(c.get('name'))} ({as_str(c.get('space')).upper()})"
        for c in (as_map(x) for x in as_list(view.get("cities")))
        if as_int(c.get("owner"), -1) == seat and as_str(c.get("name"))
    ]
    return "Cities: " + ", ".join(names) if names else ""


def _lines(p: Mapping[str, Any], width: float, cities: str = "") -> tuple[list[str], list[str]]:
    """The wrapped city and card lines and the wonder line of a page (they grow the page instead
    of shrinking)."""
    cards = wrap(cities, font(24), width) if cities else []
    cards += wrap(_cards(p), font(24), width) if _cards(p) else []
    wonders = wrap(panel_line(p), font(24), width - 34) if panel_line(p) else []
    return cards, wonders


def page_height(p: Mapping[str, Any], cities: str = "") -> int:
    """Height of one player's page (``cities``: its :func:`cities_line`)."""
    cards, wonders = _lines(p, PAGE_W - 2 * PAD, cities)
    return (
        TITLE_H
        + PAD
        + LINE
        + LINE
        + len(cards) * 32
        + 8
        + 2 * SCALE_ROW
        + 10
        + 6 * CAT_H
        + (len(wonders) * 32 + 10 if wonders else 0)
        + PAD
    )


def _awaited(view: Mapping[str, Any]) -> tuple[int, str]:
    """The seat the game waits for and how to say it: the seat of an open choice (``to answer``,
    it may be another seat than the one whose turn it is), else the player to play, else -1."""
    if as_str(view.get("phase")) == "over":
        return -1, ""
    pending = as_map(view.get("pending"))
    if pending:
        return as_int(pending.get("seat"), -1), "to answer"
    if as_str(view.get("phase")) == "turn":
        return as_int(view.get("active"), -1), "to play"
    return -1, ""


def page_image(view: Mapping[str, Any], seat: int) -> Image.Image:
    """The page of the player in ``seat`` (a thick yellow frame while it is their turn)."""
    players = [as_map(q) for q in as_list(view.get("players"))]
    p = players[seat]
    awaited, word = _awaited(view)
    active = awaited == seat
    cities = cities_line(view, seat)
    height = page_height(p, cities)
    image = new_canvas((PAGE_W, height), PAPER)
    draw = ImageDraw.Draw(image)
    fill = player_fill(as_str(p.get("colour")), as_int(p.get("seat"), seat))
    draw.rectangle((0, 0, PAGE_W - 1, height - 1), fill=PANEL)
    draw.rectangle((0, 0, PAGE_W - 1, TITLE_H), fill=fill)
    # The frame last, so that the title bar does not hide its top edge.
    frame = HIGHLIGHT if active else INK
    draw.rectangle((0, 0, PAGE_W - 1, height - 1), outline=frame, width=6 if active else 2)
    title = _title(p) + (f" — {word}" if active else "")
    draw_text(draw, (PAD, TITLE_H / 2), title, fit_font(title, 34, PAGE_W - 2 * PAD, "bold"), ink_on(fill), anchor="lm")
    x0, x1 = PAD, PAGE_W - PAD
    y: float = TITLE_H + PAD
    res = _resources(p)
    draw_text(draw, (x0, y), res, fit_font(res, 30, x1 - x0, "bold"), INK)
    y += LINE
    tok = _tokens(p)
    draw_text(draw, (x0, y), tok, fit_font(tok, 26, x1 - x0), INK)
    y += LINE
    cards, wonders = _lines(p, x1 - x0, cities)
    for line in cards:
        draw_text(draw, (x0, y), line, font(24), INK)
        y += 32
    y += 8
    y = _scales(draw, x0, y, p, fill)
    y += 10
    y = _advances(draw, x0, x1, y, p, fill)
    if wonders:
        draw.rectangle((x0, y + 2, x0 + 22, y + 26), fill=GOLD, outline=INK, width=1)
        for line in wonders:
            draw_text(draw, (x0 + 34, y), line, font(24), INK)
            y += 32
    return image


def _scales(draw: ImageDraw.ImageDraw, x0: float, y: float, p: Mapping[str, Any], fill: Any) -> float:
    """The culture and happiness levels on the 0-8 Scale (thick edges at 3, 5 and 7)."""
    for label, level in (("Culture", as_int(p.get("culture_level"))), ("Happiness", as_int(p.get("happiness_level")))):
        draw_text(draw, (x0, y + 20), f"{label} {level}", font(26, "bold"), INK, anchor="lm")
        for k in range(9):
            cx = x0 + 200 + k * 62
            on = k <= level
            box_fill = tint(fill, 0.1) if on and k else (WHITE if not on else tint(fill, 0.6))
            draw.rectangle((cx, y, cx + 56, y + 40), fill=box_fill, outline=INK, width=3 if k in (3, 5, 7) else 1)
            draw_text(draw, (cx + 28, y + 20), str(k), font(24, "bold"), ink_on(box_fill), anchor="mm")
        y += SCALE_ROW
    return y


def _advances(draw: ImageDraw.ImageDraw, x0: float, x1: float, y: float, p: Mapping[str, Any], fill: Any) -> float:
    """Twelve categories in two columns, each a 2 x 2 block of its four advances."""
    owned = set(str_list(p.get("advances")))
    cw = (x1 - x0 - 16) / 2
    bw = (cw - 6) / 2
    name_font = font(21)
    for i, (cat, advances) in enumerate(CATEGORIES):
        cx = x0 + (i % 2) * (cw + 16)
        cy = y + (i // 2) * CAT_H
        draw_text(draw, (cx, cy), cat, font(24, "bold"), MUTED)
        for k, (aid, name) in enumerate(advances):
            bx = cx + (k % 2) * (bw + 6)
            by = cy + CAT_HEAD + (k // 2) * (BOX_H + 6)
            have = aid in owned
            draw.rectangle(
                (bx, by, bx + bw, by + BOX_H), fill=fill if have else WHITE, outline=INK, width=2 if have else 1
            )
            lines = wrap(name, name_font, bw - 10, max_lines=2)
            ink = ink_on(fill) if have else tint(INK, 0.4)
            top = by + BOX_H / 2 - (len(lines) - 1) * 12
            for j, line in enumerate(lines):
                draw_text(draw, (bx + bw / 2, top + j * 24), line, name_font, ink, anchor="mm")
    return y + 6 * CAT_H


def summary_height(view: Mapping[str, Any]) -> int:
    """Height of the players' summary under the map."""
    return SUMMARY_ROW * len(as_list(view.get("players"))) + 12


def summary_line(view: Mapping[str, Any], seat: int) -> str:
    """``Red: 12 points, 3 cities, Democracy · 5 food 2 wood … · 9 advances``."""
    p = as_map(as_list(view.get("players"))[seat])
    cities = sum(1 for c in as_list(view.get("cities")) if as_int(as_map(c).get("owner"), -1) == seat)
    gov = as_str(p.get("government"))
    head = f"{as_str(p.get('colour'))}: {as_str(p.get('points'))} points, {count(cities, 'city')}"
    head += f", {gov.capitalize()}" if gov else ""
    res = as_map(p.get("resources"))
    stock = ", ".join(_stock(res, k) for k in RESOURCES)
    return f"{head} · {stock} · {count(len(str_list(p.get('advances'))), 'advance')}"


def draw_summary(draw: ImageDraw.ImageDraw, x0: float, x1: float, y: float, view: Mapping[str, Any]) -> None:
    """One line per player under the map, with a swatch in the player's colour (the full boards
    are the pages that follow the board image)."""
    active, _ = _awaited(view)
    for seat, q in enumerate(as_list(view.get("players"))):
        p = as_map(q)
        fill = player_fill(as_str(p.get("colour")), as_int(p.get("seat"), seat))
        yy = y + 6 + seat * SUMMARY_ROW
        draw.rectangle(
            (x0, yy + 4, x0 + 42, yy + 46),
            fill=fill,
            outline=HIGHLIGHT if seat == active else INK,
            width=5 if seat == active else 2,
        )
        text = summary_line(view, seat)
        draw_pieces(draw, (x0 + 56, yy + 25), text, fit_font(text, 36, x1 - x0 - 56, min_size=18))


def draw_pieces(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, fnt: Font, anchor: str = "lm") -> None:
    """``text`` left-aligned at ``xy`` (``anchor`` "l" and a vertical one), drawn piece by piece
    after each ", ", " · ", " — ", ". " and ": ": a summary or header line is new on most turns,
    but its pieces ("3 ore, ", "6 cities · ", "round 5, ") recur, and each piece's glyphs come
    from the text cache instead of being rasterised again (most of the drawing time of a board
    before; the pieces sit where the whole line would put them, up to the kerning across a
    space)."""
    x, y = xy
    for piece in PIECE_BREAK.split(text):
        if piece:
            draw_text(draw, (x, y), piece, fnt, INK, anchor=anchor)
            x += text_width(safe_text(piece), fnt)
