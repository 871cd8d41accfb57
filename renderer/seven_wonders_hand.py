"""7 Wonders private hand image: the viewer's cards priced for their city, and what each allows.

Why one row per card with three verdicts (build, wonder, sell): a 7 Wonders turn is the
choice of one card and one of three uses, so each card answers at a glance "can I build
it now, and what does trading cost", "is it free through a chain", "is it a duplicate",
"can it build my next wonder stage". Verdicts carry a tick or a cross (shape, not only
colour) and words. The numbers are the engine's (``hand`` entries of the view); the renderer
never prices anything itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from PIL import Image, ImageDraw

from renderer import seven_wonders_icons as ic
from renderer.base import (
    INK,
    MUTED,
    PAPER,
    WHITE,
    Font,
    draw_text,
    fit_font,
    font,
    ink_on,
    line_height_of,
    new_canvas,
    text_width,
    wrap,
)
from renderer.seven_wonders_model import (
    AGE_NAMES,
    CARD_FILL,
    COLOUR_LABEL,
    Token,
    card_colour,
    card_name,
    cost_tokens,
    wonder_short,
)
from renderer.seven_wonders_panels import LAST_FILL, TITLE_FILL
from renderer.viewdata import as_bool, as_int, as_list, as_map, as_opt_int, as_str, str_list

HAND_W: Final[int] = 1200
ROW_H: Final[int] = 132
LEFT_W: Final[int] = 150
VERDICT_X: Final[int] = 800
SECTION_H: Final[int] = 44
COMPACT_H: Final[int] = 52  # a one-line compact row, with the gap below it
COMPACT_GAP: Final[int] = 8  # the gap below a compact row's box
COMPACT_SIZES: Final[tuple[int, ...]] = (22, 21, 20, 19, 18)  # a compact section's text, largest that fits
GIVES_SIZE: Final[int] = 20  # what a card gives, as on a full card row (wrapped, never shrunk further)
COLUMN_GAP: Final[int] = 16  # at least this much air between a compact row's columns
ICON_W: Final[int] = 32  # a verdict's icon and the space before its words


def _build_verdict(play: Mapping[str, Any]) -> tuple[str, str]:
    """(icon, words) for building the card: icon is "yes" | "no"."""
    trade = as_opt_int(play.get("cheapest_trade"))
    if as_bool(play.get("duplicate")):
        return "no", "Duplicate: already in your city"
    if as_bool(play.get("free_by_chain")) and as_bool(play.get("legal")):
        return "yes", "Build FREE (chain)"
    if as_bool(play.get("affordable")):
        return "yes", "Build now, no trading" if not trade else f"Build now, trade from {trade}c"
    if as_bool(play.get("olympia")):
        return "yes", "Build free with Olympia"
    if trade is None:
        return "no", "Resources not available"
    return "no", f"Too expensive now (trade {trade}c)"


def _wonder_verdict(wonder: Mapping[str, Any]) -> tuple[str, str]:
    stage = as_opt_int(wonder.get("stage"))
    trade = as_opt_int(wonder.get("cheapest_trade"))
    if stage is None:
        return "none", "Wonder complete"
    if as_bool(wonder.get("legal")):
        return "yes", f"Wonder stage {stage}: " + ("no trading" if not trade else f"trade from {trade}c")
    return "no", f"Wonder stage {stage}: " + ("too expensive" if trade is not None else "not buildable")


def _verdict_icon(draw: ImageDraw.ImageDraw, x: float, cy: float, kind: str) -> None:
    """The verdict's icon, in the first ``ICON_W`` pixels from ``x``."""
    if kind == "yes":
        ic.tick(draw, x + 12, cy, 12)
    elif kind == "no":
        ic.cross(draw, x + 12, cy, 11)
    elif kind == "coin":
        ic.coin(draw, x + 12, cy, 12)
    else:
        ic.dash(draw, x + 12, cy, 12)


def _verdict_style(kind: str) -> str:
    return "bold" if kind == "yes" else "regular"


def _verdict(draw: ImageDraw.ImageDraw, x: float, cy: float, kind: str, text: str) -> None:
    """A verdict of a full card row: the last column, from ``x`` to the card's right edge."""
    _verdict_icon(draw, x, cy, kind)
    fnt = fit_font(text, 22, HAND_W - 24 - x - ICON_W, _verdict_style(kind), 14)
    draw_text(draw, (x + ICON_W, cy), text, fnt, INK, anchor="lm")


def _card_row(
    draw: ImageDraw.ImageDraw, y: float, card_id: str, cards: Mapping[str, Any], entry: Mapping[str, Any] | None
) -> None:
    """One card: colour block, name, cost, chain, effect text; verdicts when priced (``entry``)."""
    info = as_map(cards.get(card_id))
    colour = card_colour(card_id, cards, as_str(entry.get("color")) if entry else "black")
    fill = CARD_FILL.get(colour, CARD_FILL["black"])
    playable = entry is None or as_bool(as_map(entry.get("play")).get("legal"))
    x0, x1 = 16, HAND_W - 16
    y2, xl = y + ROW_H - 10, x0 + LEFT_W
    ic.rrect(draw, (x0, y, x1, y2), fill, cut=8)
    shape = [(xl, y), (x1 - 8, y), (x1, y + 8), (x1, y2 - 8), (x1 - 8, y2), (xl, y2)]
    draw.polygon(shape, fill=WHITE if playable else (236, 232, 226))
    ic.rrect(draw, (x0, y, x1, y2), None, INK, cut=8)
    ink = ink_on(fill)
    label = COLOUR_LABEL.get(colour, colour.title())
    draw_text(draw, (x0 + LEFT_W / 2, y + 40), label, font(22, "bold"), ink, anchor="mm")
    age = as_int(info.get("age"))
    if age:
        draw_text(draw, (x0 + LEFT_W / 2, y + 72), f"Age {AGE_NAMES.get(age, age)}", font(18), ink, anchor="mm")
    draw_text(draw, (x0 + LEFT_W / 2, y + 98), colour, font(18), ink, anchor="mm")
    x = x0 + LEFT_W + 16
    mid_w = VERDICT_X - x - 16
    name = as_str(entry.get("name")) if entry else ""
    name = name or card_name(card_id, cards)
    draw_text(draw, (x, y + 22), name, fit_font(name, 28, mid_w, "bold", 16), INK, anchor="lm")
    cost = cost_tokens(as_map(info.get("cost")))
    draw_text(draw, (x, y + 56), "cost", font(18), MUTED, anchor="lm")
    cx = x + text_width("cost", font(18)) + 8
    if cost:
        cx = ic.draw_tokens(draw, cx, y + 56, cost)
    else:
        draw_text(draw, (cx, y + 56), "free", font(18, "bold"), INK, anchor="lm")
        cx += text_width("free", font(18, "bold"))
    chain = str_list(info.get("chain_from"))
    if chain:
        text = "· free if you have " + " or ".join(chain)
        chain_font = fit_font(text, 18, x + mid_w - cx - 10, "regular", 12)
        draw_text(draw, (cx + 10, y + 56), text, chain_font, INK, anchor="lm")
    gives = "gives: " + as_str(info.get("text"), "?")
    for size in (20, 18, 17, 16, 15):  # the whole effect in two lines, as large as fits
        body = font(size)
        lines = wrap(gives, body, mid_w)
        if len(lines) <= 2:
            break
    for k, line in enumerate(wrap(gives, body, mid_w, max_lines=2)):
        draw_text(draw, (x, y + 84 + 24 * k), line, body, INK, anchor="lm")
    if entry is None:
        _verdict(draw, VERDICT_X, y + 56, "yes", "Build it free from the discard pile")
        return
    play, wonder = as_map(entry.get("play")), as_map(entry.get("wonder"))
    _verdict(draw, VERDICT_X, y + 24, *_build_verdict(play))
    _verdict(draw, VERDICT_X, y + 60, *_wonder_verdict(wonder))
    if as_bool(entry.get("sell")):
        _verdict(draw, VERDICT_X, y + 96, "coin", "Sell: +3 coins")


@dataclass(frozen=True, slots=True)
class Cell:
    """One column of a compact row: an optional verdict icon, then its words in lines."""

    x: float  # left edge (of the icon when there is one)
    kind: str  # "yes" | "no" | "coin" | "none" (icons) or "" (words only)
    lines: tuple[str, ...]
    font: Font

    @property
    def text_x(self) -> float:
        return self.x + (ICON_W if self.kind else 0)


@dataclass(frozen=True, slots=True)
class CompactRow:
    """A compact row, measured: its card, its columns (name first) and its height."""

    card_id: str
    entry: Mapping[str, Any] | None
    cells: tuple[Cell, ...]
    height: int  # the row's box and the gap below it


def compact_rows(rows: Sequence[tuple[str, Mapping[str, Any] | None]], cards: Mapping[str, Any]) -> list[CompactRow]:
    """Lay out a compact section: a name column, then the build and wonder verdicts (or, for a
    discard-pile choice, what the card gives), aligned from row to row.

    Every column is as wide as its widest text measured in the section's font: the largest of
    ``COMPACT_SIZES`` in which the names and verdicts fit one line side by side; the room left
    over is shared out between the gaps. When even the smallest size does not fit, the verdicts
    share what the names leave and wrap in their columns; what a card gives wraps in the room
    after the names. Rows with more than one line grow. Why measured: a fixed column start let
    "Build now, trade from 2c" run into the next column's icon.
    """
    x_name, right = 16 + LEFT_W + 16, HAND_W - 16 - 8
    names = [(as_str(entry.get("name")) if entry else "") or card_name(cid, cards) for cid, entry in rows]
    verdicts = [
        (_build_verdict(as_map(e.get("play"))), _wonder_verdict(as_map(e.get("wonder"))))
        for _, e in rows
        if e is not None
    ]
    gives = ["gives: " + as_str(as_map(cards.get(cid)).get("text"), "?") for cid, e in rows if e is None]

    def widths(size: int) -> tuple[float, float, float]:
        name_w = max((text_width(n, font(size, "bold")) for n in names), default=0.0)
        build_w = max((text_width(t, font(size, _verdict_style(k))) for (k, t), _ in verdicts), default=0.0)
        wonder_w = max((text_width(t, font(size, _verdict_style(k))) for _, (k, t) in verdicts), default=0.0)
        return name_w, build_w, wonder_w

    for size in COMPACT_SIZES:
        name_w, build_w, wonder_w = widths(size)
        need = name_w + (2 * (ICON_W + COLUMN_GAP) + build_w + wonder_w if verdicts else 0.0)
        if x_name + need <= right:
            break
    slack = max(0.0, right - x_name - need)
    build_x = x_name + name_w + COLUMN_GAP + slack / 2
    wonder_x = build_x + ICON_W + build_w + COLUMN_GAP + slack / 2
    if x_name + need > right:  # even the smallest size does not fit one line: the verdicts wrap
        build_w = wonder_w = (right - build_x - 2 * ICON_W - COLUMN_GAP) / 2
        wonder_x = build_x + ICON_W + build_w + COLUMN_GAP
    gives_x, gives_font = x_name + name_w + COLUMN_GAP, font(min(size, GIVES_SIZE))
    out = []
    verdict_rows, gives_rows = iter(verdicts), iter(gives)
    for (card_id, entry), name in zip(rows, names, strict=True):
        cells = [Cell(x_name, "", (name,), font(size, "bold"))]
        if entry is None:
            cells.append(Cell(gives_x, "", tuple(wrap(next(gives_rows), gives_font, right - gives_x)), gives_font))
        else:
            for x, w, (kind, text) in zip((build_x, wonder_x), (build_w, wonder_w), next(verdict_rows), strict=True):
                fnt = font(size, _verdict_style(kind))
                cells.append(Cell(x, kind, tuple(wrap(text, fnt, w)), fnt))
        grow = max((len(c.lines) - 1) * line_height_of(c.font) for c in cells)
        out.append(CompactRow(card_id, entry, tuple(cells), COMPACT_H + round(grow)))
    return out


def _compact_row(draw: ImageDraw.ImageDraw, y: float, row: CompactRow, cards: Mapping[str, Any]) -> None:
    """One compact row: colour, then its measured columns, each centred on the row's middle."""
    entry = row.entry
    colour = card_colour(row.card_id, cards, as_str(entry.get("color"), "black") if entry else "black")
    fill = CARD_FILL.get(colour, CARD_FILL["black"])
    x0, x1, h = 16, HAND_W - 16, row.height - COMPACT_GAP
    ic.rrect(draw, (x0, y, x1, y + h), WHITE, INK, cut=6)
    ic.rrect(draw, (x0 + 2, y + 2, x0 + LEFT_W, y + h - 2), fill)
    label = COLOUR_LABEL.get(colour, colour.title())
    draw_text(draw, (x0 + LEFT_W / 2, y + h / 2), label, font(20, "bold"), ink_on(fill), anchor="mm")
    for cell in row.cells:
        if cell.kind:
            _verdict_icon(draw, cell.x, y + h / 2, cell.kind)
        step = line_height_of(cell.font)
        cy = y + h / 2 - step * (len(cell.lines) - 1) / 2
        for line in cell.lines:
            draw_text(draw, (cell.text_x, cy), line, cell.font, INK, anchor="lm")
            cy += step


def _section(draw: ImageDraw.ImageDraw, y: float, text: str) -> None:
    draw_text(draw, (20, y + SECTION_H / 2), text, fit_font(text, 22, HAND_W - 40, "bold", 14), INK, anchor="lm")


def _cities(view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [as_map(c) for c in as_list(view.get("cities"))]


def _city_name(cities: Sequence[Mapping[str, Any]], index: object) -> str:
    i = as_opt_int(index)
    return as_str(cities[i].get("name"), "?") if i is not None and 0 <= i < len(cities) else "?"


def render_hand(view: Mapping[str, Any]) -> Image.Image | None:
    """The viewer's private image, or None for a spectator or when they hold no card."""
    seat = as_opt_int(view.get("viewer"))
    cities = _cities(view)
    if seat is None or not 0 <= seat < len(cities):
        return None
    hand = [as_map(h) for h in as_list(view.get("hand"))]
    fc_hand = [as_map(h) for h in as_list(view.get("free_city_hand"))]
    prompt = as_map(view.get("prompt"))
    hali = str_list(prompt.get("choices")) if as_str(prompt.get("kind")) == "hali" else []
    if not hand and not fc_hand and not hali:
        return None
    cards = as_map(view.get("cards"))
    city = cities[seat]
    Rows = list[tuple[str, Mapping[str, Any] | None]]
    sections: list[tuple[str, Rows, bool]] = []
    if hand:
        players = as_int(view.get("players"))
        if players == 2:
            after = "after this turn it goes to the other player"
        else:
            side = "left" if as_str(view.get("direction"), "left") == "left" else "right"
            after = f"after this turn it passes {side} to {_city_name(cities, city.get(side))}"
        title = f"Your hand — {len(hand)} card{'s' if len(hand) != 1 else ''} ({after})"
        own: Rows = [(as_str(h.get("id")), h) for h in hand]
        sections.append((title, own, False))
    if fc_hand:
        # The Free City plays from the holder's hand (its own pile only for Babylon): rows
        # already drawn above are repeated compactly, with the Free City's prices.
        shown = {as_str(h.get("id")) for h in hand}
        fc_name = _city_name(cities, view.get("free_city"))
        rows: Rows = [(as_str(h.get("id")), h) for h in fc_hand]
        compact = all(cid in shown for cid, _ in rows)
        title = f"{fc_name}: you also choose its card this turn (prices for {fc_name})"
        sections.append((title, rows, compact))
    if hali:
        choices: Rows = [(cid, None) for cid in hali]
        title = f"Halikarnassos: you may build one of these {len(hali)} discarded cards for free"
        sections.append((title, choices, True))
    mate = str_list(view.get("teammate_hand"))
    mate_lines = wrap("Teammate's hand: " + ", ".join(card_name(c, cards) for c in mate), font(20), HAND_W - 40)
    notices = _notices(view, cities)
    top = 176 + 34 * len(notices)
    laid = {i: compact_rows(rows, cards) for i, (_, rows, compact) in enumerate(sections) if compact}
    rows_h = sum(
        SECTION_H + (sum(r.height for r in laid[i]) if i in laid else ROW_H * len(rows))
        for i, (_, rows, _) in enumerate(sections)
    )
    height = top + rows_h + (28 * len(mate_lines) + 10 if mate else 0)
    image = new_canvas((HAND_W, int(height) + 10), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, HAND_W, 78), fill=TITLE_FILL)
    name = as_str(city.get("name"), f"Seat {seat + 1}")
    age = AGE_NAMES.get(as_int(view.get("age")), "")
    when = f"Age {age} · turn {as_int(view.get('turn'))}/{as_int(view.get('turns_in_age'))}"
    draw_text(draw, (HAND_W - 24, 39), when, font(24, "bold"), WHITE, anchor="rm")
    room = HAND_W - 72 - text_width(when, font(24, "bold"))
    title = f"Your cards — {name}"
    draw_text(draw, (24, 39), title, fit_font(title, 32, room, "bold", 16), WHITE, anchor="lm")
    draw_text(draw, (24, 96), "Private: only you see this image.", font(18), MUTED, anchor="lm")
    _status_line(draw, 138, city)
    y = 176.0
    for text in notices:
        ic.rrect(draw, (16, y, HAND_W - 16, y + 30), LAST_FILL)
        draw_text(draw, (26, y + 15), text, fit_font(text, 20, HAND_W - 52, "regular", 12), INK, anchor="lm")
        y += 34
    for i, (title, rows, _) in enumerate(sections):
        _section(draw, y, title)
        y += SECTION_H
        for row in laid.get(i, []):
            _compact_row(draw, y, row, cards)
            y += row.height
        for card_id, entry in rows if i not in laid else []:
            _card_row(draw, y, card_id, cards, entry)
            y += ROW_H
    for line in mate_lines if mate else []:
        draw_text(draw, (20, y + 14), line, font(20), INK, anchor="lm")
        y += 28
    return image


def _notices(view: Mapping[str, Any], cities: Sequence[Mapping[str, Any]]) -> list[str]:
    """The viewer's own pending pick (hidden from others) and a coin-loss decision, if any."""
    out = []
    picks = [as_str(as_map(p).get("move")) for p in as_list(view.get("my_picks"))]
    if picks:
        out.append("Your choice (hidden until everyone has chosen): " + "; ".join(picks))
    prompt = as_map(view.get("prompt"))
    if as_str(prompt.get("kind")) == "debt":
        owed, coins = as_int(prompt.get("owed")), as_int(prompt.get("coins"))
        who = _city_name(cities, prompt.get("city"))
        out.append(f"{who} must lose {owed} coins: pay coins or take debt tokens (you have {coins} coins)")
    return out


def _status_line(draw: ImageDraw.ImageDraw, cy: float, city: Mapping[str, Any]) -> None:
    """Coins, debt and the wonder's progress with the next stage's cost."""
    ic.coin(draw, 38, cy, 14)
    coins = as_int(city.get("coins"))
    text = f"{coins} coin{'s' if coins != 1 else ''}"
    debt = as_int(city.get("debt"))
    if debt:
        text += f" · {debt} debt"
    draw_text(draw, (60, cy), text, font(24, "bold"), INK, anchor="lm")
    x = 60 + text_width(text, font(24, "bold")) + 30
    wonder = as_map(city.get("wonder"))
    stages = [as_map(s) for s in as_list(wonder.get("stages"))]
    built = as_int(wonder.get("stages_built"))
    name = wonder_short(as_str(wonder.get("name"), "Wonder"))
    label = f"{name} ({as_str(wonder.get('side'))}): stage {built}/{len(stages)} built"
    draw_text(draw, (x, cy), label, font(22), INK, anchor="lm")
    x += text_width(label, font(22)) + 20
    if built < len(stages):
        draw_text(draw, (x, cy), "next stage:", font(20), MUTED, anchor="lm")
        x += text_width("next stage:", font(20)) + 8
        cost = cost_tokens(as_map(stages[built].get("cost")))
        ic.draw_tokens(draw, x, cy, cost or (Token("text", "free"),))
