"""Tiles, layouts, advances, costs and wonders, loaded once from the JSON files next to this module.

Why data files: many numbers are stand-ins (data file section 1: layouts, borders, advance texts
missing from the rulebook, wonder costs); each entry carries its provenance so the printed values
can replace a stand-in without code changes. The rules only see the typed tables built here. The
only file access of the engine is the ``importlib.resources`` read below.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

TERRAINS = ("fertile", "forest", "mountain", "barren", "sea")
RESOURCES = ("food", "wood", "ore", "ideas", "gold")
BUILDINGS = ("temple", "fortress", "academy", "port")
BORDERS = ("", "culture", "happiness")


@dataclass(frozen=True, slots=True)
class Tile:
    """A region tile: terrain by tile index (top, left, right, bottom)."""

    id: str
    terrain: tuple[str, str, str, str]
    provenance: str

    @property
    def barbarians(self) -> bool:
        """Regions with at least 2 Fertile spaces bear the barbarian symbol (rules 11.1)."""
        return sum(1 for t in self.terrain if t == "fertile") >= 2


@dataclass(frozen=True, slots=True)
class SlotDef:
    """A fixed 4-hex footprint of a layout; ``home_side`` is set for starting regions."""

    id: str
    hexes: tuple[str, str, str, str]
    home_side: str


@dataclass(frozen=True, slots=True)
class Layout:
    """The map for one player count."""

    players: int
    slots: tuple[SlotDef, ...]
    homes: tuple[str, ...]
    """Home slot ids in clockwise seat order."""
    ring: tuple[str, ...]
    """Perimeter hexes, clockwise (data file 4.5)."""
    provenance: str


@dataclass(frozen=True, slots=True)
class Advance:
    """One of the 48 advances."""

    id: str
    name: str
    category: str
    border: str
    text: str
    prereq: str
    gateway: str
    unlocks: str
    index: int
    """Position in its category (0 = the first, top advance)."""
    provenance: str


@dataclass(frozen=True, slots=True)
class WonderDef:
    """A wonder card (used by the second part of the game: wonders)."""

    id: str
    name: str
    cost: Mapping[str, int]
    requires: tuple[str, ...]
    needs_port: bool


@dataclass(frozen=True, slots=True)
class Tables:
    """Everything the rules read from data."""

    start_sides: Mapping[str, tuple[str, str, str, str]]
    tiles: Mapping[str, Tile]
    tile_order: tuple[str, ...]
    layouts: Mapping[int, Layout]
    advances: Mapping[str, Advance]
    advance_order: tuple[str, ...]
    categories: tuple[str, ...]
    governments: tuple[str, ...]
    by_category: Mapping[str, tuple[str, ...]]
    extra_cost: Mapping[str, Mapping[str, int]]
    start_advances: tuple[str, ...]
    rules: Mapping[str, Any]
    wonders: Mapping[str, WonderDef]
    colours: tuple[str, ...]
    city_names: tuple[tuple[str, ...], ...]


def _terrain(raw: Any, where: str) -> tuple[str, str, str, str]:
    ter = tuple(str(t) for t in raw)
    if len(ter) != 4 or any(t not in TERRAINS for t in ter):
        raise ValueError(f"{where}: bad terrain {raw!r}")
    return (ter[0], ter[1], ter[2], ter[3])


def build_tables(
    tiles_raw: Mapping[str, Any],
    layouts_raw: Mapping[str, Any],
    adv_raw: Mapping[str, Any],
    rules_raw: Mapping[str, Any],
    wonders_raw: Mapping[str, Any],
    names_raw: Mapping[str, Any],
) -> Tables:
    """Validate the raw JSON data and build the typed tables (tests feed modified data here)."""
    sides = {str(k): _terrain(v["terrain"], f"start side {k}") for k, v in tiles_raw["start_sides"].items()}
    tiles: dict[str, Tile] = {}
    for raw in tiles_raw["regular"]:
        tid = str(raw["id"])
        if tid in tiles:
            raise ValueError(f"duplicate tile {tid}")
        tiles[tid] = Tile(tid, _terrain(raw["terrain"], tid), str(raw["provenance"]))
    layouts: dict[int, Layout] = {}
    for key, raw in layouts_raw["layouts"].items():
        slots = []
        seen: set[str] = set()
        for s in raw["slots"]:
            hexes = tuple(str(h) for h in s["hexes"])
            if len(hexes) != 4 or seen & set(hexes):
                raise ValueError(f"layout {key} slot {s['id']}: bad or overlapping hexes")
            seen |= set(hexes)
            side = str(s.get("home_side", ""))
            if side and side not in sides:
                raise ValueError(f"layout {key} slot {s['id']}: unknown side {side}")
            slots.append(SlotDef(str(s["id"]), (hexes[0], hexes[1], hexes[2], hexes[3]), side))
        ids = {s.id for s in slots}
        homes = tuple(str(h) for h in raw["homes"])
        if any(h not in ids for h in homes):
            raise ValueError(f"layout {key}: unknown home slot")
        ring = tuple(str(h) for h in raw["ring"])
        if any(h not in seen for h in ring):
            raise ValueError(f"layout {key}: ring hex outside the map")
        layouts[int(key)] = Layout(int(key), tuple(slots), homes, ring, str(raw["provenance"]))
    cats = tuple(str(c["id"]) for c in adv_raw["categories"])
    govs = tuple(str(c["id"]) for c in adv_raw["categories"] if c.get("government"))
    advances: dict[str, Advance] = {}
    by_cat: dict[str, list[str]] = {c: [] for c in cats}
    for raw in adv_raw["advances"]:
        aid = str(raw["id"])
        cat = str(raw["category"])
        if cat not in by_cat or aid in advances:
            raise ValueError(f"advance {aid}: unknown category or duplicate")
        border = str(raw.get("border", ""))
        if border not in BORDERS:
            raise ValueError(f"advance {aid}: bad border {border!r}")
        advances[aid] = Advance(
            id=aid,
            name=str(raw["name"]),
            category=cat,
            border=border,
            text=str(raw["text"]),
            prereq=str(raw.get("prereq", "")),
            gateway=str(raw.get("gateway", "")),
            unlocks=str(raw.get("unlocks", "")),
            index=len(by_cat[cat]),
            provenance=str(raw.get("text_provenance", "")),
        )
        by_cat[cat].append(aid)
    for a in advances.values():
        for ref in (a.prereq, a.gateway):
            if ref and ref not in advances:
                raise ValueError(f"advance {a.id}: unknown reference {ref}")
        if a.unlocks and a.unlocks not in BUILDINGS:
            raise ValueError(f"advance {a.id}: unknown building {a.unlocks}")
    wonders = {
        str(w["id"]): WonderDef(
            str(w["id"]),
            str(w["name"]),
            {str(k): int(v) for k, v in w["cost"].items()},
            tuple(str(r) for r in w["requires"]),
            bool(w.get("needs_port", False)),
        )
        for w in wonders_raw["wonders"]
    }
    return Tables(
        start_sides=sides,
        tiles=tiles,
        tile_order=tuple(tiles),
        layouts=layouts,
        advances=advances,
        advance_order=tuple(advances),
        categories=cats,
        governments=govs,
        by_category={k: tuple(v) for k, v in by_cat.items()},
        extra_cost={str(k): {str(r): int(n) for r, n in v.items()} for k, v in adv_raw.get("extra_cost", {}).items()},
        start_advances=tuple(str(a) for a in adv_raw["start"]),
        rules=dict(rules_raw),
        wonders=wonders,
        colours=tuple(str(c) for c in names_raw["colours"]),
        city_names=tuple(tuple(str(n) for n in lst) for lst in names_raw["cities"]),
    )


def read_json(name: str) -> Any:
    """One data file of this package, parsed (the engine's only file access)."""
    text = resources.files("engine.clash.data").joinpath(name).read_text(encoding="utf-8")
    return json.loads(text)


def load_tables() -> Tables:
    """Read and validate every data file."""
    return build_tables(
        read_json("tiles.json"),
        read_json("layouts.json"),
        read_json("advances.json"),
        read_json("rules.json"),
        read_json("wonders.json"),
        read_json("names.json"),
    )


TABLES = load_tables()
"""The tables every module uses; built once at import."""
ADVANCES = TABLES.advances
RULES = TABLES.rules
LIMITS: Mapping[str, int] = TABLES.rules["limits"]
