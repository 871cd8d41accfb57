"""The Duellum rondel: the wheel (static, cached with the map base) and the stones of a turn.

Why its own module: the wheel has its own geometry — spaces clockwise from the top, names
placed where they fit inside their wedge, stones on an inner ring and the last move as an arc
around them — which has nothing to do with the rest of the panels.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import ImageDraw

from renderer import icons
from renderer.base import (
    INK,
    MUTED,
    PANEL,
    RESOURCE_FILL,
    RGB,
    WHITE,
    draw_text,
    font,
    report_clip,
    text_width,
    tint,
)
from renderer.duellum_model import Owner, owner_of, space_index, space_label
from renderer.placement import Box
from renderer.viewdata import as_opt_int

SPACE_COLOUR: Mapping[str, RGB] = {
    # Production spaces in their resource's colour, the space that spends it in a lighter tint.
    "MARMOR": (214, 214, 206),
    "TEMPLUM": (246, 245, 238),
    "FERRUM": tint(RESOURCE_FILL["iron"], 0.35),
    "MILITIA": tint(RESOURCE_FILL["iron"], 0.6),
    "AURUM": RESOURCE_FILL["gold"],
    "SCIENTIA": tint(RESOURCE_FILL["gold"], 0.55),
    "DUELLUM": (214, 96, 80),
}
RING_FRACTION = 0.56  # inner band (stones, arrow) / outer band (names) boundary, of the radius
HUB = 44
STONE_R = 22
LABEL_SIZE = 26
LABEL_MIN = 14


def _ring_in(ro: float) -> float:
    return round(ro * RING_FRACTION)


def _arrow_r(ro: float) -> float:
    """The move arrow runs around the outside of the stones."""
    return _ring_in(ro) - 12


def _rondel_geometry(box: Box) -> tuple[float, float, float]:
    cx = (box[0] + box[2]) / 2
    cy = (box[1] + box[3]) / 2
    radius = min(box[2] - box[0], box[3] - box[1]) / 2 - 10
    return cx, cy, radius


def _angle(i: int, n: int) -> float:
    """Centre angle (degrees, Pillow convention: clockwise from 3 o'clock) of space ``i``; space 0 on top."""
    return -90.0 + 360.0 * i / n


def draw_rondel_base(draw: ImageDraw.ImageDraw, box: Box, spaces: Sequence[str]) -> None:
    """The rondel wheel: one wedge per space, clockwise from the top, with its name."""
    cx, cy, ro = _rondel_geometry(box)
    n = max(1, len(spaces))
    half = 180.0 / n
    for i, space in enumerate(spaces):
        label = space_label(space)
        colour = SPACE_COLOUR.get(label, (200, 200, 200))
        a = _angle(i, n)
        draw.pieslice((cx - ro, cy - ro, cx + ro, cy + ro), a - half, a + half, fill=colour, outline=INK, width=3)
        ring_in = _ring_in(ro)
        draw.pieslice(
            (cx - ring_in, cy - ring_in, cx + ring_in, cy + ring_in),
            a - half,
            a + half,
            fill=tint(colour, 0.55),
            outline=INK,
            width=2,
        )
        _wedge_label(draw, cx, cy, ro, a, half, label)
    draw.ellipse((cx - HUB, cy - HUB, cx + HUB, cy + HUB), fill=PANEL, outline=INK, width=3)
    draw_text(draw, (cx, cy), "rondel", font(20, "bold"), MUTED, anchor="mm")


def _wedge_label(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, ro: float, angle: float, half: float, label: str
) -> None:
    """Horizontal name inside the wedge's outer band: the largest size (from LABEL_SIZE down)
    that fits at its best radius; a name that fits at no size is reported as clipped."""
    rad = math.radians(angle)
    ring_in = _ring_in(ro)

    def misfit(r: float, w: float, h: float) -> float:
        px, py = cx + r * math.cos(rad), cy + r * math.sin(rad)
        bad = 0.0
        for qx, qy in ((px + dx, py + dy) for dx in (-w / 2, w / 2) for dy in (-h / 2, h / 2)):
            dist = math.hypot(qx - cx, qy - cy)
            bad += max(0.0, ring_in + 3 - dist) + max(0.0, dist - (ro - 3))
            off = (math.degrees(math.atan2(qy - cy, qx - cx)) - angle + 180) % 360 - 180
            bad += max(0.0, abs(off) - (half - 1.0)) * dist * math.pi / 180
        return bad

    radii = [ring_in + 3 + 2.0 * k for k in range(int((ro - ring_in) / 2))]
    for size in range(LABEL_SIZE, LABEL_MIN - 1, -1):
        fnt = font(size, "bold")
        w, h = text_width(label, fnt) + 4, size * 0.8 + 4
        best = min(radii, key=lambda r: (round(misfit(r, w, h), 1), r))
        if misfit(best, w, h) < 0.5:
            break
    else:
        report_clip(label)
    px, py = cx + best * math.cos(rad), cy + best * math.sin(rad)
    draw_text(draw, (px, py), label, fnt, INK, anchor="mm", stroke=2, stroke_fill=WHITE)


def draw_rondel(
    draw: ImageDraw.ImageDraw,
    box: Box,
    spaces: Sequence[str],
    players: Sequence[Mapping[str, Any]],
    owner_list: Sequence[Owner],
    move: Mapping[str, Any],
) -> None:
    """Both nations' stones, and the last turn's move as an arrow along the inner band."""
    cx, cy, ro = _rondel_geometry(box)
    n = max(1, len(spaces))
    arrow_r = _arrow_r(ro)
    r_stone = (HUB + arrow_r - 6) / 2
    # Stones sharing a space sit side by side: the angle between them keeps them apart.
    spread = math.degrees(2 * math.asin(min(1.0, (STONE_R + 3) / r_stone)))
    mover = owner_of(owner_list, move.get("seat")) if move else None
    to_i = _position(spaces, move, "to") if move else None
    from_i = _position(spaces, move, "from") if move else None
    if mover is not None and to_i is not None:
        _move_arrow(draw, cx, cy, r_stone, arrow_r, n, from_i, to_i, mover)
    positions: dict[int | None, list[Owner]] = {}
    for p, o in zip(players, owner_list, strict=False):
        positions.setdefault(_position(spaces, p, "rondel"), []).append(o)
    for idx, group in positions.items():
        for k, o in enumerate(group):
            if idx is None:
                sx = cx + (k - (len(group) - 1) / 2) * (2 * STONE_R + 6)
                icons.stone(draw, sx, cy, STONE_R, o.fill, o.ink, o.letter)
                continue
            a = math.radians(_angle(idx, n) + (k - (len(group) - 1) / 2) * spread)
            icons.stone(draw, cx + r_stone * math.cos(a), cy + r_stone * math.sin(a), STONE_R, o.fill, o.ink, o.letter)


def _position(spaces: Sequence[str], data: Mapping[str, Any], key: str) -> int | None:
    """Rondel index of ``data[key]``; an engine's extra ``<key>_index`` wins (it tells the two
    DUELLUM spaces apart, which the space name alone cannot)."""
    index = as_opt_int(data.get(f"{key}_index"))
    if index is not None and data.get(key) is not None:
        return index % len(spaces) if spaces else None
    return space_index(spaces, data.get(key))


def _move_arrow(
    draw: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    r: float,
    arrow_r: float,
    n: int,
    from_i: int | None,
    to_i: int,
    mover: Owner,
) -> None:
    """The stone's move: a hollow marker on the old space and a clockwise arc around the hub to
    the new space (a straight arrow out of the hub for a first placement)."""
    to_a = _angle(to_i, n)
    if from_i is None:
        rad = math.radians(to_a)
        p = (cx + (HUB + 2) * math.cos(rad), cy + (HUB + 2) * math.sin(rad))
        q = (cx + (r - STONE_R - 2) * math.cos(rad), cy + (r - STONE_R - 2) * math.sin(rad))
        draw.line((p, q), fill=INK, width=11)
        draw.line((p, q), fill=mover.fill, width=7)
        icons.arrow_head(draw, q, rad, 18, mover.fill)
        return
    start = _angle(from_i, n)
    sx, sy = cx + r * math.cos(math.radians(start)), cy + r * math.sin(math.radians(start))
    icons.outlined(draw, icons.octagon(sx, sy, STONE_R - 3), PANEL)
    tip = to_a
    while tip <= start:
        tip += 360
    head = 22.0
    head_deg = math.degrees(head / arrow_r)
    for radius, width, colour in ((arrow_r + 6, 12, INK), (arrow_r + 4, 8, mover.fill)):
        bb = (cx - radius, cy - radius, cx + radius, cy + radius)
        draw.arc(bb, start - 4, tip - head_deg + 3, fill=colour, width=width)
    rad = math.radians(tip)
    tip_xy = (cx + arrow_r * math.cos(rad), cy + arrow_r * math.sin(rad))
    icons.arrow_head(draw, tip_xy, rad + math.pi / 2 - math.radians(head_deg) / 2, head, mover.fill)
