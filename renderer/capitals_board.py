"""The central board of The Capitals: round track, Start track, Projects area, six tracks.

Why a table for the six tracks: with up to five cities, a row per city with one column per
track (plus prestige, station and cubes) is what a player scans on a phone; drawing 30 track
markers on winding tracks would be unreadable at 400 px. The round track and the Start track
are drawn as boxes because their positions (eras, Evaluations, prices) matter.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from PIL import Image, ImageDraw

from renderer.base import HIGHLIGHT, INK, MUTED, PANEL, PANEL_EDGE, draw_text, fit_text, font, ink_on
from renderer.capitals_city import TYPE_FILL, colour_fill
from renderer.viewdata import as_int, as_list, as_map, as_opt_int, as_str

WIDTH: Final[int] = 1200
TABLE_TOP: Final[int] = 240 + 3 * 34 + 40
TRACKS: Final[tuple[tuple[str, str], ...]] = (
    ("POP", "Pop"), ("LAB", "Lab"), ("PS", "PS"), ("PRG", "Prog"), ("ECO", "$"), ("CUL", "Cult"),
)


def board_height(view: Mapping[str, Any]) -> int:
    """Pixel height of the central board for this view."""
    players = len(as_list(view.get("players")))
    return TABLE_TOP + 36 * (players + 1) + 20 + (28 if as_map(view.get("neutral")) else 0)


def draw_board(image: Image.Image, draw: ImageDraw.ImageDraw, view: Mapping[str, Any]) -> int:
    """Draw the central board from the top of ``image``; returns the y below it."""
    players = [as_map(p) for p in as_list(view.get("players"))]
    recent = [as_map(r) for r in as_list(view.get("recent"))]
    draw_text(draw, (16, 22), f"The Capitals — round {as_int(view.get('round'))} of 12, "
              f"Era {'I' * as_int(view.get('era'), 1)}, {as_str(view.get('phase_name'))}", font(26, "bold"),
              anchor="lm")
    awaited = as_str(view.get("awaiting"))
    line = awaited if awaited.startswith("The game is over") else f"Waiting for: {awaited}"
    draw_text(draw, (16, 54), fit_text(line, font(20), WIDTH - 32), font(20), anchor="lm")
    # round track
    evals = {as_int(x) for x in as_list(view.get("evaluations"))}
    pros = {as_int(x) for x in as_list(view.get("prosperity_rounds"))}
    rnd = as_int(view.get("round"))
    bw = (WIDTH - 32) / 12
    for r in range(1, 13):
        x = 16 + (r - 1) * bw
        fill = HIGHLIGHT if r == rnd else (PANEL if (r - 1) // 4 % 2 == 0 else (236, 230, 214))
        draw.rectangle((x, 76, x + bw - 4, 118), fill=fill, outline=PANEL_EDGE)
        label = str(r) + (" Expo" if r in evals else "") + (" P" if r in pros else "")
        draw_text(draw, (x + (bw - 4) / 2, 97), label, font(16, "bold" if r == rnd else "regular"), anchor="mm")
    # start track
    y = 130
    draw_text(draw, (16, y + 10), "Start track (turn order):", font(18, "bold"), anchor="lm")
    sw = (WIDTH - 32) / 5
    for i, slot in enumerate(as_list(view.get("start_track"))):
        s = as_map(slot)
        x = 16 + i * sw
        usable = s.get("available", True)
        draw.rectangle((x, y + 24, x + sw - 6, y + 100), fill=PANEL if usable else (226, 220, 206),
                       outline=PANEL_EDGE)
        if not usable:
            draw_text(draw, (x + sw - 14, y + 36), "not used", font(14), MUTED, anchor="rm")
        draw_text(draw, (x + 8, y + 36), f"P{as_int(s.get('pos'))}  ${as_int(s.get('money'))} ×{as_int(s.get('mult'))}",
                  font(16), MUTED, anchor="lm")
        seat = as_opt_int(s.get("seat"))
        if seat is not None and 0 <= seat < len(players):
            p = players[seat]
            fill = colour_fill(as_str(p.get("colour")))
            draw.rounded_rectangle((x + 8, y + 50, x + sw - 14, y + 74), 8, fill=fill)
            draw_text(draw, (x + sw / 2 - 3, y + 62), as_str(p.get("name")), font(16, "bold"), ink_on(fill),
                      anchor="mm")
        old = as_opt_int(s.get("old"))
        if old is not None and 0 <= old < len(players):
            draw_text(draw, (x + 8, y + 88), f"last round: {as_str(players[old].get('name'))}", font(14), MUTED,
                      anchor="lm")
    # projects area
    y = 240
    costs = [as_int(c) for c in as_list(view.get("row_costs"))] or [0, 2, 4]
    for i, row in enumerate(as_list(view.get("rows"))[:3]):
        yy = y + i * 34
        draw_text(draw, (16, yy + 14), f"${costs[i] if i < len(costs) else 0} row", font(16, "bold"), anchor="lm")
        x = 96.0
        for t in as_list(row):
            tile = as_map(t)
            label = as_str(tile.get("name"))
            fnt = font(14)
            w = min(260.0, draw.textlength(label, font=fnt) + 14)
            if x + w > WIDTH - 16:
                draw_text(draw, (x, yy + 14), "…", fnt, anchor="lm")
                break
            fill = TYPE_FILL.get(as_str(tile.get("type")), (200, 200, 200))
            draw.rounded_rectangle((x, yy + 2, x + w, yy + 28), 6, fill=fill, outline=INK)
            draw_text(draw, (x + 7, yy + 15), fit_text(label, fnt, w - 10), fnt, ink_on(fill), anchor="lm")
            x += w + 6
    draw_text(draw, (16, y + 3 * 34 + 14), f"Stack: {as_int(view.get('deck_size'))} tiles of this era left",
              font(15), MUTED, anchor="lm")
    # track table
    y = TABLE_TOP
    cols = [("City", 16), *((label, 200 + i * 100) for i, (_, label) in enumerate(TRACKS)),
            ("Prestige", 820), ("Station", 930), ("Cubes", 1060)]
    for label, x in cols:
        draw_text(draw, (x, y + 14), label, font(17, "bold"), anchor="lm")
    movers = {as_int(r.get("seat"), -1) for r in recent}
    for i, p in enumerate(players):
        yy = y + 36 * (i + 1)
        fill = colour_fill(as_str(p.get("colour")))
        if as_int(p.get("seat"), -1) in movers:
            draw.rectangle((10, yy, WIDTH - 10, yy + 32), fill=HIGHLIGHT)
        draw.rounded_rectangle((16, yy + 4, 180, yy + 28), 8, fill=fill)
        star = " ★" if p.get("highest_culture") else ""
        draw_text(draw, (24, yy + 16), as_str(p.get("name")) + star, font(16, "bold"), ink_on(fill), anchor="lm")
        tracks = as_map(p.get("tracks"))
        for k, (key, _) in enumerate(TRACKS):
            val = as_int(p.get("progress")) if key == "PRG" else as_int(tracks.get(key))
            draw_text(draw, (200 + k * 100, yy + 16), str(val), font(18), anchor="lm")
        pre = p.get("prestige") if view.get("open_scores") else None  # a seat's own total stays private
        draw_text(draw, (820, yy + 16), "hidden" if pre is None else str(as_int(pre)), font(18), anchor="lm")
        st = as_map(p.get("station"))
        draw_text(draw, (930, yy + 16), f"level {as_int(st.get('level'))}", font(18), anchor="lm")
        draw_text(draw, (1060, yy + 16), str(as_int(st.get("cubes"))), font(18), anchor="lm")
    neutral = as_map(view.get("neutral"))
    bottom = y + 36 * (len(players) + 1)
    if neutral:
        draw_text(draw, (16, bottom + 14), f"Neutral (Grey) Culture: {as_int(neutral.get('culture'))}", font(16),
                  MUTED, anchor="lm")
        bottom += 28
    return bottom + 20
