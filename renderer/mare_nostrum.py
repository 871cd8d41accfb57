"""Mare Nostrum images, from a view dict only: the public board and a seat's private hand.

Layout of the public image (1000 px wide; its height grows with what it must say):

    header: round and phase, whom the table waits for (or who won), roles, the bank
    trade: the trade round's public state (cards each, taker, secret choices made, revealed
           offers, cards taken so far) when a trade is under way
    map: an 8 x 6 grid of cells (renderer.mare_nostrum_layout): provinces as boxes filled with
         the owner's colour (name, cities, temple, market, caravans, units per side, war-torn
         frame, last-turn glow); sea zones as ellipses with the triremes at sea per side
    legend: symbols, short labels, neutral civilizations
    player panels: two columns; roles, hand size, holdings, scores, supply, heroes and wonders

Why this shape (issue 16): a phone shows the picture about 400 px wide, so every map text is
at least 20 px at 1000 px (8 px on the phone) and every panel text 22 px; nothing is cut:
texts wrap and the image grows (see :func:`renderer.base.clip_watch`).

Privacy: :func:`render` reads only public keys of the view (never ``hand``, ``my_offer`` or
``buying``), so every seat's view gives the same public image. :func:`render_private` draws
the seat's hand, its offer while hidden and the payment in progress.

The static layer (links, sea zones and their names) is drawn once per process and cached in
:data:`renderer.base.STATIC_LAYERS`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from PIL import Image, ImageDraw

from engine.core.text import count, join_words
from renderer.base import (
    HIGHLIGHT,
    INK,
    KIND_FILL,
    MUTED,
    PAPER,
    RGB,
    SEA_INK,
    STATIC_LAYERS,
    WHITE,
    Box4,
    Font,
    draw_pieces,
    draw_text,
    encode_board,
    fit_font,
    fit_text,
    font,
    fonts_signature,
    ink_on,
    line_height_of,
    masked_art,
    new_canvas,
    text_width,
    tint,
    wrap,
)
from renderer.mare_nostrum_layout import BOX_H, BOX_W, CELL, CELL_H, CELL_W, MAP_H, MAP_W, SHORT_NAME, centre
from renderer.mare_nostrum_panels import (
    CIV_NAME,
    civ_fill,
    draw_line,
    draw_panels,
    header_lines,
    lines_height,
    panel_plan,
    wrap_words,
)

GAME_ID: Final[str] = "mare-nostrum"
WIDTH: Final[int] = MAP_W
PAD: Final[int] = 16
SEA_FILL: Final[RGB] = (182, 214, 240)
WAR: Final[RGB] = (200, 30, 30)
LAND_BG: Final[RGB] = (232, 224, 200)
NAME_SIZE: Final[int] = 22
NAME_MIN: Final[int] = 20
TEXT_SIZE: Final[int] = 22
CHIP_H: Final[int] = 26
LINE: Final[int] = 27
GAP: Final[int] = 2  # air between the ink of two rows of a province box (buildings, goods lines, chips)
BUILDINGS_TOP: Final[int] = 5 + LINE  # the buildings row, below the name (box coordinates)
BUILDINGS_H: Final[int] = 24  # its tallest piece: a temple or market badge
GOODS_W: Final[int] = BOX_W - 10  # the goods lines' width, centred in the box
GOODS_CODE: Final[int] = 3  # letters of a goods code ("gra" for grain): unique among the goods
GLOW_MARGIN: Final[int] = 5  # how far a box's glow reaches out of it
WAR_MARGIN: Final[int] = 14  # how far its WAR badge does (above the box)


def _m(v: Any) -> Mapping[str, Any]:
    return v if isinstance(v, Mapping) else {}


def _l(v: Any) -> list[Any]:
    return list(v) if isinstance(v, (list, tuple)) else []


def _build_static(names: tuple[tuple[str, str], ...]) -> Image.Image:
    """Links, sea zones and sea names: the same for every position."""
    from engine.mare_nostrum.data import PROVINCES, SEAS

    image = new_canvas((MAP_W, MAP_H), LAND_BG)
    draw = ImageDraw.Draw(image)
    for sid, sea in SEAS.items():
        x, y = centre(sid)
        for other in sea.adjacent:
            ox, oy = centre(other)
            draw.line((x, y, ox, oy), fill=SEA_FILL, width=22)
    for sid, sea in SEAS.items():
        x, y = centre(sid)
        for pid in sea.coasts:
            px, py = centre(pid)
            draw.line((x, y, px, py), fill=(110, 150, 205), width=3)
    for pid, prov in PROVINCES.items():
        x, y = centre(pid)
        for other in prov.land:
            if other > pid:
                ox, oy = centre(other)
                draw.line((x, y, ox, oy), fill=(150, 110, 60), width=7)
    rx, ry = CELL_W // 2 - 2, CELL_H // 2 - 10
    for sid in SEAS:
        x, y = centre(sid)
        draw.ellipse((x - rx, y - ry, x + rx, y + ry), fill=SEA_FILL, outline=(110, 150, 205), width=2)
    for sid, name in names:
        x, y = centre(sid)
        fnt = font(NAME_MIN, "italic")
        lines = wrap(name.removeprefix("Mare "), fnt, CELL_W - 14)
        for i, line in enumerate(lines):
            draw_text(draw, (x, y - 50 + i * (NAME_MIN + 2)), line, fnt, SEA_INK, anchor="ma")
    return image


def _static_map() -> Image.Image:
    from engine.mare_nostrum.data import SEAS

    names = tuple((k, v.name) for k, v in SEAS.items())
    layer: Image.Image = STATIC_LAYERS.get((GAME_ID, names, fonts_signature()), lambda: _build_static(names))
    return layer


def _chips(units: list[Mapping[str, Any]]) -> list[tuple[str, str]]:
    """Per side: ``"3L* 1F 1S"`` (legions, ``*`` when one occupies or annexes, fortresses,
    triremes in port)."""
    by: dict[str, dict[str, int]] = {}
    placed: set[str] = set()
    for u in units:
        civ = str(u.get("civ", ""))
        kinds = by.setdefault(civ, {})
        kinds[str(u.get("kind", ""))] = kinds.get(str(u.get("kind", "")), 0) + 1
        if u.get("place"):
            placed.add(civ)
    out = []
    for civ, kinds in by.items():
        parts = []
        if kinds.get("legion"):
            parts.append(f"{kinds['legion']}L" + ("*" if civ in placed else ""))
        if kinds.get("fortress"):
            parts.append(f"{kinds['fortress']}F")
        if kinds.get("trireme"):
            parts.append(f"{kinds['trireme']}S")
        out.append((civ, " ".join(parts)))
    return out


def goods_code(good: str) -> str:
    """The code a box shows for a good when the goods in full do not fit it ("per" for perfume;
    the legend spells every code used on the board out)."""
    return good[:GOODS_CODE]


@functools.lru_cache(maxsize=8)
def _ink_span(fnt: Font) -> tuple[int, int]:
    """Top and bottom of the ink of lowercase words in ``fnt``, drawn with anchor "ma"
    (measured once per font: every goods line is placed by it, so lines keep one pitch)."""
    _, top, _, bottom = fnt.getbbox("abdfghijklpqty", anchor="ma")
    return int(top), int(bottom)


def goods_pitch() -> int:
    """The step from one goods line to the next: the ink of a line and the box's row gap."""
    top, bottom = _ink_span(font(TEXT_SIZE))
    return bottom - top + GAP


def goods_line_y(i: int) -> int:
    """The anchor ("ma") y of goods line ``i`` in box coordinates: the first line's ink starts
    ``GAP`` below the buildings row."""
    return BUILDINGS_TOP + BUILDINGS_H + GAP - _ink_span(font(TEXT_SIZE))[0] + i * goods_pitch()


def chips_top(goods_lines: int) -> int:
    """The top of the first row of unit chips: below the goods lines (a box without goods keeps
    one line's room, so chips sit at the same height in every box of a row)."""
    return BUILDINGS_TOP + BUILDINGS_H + GAP + max(1, goods_lines) * goods_pitch()


def content_bottom(goods_lines: int, chip_rows: int) -> int:
    """The lowest row a box's content (goods, chips) reaches, in box coordinates."""
    if chip_rows:
        return chips_top(goods_lines) + chip_rows * (CHIP_H + 3) - 3
    return chips_top(goods_lines) - GAP


# A box's content must stay above the WAR badge of the box below it (boxes sit at the same
# height in every cell, so the box below starts CELL_H lower than this one).
ROOM: Final[int] = CELL_H - WAR_MARGIN


def _goods_lines(goods: tuple[str, ...], chip_rows: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The goods lines of a box and the goods shown by their code.

    Full names, wrapped to the box's width, when their lines leave the chips room above the box
    below (two goods take two lines: "grain" / "perfume"); else codes ("gra per"), which the
    legend spells out. Why never cut letters: "grai perf" read as nothing a player knows.
    """
    fnt = font(TEXT_SIZE)
    lines = tuple(wrap_words(" ".join(goods), fnt, GOODS_W))
    if len(lines) <= 1 or content_bottom(len(lines), chip_rows) <= ROOM:
        return lines, ()
    return tuple(wrap_words(" ".join(goods_code(g) for g in goods), fnt, GOODS_W)), goods


def _province_name(pid: str, name: str) -> tuple[str, Any]:
    fnt = font(NAME_SIZE, "bold")
    label = name if text_width(name, fnt) <= BOX_W - 4 else SHORT_NAME.get(pid, name)
    return label, fit_font(label, NAME_SIZE, BOX_W - 4, "bold", min_size=NAME_MIN)


@dataclass(frozen=True, slots=True)
class ProvinceArt:
    """Everything a province box shows: the key of its sprite (boxes repeat from one turn's
    board to the next: most provinces do not change in a turn)."""

    label: str
    name_font: Font
    fill: RGB
    war: bool
    glow: bool
    cities: int
    temple: bool
    market: bool
    caravans: tuple[str, ...]  # the goods lines
    coded: tuple[str, ...]  # the goods shown by their code (see goods_code)
    chip_rows: tuple[tuple[tuple[str, RGB, RGB, int], ...], ...]  # per row: text, fill, outline, width
    height: int

    def draw(self, draw: ImageDraw.ImageDraw, at: Box4) -> None:
        """Draw the box with its top-left corner at ``at[:2]`` (whole pixels)."""
        left, top = int(at[0]), int(at[1])
        box = (left, top, left + BOX_W, top + self.height)
        x = left + BOX_W // 2
        if self.glow:
            draw.rounded_rectangle((box[0] - 5, box[1] - 5, box[2] + 5, box[3] + 5), 12, fill=HIGHLIGHT, outline=INK)
        draw.rounded_rectangle(box, 9, fill=self.fill, outline=WAR if self.war else INK, width=6 if self.war else 2)
        draw_text(draw, (x, box[1] + 5), self.label, self.name_font, INK, anchor="ma")
        _draw_buildings(draw, self, box[0] + 7, box[1] + BUILDINGS_TOP)
        for i, line in enumerate(self.caravans):
            draw_text(draw, (x, box[1] + goods_line_y(i)), line, font(TEXT_SIZE), INK, anchor="ma")
        cy = box[1] + chips_top(len(self.caravans))
        f = font(TEXT_SIZE, "bold")
        for row in self.chip_rows:
            cx = box[0] + 4
            for text, colour, outline, w in row:
                draw.rounded_rectangle((cx, cy, cx + w, cy + CHIP_H), 5, fill=colour, outline=outline, width=2)
                draw_text(draw, (cx + w / 2, cy + CHIP_H / 2), text, f, ink_on(colour), anchor="mm")
                cx += w + 3
            cy += CHIP_H + 3
        if self.war:
            draw.rounded_rectangle((box[2] - 50, box[1] - WAR_MARGIN, box[2] + 6, box[1] + 12), 5, fill=WAR)
            draw_text(draw, (box[2] - 22, box[1] - 1), "WAR", font(20, "bold"), WHITE, anchor="mm")


def _province_art(pid: str, p: Mapping[str, Any], neutrals: set[str], last: set[str]) -> ProvinceArt:
    chip_rows = _chip_rows(_chips(_l(p.get("units"))), neutrals)
    owner = p.get("owner")
    goods, coded = _goods_lines(tuple(str(g) for g in _l(p.get("caravans"))), len(chip_rows))
    label, name_font = _province_name(pid, str(p.get("name", pid)))
    return ProvinceArt(
        label=label,
        name_font=name_font,
        fill=tint(civ_fill(str(owner)), 0.55) if owner else KIND_FILL["LAND"],
        war=bool(p.get("war_torn")),
        glow=pid in last,
        cities=len(_l(p.get("cities"))),
        temple=bool(p.get("temple")),
        market=bool(p.get("market")),
        caravans=goods,
        coded=coded,
        chip_rows=chip_rows,
        height=max(BOX_H, content_bottom(len(goods), len(chip_rows)) + 5),
    )


def province_arts(view: Mapping[str, Any]) -> dict[str, ProvinceArt]:
    """The art of every province box on the map, in drawing order (row by row)."""
    provinces = _m(view.get("provinces"))
    last = {str(x) for x in _l(view.get("last"))}
    neutrals = {str(x) for x in _l(view.get("neutrals"))}
    return {pid: _province_art(pid, _m(provinces[pid]), neutrals, last)
            for pid in sorted((p for p in provinces if p in CELL), key=lambda k: (CELL[k][1], CELL[k][0]))}


def box_corner(pid: str, top: int) -> tuple[int, int]:
    """The top-left corner of a province's box on a board whose map starts at ``top``."""
    x, y = centre(pid)
    return x - BOX_W // 2, y + top - BOX_H // 2


def _draw_province(image: Image.Image, pid: str, art: ProvinceArt, top: int) -> int:
    """A province box, pasted from :func:`renderer.base.masked_art`: the links of the static
    map run under the box, and the glow, the rounded corners and the WAR badge let them show.
    Returns the lowest row it may draw on (glow included)."""
    left, upper = box_corner(pid, top)
    margin = WAR_MARGIN if art.war else GLOW_MARGIN if art.glow else 0  # small tiles: cheaper to build
    masked_art(image, (left, upper, left + BOX_W, upper + art.height), art, art.draw, margin=margin)
    return upper + art.height + 5


def _chip_rows(chips: list[tuple[str, str]], neutrals: set[str]) -> tuple[tuple[tuple[str, RGB, RGB, int], ...], ...]:
    """Unit chips packed into rows that fit the box (a battle with many sides takes two rows)."""
    f = font(TEXT_SIZE, "bold")
    rows: list[list[tuple[str, RGB, RGB, int]]] = []
    used = BOX_W
    for civ, text in chips:
        w = int(text_width(text, f)) + 10
        if used + w + 3 > BOX_W - 8 or not rows:
            rows.append([])
            used = 0
        rows[-1].append((text, civ_fill(civ), MUTED if civ in neutrals else INK, w))
        used += w + 3
    return tuple(tuple(row) for row in rows)


def _draw_buildings(draw: ImageDraw.ImageDraw, p: ProvinceArt, x: int, y: int) -> None:
    """Cities as white squares, then a temple ``T`` and a market ``M`` badge."""
    for _ in range(p.cities):
        draw.rectangle((x, y + 3, x + 18, y + 21), fill=WHITE, outline=INK, width=2)
        x += 23
    f = font(20, "bold")
    for shown, letter in ((p.temple, "T"), (p.market, "M")):
        if shown:
            draw.rounded_rectangle((x, y + 1, x + 24, y + 24), 4, fill=INK)
            draw_text(draw, (x + 12, y + 13), letter, f, WHITE, anchor="mm")
            x += 29


def _draw_seas(draw: ImageDraw.ImageDraw, seas: Mapping[str, Any], last: set[str], top: int) -> None:
    rx, ry = CELL_W // 2 - 2, CELL_H // 2 - 10
    for sid in CELL:
        x, y = centre(sid)
        y += top
        if sid in last:
            draw.ellipse((x - rx, y - ry, x + rx, y + ry), outline=HIGHLIGHT, width=7)
        items = list(_m(seas.get(sid)).items())
        size = 34 if len(items) <= 3 else 28
        cx = x - (size + 3) * min(len(items), 3) // 2
        cy = y - 12
        for i, (civ, n) in enumerate(items):
            if i == 3:
                cx, cy = x - (size + 3) * (len(items) - 3) // 2, cy + size + 3
            colour = civ_fill(str(civ))
            draw.ellipse((cx, cy, cx + size, cy + size), fill=colour, outline=INK, width=2)
            draw_text(draw, (cx + size / 2, cy + size / 2), str(n), font(20, "bold"), ink_on(colour), anchor="mm")
            cx += size + 3


def _legend_lines(view: Mapping[str, Any], coded: Iterable[str] = ()) -> list[str]:
    """The legend: symbols, short labels, the goods codes used on this board (``coded``), neutrals."""
    from engine.mare_nostrum.data import PROVINCES

    lines = ["□ city · T temple · M market · L legions · F fortresses · S triremes in port · "
             "* a legion occupies or annexes · circles at sea: triremes · red frame: war-torn"]
    shorts = [f"{label} = {PROVINCES[pid].name}" for pid, label in SHORT_NAME.items() if pid in PROVINCES]
    lines.append("Short labels: " + "; ".join(shorts) + ".")
    codes = sorted({goods_code(g): g for g in coded}.items())
    if codes:
        lines.append("Goods codes: " + "; ".join(f"{code} = {good}" for code, good in codes) + ".")
    neutrals = [CIV_NAME.get(str(c), str(c)) for c in _l(view.get("neutrals"))]
    if neutrals:
        lines.append(f"Neutral: {join_words(neutrals)} (grey chip frame).")
    if view.get("map") == "stand-in":
        lines.append("The map is a stand-in for the printed board.")
    return lines


def board_image(view: Mapping[str, Any]) -> Image.Image:
    """The public board as a Pillow image (before PNG encoding; the benchmark times both)."""
    inner = WIDTH - 2 * PAD
    head = header_lines(view, inner)
    arts = province_arts(view)
    legend_font = font(22)
    coded = (g for art in arts.values() for g in art.coded)
    legend = [w for line in _legend_lines(view, coded) for w in wrap(line, legend_font, inner)]
    legend_h = int(len(legend) * line_height_of(legend_font)) + 12
    plan = panel_plan(view, WIDTH, PAD)
    map_top = PAD + lines_height(head) + 6
    panel_top = map_top + MAP_H + legend_h
    height = panel_top + (plan.height + PAD if plan.players else PAD)
    image = new_canvas((WIDTH, height), PAPER)
    image.paste(_static_map(), (0, map_top))
    draw = ImageDraw.Draw(image)
    y: float = PAD
    for fnt, text, colour in head:
        draw_line(image, (PAD, y), text, fnt, colour, PAPER)
        y += line_height_of(fnt)
    _draw_seas(draw, _m(view.get("seas")), {str(x) for x in _l(view.get("last"))}, map_top)
    lowest = 0
    for pid, art in arts.items():
        lowest = max(lowest, _draw_province(image, pid, art, map_top))
    y = map_top + MAP_H + 4
    for line in legend:
        if lowest < y - 2:
            draw_line(image, (PAD, y), line, legend_font, INK, PAPER)
        else:  # a province with three rows of chips reaches into the legend: no tile over it
            draw_pieces(draw, (PAD, y), line, legend_font, INK)
        y += line_height_of(legend_font)
    if plan.players:
        draw_panels(image, plan, panel_top)
    return image


def render(view: Mapping[str, Any]) -> bytes:
    """PNG of the public board (the same for every viewer's view)."""
    return encode_board(board_image(view))


def render_private(view: Mapping[str, Any]) -> bytes | None:
    """PNG of the viewer's hand (and hidden offer, payment in progress), or None for a spectator."""
    me = view.get("me")
    if not me:
        return None
    hand = _m(view.get("hand"))
    size = sum(int(v) for v in hand.values())
    lines = [f"{CIV_NAME.get(str(me), me)} — your hand ({count(size, 'card')})"]
    lines += [f"{n} × {k}" for k, n in hand.items()] or ["(empty)"]
    if view.get("my_offer") is not None:
        off = _m(view.get("my_offer"))
        lines.append("Your secret offer: " + (", ".join(f"{n} {k}" for k, n in off.items()) or "nothing yet"))
    buying = _m(view.get("buying"))
    if buying:
        paid = ", ".join(f"{n} {k}" for k, n in _m(buying.get("paid")).items()) or "nothing yet"
        lines.append(f"Paying for {buying.get('item')} (cost {buying.get('cost')}): {paid}")
    f, fb = font(20), font(20, "bold")
    lh = line_height_of(f)
    wrapped = [(fb if i == 0 else f, w) for i, line in enumerate(lines) for w in wrap(line, fb if i == 0 else f, 680)]
    image = new_canvas((720, int(24 + lh * len(wrapped))), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, 12, image.height), fill=civ_fill(str(me)))
    y = 12.0
    for fnt, line in wrapped:
        draw_text(draw, (26, y), fit_text(line, fnt, 680), fnt, INK)
        y += lh
    return encode_board(image)
