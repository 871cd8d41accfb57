"""City grids: cell names, adjacency, construction markers and the placement rules (spec §8).

Why cells are named like a chess board: players type moves in chat, and ``n12`` is easier to
type and to find on the city image than ``(1, -1)``. The frame is 26 × 26 cells, columns
``a``-``z`` and rows ``1``-``26``, with the Hotel on ``m13`` and the City Hall on ``n13``; y
grows downwards as in the spec's vertex model (§8.1). Decision: a city cannot grow beyond
this frame (it would need 13 tiles in one straight line from the Hotel); cells outside it
are never offered. The spec's own coordinates are accepted too (``build market 1 -1``).
"""

from __future__ import annotations

from engine.capitals.data import TILES
from engine.capitals.state import Cell, Player

ORIGIN_COL = 12
ORIGIN_ROW = 13
FRAME = 26
OFFSETS8 = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))


def in_frame(c: Cell) -> bool:
    """Whether a cell can be named (column a-z, row 1-26)."""
    return 0 <= c[0] + ORIGIN_COL < FRAME and 1 <= c[1] + ORIGIN_ROW <= FRAME


def cell_name(c: Cell) -> str:
    """``(0, 0)`` -> ``m13``."""
    return f"{chr(ord('a') + c[0] + ORIGIN_COL)}{c[1] + ORIGIN_ROW}"


def parse_cell_name(text: str) -> Cell | None:
    """``m13`` -> ``(0, 0)``; ``None`` when it is no cell name."""
    t = text.strip().lower()
    if len(t) < 2 or not t[0].isalpha() or not (t[1:].isascii() and t[1:].isdigit()):
        return None
    c = (ord(t[0]) - ord("a") - ORIGIN_COL, int(t[1:]) - ORIGIN_ROW)
    return c if in_frame(c) else None


def xy_text(c: Cell) -> str:
    """The spec's coordinates as typed: ``1 -1``."""
    return f"{c[0]} {c[1]}"


def neighbours(c: Cell) -> list[Cell]:
    """The 8 cells touching ``c`` by an edge or a corner (§7.6)."""
    return [(c[0] + dx, c[1] + dy) for dx, dy in OFFSETS8]


def vertex_cells(v: Cell) -> tuple[Cell, Cell, Cell, Cell]:
    """The four cells around vertex ``v`` (its top-left corner is the named cell's)."""
    x, y = v
    return ((x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y))


def is_full(p: Player, v: Cell) -> bool:
    """A marker whose four cells are all occupied (tiles or lakes)."""
    return all(c in p.city for c in vertex_cells(v))


def sites(p: Player) -> set[Cell]:
    """Empty construction sites: cells around the markers (Rule A)."""
    out: set[Cell] = set()
    for v in p.markers:
        for c in vertex_cells(v):
            if c not in p.city and in_frame(c):
                out.add(c)
    return out


def tile_type(p: Player, c: Cell) -> str | None:
    """The type of the tile on ``c``; ``None`` for an empty cell or a lake."""
    placed = p.city.get(c)
    if placed is None or placed.lake:
        return None
    return TILES[placed.tile].type


def has_type(p: Player, typ: str) -> bool:
    """Whether the city already holds a tile of ``typ`` (lakes never count)."""
    return any(not t.lake and TILES[t.tile].type == typ for t in p.city.values())


def rule_b_ok(p: Player, typ: str, c: Cell) -> bool:
    """Rule B: next to a tile of the same type, unless the city has none of that type yet."""
    if not has_type(p, typ):
        return True
    return any(tile_type(p, n) == typ for n in neighbours(c))


def edge_cells(p: Player) -> set[Cell]:
    """Empty cells touching the city (a lake counts, D-12, D-35)."""
    city = p.city
    out: set[Cell] = set()
    for x, y in city:
        for dx, dy in OFFSETS8:
            n = (x + dx, y + dy)
            if n not in city:
                out.add(n)
    return {c for c in out if in_frame(c)}


def placements(p: Player, typ: str) -> dict[Cell, int]:
    """Every legal cell for a tile of ``typ`` with the number of rules it breaks (0-2).

    Rule A holds on construction sites; a tile breaking Rule A may go on any empty cell
    touching the city (§8.4)."""
    site = sites(p)
    near_same: set[Cell] = set()
    any_same = False
    for (x, y), t in p.city.items():
        if not t.lake and TILES[t.tile].type == typ:
            any_same = True
            near_same.update((x + dx, y + dy) for dx, dy in OFFSETS8)
    out: dict[Cell, int] = {}
    for c in site | edge_cells(p):
        b_ok = not any_same or c in near_same
        out[c] = (0 if c in site else 1) + (0 if b_ok else 1)
    return out


def lake_cells(p: Player) -> set[Cell]:
    """Empty cells next to a building tile (a lake alone is not enough, §9.6(b), D-36)."""
    out: set[Cell] = set()
    for c, placed in p.city.items():
        if placed.lake:
            continue
        for n in neighbours(c):
            if n not in p.city and in_frame(n):
                out.add(n)
    return out


def perimeter_vertices(p: Player, moving: int) -> list[Cell]:
    """Where marker ``moving`` may go (§8.5, D-13): a vertex with at least one occupied and
    one empty cell around it, not holding the other marker. Sorted for a stable order."""
    other = {m for i, m in enumerate(p.markers) if i != moving}
    cand: set[Cell] = set()
    for c in p.city:
        x, y = c
        for v in ((x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)):
            cand.add(v)
    out = []
    for v in cand:
        if v in other or not in_frame(v):
            continue
        cells = vertex_cells(v)
        occ = sum(1 for c in cells if c in p.city)
        if 0 < occ < 4:
            out.append(v)
    return sorted(out, key=lambda v: (v[1], v[0]))
