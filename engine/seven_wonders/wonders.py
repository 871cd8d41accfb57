"""Wonder boards: stages, stage costs and the special powers with their timing.

Why a module of its own: the board powers are the rules most often timed wrongly (A12,
D-21, D-31, D-32): Babylon B plays the last card, Halikarnassos builds from the discard pile
at the end of the turn, Olympia A builds once per Age for free, Olympia B copies a guild.
"""

from __future__ import annotations

from engine.seven_wonders.cards import built_names
from engine.seven_wonders.data import CARDS, TABLES, WONDERS, Cost, Effect, Stage, Wonder
from engine.seven_wonders.state import City, State

_ORDER = {cid: i for i, cid in enumerate(TABLES.card_order)}


def board(city: City) -> Wonder:
    """The wonder record of a city."""
    return WONDERS[city.wonder]


def stages_of(city: City) -> tuple[Stage, ...]:
    """The stages of the city's side."""
    return WONDERS[city.wonder].sides[city.side]


def built_stages(city: City) -> tuple[Stage, ...]:
    """The stages built so far."""
    return stages_of(city)[: city.stages]


def next_stage(city: City) -> Stage | None:
    """The next stage to build, or None when the wonder is complete (A6.2)."""
    stages = stages_of(city)
    return stages[city.stages] if city.stages < len(stages) else None


def has_stage_effect(city: City, kind: str) -> bool:
    """Whether a built stage has an effect of this type."""
    return any(e.type == kind for st in built_stages(city) for e in st.effects)


def stage_effects(city: City) -> list[Effect]:
    """Effects of every built stage."""
    return [e for st in built_stages(city) for e in st.effects]


def free_stages(city: City) -> bool:
    """Architects' Cabinet: stages without their resource cost (B6.10)."""
    return any(e.type == "free_stages" for c in city.built for e in CARDS[c].effects)


def stage_cost(city: City, stage: Stage) -> Cost:
    """Cost actually due for a stage: Architects' Cabinet removes resources, never coins."""
    if free_stages(city):
        return Cost(stage.cost.coins, (0, 0, 0, 0, 0, 0, 0))
    return stage.cost


def plays_last_card(city: City) -> bool:
    """Babylon B stage 2 (A12.4)."""
    return has_stage_effect(city, "play_last_card")


def olympia_free_available(state: State, city: City) -> bool:
    """Olympia A stage 2: once per Age, from the Age it is built in (A12.7, D-31)."""
    return has_stage_effect(city, "free_build_per_age") and city.olympia_age != state.age


def copies_guild(city: City) -> bool:
    """Olympia B stage 3 (A12.9)."""
    return has_stage_effect(city, "copy_guild")


def city_name(state: State, idx: int) -> str:
    """Display name of a city: its wonder's city, plus "Free City" for the neutral one."""
    name = WONDERS[state.cities[idx].wonder].city
    if idx == state.free_city:
        return f"Free City ({name})"
    return name


def halikarnassos_choices(state: State, idx: int) -> list[str]:
    """Card ids the city may build from the discard pile: one per name not already built
    (A12.6). Decision: two discarded cards of one name (Loom I and Loom II) are the same
    structure for the player, so only one of them (the first in data order) is offered."""
    names = built_names(state.cities[idx])
    seen: dict[str, str] = {}
    for cid in state.discard:
        nm = CARDS[cid].name
        if nm in names:
            continue
        prev = seen.get(nm)
        if prev is None or _ORDER[cid] < _ORDER[prev]:
            seen[nm] = cid
    return sorted(seen.values(), key=lambda c: CARDS[c].name)
