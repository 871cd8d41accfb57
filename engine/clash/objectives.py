"""Objective cards (rules section 13, data file section 8): held hidden, completed one objective
per card, 2 points each at the end.

Why two paths: status objectives (``S``) are declared by their holder in status step 1 (a
``claim`` choice: some cost resources, and a player may prefer to keep a card); immediate ones
(``I``) complete the moment their fact happens in a turn — the engine completes them at once,
since completing can never cost anything (Decision). Facts (``found:c4``, ``draft``, battle
results) are recorded per turn in ``State.decks["facts"]``; one fact completes at most one
objective of a given name (rules 13, CC-EX-27), and one objective per card (the other half is
lost with it).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.clash.board import distance, neighbours
from engine.clash.card_effects import colour
from engine.clash.card_flow import Step, handler, push
from engine.clash.cards_data import DECKS, Objective, slug
from engine.clash.data import ADVANCES, TABLES
from engine.clash.decks import in_play
from engine.clash.state import State
from engine.clash.trade_routes import route_count
from engine.core.events import Event, public

HALVES = ("upper", "lower")


def _others(state: State, seat: int) -> list[int]:
    return [s for s in range(state.players) if s != seat]


def _more_than_all(state: State, seat: int, f: Callable[[int], int]) -> bool:
    mine = f(seat)
    return all(mine > f(o) for o in _others(state, seat))


def _cities_with(state: State, seat: int, building: str) -> int:
    return sum(1 for c in state.cities_of(seat) if building in c.pieces)


def _complete_categories(state: State, seat: int) -> int:
    owned = set(state.pl[seat].advances)
    return sum(1 for cat in TABLES.categories if set(TABLES.by_category[cat]) <= owned)


def _armies(state: State, seat: int) -> list[str]:
    return [u.space for u in state.units if u.owner == seat and u.kind == "army"]


def _ships(state: State, seat: int) -> int:
    return sum(1 for u in state.units if u.owner == seat and u.kind == "ship")


def _foreign_pieces(state: State, seat: int) -> int:
    """Pieces of ``seat``'s colour in cities that are not his."""
    return sum(1 for c in state.cities if c.owner != seat for col in c.pieces.values() if col == seat)


def _ship_routes(state: State, seat: int) -> int:
    only_ships = state.clone()
    only_ships.units = [u for u in only_ships.units if not (u.owner == seat and u.kind == "settler")]
    return route_count(only_ships, seat)


def status_met(state: State, seat: int, obj: Objective) -> bool:
    """Whether a status objective's condition holds for ``seat`` now."""
    p = state.pl[seat]
    n = int(obj.params.get("n", 0))
    k = obj.check
    mine = state.cities_of(seat)
    if k == "cities":
        return len(mine) >= n
    if k == "most_buildings":
        b = str(obj.params["building"])
        return _more_than_all(state, seat, lambda s: _cities_with(state, s, b))
    if k == "most_advances":
        return len(p.advances) >= n and _more_than_all(state, seat, lambda s: len(state.pl[s].advances))
    if k == "category":
        return set(TABLES.by_category[str(obj.params["category"])]) <= set(p.advances)
    if k == "pay":
        return p.res[str(obj.params["res"])] >= int(obj.params["have"])
    if k == "happy_cities":
        return sum(1 for c in mine if c.mood == "happy") >= n
    if k == "sea_blockade":
        ports = {c.port_space for c in state.cities if c.owner >= 0 and c.owner != seat and c.port_space}
        return sum(1 for u in state.units if u.owner == seat and u.kind == "ship" and u.space in ports) >= n
    if k == "stock":
        return all(p.res[r] >= n for r in ("food", "ore", "wood"))
    if k == "large_fleet":
        return _ships(state, seat) >= 4 or (
            _ships(state, seat) >= 2 and _more_than_all(state, seat, lambda s: _ships(state, s))
        )
    if k == "large_army":
        return all(len(_armies(state, seat)) >= len(_armies(state, o)) + n for o in _others(state, seat))
    if k == "standing_army":
        return sum(1 for c in mine if c.space in _armies(state, seat)) >= n
    if k == "architecture":
        return len({b for c in mine for b, col in c.pieces.items() if col == seat}) >= n
    if k == "most_categories":
        return _more_than_all(state, seat, lambda s: _complete_categories(state, s))
    if k == "colony":
        if state.decks.get("founder", {}).get(str(seat)) == state.round - 1:
            return False
        return bool(p.start_space) and any(distance(state, c.space, p.start_space) >= n for c in mine)
    if k == "threat":
        others = {c.space for c in state.cities if c.owner >= 0 and c.owner != seat}
        return sum(1 for sp in _armies(state, seat) if others & set(neighbours(state, sp))) >= n
    if k == "consulate":
        return sum(1 for c in state.cities if c.owner >= 0 and c.owner != seat and seat in c.pieces.values()) >= n
    if k == "metropolis":
        return any(c.size >= n for c in mine)
    if k == "government":
        return any(set(TABLES.by_category[g]) <= set(p.advances) for g in TABLES.governments)
    if k == "expansionist":
        spaces = {c.space for c in state.cities}
        return sum(1 for c in mine if not spaces & set(neighbours(state, c.space))) >= n
    if k == "military_might":
        return len(_armies(state, seat)) + _ships(state, seat) >= n
    if k == "trade_power":
        return route_count(state, seat) >= n
    if k == "shipping_routes":
        return _ship_routes(state, seat) >= n
    if k == "diversified":
        return len({ADVANCES[a].category for a in p.advances}) >= n
    if k == "culture_power":
        return _more_than_all(state, seat, lambda s: _foreign_pieces(state, s))
    if k == "magnificent":
        built = state.decks.get("wonders_round", [])
        return len(built) == 1 and built[0] == seat
    if k == "outpost":
        near = {c.space for c in state.cities} | {h for c in state.cities for h in neighbours(state, c.space)}
        return len({sp for sp in _armies(state, seat) if sp not in near and state.terrain.get(sp) != "sea"}) >= n
    return False


# ------------------------------------------------------------------ immediate objectives
IMMEDIATE_FACTS: dict[str, str] = {
    "conqueror": "capture_defended",
    "warmonger": "warmonger",
    "general": "general",
    "great_battle": "great_battle",
    "defiance": "defiance",
    "naval_assault": "naval_assault",
    "bold": "bold",
    "legendary_battle": "legendary_battle",
    "scavenger": "scavenger",
    "aggressor": "aggressor",
    "barbarian_conquest": "barbarian_conquest",
    "resistance": "resistance",
    "magnificent": "wonder",
}
"""Immediate objectives met by one fact of the turn (battle facts are recorded by the combat
rules through :func:`engine.clash.decks.add_fact`)."""


def immediate_facts(state: State, seat: int, obj: Objective) -> list[str]:
    """The facts of this turn that meet an immediate objective (each may be used once per name)."""
    facts = state.decks["facts"][seat]
    keyed = [f"{i}:{f}" for i, f in enumerate(facts)]
    k = obj.check
    n = int(obj.params.get("n", 0))
    p = state.pl[seat]
    if k == "draft_twice":
        drafts = [key for key in keyed if key.endswith(":draft")]
        return [drafts[1]] if len(drafts) >= 2 else []
    if k == "city_founder":
        out = []
        for key in keyed:
            fact = key.split(":", 1)[1]
            if fact.startswith("found:") and p.start_space and distance(state, fact[6:], p.start_space) >= n:
                out.append(key)
        return out
    if k == "terror_regime":
        if state.decks.get("actor") != seat:
            return []  # "after one of your actions"
        angry = sum(1 for c in state.cities_of(seat) if c.mood == "angry")
        return [f"terror:{state.round}:{state.turn}"] if angry >= n else []
    fact_name = IMMEDIATE_FACTS.get(k, "")
    return [key for key in keyed if fact_name and key.split(":", 1)[1] == fact_name]


def complete(state: State, seat: int, card: str, half: str) -> list[Event]:
    """Put a card face up as completed (2 points; the other half is lost with it)."""
    state.decks["goals"][seat].remove(card)
    state.decks["done"][seat].append(f"{card}:{half}")
    state.pl[seat].objectives.append(f"{card}:{half}")
    obj = DECKS.objectives[card].half(half)
    if obj.check == "city_founder":
        state.decks.setdefault("founder", {})[str(seat)] = state.round
    return [public(f"{colour(seat)} completes the objective {obj.name}: 2 points.", "objective", objective=obj.name)]


def check_immediate(state: State) -> list[Event]:
    """Complete every immediate objective whose fact happened (after each action or step)."""
    if not in_play(state):
        return []
    events: list[Event] = []
    spent_all = state.decks.setdefault("used_facts", [[] for _ in range(state.players)])
    for seat in range(state.players):
        spent = spent_all[seat]
        for card in list(state.decks["goals"][seat]):
            for half in HALVES:
                obj = DECKS.objectives[card].half(half)
                if obj.timing != "I":
                    continue
                free = [f for f in immediate_facts(state, seat, obj) if f"{obj.name}|{f}" not in spent]
                if free:
                    spent.append(f"{obj.name}|{free[0]}")
                    events.extend(complete(state, seat, card, half))
                    break
    return events


# ------------------------------------------------------------------ status phase step 1
def claimable(state: State, seat: int) -> list[tuple[str, str]]:
    """(card, half) status objectives ``seat`` may declare now: each name once per status phase
    (one fact, rules 13), Standing Army and Military Might not together, one per card."""
    claimed = state.decks.get("claimed", [[] for _ in range(state.players)])[seat]
    out: list[tuple[str, str]] = []
    for card in state.decks["goals"][seat]:
        for half in HALVES:
            obj = DECKS.objectives[card].half(half)
            if obj.name in claimed:
                continue
            if obj.check == "military_might" and "Standing Army" in claimed:
                continue
            if obj.check == "standing_army" and "Military Might" in claimed:
                continue
            if (obj.timing == "S" or obj.check == "magnificent") and status_met(state, seat, obj):
                out.append((card, half))
    return out


def start_claims(state: State, order: list[int]) -> None:
    """Status step 1: every player in seat order may declare completed objectives."""
    state.decks["claimed"] = [[] for _ in range(state.players)]
    push(state, *({"do": "claim", "seat": s} for s in order), front=False)


def _claim_options(state: State, step: Step) -> list[str] | None:
    opts: list[str] = []
    for card, half in claimable(state, int(step["seat"])):
        word = slug(DECKS.objectives[card].half(half).name)
        if word not in opts:
            opts.append(word)
    return [*opts, "none"] if opts else []


@handler(
    "claim",
    _claim_options,
    lambda s, st: "declare a completed objective (`claim <objective>`), or `claim none`",
    secret=True,
    always_ask=True,
)
def _claim(state: State, step: Step, choice: str) -> list[Event]:
    seat = int(step["seat"])
    if choice == "none":
        return []
    card, half = next((c, h) for c, h in claimable(state, seat) if slug(DECKS.objectives[c].half(h).name) == choice)
    obj = DECKS.objectives[card].half(half)
    if obj.check == "pay":
        state.pl[seat].res[str(obj.params["res"])] -= int(obj.params["pay"])
    state.decks["claimed"][seat].append(obj.name)
    events = complete(state, seat, card, half)
    push(state, {"do": "claim", "seat": seat})
    return events
