"""Where each province and sea zone of the Mare Nostrum map is drawn (schematic, 1600 x 860).

Why a separate table: the map is a stand-in (rules data file 6) drawn as a schematic of the
Mediterranean: provinces as labelled boxes placed roughly by geography, sea zones as ellipses
behind them. When the real board replaces the stand-in, only this table and the data file change.
"""

from __future__ import annotations

from typing import Final

MAP_W: Final[int] = 1600
MAP_H: Final[int] = 860
BOX_W: Final[int] = 150
BOX_H: Final[int] = 92

PROVINCE_XY: Final[dict[str, tuple[int, int]]] = {
    "gallia_cisalpina": (330, 70), "illyria": (520, 70), "dacia": (720, 70), "thracia": (900, 150),
    "bithynia": (1090, 90), "cappadocia": (1270, 90), "corsica": (110, 150), "roma": (340, 200),
    "macedonia": (700, 200), "troas": (940, 290), "phrygia": (1130, 210), "cilicia": (1300, 240),
    "assyria": (1470, 160), "sardinia": (110, 290), "magna_graecia": (500, 230), "athenae": (720, 330),
    "babylonia": (1480, 320), "sicilia": (330, 400), "peloponnesus": (620, 450), "rhodus": (1000, 440),
    "syria": (1440, 470), "cyprus": (1180, 400), "numidia": (90, 560), "africa": (250, 560),
    "creta": (830, 530), "judaea": (1320, 560), "arabia": (1490, 620), "tripolitania": (440, 650),
    "cyrenaica": (730, 700), "sinai": (1260, 710), "aegyptus": (1000, 700), "garamantia": (250, 780),
    "thebais": (1170, 800),
}
SEA_XY: Final[dict[str, tuple[int, int, int, int]]] = {
    # centre x, centre y, half width, half height
    "pontus": (900, 40, 190, 38),
    "adriaticum": (425, 140, 60, 40),
    "tyrrhenum": (265, 300, 100, 105),
    "sardoum": (120, 420, 110, 70),
    "africum": (330, 520, 110, 70),
    "ionium": (520, 360, 100, 90),
    "aegaeum": (830, 390, 100, 120),
    "libycum": (610, 580, 130, 70),
    "aegyptium": (1040, 560, 160, 80),
    "syriacum": (1250, 360, 100, 70),
}
