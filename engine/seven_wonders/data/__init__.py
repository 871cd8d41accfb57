"""Card, guild, wonder and setup data, loaded once from the JSON files next to this module.

Why JSON plus typed records: the facts (costs, copies, chains, effects) come from public card
lists and some are disputed (rules section D, data section 10); keeping them in data files
means a corrected value is a one-line data change, while the rules code only ever sees the
typed, validated records built here. The only file access of the engine is the
``importlib.resources`` read below. (This is the package ``data/`` itself rather than a
``data.py`` beside it, so the JSON files ship as package data of this package.)
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

RESOURCES = "WSCOGPL"
"""Resource letters; a resource vector is a 7-tuple of counts in this order."""
RES_NAMES = ("wood", "stone", "clay", "ore", "glass", "papyrus", "loom")
RAW = frozenset({0, 1, 2, 3})
MANUFACTURED = frozenset({4, 5, 6})
COLOURS = ("brown", "grey", "blue", "green", "yellow", "red", "purple", "black")
SYMBOLS = ("compass", "gear", "tablet")
COUNTABLES = (*COLOURS, "stages", "victory_tokens", "defeat_tokens")
SCOPES = ("own", "neighbours", "all")
SIDES = ("left", "right", "both")

Vec = tuple[int, int, int, int, int, int, int]
ZERO: Vec = (0, 0, 0, 0, 0, 0, 0)

EFFECT_TYPES = frozenset(
    {
        "produce",  # res: fixed units ("CC" = 2 clay)
        "produce_any",  # res: one unit of one listed type per turn
        "produce_owned",  # Secret Warehouse
        "produce_missing",  # Black Market
        "vp",
        "shields",
        "science",
        "science_wild",
        "mask",
        "discount",  # goods raw/manufactured, side left/right/both
        "dock",  # side left/right
        "coins",
        "coins_neighbours",
        "coins_per",  # n per counted thing, scope
        "vp_per",
        "diplomacy",
        "coin_loss",
        "coin_loss_per",  # n per counted thing of the victim
        "free_stages",  # Architects' Cabinet
        "discard_build",  # Halikarnassos
        "play_last_card",  # Babylon B
        "free_build_per_age",  # Olympia A
        "copy_guild",  # Olympia B
    }
)


def res_vec(letters: str) -> Vec:
    """Count resource letters into a vector ("WWO" -> (2, 0, 0, 1, 0, 0, 0))."""
    counts = [0] * 7
    for ch in letters:
        if ch == " ":
            continue
        idx = RESOURCES.find(ch)
        if idx < 0:
            raise ValueError(f"unknown resource letter {ch!r}")
        counts[idx] += 1
    return (counts[0], counts[1], counts[2], counts[3], counts[4], counts[5], counts[6])


def res_text(vec: Sequence[int]) -> str:
    """Human text of a resource vector ("2 stone, 1 glass"); lower-case on purpose so that
    resource words never look like the card names Loom/Glassworks/Press in chat texts."""
    parts = [f"{n} {RES_NAMES[i]}" for i, n in enumerate(vec) if n]
    return ", ".join(parts) if parts else "nothing"


@dataclass(frozen=True, slots=True)
class Effect:
    """One printed effect of a card or wonder stage (see ``EFFECT_TYPES``)."""

    type: str
    n: int = 0
    res: str = ""
    goods: str = ""
    side: str = ""
    symbol: str = ""
    count: tuple[str, ...] = ()
    scope: str = ""


@dataclass(frozen=True, slots=True)
class Cost:
    """Coins to the bank plus a multiset of resources."""

    coins: int
    res: Vec

    @property
    def free(self) -> bool:
        """Nothing to pay at all."""
        return self.coins == 0 and not any(self.res)

    def text(self) -> str:
        """Readable cost ("1 coin + 2 stone")."""
        parts = []
        if self.coins:
            parts.append(f"{self.coins} coin" + ("s" if self.coins > 1 else ""))
        if any(self.res):
            parts.append(res_text(self.res))
        return " + ".join(parts) if parts else "free"


@dataclass(frozen=True, slots=True)
class Card:
    """An Age card, guild or black card (one record per distinct card, copies by labels)."""

    id: str
    ref: str
    name: str
    age: int
    color: str
    expansion: str
    cost: Cost
    copies: tuple[int, ...]
    chain_from: tuple[str, ...]
    effects: tuple[Effect, ...]
    status: str
    note: str
    aliases: tuple[str, ...]
    # Derived once for speed (the rules read these in inner loops).
    vp: int
    shields: int
    science: str
    mask: bool
    wild: bool


@dataclass(frozen=True, slots=True)
class Stage:
    """One wonder stage: its cost and its effects."""

    cost: Cost
    effects: tuple[Effect, ...]
    vp: int
    shields: int


@dataclass(frozen=True, slots=True)
class Wonder:
    """A wonder board: starting resource and the stages of both sides."""

    id: str
    name: str
    city: str
    resource: int
    expansion: str
    sides: Mapping[str, tuple[Stage, ...]]


@dataclass(frozen=True, slots=True)
class Mode:
    """Deck composition for one player count and mode (data file section 9)."""

    players: int
    cities: bool
    n_cities: int
    copies_for: int
    black_per_age: int
    guilds: int
    hand: int
    free_city_pile: int


@dataclass(frozen=True, slots=True)
class Tables:
    """Everything the rules read from data."""

    cards: Mapping[str, Card]
    card_order: tuple[str, ...]
    wonders: Mapping[str, Wonder]
    wonder_order: tuple[str, ...]
    modes: tuple[Mode, ...]
    team_players: tuple[int, ...]
    start_coins: int
    sell_coins: int
    victory_tokens: tuple[int, int, int]
    defeat_token: int
    by_name: Mapping[str, tuple[str, ...]]

    def mode(self, players: int, cities: bool) -> Mode | None:
        """The setup row for this player count and mode, if the game allows it."""
        for m in self.modes:
            if m.players == players and m.cities == cities:
                return m
        return None


def _effect(raw: Mapping[str, Any], where: str) -> Effect:
    kind = str(raw["type"])
    if kind not in EFFECT_TYPES:
        raise ValueError(f"{where}: unknown effect type {kind!r}")
    eff = Effect(
        type=kind,
        n=int(raw.get("n", 0)),
        res=str(raw.get("res", "")),
        goods=str(raw.get("goods", "")),
        side=str(raw.get("side", "")),
        symbol=str(raw.get("symbol", "")),
        count=tuple(str(c) for c in raw.get("count", ())),
        scope=str(raw.get("scope", "")),
    )
    res_vec(eff.res)
    if eff.symbol and eff.symbol not in SYMBOLS:
        raise ValueError(f"{where}: unknown science symbol {eff.symbol!r}")
    if any(c not in COUNTABLES for c in eff.count):
        raise ValueError(f"{where}: unknown count {eff.count!r}")
    if eff.scope and eff.scope not in SCOPES:
        raise ValueError(f"{where}: unknown scope {eff.scope!r}")
    if eff.side and eff.side not in SIDES:
        raise ValueError(f"{where}: unknown side {eff.side!r}")
    if eff.goods and eff.goods not in ("raw", "manufactured"):
        raise ValueError(f"{where}: unknown goods {eff.goods!r}")
    return eff


def _cost(raw: Mapping[str, Any]) -> Cost:
    return Cost(int(raw.get("coins", 0)), res_vec(str(raw.get("resources", ""))))


def build_tables(cards_raw: Mapping[str, Any], wonders_raw: Mapping[str, Any], setup_raw: Mapping[str, Any]) -> Tables:
    """Validate raw JSON data and build the typed tables (tests feed modified data here)."""
    cards: dict[str, Card] = {}
    for raw in cards_raw["cards"]:
        cid = str(raw["id"])
        if cid in cards:
            raise ValueError(f"duplicate card id {cid!r}")
        effects = tuple(_effect(e, cid) for e in raw.get("effects", ()))
        color = str(raw["color"])
        if color not in COLOURS:
            raise ValueError(f"{cid}: unknown colour {color!r}")
        science = next((e.symbol for e in effects if e.type == "science"), "")
        cards[cid] = Card(
            id=cid,
            ref=str(raw.get("ref", "")),
            name=str(raw["name"]),
            age=int(raw["age"]),
            color=color,
            expansion=str(raw.get("expansion", "base")),
            cost=_cost(raw.get("cost", {})),
            copies=tuple(int(x) for x in raw.get("copies", ())),
            chain_from=tuple(str(x) for x in raw.get("chain_from", ())),
            effects=effects,
            status=str(raw.get("status", "confirmed")),
            note=str(raw.get("note", "")),
            aliases=tuple(str(x) for x in raw.get("aliases", ())),
            vp=sum(e.n for e in effects if e.type == "vp"),
            shields=sum(e.n for e in effects if e.type == "shields"),
            science=science,
            mask=any(e.type == "mask" for e in effects),
            wild=any(e.type == "science_wild" for e in effects),
        )
    names = {c.name for c in cards.values()}
    for c in cards.values():
        for pre in c.chain_from:
            if pre not in names:
                raise ValueError(f"{c.id}: chain from unknown card {pre!r}")
    by_name: dict[str, list[str]] = {}
    for c in cards.values():
        by_name.setdefault(c.name, []).append(c.id)

    wonders: dict[str, Wonder] = {}
    for raw in wonders_raw["wonders"]:
        wid = str(raw["id"])
        sides: dict[str, tuple[Stage, ...]] = {}
        for side, stages in raw["sides"].items():
            built = []
            for i, st in enumerate(stages):
                effects = tuple(_effect(e, f"{wid} {side}{i + 1}") for e in st.get("effects", ()))
                built.append(
                    Stage(
                        cost=_cost(st.get("cost", {})),
                        effects=effects,
                        vp=sum(e.n for e in effects if e.type == "vp"),
                        shields=sum(e.n for e in effects if e.type == "shields"),
                    )
                )
            sides[str(side)] = tuple(built)
        res = str(raw["resource"])
        if len(res) != 1 or res not in RESOURCES:
            raise ValueError(f"{wid}: bad starting resource {res!r}")
        wonders[wid] = Wonder(
            id=wid,
            name=str(raw["name"]),
            city=str(raw["city"]),
            resource=RESOURCES.index(res),
            expansion=str(raw.get("expansion", "base")),
            sides=sides,
        )

    modes = tuple(
        Mode(
            players=int(m["players"]),
            cities=bool(m["cities"]),
            n_cities=int(m["n_cities"]),
            copies_for=int(m["copies_for"]),
            black_per_age=int(m["black_per_age"]),
            guilds=int(m["guilds"]),
            hand=int(m["hand"]),
            free_city_pile=int(m["free_city_pile"]),
        )
        for m in setup_raw["modes"]
    )
    vt = tuple(int(x) for x in setup_raw["victory_tokens"])
    if len(vt) != 3:
        raise ValueError("victory_tokens needs one value per Age")
    return Tables(
        cards=cards,
        card_order=tuple(cards),
        wonders=wonders,
        wonder_order=tuple(wonders),
        modes=modes,
        team_players=tuple(int(x) for x in setup_raw["team_players"]),
        start_coins=int(setup_raw["start_coins"]),
        sell_coins=int(setup_raw["sell_coins"]),
        victory_tokens=(vt[0], vt[1], vt[2]),
        defeat_token=int(setup_raw["defeat_token"]),
        by_name={k: tuple(v) for k, v in by_name.items()},
    )


def read_json(name: str) -> Any:
    """One data file of this package, parsed (the engine's only file access)."""
    text = resources.files("engine.seven_wonders.data").joinpath(name).read_text(encoding="utf-8")
    return json.loads(text)


def load_tables() -> Tables:
    """Read and validate the three data files."""
    return build_tables(read_json("cards.json"), read_json("wonders.json"), read_json("setup.json"))


TABLES = load_tables()
"""The tables every module uses; built once at import."""
CARDS = TABLES.cards
WONDERS = TABLES.wonders
