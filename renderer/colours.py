"""The colours every image shares: ink, paper and panels, the players' and the resources'
colours, and the helpers that pick a readable ink on a fill.

Why one place: a "brown" player must look the same on every game's board and on every hand,
and text must stay readable on whatever fill it sits on."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

RGB = tuple[int, int, int]


WHITE: Final[RGB] = (255, 255, 255)
BLACK: Final[RGB] = (0, 0, 0)
INK: Final[RGB] = (28, 24, 20)  # near-black for text and outlines: high contrast on every fill
MUTED: Final[RGB] = (105, 98, 90)
PAPER: Final[RGB] = (247, 242, 230)  # page background
PANEL: Final[RGB] = (255, 252, 244)
PANEL_EDGE: Final[RGB] = (120, 108, 92)
HIGHLIGHT: Final[RGB] = (255, 200, 0)  # last-turn glow: bright yellow, paired with a black rim

# Player colours of the physical games. Each has an ink colour for text drawn on it. BROWN and
# BEIGE differ strongly in lightness, so they stay apart under every colour-vision deficiency;
# pieces additionally carry the owner's letter.
PLAYER_FILL: Final[Mapping[str, RGB]] = {
    "BROWN": (110, 62, 28),
    "BEIGE": (240, 222, 176),
    "RED": (196, 40, 40),
    "BLUE": (36, 84, 180),
    "GREEN": (40, 130, 60),
    "YELLOW": (240, 200, 40),
    "BLACK": (40, 40, 40),
    "WHITE": (245, 245, 245),
}
PLAYER_INK: Final[Mapping[str, RGB]] = {
    "BROWN": WHITE,
    "BEIGE": INK,
    "RED": WHITE,
    "BLUE": WHITE,
    "GREEN": WHITE,
    "YELLOW": INK,
    "BLACK": WHITE,
    "WHITE": INK,
}
# For seats whose colour name is unknown: hues unlike the named colours above.
FALLBACK_PLAYER_FILLS: Final[Sequence[RGB]] = ((128, 64, 160), (40, 150, 150), (220, 120, 30), (120, 120, 120))

# Region kinds (the data file's suggestion: LAND tan, MIXED green, SEA light blue).
KIND_FILL: Final[Mapping[str, RGB]] = {
    "LAND": (226, 200, 150),
    "MIXED": (164, 204, 140),
    "SEA": (172, 208, 238),
}
SEA_INK: Final[RGB] = (20, 60, 120)

# Border types: legions cross RED, galleys BLUE, both REDBLUE (purple, drawn thicker).
BORDER_COLOUR: Final[Mapping[str, RGB]] = {
    "RED": (200, 40, 40),
    "BLUE": (40, 100, 210),
    "REDBLUE": (128, 48, 160),
}

# Resources: marble white, iron blue, gold golden (the chips of the physical game); coins brass.
RESOURCE_FILL: Final[Mapping[str, RGB]] = {
    "marble": (238, 238, 234),
    "iron": (84, 112, 150),
    "gold": (232, 178, 24),
    "coins": (200, 160, 60),
}
RESOURCE_INK: Final[Mapping[str, RGB]] = {"marble": INK, "iron": WHITE, "gold": INK, "coins": INK}
RESOURCE_LETTER: Final[Mapping[str, str]] = {"marble": "M", "iron": "I", "gold": "G", "coins": "$"}


def player_fill(colour: str, seat: int = 0) -> RGB:
    """Fill colour of a player colour name; unknown names get a stable per-seat colour."""
    fill = PLAYER_FILL.get(colour.upper())
    return fill if fill is not None else FALLBACK_PLAYER_FILLS[seat % len(FALLBACK_PLAYER_FILLS)]


def ink_on(fill: RGB) -> RGB:
    """Black or white, whichever reads better on ``fill`` (relative luminance threshold)."""
    r, g, b = fill
    return INK if (0.299 * r + 0.587 * g + 0.114 * b) > 140 else WHITE


def tint(colour: RGB, amount: float) -> RGB:
    """``colour`` mixed towards white by ``amount`` (0 = unchanged, 1 = white)."""
    return (
        round(colour[0] + (255 - colour[0]) * amount),
        round(colour[1] + (255 - colour[1]) * amount),
        round(colour[2] + (255 - colour[2]) * amount),
    )
