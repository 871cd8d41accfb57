"""Short tile labels for the chat notation: what a person types comfortably.

Why: a slug such as ``king-george-mansion`` is long and hyphenated (awkward on a phone). The
label is the shortest run of leading words of the tile's name (lower case, apostrophes
dropped) that no other tile's name starts with, over every tile of the game (so a label
never changes during a game and never names two tiles): ``king`` for King George Mansion,
``art deco`` for Art Deco Flats next to Art Museum. The slug and the full name stay accepted.
"""

from __future__ import annotations

from functools import cache

from engine.capitals.data import TILES


def name_words(tile: str) -> list[str]:
    """The tile's name as lower-case words without apostrophes (``workers cottages``)."""
    return TILES[tile].name.lower().replace("'", "").replace("-", " ").split()


@cache
def _labels() -> dict[str, str]:
    words = {tid: name_words(tid) for tid in TILES}
    out: dict[str, str] = {}
    for tid, ws in words.items():
        for n in range(1, len(ws) + 1):
            lead = ws[:n]
            if not any(other != tid and o[:n] == lead for other, o in words.items()):
                # Decision: a lone word of three letters or fewer (car, cog, eco, arc) reads
                # poorly as a name; those tiles are typed by their whole name.
                out[tid] = " ".join(ws if n == 1 and len(ws) > 1 and len(lead[0]) <= 3 else lead)
                break
        else:
            out[tid] = TILES[tid].slug  # Decision: two tiles with one name keep their slugs.
    return out


def label(tile: str) -> str:
    """The short label of a tile id (``king`` for King George Mansion)."""
    return _labels()[tile]
