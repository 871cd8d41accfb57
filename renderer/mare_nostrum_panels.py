"""Text blocks of the Mare Nostrum board: the header (with the trade's public state) and the
player panels.

Why separate from the map: these blocks are measured first (every line wrapped to the width,
never cut) so that the board's height can be computed before anything is drawn.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from PIL import Image, ImageDraw
from PIL.ImageFont import FreeTypeFont

from engine.core.text import count, join_words
from renderer.base import (
    INK,
    PANEL,
    PANEL_EDGE,
    PAPER,
    RGB,
    Box4,
    Font,
    cached_art,
    draw_pieces,
    draw_text,
    font,
    ink_on,
    line_height_of,
    line_pieces,
    player_fill,
    text_width,
    using_fallback_font,
    wrap,
)

COLOUR: Final[dict[str, str]] = {"rome": "RED", "greece": "BLUE", "carthage": "BLACK", "egypt": "YELLOW",
                                 "babylon": "GREEN"}
CIV_NAME: Final[dict[str, str]] = {"rome": "Rome", "greece": "Greece", "carthage": "Carthage", "egypt": "Egypt",
                                   "babylon": "Babylon"}
WIN: Final[RGB] = (200, 30, 30)
TEXT: Final[int] = 26
HEAD_GAP: Final[int] = 6

Line = tuple[Font, str, RGB]


def wrap_words(text: str, fnt: Font, width: float) -> list[str]:
    """The lines :func:`renderer.base.wrap` gives, measured word by word.

    Why: ``wrap`` measures every trial line whole, so a long sentence seen for the first time
    costs FreeType one layout per word of ever longer strings (a third of a board's drawing);
    words recur from board to board and their widths are cached. The widths add up exactly:
    the fonts have no kerning across a space (advances are 1/64 px multiples, so the sums
    are exact too). The fallback font, line breaks in the text and a word wider than a line
    (which ``wrap`` cuts) go to ``wrap`` itself.
    """
    if using_fallback_font() or "\n" in text:
        return wrap(text, fnt, width)
    space = text_width(" ", fnt)
    lines: list[str] = []
    current, used = "", 0.0
    for word in text.split():
        w = text_width(word, fnt)
        if w > width:
            return wrap(text, fnt, width)
        if current and used + space + w <= width:
            current, used = f"{current} {word}", used + space + w
        else:
            if current:
                lines.append(current)
            current, used = word, w
    lines.append(current)
    return lines


SEEN_LINES_MAX: Final[int] = 4096
_SEEN_LINES: OrderedDict[Hashable, None] = OrderedDict()  # lines drawn before, least recent first (draw_line)
_SEEN_LOCK: Final[threading.Lock] = threading.Lock()


def draw_line(image: Image.Image, xy: tuple[float, float], text: str, fnt: Font, fill: RGB,
              background: RGB) -> None:
    """Draw one line of text on plain ``background``, pasted from
    :func:`renderer.base.cached_art` when it was drawn before (drawn in pieces when new).

    Why: blitting a text mask costs several times copying its pixels, and whole lines recur
    from board to board ("Hand: 3 cards.", the legend, a panel's roles). The tile spans the
    line's ascent and descent (not the air below, where the next line's tile begins) and two
    pixels either side for glyphs that reach past their advance.
    """
    if not text:
        return
    x, y = xy
    height = fnt.getmetrics()[0] + fnt.getmetrics()[1] if isinstance(fnt, FreeTypeFont) else line_height_of(fnt)
    width = sum(text_width(piece, fnt) for piece in line_pieces(text))  # the pieces' widths are cached
    box = (x - 2, y, x + width + 2, y + height)

    def art(draw: ImageDraw.ImageDraw, at: Box4) -> None:
        draw_pieces(draw, (at[0] + 2, at[1]), text, fnt, fill)

    key = ("mn-line", text, fnt, fill, background)
    with _SEEN_LOCK:
        seen = key in _SEEN_LINES
        _SEEN_LINES[key] = None
        _SEEN_LINES.move_to_end(key)
        while len(_SEEN_LINES) > SEEN_LINES_MAX:
            _SEEN_LINES.popitem(last=False)
    if seen:
        cached_art(image, box, key, art, background=background)
    else:
        # A line seen for the first time (the bank's stock, a trade's offers) is drawn in place:
        # most never come back, and a tile for them would only add its making and copying.
        art(ImageDraw.Draw(image), box)


def civ_fill(civ: str) -> RGB:
    """The fill colour of a civilization (a neutral one too)."""
    return player_fill(COLOUR.get(civ, "WHITE"))


def _m(v: Any) -> Mapping[str, Any]:
    return v if isinstance(v, Mapping) else {}


def _l(v: Any) -> list[Any]:
    return list(v) if isinstance(v, (list, tuple)) else []


def _name(civ: Any) -> str:
    return CIV_NAME.get(str(civ), str(civ))


def _cards(cards: Mapping[str, Any]) -> str:
    """``"tax 3, wine 1"``: the bank's wording (goods names are the cards' names)."""
    return ", ".join(f"{k} {n}" for k, n in cards.items()) or "none"


def _trade_lines(trade: Mapping[str, Any]) -> list[tuple[str, bool]]:
    """The trade's public state as (sentence, bold)."""
    n = int(trade.get("n") or 0)
    taker = _name(trade.get("taker")) if trade.get("taker") else ""
    head = f"Trade: {count(n, 'card')} offered by each player" + (f"; {taker} takes next." if taker else ".")
    out = [(head, True)]
    if trade.get("revealed"):
        for civ, offer in _m(trade.get("offers")).items():
            out.append((f"{_name(civ)} offers: {_cards(_m(offer)) if _m(offer) else 'nothing left'}.", False))
    else:
        chosen = [_name(c) for c in _l(trade.get("chosen"))]
        waiting = [_name(c) for c in _l(trade.get("participants")) if str(c) not in {str(x) for x in
                                                                                      _l(trade.get("chosen"))}]
        out.append(("Secret offers, shown when everyone has chosen. Chosen: "
                    + (join_words(chosen) if chosen else "nobody yet")
                    + ("; still choosing: " + join_words(waiting) if waiting else "") + ".", False))
    taken = [f"{_name(c)}: {_cards(_m(v))}" for c, v in _m(trade.get("acquired")).items() if _m(v)]
    if taken:
        out.append(("Taken so far — " + "; ".join(taken) + ".", False))
    return out


def header_lines(view: Mapping[str, Any], width: float) -> list[Line]:
    """Every header line, already wrapped to ``width``."""
    big, bold, reg = font(34, "bold"), font(TEXT, "bold"), font(TEXT)
    out: list[Line] = []

    def add(text: str, fnt: Font, colour: RGB = INK) -> None:
        out.extend((fnt, w, colour) for w in wrap_words(text, fnt, width))

    add(f"Mare Nostrum — round {view.get('round', '?')}, {view.get('phase_text', '')}", big)
    winner = view.get("winner")
    waiting = [_name(c) for c in _l(view.get("to_move"))]
    if winner:
        add(f"{_name(winner)} wins the game!", font(28, "bold"), WIN)
    elif view.get("drawn"):
        add("The players agreed a draw.", font(28, "bold"), WIN)
    elif waiting:
        add(f"Waiting for {join_words(waiting)}.", font(28, "bold"))
    vote = _m(view.get("draw_vote"))
    if vote:
        add(f"{_name(vote.get('by'))} proposes a draw: every other player votes (accept draw / decline draw).",
            bold)
    roles = _m(view.get("roles"))
    if roles:
        add("Roles: " + "; ".join(f"{r} {_name(c)}" for r, c in roles.items()) + ".", reg)
    bank = _m(view.get("bank"))
    if bank:
        add("Bank: " + ", ".join(f"{k} {v}" for k, v in bank.items()) + ".", reg)
    trade = _m(view.get("trade"))
    if trade:
        for text, strong in _trade_lines(trade):
            add(text, bold if strong else reg)
    return out


def lines_height(lines: list[Line]) -> int:
    """Height of a block of header lines."""
    return int(sum(line_height_of(f) for f, _, _ in lines)) + HEAD_GAP


@dataclass(frozen=True)
class PanelPlan:
    """Players, their wrapped panel lines, the column width and the height of the panel block."""

    players: list[Mapping[str, Any]]
    texts: list[list[str]]
    width: float
    row_heights: list[int]
    pad: int

    @property
    def height(self) -> int:
        return sum(self.row_heights) + self.pad * max(0, len(self.row_heights) - 1)


def _panel_text(p: Mapping[str, Any], owned: Mapping[str, list[Mapping[str, Any]]]) -> list[str]:
    civ = str(p.get("civ", ""))
    sc, sup = _m(p.get("scores")), _m(p.get("supply"))
    provs = owned.get(civ, [])
    cities = sum(len(_l(x.get("cities"))) for x in provs)
    caravans = sum(len(_l(x.get("caravans"))) for x in provs)
    temples = sum(1 for x in provs if x.get("temple"))
    markets = sum(1 for x in provs if x.get("market"))
    cards = [str(_m(c).get("name", "")) for c in _l(p.get("cards"))]
    return [
        f"Roles: {join_words(str(r) for r in _l(p.get('roles'))) or 'none'}.",
        f"Hand: {count(int(p.get('hand_size', 0) or 0), 'card')}.",
        f"Commerce {sc.get('commerce', 0)} · political {sc.get('political', 0)} · military {sc.get('military', 0)}.",
        f"Holds {count(len(provs), 'province')}: {count(cities, 'city')}, {count(caravans, 'caravan')}, "
        f"{count(temples, 'temple')}, {count(markets, 'market')}.",
        f"In supply: {sup.get('influence', 0)} influence, {count(int(sup.get('legion', 0)), 'legion')}, "
        f"{count(int(sup.get('fortress', 0)), 'fortress')}, {count(int(sup.get('trireme', 0)), 'trireme')}.",
        f"Heroes and wonders ({len(cards)} of 4): {', '.join(cards) if cards else 'none'}.",
    ]


def panel_plan(view: Mapping[str, Any], width: int, pad: int) -> PanelPlan:
    """Measure the panels: two columns, every line wrapped (nothing is cut)."""
    players = [p for p in _l(view.get("players")) if isinstance(p, Mapping)]
    owned: dict[str, list[Mapping[str, Any]]] = {}
    for prov in _m(view.get("provinces")).values():
        if isinstance(prov, Mapping) and prov.get("owner"):
            owned.setdefault(str(prov["owner"]), []).append(prov)
    cols = 2 if len(players) > 1 else 1
    w = (width - pad * (cols + 1)) / cols
    f = font(TEXT)
    lh = line_height_of(f)
    texts = [[x for line in _panel_text(p, owned) for x in wrap_words(line, f, w - 16)] for p in players]
    rows = [texts[i:i + cols] for i in range(0, len(texts), cols)]
    heights = [int(44 + lh * max(len(t) for t in row) + 8) for row in rows]
    return PanelPlan(players, texts, w, heights, pad)


def _frame(colour: RGB, name: str) -> Any:
    """The art of a panel's frame and title bar (the lines are drawn over it)."""

    def draw_frame(draw: ImageDraw.ImageDraw, box: Box4) -> None:
        x0, y0, x1, _ = box
        draw.rounded_rectangle(box, 8, fill=PANEL, outline=PANEL_EDGE, width=2)
        draw.rounded_rectangle((x0, y0, x1, y0 + 38), 8, fill=colour)
        draw_text(draw, (x0 + 8, y0 + 3), name, font(28, "bold"), ink_on(colour))

    return draw_frame


def draw_panels(image: Image.Image, plan: PanelPlan, top: int) -> None:
    """Draw the measured panels from ``top`` down: each frame with its title bar pasted from
    :func:`renderer.base.cached_art` (they repeat on every board), the lines drawn over it."""
    f = font(TEXT)
    lh = line_height_of(f)
    cols = 2 if len(plan.players) > 1 else 1
    y0 = top
    for r, h in enumerate(plan.row_heights):
        for c in range(cols):
            i = r * cols + c
            if i >= len(plan.players):
                break
            p, lines = plan.players[i], plan.texts[i]
            x = plan.pad + c * (plan.width + plan.pad)
            civ = str(p.get("civ", ""))
            colour, name = civ_fill(civ), str(p.get("name", civ))
            cached_art(image, (x, y0, x + plan.width, y0 + h), ("mn-panel", colour, name), _frame(colour, name),
                       background=PAPER)
            y: float = y0 + 44
            for line in lines:
                draw_line(image, (x + 8, y), line, f, INK, PANEL)
                y += lh
        y0 += h + plan.pad
