"""The central board of The Capitals: round track, Start track, Projects area, six tracks.

Why a table for the six tracks: with up to five cities, a row per city with one column per
track (plus prestige, station and cubes) is what a player scans on a phone; drawing 30 track
markers on winding tracks would be unreadable at 400 px. The round track and the Start track
are drawn as boxes because their positions (eras, Evaluations, prices) matter.

Sizes (issue 17): the board is 1000 px wide and every text is at least 20 px, so it stays
legible when a phone shows the image 400 px wide. Nothing is cut: the Projects area's tiles
wrap onto more lines and the board is measured (:func:`board_height`) before it is drawn.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from PIL import Image, ImageDraw

from engine.core.text import count
from renderer.base import (
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    Font,
    draw_pieces,
    draw_text,
    font,
    ink_on,
    line_height_of,
    text_width,
    wrap,
)
from renderer.capitals_city import TYPE_FILL, colour_fill
from renderer.viewdata import as_int, as_list, as_map, as_opt_int, as_str

WIDTH: Final[int] = 1000
PAD: Final[int] = 16
TEXT: Final[int] = 22
SMALL: Final[int] = 20
ROUND_H: Final[int] = 62
SLOT_H: Final[int] = 118
CHIP_H: Final[int] = 34
ROW_H: Final[int] = 42
TRACKS: Final[tuple[tuple[str, str], ...]] = (
    ("POP", "Pop"), ("LAB", "Lab"), ("PS", "PS"), ("PRG", "Prog"), ("ECO", "$"), ("CUL", "Cult"),
)
# Table columns: (header, width); the city's chip comes first.
COLUMNS: Final[tuple[tuple[str, int], ...]] = (
    ("City", 176), ("Pop", 72), ("Lab", 72), ("PS", 62), ("Prog", 78), ("$", 70), ("Cult", 76),
    ("Prestige", 118), ("Station", 110), ("Cubes", 90),
)
KEY: Final[str] = ("Pop = Population, Lab = Labour, PS = Public Services, Prog = Progress, $ = money, "
                   "Cult = Culture; Station = power station level, Cubes = energy cubes on it; "
                   "★ = Highest Culture; highlighted row = the city that moved last.")
TYPE_WORDS: Final[str] = "Tile colours: yellow residential, brown industrial, blue commercial, green tourism, " \
                         "red public, purple prosperity."


def _title(view: Mapping[str, Any]) -> str:
    return (f"The Capitals — round {as_int(view.get('round'))} of 12, Era {'I' * as_int(view.get('era'), 1)}, "
            f"{as_str(view.get('phase_name'))}")


def _waiting(view: Mapping[str, Any]) -> str:
    awaited = as_str(view.get("awaiting"))
    return awaited if awaited.startswith("The game is over") else f"Waiting for {awaited}."


@dataclass(frozen=True)
class Chip:
    """A tile of the Projects area placed on a line of its row."""

    row: int
    line: int
    x: float
    width: float
    tile: Mapping[str, Any]


@dataclass(frozen=True)
class BoardPlan:
    """Everything measured before drawing: wrapped texts, chip positions, section tops."""

    title: list[str]
    waiting: list[str]
    chips: list[Chip]
    row_lines: list[int]
    key: list[str]
    height: int


def plan_board(view: Mapping[str, Any]) -> BoardPlan:
    """Measure the board: wrapped header lines and the Projects area's chip lines."""
    inner = WIDTH - 2 * PAD
    title = wrap(_title(view), font(30, "bold"), inner)
    waiting = wrap(_waiting(view), font(24, "bold"), inner)
    chips: list[Chip] = []
    row_lines: list[int] = []
    fnt = font(TEXT, "bold")
    left = PAD + 110
    for r, row in enumerate(as_list(view.get("rows"))[:3]):
        line, x = 0, float(left)
        for t in as_list(row):
            tile = as_map(t)
            w = text_width(as_str(tile.get("name")), fnt) + 18
            if x + w > WIDTH - PAD and x > left:
                line, x = line + 1, float(left)
            chips.append(Chip(r, line, x, w, tile))
            x += w + 8
        row_lines.append(line + 1)
    key = wrap(KEY, font(SMALL), inner) + wrap(TYPE_WORDS, font(SMALL), inner)
    players = len(as_list(view.get("players")))
    height = (PAD + _lines_h(title, font(30, "bold")) + _lines_h(waiting, font(24, "bold")) + 8 + ROUND_H + 14
              + 34 + SLOT_H + 14 + sum(n * (CHIP_H + 6) for n in row_lines) + 38
              + ROW_H * (players + 1) + 8 + (ROW_H if as_map(view.get("neutral")) else 0)
              + _lines_h(key, font(SMALL)) + PAD)
    return BoardPlan(title, waiting, chips, row_lines, key, int(height))


def _lines_h(lines: list[str], fnt: Font) -> int:
    return int(len(lines) * line_height_of(fnt))


def board_height(view: Mapping[str, Any]) -> int:
    """Pixel height of the central board for this view."""
    return plan_board(view).height


def _round_track(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], y: int) -> None:
    evals = {as_int(x) for x in as_list(view.get("evaluations"))}
    pros = {as_int(x) for x in as_list(view.get("prosperity_rounds"))}
    rnd = as_int(view.get("round"))
    bw = (WIDTH - 2 * PAD) / 12
    for r in range(1, 13):
        x = PAD + (r - 1) * bw
        fill = HIGHLIGHT if r == rnd else (PANEL if (r - 1) // 4 % 2 == 0 else (236, 230, 214))
        draw.rectangle((x, y, x + bw - 4, y + ROUND_H), fill=fill, outline=INK if r == rnd else PANEL_EDGE,
                       width=3 if r == rnd else 1)
        draw_text(draw, (x + (bw - 4) / 2, y + 4), str(r), font(24, "bold"), anchor="ma")
        note = "Expo" if r in evals else ("Pros." if r in pros else "")
        if note:
            draw_text(draw, (x + (bw - 4) / 2, y + ROUND_H - 6), note, font(SMALL), anchor="md")


def _start_track(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], players: list[Mapping[str, Any]],
                 y: int) -> None:
    draw_text(draw, (PAD, y), "Start track (turn order; price = $ × multiplier of your last position):",
              font(TEXT, "bold"))
    y += 34
    sw = (WIDTH - 2 * PAD) / 5
    for i, slot in enumerate(as_list(view.get("start_track"))[:5]):
        s = as_map(slot)
        x = PAD + i * sw
        usable = s.get("available", True)
        draw.rectangle((x, y, x + sw - 6, y + SLOT_H), fill=PANEL if usable else (226, 220, 206), outline=PANEL_EDGE)
        head = f"P{as_int(s.get('pos'))}  ${as_int(s.get('money'))} ×{as_int(s.get('mult'))}"
        draw_text(draw, (x + 8, y + 6), head, font(TEXT, "bold"), INK)
        seat = as_opt_int(s.get("seat"))
        if not usable:
            draw_text(draw, (x + 8, y + 44), "not used", font(SMALL), MUTED)
        elif seat is not None and 0 <= seat < len(players):
            p = players[seat]
            fill = colour_fill(as_str(p.get("colour")))
            draw.rounded_rectangle((x + 8, y + 38, x + sw - 14, y + 72), 8, fill=fill)
            draw_text(draw, (x + sw / 2 - 3, y + 55), as_str(p.get("name")), font(TEXT, "bold"), ink_on(fill),
                      anchor="mm")
        old = as_opt_int(s.get("old"))
        if old is not None and 0 <= old < len(players):
            draw_text(draw, (x + 8, y + 84), f"last: {as_str(players[old].get('name'))}", font(SMALL), MUTED)


def _projects(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], plan: BoardPlan, y: int) -> int:
    costs = [as_int(c) for c in as_list(view.get("row_costs"))] or [0, 2, 4]
    fnt = font(TEXT, "bold")
    tops = []
    for r, lines in enumerate(plan.row_lines):
        tops.append(y)
        draw_text(draw, (PAD, y + CHIP_H / 2), f"${costs[r] if r < len(costs) else 0} row", fnt, anchor="lm")
        if lines == 1 and not any(c.row == r for c in plan.chips):
            draw_text(draw, (PAD + 110, y + CHIP_H / 2), "empty", font(SMALL), MUTED, anchor="lm")
        y += lines * (CHIP_H + 6)
    for c in plan.chips:
        top = tops[c.row] + c.line * (CHIP_H + 6)
        fill = TYPE_FILL.get(as_str(c.tile.get("type")), (200, 200, 200))
        draw.rounded_rectangle((c.x, top, c.x + c.width, top + CHIP_H), 7, fill=fill, outline=INK)
        draw_text(draw, (c.x + 9, top + CHIP_H / 2), as_str(c.tile.get("name")), fnt, ink_on(fill), anchor="lm")
    stack = f"Stack: {count(as_int(view.get('deck_size')), 'tile')} of this era left."
    draw_pieces(draw, (PAD, y + 4), stack, font(SMALL), MUTED)
    return y + 38


def _table(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], players: list[Mapping[str, Any]], y: int) -> int:
    xs = []
    x = PAD
    for head, w in COLUMNS:
        xs.append(x)
        draw_text(draw, (x + (0 if head == "City" else 4), y + ROW_H / 2), head, font(TEXT, "bold"), anchor="lm")
        x += w
    movers = {as_int(r.get("seat"), -1) for r in (as_map(v) for v in as_list(view.get("recent")))}
    value = font(24)
    for i, p in enumerate(players):
        yy = y + ROW_H * (i + 1)
        fill = colour_fill(as_str(p.get("colour")))
        if as_int(p.get("seat"), -1) in movers:
            draw.rectangle((PAD - 6, yy, WIDTH - PAD + 6, yy + ROW_H - 4), fill=HIGHLIGHT)
        draw.rounded_rectangle((PAD, yy + 3, PAD + COLUMNS[0][1] - 12, yy + ROW_H - 7), 8, fill=fill)
        star = " ★" if p.get("highest_culture") else ""
        draw_text(draw, (PAD + 10, yy + ROW_H / 2 - 2), as_str(p.get("name")) + star, font(TEXT, "bold"),
                  ink_on(fill), anchor="lm")
        tracks = as_map(p.get("tracks"))
        st = as_map(p.get("station"))
        pre = p.get("prestige") if view.get("open_scores") else None  # a seat's own total stays private
        cells = [str(as_int(p.get("progress")) if key == "PRG" else as_int(tracks.get(key))) for key, _ in TRACKS]
        cells += ["hidden" if pre is None else str(as_int(pre)), f"level {as_int(st.get('level'))}",
                  str(as_int(st.get("cubes")))]
        for x, text in zip(xs[1:], cells, strict=True):
            draw_text(draw, (x + 4, yy + ROW_H / 2 - 2), text, value, anchor="lm")
    bottom = y + ROW_H * (len(players) + 1) + 8
    neutral = as_map(view.get("neutral"))
    if neutral:
        draw_text(draw, (PAD, bottom + 4), f"Neutral (Grey) Culture: {as_int(neutral.get('culture'))}.",
                  font(TEXT), MUTED)
        bottom += ROW_H
    return bottom


def draw_board(image: Image.Image, draw: ImageDraw.ImageDraw, view: Mapping[str, Any],
               plan: BoardPlan | None = None) -> int:
    """Draw the central board from the top of ``image``; returns the y below it."""
    plan = plan or plan_board(view)
    players = [as_map(p) for p in as_list(view.get("players"))]
    y: float = PAD
    for line in plan.title:  # in pieces: the round and phase change, "The Capitals — " does not
        draw_pieces(draw, (PAD, y), line, font(30, "bold"), INK)
        y += line_height_of(font(30, "bold"))
    for line in plan.waiting:
        draw_pieces(draw, (PAD, y), line, font(24, "bold"), INK)
        y += line_height_of(font(24, "bold"))
    y = int(y) + 8
    _round_track(draw, view, int(y))
    y += ROUND_H + 14
    _start_track(draw, view, players, int(y))
    y += 34 + SLOT_H + 14
    y = _projects(draw, view, plan, int(y))
    y = _table(draw, view, players, int(y))
    for line in plan.key:
        draw_text(draw, (PAD, y), line, font(SMALL), MUTED)
        y += line_height_of(font(SMALL))
    return int(y) + PAD
