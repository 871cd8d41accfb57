"""Where each province and sea zone of the Mare Nostrum map is drawn: a schematic grid.

Why a grid rather than geography: the board must stay readable when a phone shows it 400 px
wide (issue 16). At 1000 px wide every map text is at least 20 px (8 px on the phone), which
leaves room for about eight province boxes side by side; so the map is 8 columns x 6 rows of
cells, each province or sea in the cell that keeps its neighbours next to it (the links drawn
between cells show the exact adjacency). The map is a stand-in (rules data file 6): when the
real board replaces it, only this table and the data file change.
"""

from __future__ import annotations

from typing import Final

MAP_W: Final[int] = 1000
COLS: Final[int] = 8
ROWS: Final[int] = 6
CELL_W: Final[int] = MAP_W // COLS  # 125
CELL_H: Final[int] = 150
MAP_TOP_PAD: Final[int] = 8
MAP_H: Final[int] = ROWS * CELL_H + 2 * MAP_TOP_PAD
BOX_W: Final[int] = CELL_W - 5
BOX_H: Final[int] = CELL_H - 12

# (column, row) of each province and sea zone; five cells stay empty.
CELL: Final[dict[str, tuple[int, int]]] = {
    "gallia_cisalpina": (1, 0), "illyria": (2, 0), "dacia": (3, 0), "pontus": (4, 0), "bithynia": (5, 0),
    "cappadocia": (6, 0), "assyria": (7, 0),
    "corsica": (0, 1), "roma": (1, 1), "adriaticum": (2, 1), "macedonia": (3, 1), "thracia": (4, 1),
    "troas": (5, 1), "phrygia": (6, 1), "babylonia": (7, 1),
    "sardinia": (0, 2), "tyrrhenum": (1, 2), "magna_graecia": (2, 2), "athenae": (3, 2), "aegaeum": (4, 2),
    "rhodus": (5, 2), "cilicia": (6, 2), "syria": (7, 2),
    "sardoum": (0, 3), "sicilia": (1, 3), "ionium": (2, 3), "peloponnesus": (3, 3), "creta": (4, 3),
    "cyprus": (5, 3), "syriacum": (6, 3), "arabia": (7, 3),
    "numidia": (0, 4), "africa": (1, 4), "africum": (2, 4), "libycum": (3, 4), "aegyptium": (5, 4),
    "judaea": (6, 4),
    "garamantia": (1, 5), "tripolitania": (2, 5), "cyrenaica": (3, 5), "aegyptus": (4, 5), "sinai": (5, 5),
    "thebais": (6, 5),
}

# Labels for the names too wide for a box even in bold 20 px (the legend spells them out).
SHORT_NAME: Final[dict[str, str]] = {
    "gallia_cisalpina": "Gallia C.", "magna_graecia": "Magna Gr.", "macedonia": "Macedon.",
    "peloponnesus": "Pelopon.", "cappadocia": "Cappad.", "tripolitania": "Tripolit.",
    "garamantia": "Garam.",
}


def centre(key: str) -> tuple[int, int]:
    """Centre of the cell of a province or sea zone, in map coordinates."""
    col, row = CELL[key]
    return col * CELL_W + CELL_W // 2, MAP_TOP_PAD + row * CELL_H + CELL_H // 2
