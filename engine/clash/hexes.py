"""Hex geometry: labels like ``d2`` (column letter + row, odd-q offset) and their neighbours.

Why labels in the state rather than axial pairs: the labels are what players type and what the
data file prints, they round-trip through JSON as plain strings, and the axial arithmetic
(data file 4.1) is only needed here.
"""

from __future__ import annotations

from functools import lru_cache

_DIRS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
"""Axial neighbour offsets clockwise from north (flat-topped hexes)."""


def to_axial(label: str) -> tuple[int, int]:
    """``"d2"`` -> (3, 0)."""
    q = ord(label[0].lower()) - ord("a")
    row = int(label[1:])
    return q, (row - 1) - (q - (q & 1)) // 2


def to_label(q: int, r: int) -> str:
    """Inverse of :func:`to_axial`."""
    row = r + (q - (q & 1)) // 2 + 1
    return f"{chr(ord('a') + q)}{row}"


@lru_cache(maxsize=4096)
def ring_neighbours(label: str) -> tuple[str, ...]:
    """The six geometric neighbours (some may lie outside the map), clockwise from north."""
    q, r = to_axial(label)
    out = []
    for dq, dr in _DIRS:
        nq, nr = q + dq, r + dr
        if nq < 0:
            out.append("")
            continue
        row = nr + (nq - (nq & 1)) // 2 + 1
        out.append(to_label(nq, nr) if row >= 1 else "")
    return tuple(out)


def hex_distance(a: str, b: str) -> int:
    """Pure geometric distance (the rules' distance also avoids unrevealed regions)."""
    aq, ar = to_axial(a)
    bq, br = to_axial(b)
    dq, dr = aq - bq, ar - br
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def sort_key(label: str) -> tuple[int, int]:
    """Column then row, for stable listings."""
    return ord(label[0]), int(label[1:])


def pretty(label: str) -> str:
    """``"d2"`` -> ``"D2"`` for chat."""
    return label[0].upper() + label[1:]
