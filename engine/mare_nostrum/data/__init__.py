"""Board, card and setup tables, loaded once from the JSON files next to this module.

Why data files: the map and four of the five player aids are stand-ins (the printed board was
not found), so the real values must be able to replace them without code changes. The rules
code only sees the typed records built here; the only file access is the package read below.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

CIVS = ("rome", "greece", "carthage", "egypt", "babylon")
"""Civilization ids in their canonical order (also the order of colours)."""
ROLES = ("commerce", "political", "military")
"""Role ids in the order the open-role procedure takes them (DoC, PL, ML)."""
TAX = "tax"


def _read(name: str) -> Any:
    return json.loads(resources.files(__package__).joinpath(name).read_text(encoding="utf-8"))


@dataclass(frozen=True, slots=True)
class Province:
    """A land area: city sites, goods icons, bordering seas and land neighbours."""

    id: str
    name: str
    kind: str
    capital_of: str | None
    sites: tuple[str, ...]
    goods: tuple[str, ...]
    seas: tuple[str, ...]
    land: tuple[str, ...]
    provenance: str

    @property
    def coastal(self) -> bool:
        """Borders a sea zone (islands always do)."""
        return bool(self.seas)


@dataclass(frozen=True, slots=True)
class Sea:
    """A sea zone and its neighbouring zones."""

    id: str
    name: str
    adjacent: tuple[str, ...]
    coasts: tuple[str, ...]
    provenance: str


@dataclass(frozen=True, slots=True)
class Card:
    """A hero or wonder: one copy each; ``civ`` set for a civilization hero."""

    id: str
    name: str
    kind: str
    civ: str | None
    cost: int
    text: str
    provenance: str


@dataclass(frozen=True, slots=True)
class Civ:
    """A civilization's fixed facts from its player aid."""

    id: str
    name: str
    capital: str
    start: tuple[str, ...]
    hero: str
    role: str | None
    advanced_extra: tuple[str, ...]
    basic: Mapping[str, tuple[str, ...]]
    provenance: str


_MAP = _read("map.json")
_CARDS = _read("cards.json")
_SETUPS = _read("setups.json")

MAP_PROVENANCE: str = str(_MAP["provenance"])
SEAS: dict[str, Sea] = {}
PROVINCES: dict[str, Province] = {
    k: Province(k, v["name"], v["kind"], v["capital_of"], tuple(v["city_sites"]), tuple(v["goods"]),
                tuple(v["seas"]), tuple(v["land"]), v["provenance"])
    for k, v in _MAP["provinces"].items()
}
for _k, _v in _MAP["sea_zones"].items():
    SEAS[_k] = Sea(_k, _v["name"], tuple(_v["adjacent"]),
                   tuple(p for p, pr in PROVINCES.items() if _k in pr.seas), _v["provenance"])

GOODS: tuple[str, ...] = tuple(g["id"] for g in _CARDS["goods"])
"""The 12 goods types, most common first."""
DECK: dict[str, int] = {TAX: int(_CARDS["tax_cards"]["count"]), **{g["id"]: int(g["cards"]) for g in _CARDS["goods"]}}
"""Resource cards by type: the whole bank at the start."""
CARD_TYPES: tuple[str, ...] = (TAX, *GOODS)
ROLE_NAMES: dict[str, str] = {r["id"]: r["name"] for r in _CARDS["roles"]}
CARDS: dict[str, Card] = {
    **{h["id"]: Card(h["id"], h["name"], "hero", h["civ"], int(h["cost"]), h["text"], h["provenance"])
       for h in _CARDS["heroes"]},
    **{w["id"]: Card(w["id"], w["name"], "wonder", None, int(w["cost"]), w["text"], w["provenance"])
       for w in _CARDS["wonders"]},
}
BASE_COST: dict[str, int] = {k: int(v["cost"]) for k, v in _CARDS["costs"].items()}

CIV_DATA: dict[str, Civ] = {
    k: Civ(k, v["name"], v["capital"], tuple(v["start"]), v["hero"], v["role"], tuple(v["advanced_extra"]),
           {p: tuple(xs) for p, xs in _SETUPS["basic_setup"][k]["pieces"].items()},
           _SETUPS["basic_setup"][k]["provenance"])
    for k, v in _SETUPS["civilizations"].items()
}
NEUTRAL_CAPITAL: tuple[str, ...] = tuple(_SETUPS["neutral_setup"]["capital"])
NEUTRAL_OTHER: tuple[str, ...] = tuple(_SETUPS["neutral_setup"]["other"])
BUILDING_SUPPLY: dict[int, dict[str, int]] = {
    int(n): {k: int(c) for k, c in v.items()} for n, v in _SETUPS["building_supply"].items() if n.isdigit()
}
PLAYER_PIECES: dict[str, int] = {k: int(v) for k, v in _SETUPS["player_pieces"].items() if k != "provenance"}
RECOMMENDED_ABSENT: dict[int, tuple[str, ...]] = {
    int(n): tuple(v) for n, v in _SETUPS["recommended_absent"].items() if n.isdigit()
}
ADVANCED_POINTS: int = int(_SETUPS["advanced_points"]["points"])


def province_name(pid: str) -> str:
    """Display name of a province or sea zone."""
    if pid in PROVINCES:
        return PROVINCES[pid].name
    return SEAS[pid].name if pid in SEAS else pid
