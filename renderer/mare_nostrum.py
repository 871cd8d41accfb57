"""Mare Nostrum images, from a view dict only: the public board and a seat's private hand.

Layout of the public image (1600 px wide; text >= 15 px so that it stays legible on a phone):

    header: round, phase, whom the table waits for, roles, the bank, the trade's public state
    map: sea zones (ellipses, triremes at sea as coloured counts) behind the provinces (boxes
         filled with the owner's colour: buildings, units per side, war-torn and last-turn marks)
    player panels: one column per player with roles, hand size, heroes and wonders, scores and
         pieces left in supply

Privacy: :func:`render` reads only public keys of the view (never ``hand``, ``my_offer`` or
``buying``), so every seat's view gives the same public image. :func:`render_private` draws
the seat's hand, its offer while hidden and the payment in progress.

The static layer (sea zones, land and sea links, names of the seas) is drawn once and cached.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Final

from PIL import Image, ImageDraw

from renderer.base import (
    HIGHLIGHT,
    INK,
    KIND_FILL,
    MUTED,
    PANEL,
    PANEL_EDGE,
    PAPER,
    RGB,
    SEA_INK,
    WHITE,
    draw_text,
    encode_png,
    fit_text,
    font,
    ink_on,
    line_height_of,
    new_canvas,
    player_fill,
    tint,
    wrap,
)
from renderer.mare_nostrum_layout import BOX_H, BOX_W, MAP_H, MAP_W, PROVINCE_XY, SEA_XY

GAME_ID: Final[str] = "mare-nostrum"
WIDTH: Final[int] = MAP_W
COLOUR: Final[dict[str, str]] = {"rome": "RED", "greece": "BLUE", "carthage": "BLACK", "egypt": "YELLOW",
                                 "babylon": "GREEN"}
CIV_NAME: Final[dict[str, str]] = {"rome": "Rome", "greece": "Greece", "carthage": "Carthage", "egypt": "Egypt",
                                   "babylon": "Babylon"}
SEA_FILL: Final[RGB] = (182, 214, 240)
WAR: Final[RGB] = (200, 30, 30)
HEADER_H: Final[int] = 128


def _fill(civ: str) -> RGB:
    return player_fill(COLOUR.get(civ, "WHITE"))


def _m(v: Any) -> Mapping[str, Any]:
    return v if isinstance(v, Mapping) else {}


def _l(v: Any) -> list[Any]:
    return list(v) if isinstance(v, (list, tuple)) else []


@lru_cache(maxsize=2)
def _static_map(names: tuple[tuple[str, str], ...]) -> Image.Image:
    """Sea zones, links and sea names: the same for every position."""
    from engine.mare_nostrum.data import PROVINCES, SEAS

    image = new_canvas((MAP_W, MAP_H), (232, 224, 200))
    draw = ImageDraw.Draw(image)
    for sid, (x, y, _rx, _ry) in SEA_XY.items():
        for pid in SEAS[sid].coasts:
            px, py = PROVINCE_XY[pid]
            draw.line((x, y, px, py), fill=(120, 160, 210), width=3)
        for other in SEAS[sid].adjacent:
            ox, oy, _, _ = SEA_XY[other]
            draw.line((x, y, ox, oy), fill=SEA_FILL, width=26)
    for x, y, rx, ry in SEA_XY.values():
        draw.ellipse((x - rx, y - ry, x + rx, y + ry), fill=SEA_FILL, outline=(120, 160, 210), width=2)
    for pid, prov in PROVINCES.items():
        x, y = PROVINCE_XY[pid]
        for other in prov.land:
            if other > pid:
                ox, oy = PROVINCE_XY[other]
                draw.line((x, y, ox, oy), fill=(150, 110, 60), width=7)
    label = font(15, "italic")
    for sid, name in names:
        x, y, _, _ = SEA_XY[sid]
        draw_text(draw, (x, y - 20), name, label, SEA_INK, anchor="ma")
    return image


def _sea_names() -> tuple[tuple[str, str], ...]:
    from engine.mare_nostrum.data import SEAS

    return tuple((k, v.name) for k, v in SEAS.items())


def _units_text(units: list[Mapping[str, Any]]) -> list[tuple[str, str]]:
    """Per side: ``"3L 1F 1S"`` (legions, fortresses, docked ships); ``*`` marks placed legions."""
    by: dict[str, dict[str, int]] = {}
    placed: dict[str, int] = {}
    for u in units:
        civ = str(u.get("civ", ""))
        kind = str(u.get("kind", ""))
        by.setdefault(civ, {}).setdefault(kind, 0)
        by[civ][kind] += 1
        if u.get("place"):
            placed[civ] = placed.get(civ, 0) + 1
    out = []
    for civ, kinds in by.items():
        parts = []
        if kinds.get("legion"):
            parts.append(f"{kinds['legion']}L" + ("*" * placed.get(civ, 0)))
        if kinds.get("fortress"):
            parts.append(f"{kinds['fortress']}F")
        if kinds.get("trireme"):
            parts.append(f"{kinds['trireme']}S")
        out.append((civ, " ".join(parts)))
    return out


def _draw_province(draw: ImageDraw.ImageDraw, pid: str, p: Mapping[str, Any], neutrals: set[str],
                   last: set[str]) -> None:
    x, y = PROVINCE_XY[pid]
    y += HEADER_H
    box = (x - BOX_W // 2, y - BOX_H // 2, x + BOX_W // 2, y + BOX_H // 2)
    owner = p.get("owner")
    fill = tint(_fill(str(owner)), 0.55) if owner else KIND_FILL["LAND"]
    if pid in last:
        draw.rounded_rectangle((box[0] - 6, box[1] - 6, box[2] + 6, box[3] + 6), 12, fill=HIGHLIGHT, outline=INK)
    war = bool(p.get("war_torn"))
    draw.rounded_rectangle(box, 9, fill=fill, outline=WAR if war else INK, width=5 if war else 2)
    title = fit_text(str(p.get("name", pid)), font(16, "bold"), BOX_W - 8)
    draw_text(draw, (x, box[1] + 3), title, font(16, "bold"), INK, anchor="ma")
    small = font(14)
    cities = len(_l(p.get("cities")))
    bits = []
    if cities:
        bits.append(f"{cities} {'city' if cities == 1 else 'cities'}")
    if p.get("temple"):
        bits.append("T")
    if p.get("market"):
        bits.append("M")
    line = " · ".join(bits)
    caravans = ",".join(str(g)[:4] for g in _l(p.get("caravans")))
    draw_text(draw, (x, box[1] + 23), fit_text(line or "-", small, BOX_W - 8), small, INK, anchor="ma")
    if caravans:
        draw_text(draw, (x, box[1] + 40), fit_text("car: " + caravans, small, BOX_W - 8), small, INK, anchor="ma")
    chips = _units_text(_l(p.get("units")))
    cx = box[0] + 4
    cy = box[3] - 22
    for civ, text in chips:
        f = font(14, "bold")
        w = int(draw.textlength(text, font=f)) + 10
        colour = _fill(civ)
        draw.rounded_rectangle((cx, cy, cx + w, cy + 19), 5, fill=colour, outline=INK if civ not in neutrals else MUTED)
        draw_text(draw, (cx + 5, cy + 2), text, f, ink_on(colour))
        cx += w + 3
    if war:
        draw.rounded_rectangle((box[2] - 44, box[1] - 12, box[2] + 4, box[1] + 8), 5, fill=WAR)
        draw_text(draw, (box[2] - 20, box[1] - 10), "WAR", font(13, "bold"), WHITE, anchor="ma")
    if owner in neutrals:
        draw_text(draw, (box[2] - 4, box[3] - 40), "neutral", font(12, "italic"), MUTED, anchor="ra")


def _draw_seas(draw: ImageDraw.ImageDraw, seas: Mapping[str, Any], last: set[str]) -> None:
    for sid, ships in seas.items():
        if sid not in SEA_XY:
            continue
        x, y, rx, ry = SEA_XY[sid]
        y += HEADER_H
        if sid in last:
            draw.ellipse((x - rx, y - ry, x + rx, y + ry), outline=HIGHLIGHT, width=6)
        items = list(_m(ships).items())
        cx = x - 34 * len(items) // 2
        for civ, n in items:
            colour = _fill(str(civ))
            draw.ellipse((cx, y + 6, cx + 30, y + 36), fill=colour, outline=INK, width=2)
            draw_text(draw, (cx + 15, y + 12), str(n), font(16, "bold"), ink_on(colour), anchor="ma")
            cx += 34


def _header(draw: ImageDraw.ImageDraw, view: Mapping[str, Any]) -> None:
    big, mid = font(24, "bold"), font(17)
    waiting = ", ".join(CIV_NAME.get(str(c), str(c)) for c in _l(view.get("to_move")))
    winner = view.get("winner")
    head = f"Mare Nostrum — round {view.get('round', '?')}, {view.get('phase_text', '')}"
    draw_text(draw, (16, 10), head, big, INK)
    status = (f"{CIV_NAME.get(str(winner), winner)} wins the game!" if winner
              else f"Waiting for {waiting}." if waiting else "")
    draw_text(draw, (16, 44), status, mid, WAR if winner else INK)
    roles = "; ".join(f"{r}: {CIV_NAME.get(str(c), c)}" for r, c in _m(view.get("roles")).items())
    draw_text(draw, (16, 70), fit_text(roles, mid, 1000), mid, INK)
    bank = _m(view.get("bank"))
    text = "Bank: " + ", ".join(f"{k} {v}" for k, v in bank.items())
    draw_text(draw, (16, 96), fit_text(text, font(15), 1100), font(15), MUTED)
    trade = _m(view.get("trade"))
    if trade:
        n = int(trade.get("n") or 0)
        taker = CIV_NAME.get(str(trade.get("taker")), "")
        lines = [f"Trading: {n} {'card' if n == 1 else 'cards'} each; taker {taker}"]
        if trade.get("revealed"):
            for civ, off in _m(trade.get("offers")).items():
                cards = ", ".join(f"{n} {k}" for k, n in _m(off).items()) or "none left"
                lines.append(f"{CIV_NAME.get(str(civ), civ)}: {cards}")
        else:
            chosen = ", ".join(CIV_NAME.get(str(c), str(c)) for c in _l(trade.get("chosen")))
            lines.append("Secret offers; chosen: " + (chosen or "nobody yet"))
        f = font(15)
        y = 10
        for line in lines[:6]:
            draw_text(draw, (1130, y), fit_text(line, f, 460), f, INK)
            y += 19
    else:
        map_note = "stand-in map" if view.get("map") == "stand-in" else ""
        draw_text(draw, (WIDTH - 16, 14), map_note, font(15, "italic"), MUTED, anchor="ra")


def _panel_plan(view: Mapping[str, Any]) -> tuple[list[Mapping[str, Any]], list[list[str]], float, int]:
    """Players, their panel lines, the column width and the panel height."""
    players = [p for p in _l(view.get("players")) if isinstance(p, Mapping)]
    if not players:
        return [], [], 0.0, 0
    cols = len(players)
    w = (WIDTH - 16 * (cols + 1)) / cols
    f = font(15)
    lh = line_height_of(f)
    texts = []
    for p in players:
        sc = _m(p.get("scores"))
        sup = _m(p.get("supply"))
        lines = [f"Roles: {', '.join(str(r) for r in _l(p.get('roles'))) or 'none'}",
                 f"Cards in hand: {p.get('hand_size', 0)}",
                 f"Commerce {sc.get('commerce', 0)} · political {sc.get('political', 0)} · "
                 f"military {sc.get('military', 0)}",
                 f"Left: {sup.get('influence', 0)} infl., {sup.get('legion', 0)} leg., "
                 f"{sup.get('fortress', 0)} fort., {sup.get('trireme', 0)} trir."]
        cards = [str(_m(c).get("name", "")) for c in _l(p.get("cards"))]
        lines.append(f"Heroes and wonders ({len(cards)}/4):")
        for c in cards:
            lines.extend(wrap("• " + c, f, w - 16))
        texts.append(lines)
    h = int(34 + lh * max(len(x) for x in texts) + 8)
    return players, texts, w, h


def _panels(draw: ImageDraw.ImageDraw, plan: tuple[list[Mapping[str, Any]], list[list[str]], float, int],
            top: int) -> None:
    players, texts, w, h = plan
    f, fb = font(15), font(18, "bold")
    lh = line_height_of(f)
    for i, (p, lines) in enumerate(zip(players, texts, strict=True)):
        x = 16 + i * (w + 16)
        civ = str(p.get("civ", ""))
        draw.rounded_rectangle((x, top, x + w, top + h), 8, fill=PANEL, outline=PANEL_EDGE, width=2)
        colour = _fill(civ)
        draw.rounded_rectangle((x, top, x + w, top + 28), 8, fill=colour)
        draw_text(draw, (x + 8, top + 4), str(p.get("name", civ)), fb, ink_on(colour))
        y: float = top + 34
        for line in lines:
            draw_text(draw, (x + 8, y), fit_text(line, f, w - 14), f, INK)
            y += lh


def board_image(view: Mapping[str, Any]) -> Image.Image:
    """The public board as a Pillow image (before PNG encoding; the benchmark times both)."""
    plan = _panel_plan(view)
    height = HEADER_H + MAP_H + (plan[3] + 26 if plan[0] else 0)
    image = new_canvas((WIDTH, height), PAPER)
    image.paste(_static_map(_sea_names()), (0, HEADER_H))
    draw = ImageDraw.Draw(image)
    _header(draw, view)
    last = {str(x) for x in _l(view.get("last"))}
    neutrals = {str(x) for x in _l(view.get("neutrals"))}
    _draw_seas(draw, _m(view.get("seas")), last)
    for pid, p in _m(view.get("provinces")).items():
        if pid in PROVINCE_XY:
            _draw_province(draw, pid, _m(p), neutrals, last)
    if plan[0]:
        _panels(draw, plan, HEADER_H + MAP_H + 10)
    return image


def render(view: Mapping[str, Any]) -> bytes:
    """PNG of the public board (the same for every viewer's view)."""
    return encode_png(board_image(view))


def render_private(view: Mapping[str, Any]) -> bytes | None:
    """PNG of the viewer's hand (and hidden offer, payment in progress), or None for a spectator."""
    me = view.get("me")
    if not me:
        return None
    hand = _m(view.get("hand"))
    size = sum(int(v) for v in hand.values())
    lines = [f"{CIV_NAME.get(str(me), me)} — your hand ({size} {'card' if size == 1 else 'cards'})"]
    lines += [f"{n} × {k}" for k, n in hand.items()] or ["(empty)"]
    if view.get("my_offer") is not None:
        off = _m(view.get("my_offer"))
        lines.append("Your secret offer: " + (", ".join(f"{n} {k}" for k, n in off.items()) or "nothing yet"))
    buying = _m(view.get("buying"))
    if buying:
        paid = ", ".join(f"{n} {k}" for k, n in _m(buying.get("paid")).items()) or "nothing yet"
        lines.append(f"Paying for {buying.get('item')} (cost {buying.get('cost')}): {paid}")
    f = font(20)
    lh = line_height_of(f)
    image = new_canvas((720, int(24 + lh * len(lines))), PAPER)
    draw = ImageDraw.Draw(image)
    colour = _fill(str(me))
    draw.rectangle((0, 0, 12, image.height), fill=colour)
    y = 12.0
    for i, line in enumerate(lines):
        draw_text(draw, (26, y), fit_text(line, font(20, "bold") if i == 0 else f, 680), font(20, "bold") if i == 0
                  else f, INK)
        y += lh
    return encode_png(image)
