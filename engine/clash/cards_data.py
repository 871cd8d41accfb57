"""The three card decks, loaded from ``data/cards.json`` (rules sections 12-14; data file 7-9).

Why a separate table from :mod:`engine.clash.data`: every card is a labelled stand-in (the 2012
texts were not found), so the printed decks must be able to replace the file without code
changes. Cards name their behaviour by an ``effect`` (action and event cards) or ``check``
(objectives) key that the rules modules know; the loader refuses keys they do not know, so a
replaced deck cannot silently contain a card the engine would ignore.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.clash.data import read_json

SYMBOLS = ("", "gold_mine", "exhausted_land", "barbarians_appear", "barbarian_attack")
ACTION_EFFECTS = (
    "quick_advance", "inspiration", "hero_general", "spy", "ideas", "great_ideas", "mercenaries",
    "cultural_takeover", "city_development", "production_focus", "explorer", "negotiations",
    "leadership", "assassination", "mass_production", "new_plans", "synergies", "teach_us",
    "militia", "technology_trade", "new_ideas",
)  # fmt: skip
EVENT_EFFECTS = (
    "plague", "epidemic", "famine", "food", "great_person", "population_boom", "volcano",
    "earthquake", "flood", "migration", "civil_war", "revolution", "uprising", "envoy", "trojan_horse",
)  # fmt: skip
OBJECTIVE_CHECKS = (
    "cities", "draft_twice", "most_buildings", "conqueror", "warmonger", "most_advances", "general",
    "category", "great_battle", "pay", "defiance", "happy_cities", "sea_blockade", "stock",
    "naval_assault", "large_fleet", "large_army", "standing_army", "architecture", "most_categories",
    "bold", "colony", "threat", "legendary_battle", "consulate", "scavenger", "metropolis",
    "aggressor", "government", "barbarian_conquest", "expansionist", "military_might",
    "city_founder", "resistance", "trade_power", "shipping_routes", "terror_regime", "diversified",
    "culture_power", "magnificent", "outpost",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class CombatAbility:
    """The lower half of an action card (rules 10.7): who may use it and what it does."""

    id: str
    name: str
    units: tuple[str, ...]
    restriction: str
    text: str


@dataclass(frozen=True, slots=True)
class ActionCard:
    """One action card: a non-combat effect (``effect``) and a combat ability."""

    id: str
    effect: str
    name: str
    costs_action: bool
    culture: int
    text: str
    combat: str


@dataclass(frozen=True, slots=True)
class Objective:
    """One half of an objective card."""

    name: str
    timing: str
    """``S``: checked in status step 1; ``I``: completes when its fact happens in a turn."""
    check: str
    params: Mapping[str, Any]
    text: str


@dataclass(frozen=True, slots=True)
class ObjectiveCard:
    """An objective card: the upper (development) and lower (military) objective."""

    id: str
    upper: Objective
    lower: Objective

    def half(self, which: str) -> Objective:
        """``upper`` or ``lower``."""
        return self.upper if which == "upper" else self.lower


@dataclass(frozen=True, slots=True)
class EventCard:
    """An event card: its symbol (resolved first, for the drawer) and main effect."""

    id: str
    name: str
    symbol: str
    effect: str
    params: Mapping[str, Any]
    text: str


@dataclass(frozen=True, slots=True)
class Decks:
    """All cards by id, in deck order."""

    actions: Mapping[str, ActionCard]
    objectives: Mapping[str, ObjectiveCard]
    events: Mapping[str, EventCard]
    abilities: Mapping[str, CombatAbility]
    provenance: str


def _objective(raw: Mapping[str, Any], where: str) -> Objective:
    check = str(raw["check"])
    timing = str(raw["timing"])
    if check not in OBJECTIVE_CHECKS or timing not in ("S", "I"):
        raise ValueError(f"{where}: unknown check {check!r} or timing {timing!r}")
    return Objective(str(raw["name"]), timing, check, dict(raw.get("params", {})), str(raw["text"]))


def build_decks(raw: Mapping[str, Any]) -> Decks:
    """Validate the raw JSON and build the typed decks (tests feed modified data here)."""
    abilities = {
        str(k): CombatAbility(
            str(k), str(v["name"]), tuple(str(u) for u in v["units"]), str(v["restriction"]), str(v["text"])
        )
        for k, v in raw["combat_abilities"].items()
    }
    actions: dict[str, ActionCard] = {}
    for c in raw["action_cards"]:
        cid = str(c["id"])
        effect = str(c["effect"])
        if cid in actions or effect not in ACTION_EFFECTS or str(c["combat"]) not in abilities:
            raise ValueError(f"action card {cid}: duplicate id, unknown effect or combat ability")
        cost = dict(c.get("cost", {}))
        actions[cid] = ActionCard(
            cid,
            effect,
            str(c["name"]),
            bool(c["action"]),
            int(cost.get("culture", 0)),
            str(c["text"]),
            str(c["combat"]),
        )
    objectives: dict[str, ObjectiveCard] = {}
    for c in raw["objective_cards"]:
        cid = str(c["id"])
        if cid in objectives:
            raise ValueError(f"objective card {cid}: duplicate id")
        objectives[cid] = ObjectiveCard(cid, _objective(c["upper"], cid), _objective(c["lower"], cid))
    events: dict[str, EventCard] = {}
    for c in raw["event_cards"]:
        cid = str(c["id"])
        if cid in events or str(c["symbol"]) not in SYMBOLS or str(c["effect"]) not in EVENT_EFFECTS:
            raise ValueError(f"event card {cid}: duplicate id, unknown symbol or effect")
        events[cid] = EventCard(
            cid, str(c["name"]), str(c["symbol"]), str(c["effect"]), dict(c.get("params", {})), str(c["text"])
        )
    return Decks(actions, objectives, events, abilities, str(raw.get("provenance", "")))


DECKS = build_decks(read_json("cards.json"))
"""The decks every card module uses; built once at import."""


def slug(name: str) -> str:
    """A card or objective name as one typeable word: ``Great Ideas`` -> ``great-ideas``."""
    return "".join(ch for ch in name.lower().replace(" ", "-") if ch.isalnum() or ch == "-")
