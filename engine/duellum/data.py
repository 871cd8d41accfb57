"""Load and validate the game data (maps, technology prices, event deck, constants) once at import.

Why data files instead of constants in code: the maps, the price table and the event cards are
stand-ins (the rulebook does not print them); keeping them as JSON means the real board or deck
can replace them without touching the rules code. The only file access the engine is allowed is
reading these package resources with ``importlib.resources``; everything is validated here so a
broken data file fails at import with a clear message instead of producing a wrong game.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

RESOURCES: tuple[str, ...] = ("MARBLE", "IRON", "GOLD")
"""Resource chips in index order; index 3 of a player's stock is the coin."""
COIN = 3
RES_WORDS: tuple[str, ...] = ("marble", "iron", "gold", "coin")
UNIT_TYPES: tuple[str, ...] = ("LEGION", "GALLEY")
UNIT_WORDS: tuple[str, ...] = ("legion", "galley")
LEGION = 0
GALLEY = 1
COLOURS: tuple[str, ...] = ("BROWN", "BEIGE")
PERSONALITIES: tuple[str, ...] = ("KING", "SCHOLAR", "GENERAL", "NAVIGATOR", "CITIZEN")
KING, SCHOLAR, GENERAL, NAVIGATOR, CITIZEN = range(5)
BORDER_COLOURS: tuple[str, ...] = ("RED", "BLUE", "REDBLUE")
KINDS: tuple[str, ...] = ("LAND", "SEA", "MIXED")

KNOWN_TIMINGS_PREFIX = ("ANY_OWN", "RONDEL", "ACTION:", "FOUNDING", "CONQUEST_DECLARE", "REACTION_CONQUEST")
KNOWN_EFFECTS: frozenset[str] = frozenset(
    {
        "conquest_defence_delta",
        "destroy_wall",
        "opponent_lose_coins",
        "gain_gold_per_opponent_tech",
        "production_bonus",
        "gain_resources_choice",
        "gain_coins",
        "unit_range_bonus",
        "rondel_free_steps_bonus",
        "free_recruit",
        "free_deploy",
        "temple_marble_discount",
        "free_wall",
        "found_base_discount",
        "tech_discount",
        "gain_conquered_city_resource",
    }
)


class DataError(ValueError):
    """A data file is inconsistent (raised at import, so a bad file never reaches a game)."""


@dataclass(frozen=True, slots=True)
class MapData:
    """One map side, with integer region indices for fast rules code.

    ``adj[t][r]`` lists the neighbours of region ``r`` a unit of type ``t`` (0 legion, 1 galley)
    can move to; ``adj_any[r]`` lists all neighbours (founding and temple surcharges ignore the
    border colour).
    """

    id: str
    side: str
    title: str
    status: str
    nations: tuple[str, str]
    ids: tuple[str, ...]
    index: Mapping[str, int]
    names: tuple[str, ...]
    kinds: tuple[str, ...]
    site: tuple[bool, ...]
    xy: tuple[tuple[int, int], ...]
    borders: tuple[tuple[int, int, str], ...]
    adj_any: tuple[tuple[int, ...], ...]
    adj: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]
    accepts: tuple[tuple[bool, ...], tuple[bool, ...]]
    start: tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]
    sea_weight: tuple[int, ...]
    coastal_site: tuple[bool, ...]
    size: int


@dataclass(frozen=True, slots=True)
class TechDef:
    """One technology with its two prices (first nation / second nation)."""

    id: str
    name: str
    first: int
    second: int
    effect: str


@dataclass(frozen=True, slots=True)
class CardDef:
    """One event card type; rules code dispatches on ``effect["type"]`` and ``timing``."""

    id: str
    name: str
    copies: int
    status: str
    timing: str
    text: str
    effect: Mapping[str, Any] = field(default_factory=dict)

    @property
    def kind(self) -> str:
        """The effect type (what the card does)."""
        return str(self.effect["type"])

    @property
    def value(self) -> int:
        """The effect's size (``value`` in the data), 0 when the effect has none."""
        return int(self.effect.get("value", 0))


def _read(name: str) -> Any:
    return json.loads(resources.files("engine.duellum").joinpath("data", name).read_text(encoding="utf-8"))


def validate_map(raw: Mapping[str, Any]) -> list[str]:
    """Every inconsistency of a raw map (empty when the map is sound).

    Checks (data file §5): known regions in borders, no self-loops or duplicate borders,
    symmetric adjacency, kinds consistent with border colours, connectivity of the whole map, of
    the galley network and of the legion network, one city site per region, three starting cities
    per nation on city sites with one of each resource, coordinates on the canvas.
    """
    errors: list[str] = []
    regions = raw.get("regions", [])
    ids = [r["id"] for r in regions]
    if len(set(ids)) != len(ids):
        errors.append("duplicate region ids")
    known = set(ids)
    nbr: dict[str, dict[str, str]] = {i: {} for i in ids}
    for a, b, colour in raw.get("borders", []):
        if a not in known or b not in known:
            errors.append(f"border {a}-{b} names an unknown region")
            continue
        if a == b:
            errors.append(f"border {a}-{b} is a self-loop")
            continue
        if colour not in BORDER_COLOURS:
            errors.append(f"border {a}-{b} has unknown colour {colour}")
        if b in nbr[a] or a in nbr[b]:
            errors.append(f"border {a}-{b} is listed twice")
        nbr[a][b] = colour
        nbr[b][a] = colour
    for a, row in nbr.items():
        for b, colour in row.items():
            if nbr[b].get(a) != colour:
                errors.append(f"adjacency {a}-{b} is not symmetric")
    for r in regions:
        cols = set(nbr[r["id"]].values())
        if not cols:
            errors.append(f"region {r['id']} has no borders")
            continue
        derived = "LAND" if cols == {"RED"} else "SEA" if cols == {"BLUE"} else "MIXED"
        if r.get("kind") != derived:
            errors.append(f"region {r['id']} is {r.get('kind')} but its borders make it {derived}")
        x, y = r.get("x", -1), r.get("y", -1)
        if not (0 <= x <= 1600 and 0 <= y <= 1000):
            errors.append(f"region {r['id']} lies outside the 1600x1000 canvas")

    def connected(nodes: list[str], ok: set[str]) -> bool:
        if not nodes:
            return True
        seen = {nodes[0]}
        todo = [nodes[0]]
        while todo:
            cur = todo.pop()
            for nxt, colour in nbr[cur].items():
                if colour in ok and nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen >= set(nodes)

    kind = {r["id"]: r.get("kind") for r in regions}
    if not connected(ids, set(BORDER_COLOURS)):
        errors.append("the map is not connected")
    if not connected([i for i in ids if kind[i] != "LAND"], {"BLUE", "REDBLUE"}):
        errors.append("the galley network (SEA and MIXED regions) is not connected")
    if not connected([i for i in ids if kind[i] != "SEA"], {"RED", "REDBLUE"}):
        errors.append("the legion network (LAND and MIXED regions) is not connected")
    site = {r["id"]: bool(r.get("city_site")) for r in regions}
    starts = raw.get("start_cities", {})
    taken: set[str] = set()
    for colour in COLOURS:
        cities = starts.get(colour, {})
        if sorted(cities.values()) != sorted(RESOURCES):
            errors.append(f"{colour} needs exactly one MARBLE, one IRON and one GOLD starting city")
        for rid in cities:
            if rid not in known or not site.get(rid):
                errors.append(f"starting city {rid} of {colour} is not a city site")
            if rid in taken:
                errors.append(f"starting city {rid} is given twice")
            taken.add(rid)
    if set(raw.get("nations", {})) != set(COLOURS):
        errors.append("nations must name BROWN and BEIGE")
    return errors


def build_map(raw: Mapping[str, Any]) -> MapData:
    """Turn a validated raw map into :class:`MapData` (raises :class:`DataError` if unsound)."""
    errors = validate_map(raw)
    if errors:
        raise DataError(f"map {raw.get('id')!r}: " + "; ".join(errors))
    regions = raw["regions"]
    ids = tuple(r["id"] for r in regions)
    index = {rid: i for i, rid in enumerate(ids)}
    n = len(ids)
    any_n: list[list[int]] = [[] for _ in range(n)]
    leg: list[list[int]] = [[] for _ in range(n)]
    gal: list[list[int]] = [[] for _ in range(n)]
    borders = []
    for a, b, colour in raw["borders"]:
        ia, ib = index[a], index[b]
        borders.append((ia, ib, str(colour)))
        any_n[ia].append(ib)
        any_n[ib].append(ia)
        if colour in ("RED", "REDBLUE"):
            leg[ia].append(ib)
            leg[ib].append(ia)
        if colour in ("BLUE", "REDBLUE"):
            gal[ia].append(ib)
            gal[ib].append(ia)
    kinds = tuple(str(r["kind"]) for r in regions)
    site = tuple(bool(r["city_site"]) for r in regions)
    start = tuple(
        tuple(sorted((index[rid], RESOURCES.index(res)) for rid, res in raw["start_cities"][colour].items()))
        for colour in COLOURS
    )
    return MapData(
        id=str(raw["id"]),
        side=str(raw["side"]),
        title=str(raw.get("title", raw["id"])),
        status=str(raw.get("status", "")),
        nations=(str(raw["nations"]["BROWN"]), str(raw["nations"]["BEIGE"])),
        ids=ids,
        index=index,
        names=tuple(str(r["name"]) for r in regions),
        kinds=kinds,
        site=site,
        xy=tuple((int(r["x"]), int(r["y"])) for r in regions),
        borders=tuple(borders),
        adj_any=tuple(tuple(sorted(x)) for x in any_n),
        adj=(tuple(tuple(sorted(x)) for x in leg), tuple(tuple(sorted(x)) for x in gal)),
        accepts=(tuple(k != "SEA" for k in kinds), tuple(k != "LAND" for k in kinds)),
        start=(start[0], start[1]),
        sea_weight=tuple(
            (RULES.sea_weight_site if s else RULES.sea_weight_no_site) if k == "SEA" else 0
            for k, s in zip(kinds, site, strict=True)
        ),
        coastal_site=tuple(k == "MIXED" and s for k, s in zip(kinds, site, strict=True)),
        size=n,
    )


@dataclass(frozen=True, slots=True)
class Rules:
    """The numeric constants of the game (rules.json)."""

    rondel: tuple[str, ...]
    free_steps: int
    units_per_player: tuple[int, int]
    temples: int
    city_tokens: tuple[int, int, int]
    walls: int
    coin_supply: int
    personalities: tuple[int, ...]
    steps: Mapping[int, int]
    wall_symbols: tuple[int, ...]
    win: int
    start_resources: tuple[int, int, int, int]
    second_player_coins: int
    start_walls: int
    start_box: tuple[int, int]
    temple_marble: int
    wall_marble: int
    deploy_iron: int
    special_deploy_iron: int
    deploy_limit: int
    deploy_limit_temple: int
    recruit_gold: tuple[int, int]
    city_defence: int
    city_defence_temple: int
    production: int
    production_temple: int
    found_cost: tuple[int, int, int]
    trade_give: int
    trade_get: int
    sea_weight_no_site: int
    sea_weight_site: int
    move_range: int
    move_range_tech: int


def _rules(raw: Mapping[str, Any]) -> Rules:
    rondel = tuple(str(s) for s in raw["rondel"])
    needed = {"MARMOR", "FERRUM", "AURUM", "TEMPLUM", "MILITIA", "SCIENTIA", "DUELLUM"}
    if set(rondel) != needed or len(rondel) != 8:
        raise DataError("rules.json: the rondel must have 8 spaces using every action (DUELLUM twice)")
    return Rules(
        rondel=rondel,
        free_steps=int(raw["rondel_free_steps"]),
        units_per_player=(int(raw["legions_per_player"]), int(raw["galleys_per_player"])),
        temples=int(raw["temples"]),
        city_tokens=(
            int(raw["city_tokens"]["MARBLE"]),
            int(raw["city_tokens"]["IRON"]),
            int(raw["city_tokens"]["GOLD"]),
        ),
        walls=int(raw["walls"]),
        coin_supply=int(raw["coin_supply"]),
        personalities=tuple(int(raw["personalities"][p]) for p in PERSONALITIES),
        steps={PERSONALITIES.index(k): int(v) for k, v in raw["personality_steps"].items()},
        wall_symbols=tuple(int(w) for w in raw["wall_symbols"]),
        win=int(raw["win_personalities"]),
        start_resources=(
            int(raw["start_resources"]["MARBLE"]),
            int(raw["start_resources"]["IRON"]),
            int(raw["start_resources"]["GOLD"]),
            int(raw["start_resources"]["COIN"]),
        ),
        second_player_coins=int(raw["second_player_coins"]),
        start_walls=int(raw["start_walls"]),
        start_box=(int(raw["start_box"]["LEGION"]), int(raw["start_box"]["GALLEY"])),
        temple_marble=int(raw["temple_marble"]),
        wall_marble=int(raw["wall_marble"]),
        deploy_iron=int(raw["deploy_iron"]),
        special_deploy_iron=int(raw["special_deploy_iron"]),
        deploy_limit=int(raw["deploy_limit"]),
        deploy_limit_temple=int(raw["deploy_limit_temple"]),
        recruit_gold=(int(raw["recruit_gold"]["LEGION"]), int(raw["recruit_gold"]["GALLEY"])),
        city_defence=int(raw["city_defence"]),
        city_defence_temple=int(raw["city_defence_temple"]),
        production=int(raw["production"]),
        production_temple=int(raw["production_temple"]),
        found_cost=(
            int(raw["found_cost"]["MARBLE"]),
            int(raw["found_cost"]["IRON"]),
            int(raw["found_cost"]["GOLD"]),
        ),
        trade_give=int(raw["trade_give"]),
        trade_get=int(raw["trade_get"]),
        sea_weight_no_site=int(raw["sea_weight_no_site"]),
        sea_weight_site=int(raw["sea_weight_site"]),
        move_range=int(raw["move_range"]),
        move_range_tech=int(raw["move_range_tech"]),
    )


def validate_cards(raw: Mapping[str, Any]) -> list[str]:
    """Problems of a raw event deck: unknown effect types or timings, bad copy counts."""
    errors: list[str] = []
    seen: set[str] = set()
    for c in raw.get("cards", []):
        cid = c.get("id", "?")
        if cid in seen:
            errors.append(f"card {cid} listed twice")
        seen.add(cid)
        if c.get("effect", {}).get("type") not in KNOWN_EFFECTS:
            errors.append(f"card {cid} has unknown effect type {c.get('effect', {}).get('type')!r}")
        if not str(c.get("timing", "")).startswith(KNOWN_TIMINGS_PREFIX):
            errors.append(f"card {cid} has unknown timing {c.get('timing')!r}")
        if int(c.get("copies", 0)) < 1:
            errors.append(f"card {cid} needs at least one copy")
    return errors


def validate_techs(raw: Mapping[str, Any]) -> list[str]:
    """Problems of the technology table: the five engine technologies with sane prices."""
    errors: list[str] = []
    ids = [t.get("id") for t in raw.get("techs", [])]
    if sorted(ids) != sorted(TECHS_NEEDED):
        errors.append(f"technologies must be exactly {', '.join(TECHS_NEEDED)}")
    for t in raw.get("techs", []):
        if not 0 <= int(t["second"]) <= int(t["first"]):
            errors.append(f"{t['id']}: the second price must not exceed the first")
    return errors


# Decision: the glossary's "RES PUBLICA" has the engine id RES_PUBLICA (ids have no spaces;
# players type "res publica" either way).
TECHS_NEEDED: tuple[str, ...] = ("STRATA", "NAVIGATIO", "MONETA", "RES_PUBLICA", "COMMERCIUM")

RAW_RULES: Mapping[str, Any] = _read("rules.json")
RULES: Rules = _rules(RAW_RULES)
RAW_MAPS: Mapping[str, Mapping[str, Any]] = {
    "rome-carthage": _read("map_rome_carthage.json"),
    "greece-persia": _read("map_greece_persia.json"),
}
MAPS: Mapping[str, MapData] = {k: build_map(v) for k, v in RAW_MAPS.items()}
SIDE_ALIASES: Mapping[str, str] = {m.side.lower(): k for k, m in MAPS.items()}

RAW_TECHS: Mapping[str, Any] = _read("techs.json")
if validate_techs(RAW_TECHS):
    raise DataError("techs.json: " + "; ".join(validate_techs(RAW_TECHS)))
TECHS: Mapping[str, TechDef] = {
    str(t["id"]): TechDef(str(t["id"]), str(t["name"]), int(t["first"]), int(t["second"]), str(t.get("effect", "")))
    for t in RAW_TECHS["techs"]
}
TECH_ORDER: tuple[str, ...] = tuple(TECHS)

RAW_EVENTS: Mapping[str, Any] = _read("events.json")
if validate_cards(RAW_EVENTS):
    raise DataError("events.json: " + "; ".join(validate_cards(RAW_EVENTS)))
CARDS: Mapping[str, CardDef] = {
    str(c["id"]): CardDef(
        str(c["id"]),
        str(c.get("name", c["id"])),
        int(c["copies"]),
        str(c.get("status", "")),
        str(c["timing"]),
        str(c.get("text", "")),
        dict(c["effect"]),
    )
    for c in RAW_EVENTS["cards"]
}
CARD_ORDER: tuple[str, ...] = tuple(CARDS)
FACE_UP_ROW: int = int(RAW_EVENTS.get("face_up_row", 3))


def full_deck() -> list[str]:
    """Every card copy of the deck, in data order (shuffled by setup)."""
    return [cid for cid, c in CARDS.items() for _ in range(c.copies)]
