"""Text blocks of the Mare Nostrum board: the header (with the trade's public state) and the
player panels.

Why separate from the map: these blocks are measured first (every line wrapped to the width,
never cut) so that the board's height can be computed before anything is drawn.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from PIL import ImageDraw

from engine.core.text import count, join_words
from renderer.base import (
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    RGB,
    Font,
    draw_text,
    font,
    ink_on,
    line_height_of,
    player_fill,
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
        out.extend((fnt, w, colour) for w in wrap(text, fnt, width))

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
    texts = [[x for line in _panel_text(p, owned) for x in wrap(line, f, w - 16)] for p in players]
    rows = [texts[i:i + cols] for i in range(0, len(texts), cols)]
    heights = [int(44 + lh * max(len(t) for t in row) + 8) for row in rows]
    return PanelPlan(players, texts, w, heights, pad)


def draw_panels(draw: ImageDraw.ImageDraw, plan: PanelPlan, top: int) -> None:
    """Draw the measured panels from ``top`` down."""
    f, fb = font(TEXT), font(28, "bold")
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
            draw.rounded_rectangle((x, y0, x + plan.width, y0 + h), 8, fill=PANEL, outline=PANEL_EDGE, width=2)
            colour = civ_fill(civ)
            draw.rounded_rectangle((x, y0, x + plan.width, y0 + 38), 8, fill=colour)
            draw_text(draw, (x + 8, y0 + 3), str(p.get("name", civ)), fb, ink_on(colour))
            y: float = y0 + 44
            for line in lines:
                draw_text(draw, (x + 8, y), line, f, INK if line else MUTED)
                y += lh
        y0 += h + plan.pad
