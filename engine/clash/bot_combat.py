"""The automatic player's fighting: which attacks are worth it, when to go on, and the battle
choices (Siegecraft, refugees, Barbarian settlements and losses).

Why simple odds: a die averages 3.5, so one hit needs about 1.5 dice; counting dice on both sides
(the Fortress adds one) is enough to tell a safe attack from a gamble, and it is fast.
"""

from __future__ import annotations

from engine.clash.actions import Action
from engine.clash.board import distance, distances_from
from engine.clash.combat_rounds import fighting_units
from engine.clash.state import BARBARIAN, State


def _defence(state: State, seat: int, space: str) -> tuple[int, bool, int]:
    """(defending army units or ships, a Fortress, the defender) on ``space``."""
    city = state.city_at(space)
    units = [u for u in state.units if u.space == space and u.owner != seat]
    owner = city.owner if city is not None and city.owner != seat else (units[0].owner if units else BARBARIAN)
    kind = "ship" if state.terrain.get(space) == "sea" else "army"
    n = sum(1 for u in units if u.kind == kind and (kind == "ship" or u.carrier < 0))
    fort = city is not None and city.owner != seat and "fortress" in city.pieces
    return n, fort, owner


def leaves_open(state: State, seat: int, a: Action) -> bool:
    """The move takes the last army unit out of an own city that a foreign army could reach."""
    city = state.city_at(a.space)
    if city is None or city.owner != seat or "army" not in a.items:
        return False
    left = sum(1 for u in state.units if u.space == a.space and u.owner == seat and u.kind == "army")
    if left > a.items.count("army"):
        return False
    near = distances_from(state, a.space, 2)
    return any(u.owner != seat and u.kind == "army" and u.space in near and u.space != a.to for u in state.units)


def attack_score(state: State, seat: int, a: Action) -> float:
    """How good an attacking move is (0: don't)."""
    if a.items[0].startswith("ship"):
        mine = len(a.items)
        theirs, _, _ = _defence(state, seat, a.to)
        return 38 if mine > theirs else 0
    armies = a.items.count("army")
    settlers = a.items.count("settler")
    n, fort, owner = _defence(state, seat, a.to)
    city = state.city_at(a.to)
    penalty = 6 * settlers + (40 if leaves_open(state, seat, a) else 0)
    if not n and not fort:
        if city is not None:
            return 96 - penalty + city.size
        return 70 - penalty  # lone settlers
    need = n + (2 if fort else 0) + 1
    if armies < need:
        return 0
    if owner == BARBARIAN:
        return 74 - penalty + armies
    return 66 - penalty + armies + (city.size if city is not None else 0)


def _targets(state: State, seat: int) -> list[str]:
    """Spaces worth attacking: Barbarian settlements and other players' cities."""
    return [c.space for c in state.cities if c.owner != seat]


def wants_armies(state: State, seat: int, space: str) -> bool:
    """Build army units in a city with a target or a foreign army within 4 spaces and fewer than
    4 own armies around (from round 2, once the first cities stand): to attack and to defend."""
    if "tactics" not in state.pl[seat].advances or state.round < 2:
        return False
    near = distances_from(state, space, 4)
    threats = {u.space for u in state.units if u.owner != seat and u.kind == "army"}
    if not any(t in near for t in _targets(state, seat)) and not threats & set(near):
        return False
    mine = sum(1 for u in state.units if u.owner == seat and u.kind == "army" and u.space in near)
    return mine < 4


def threatened(state: State, seat: int, space: str) -> bool:
    """A foreign army stands within 2 spaces of this city and no own army is in it."""
    if any(u.space == space and u.owner == seat and u.kind == "army" for u in state.units):
        return False
    near = distances_from(state, space, 2)
    return any(u.owner != seat and u.kind == "army" and u.space in near for u in state.units)


def approach_score(state: State, seat: int, a: Action) -> float:
    """A group of at least two army units stepping closer to a target it could beat."""
    if a.items.count("army") < 2 or "settler" in a.items or leaves_open(state, seat, a):
        return 0
    best = 0.0
    for t in _targets(state, seat):
        here, there = distance(state, a.space, t), distance(state, a.to, t)
        if there < here <= 4:
            n, fort, _ = _defence(state, seat, t)
            if a.items.count("army") >= n + (2 if fort else 0) + 1:
                best = max(best, 36 - there)
    return best


def combat_choice(state: State, seat: int, actions: list[Action]) -> Action:
    """Battle and Barbarian choices: go on while not outnumbered, pay Siegecraft, keep
    settlements, lose settlers before armies and the cheapest piece first."""
    kind = state.pending["kind"]
    if kind == "battle":
        b = state.battle
        mine = len(fighting_units(state, b, "attacker"))
        theirs = len(fighting_units(state, b, "defender"))
        return Action("continue") if mine >= theirs else Action("retreat")
    if kind == "siege":
        return max(actions, key=lambda x: len(x.items))
    if kind == "combat_card":
        return Action("nocard") if Action("nocard") in actions else actions[0]
    keep = [x for x in actions if x.kind == "keep_camp"]
    if keep:
        return keep[0]
    if kind == "barbarian_losses":
        order = ("settler", "port", "academy", "fortress", "temple", "army", "destroyed")

        def cost(x: Action) -> tuple[int, ...]:
            return tuple(x.items.count(w) for w in reversed(order))

        return min(actions, key=cost)
    if kind == "barbarian_spawn":
        own = [c.space for c in state.cities_of(seat)]
        return max(actions, key=lambda x: (min((distance(state, x.to, c) for c in own), default=0), x.to))
    return actions[0]
