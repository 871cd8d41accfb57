"""7 Wonders symbols drawn as shapes: resources, VP, shields, science, coins, tokens, status.

Why shapes with letters or numbers on them: they need no art files, stay crisp when the chat
apps scale the image, and each symbol differs in shape as well as colour (a shield is a
shield, a compass is not a gear, a victory token is round and a defeat token square), so
nothing relies on colour alone. Every function works from a centre line ``cy`` and a left
edge ``x``, and :func:`token_width` tells the caller how much room a symbol takes.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Final

from PIL import ImageDraw

from renderer.base import INK, RGB, WHITE, draw_text, font, ink_on, text_width
from renderer.icons import outlined
from renderer.seven_wonders_model import RES_LETTER, Token

S: Final[int] = 30  # symbol size in pixels
TOKEN_FONT: Final[int] = 22  # numbers and letters on symbols
WORD_FONT: Final[int] = 21  # short effect words on card chips
GAP: Final[int] = 3

RES_FILL: Final[Mapping[str, RGB]] = {
    "wood": (112, 76, 36),
    "stone": (176, 176, 170),
    "clay": (204, 104, 56),
    "ore": (62, 66, 76),
    "glass": (120, 200, 232),
    "papyrus": (238, 220, 160),
    "loom": (150, 96, 190),
}
COIN_FILL: Final[RGB] = (236, 186, 40)
VP_FILL: Final[RGB] = (250, 236, 190)
SHIELD_FILL: Final[RGB] = (196, 40, 40)
WIN_FILL: Final[RGB] = (46, 130, 60)
LOSS_FILL: Final[RGB] = (150, 30, 30)
TICK_FILL: Final[RGB] = (36, 130, 60)
WAIT_FILL: Final[RGB] = (236, 160, 30)


def token_width(t: Token) -> float:
    """Horizontal room taken by one token."""
    if t.kind in ("res", "sci"):
        return S
    if t.kind == "or":
        return 8
    if t.kind == "vp":
        return text_width(f"{t.n}VP", font(TOKEN_FONT, "bold")) + 12
    if t.kind == "shield":
        return S if t.n < 10 else S + 10
    if t.kind == "coin":
        return S + (10 if t.n >= 10 else 0)
    return text_width(t.value, font(WORD_FONT)) + 2


def tokens_width(tokens: Iterable[Token]) -> float:
    """Room taken by a row of tokens with the standard gap."""
    widths = [token_width(t) for t in tokens]
    return sum(widths) + GAP * max(0, len(widths) - 1)


def draw_tokens(draw: ImageDraw.ImageDraw, x: float, cy: float, tokens: Iterable[Token]) -> float:
    """Draw tokens left to right from ``x``; returns the x after the last one."""
    first = True
    for t in tokens:
        if not first:
            x += GAP
        first = False
        draw_token(draw, x, cy, t)
        x += token_width(t)
    return x


def draw_token(draw: ImageDraw.ImageDraw, x: float, cy: float, t: Token) -> None:
    """One token with its left edge at ``x``, vertically centred on ``cy``."""
    w = token_width(t)
    if t.kind == "res":
        resource(draw, x, cy, t.value)
    elif t.kind == "or":
        draw.line((x + 6, cy - 9, x + 2, cy + 9), fill=INK, width=2)
    elif t.kind == "vp":
        rrect(draw, (x, cy - 15, x + w, cy + 15), VP_FILL, INK, cut=6)
        draw_text(draw, (x + w / 2, cy), f"{t.n}VP", font(TOKEN_FONT, "bold"), INK, anchor="mm")
    elif t.kind == "shield":
        shield(draw, x + w / 2, cy, w, str(t.n))
    elif t.kind == "sci":
        science(draw, x + S / 2, cy, S, t.value)
    elif t.kind == "coin":
        coin(draw, x + w / 2, cy, w / 2, str(t.n))
    else:
        draw_text(draw, (x + 1, cy), t.value, font(WORD_FONT), INK, anchor="lm")


def resource(draw: ImageDraw.ImageDraw, x: float, cy: float, res: str, size: float = S) -> None:
    """A resource: rounded square in the resource's colour with its letter (W S C O G P L)."""
    fill = RES_FILL.get(res, (200, 200, 200))
    rrect(draw, (x, cy - size / 2, x + size, cy + size / 2), fill, INK)
    letter = RES_LETTER.get(res, res[:1].upper())
    draw_text(draw, (x + size / 2, cy + 1), letter, font(round(size * 0.75), "bold"), ink_on(fill), anchor="mm")


def shield(draw: ImageDraw.ImageDraw, cx: float, cy: float, width: float, label: str = "") -> None:
    """A heater shield (military strength), red, with a white number."""
    h = S + 2
    top = cy - h / 2
    half = width / 2
    points = [
        (cx - half, top),
        (cx + half, top),
        (cx + half, top + h * 0.5),
        (cx, top + h),
        (cx - half, top + h * 0.5),
    ]
    outlined(draw, points, SHIELD_FILL)
    if label:
        draw_text(draw, (cx, cy - 2), label, font(TOKEN_FONT, "bold"), WHITE, anchor="mm")


def coin(draw: ImageDraw.ImageDraw, cx: float, cy: float, radius: float, label: str = "") -> None:
    """A gold coin, optionally with its value."""
    draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=COIN_FILL, outline=INK, width=2)
    if label:
        size = round(radius * (1.45 if len(label) < 2 else 1.2 if len(label) < 3 else 1.0))
        draw_text(draw, (cx, cy), label, font(size, "bold"), INK, anchor="mm")


def science(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float, symbol: str) -> None:
    """Science symbols: drafting compass, gear, tablet; "any" is a star (a wildcard)."""
    r = size / 2
    rrect(draw, (cx - r, cy - r, cx + r, cy + r), (232, 246, 232), INK)
    if symbol == "compass":
        top = (cx, cy - r * 0.62)
        draw.line((top, (cx - r * 0.55, cy + r * 0.62)), fill=INK, width=3)
        draw.line((top, (cx + r * 0.55, cy + r * 0.62)), fill=INK, width=3)
        draw.ellipse((cx - 3, top[1] - 3, cx + 3, top[1] + 3), fill=INK)
        draw.arc((cx - r * 0.5, cy - r * 0.2, cx + r * 0.5, cy + r * 0.8), 200, 340, fill=INK, width=2)
    elif symbol == "gear":
        teeth = 8
        outer, inner = r * 0.82, r * 0.56
        pts = []
        for k in range(teeth * 2):
            a = math.pi * k / teeth
            rad = outer if k % 2 == 0 else inner
            pts.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
        draw.polygon(pts, fill=INK)
        draw.ellipse((cx - r * 0.22, cy - r * 0.22, cx + r * 0.22, cy + r * 0.22), fill=(232, 246, 232))
    elif symbol == "tablet":
        draw.rectangle((cx - r * 0.55, cy - r * 0.72, cx + r * 0.55, cy + r * 0.72), fill=(210, 196, 160), outline=INK)
        for frac in (-0.35, 0.0, 0.35):
            draw.line((cx - r * 0.35, cy + r * frac, cx + r * 0.35, cy + r * frac), fill=INK, width=2)
    else:
        pts = []
        for k in range(10):
            rad = r * 0.8 if k % 2 == 0 else r * 0.35
            a = math.radians(-90 + 36 * k)
            pts.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
        draw.polygon(pts, fill=INK)


def conflict(draw: ImageDraw.ImageDraw, x: float, cy: float, value: int) -> float:
    """A conflict token: victory = green circle "+n", defeat = dark red square "−1". Returns width."""
    label = f"+{value}" if value > 0 else f"−{abs(value)}"
    if value > 0:
        draw.ellipse((x, cy - 18, x + 36, cy + 18), fill=WIN_FILL, outline=INK, width=2)
    else:
        draw.rectangle((x + 1, cy - 16, x + 35, cy + 16), fill=LOSS_FILL, outline=INK, width=2)
    draw_text(draw, (x + 18, cy), label, font(TOKEN_FONT, "bold"), WHITE, anchor="mm")
    return 36


def tick(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """Green disc with a white check mark: the city's choice is in."""
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=TICK_FILL, outline=INK, width=2)
    pts = [(cx - r * 0.5, cy), (cx - r * 0.12, cy + r * 0.42), (cx + r * 0.55, cy - r * 0.4)]
    draw.line(pts, fill=WHITE, width=max(2, round(r / 4)), joint="curve")


def hourglass(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """Amber disc with an hourglass: still choosing."""
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=WAIT_FILL, outline=INK, width=2)
    w, h = r * 0.5, r * 0.6
    draw.polygon([(cx - w, cy - h), (cx + w, cy - h), (cx, cy)], fill=INK)
    draw.polygon([(cx - w, cy + h), (cx + w, cy + h), (cx, cy)], fill=INK)
    draw.line((cx - w - 2, cy - h, cx + w + 2, cy - h), fill=INK, width=2)
    draw.line((cx - w - 2, cy + h, cx + w + 2, cy + h), fill=INK, width=2)


def status_icon(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, status: str) -> None:
    """The choice status of a city: tick (chosen), hourglass (choosing/paying), nothing otherwise."""
    if status == "chosen":
        tick(draw, cx, cy, r)
    elif status in ("choosing", "paying"):
        hourglass(draw, cx, cy, r)


def card_back(draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """A small card back (hand size)."""
    rrect(draw, (cx - 10, cy - 15, cx + 10, cy + 15), (90, 70, 50), INK, cut=3)
    draw.rectangle((cx - 5, cy - 10, cx + 5, cy + 10), outline=(210, 180, 120), width=1)


def cross(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """Dark red square with a white X: not possible."""
    rrect(draw, (cx - r, cy - r, cx + r, cy + r), LOSS_FILL, INK, cut=3)
    k = r * 0.5
    draw.line((cx - k, cy - k, cx + k, cy + k), fill=WHITE, width=3)
    draw.line((cx - k, cy + k, cx + k, cy - k), fill=WHITE, width=3)


def dash(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """Grey disc with a bar: nothing to do."""
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(200, 200, 200), outline=INK, width=2)
    draw.line((cx - r * 0.5, cy, cx + r * 0.5, cy), fill=INK, width=3)


def rrect(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    fill: RGB | None = None,
    outline: RGB | None = None,
    width: int = 2,
    cut: float = 4,
) -> None:
    """A rectangle with chamfered corners: looks rounded at chip sizes, costs a fraction of
    ``rounded_rectangle`` (which draws every corner as pie slices and arcs)."""
    x0, y0, x1, y1 = box
    pts = [
        (x0 + cut, y0),
        (x1 - cut, y0),
        (x1, y0 + cut),
        (x1, y1 - cut),
        (x1 - cut, y1),
        (x0 + cut, y1),
        (x0, y1 - cut),
        (x0, y0 + cut),
    ]
    if fill is not None:
        draw.polygon(pts, fill=fill)
    if outline is not None:
        draw.line([*pts, pts[0]], fill=outline, width=width)
