"""TEMPLUM (§8.2): temples (6 marble + 1 coin per temple in an adjacent region) and walls (1 marble,
from the personal supply) in own cities, any number, one after another.

Why temples are built one per action step: a temple built earlier in the action already counts
as an adjacent temple for the next one, so the order is the player's decision.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.duellum.actions import BuildTemple, BuildWall
from engine.duellum.data import RULES
from engine.duellum.log import Log
from engine.duellum.payment import Pay, can_pay, check_choice, cost_text, describe, holdings_text, payments, settle
from engine.duellum.state import PHASE_ACTION, State

TEMPLE_DISCOUNT = "temple_marble_discount"
FREE_WALL = "free_wall"


def in_templum(state: State) -> bool:
    """Whether the active player is in a TEMPLUM action."""
    return state.phase == PHASE_ACTION and state.action >= 0 and RULES.rondel[state.action] == "TEMPLUM"


def adjacent_temples(state: State, region: int) -> int:
    """Temples standing in regions adjacent to ``region`` (any owner, any border; D-19)."""
    return sum(1 for r in state.map.adj_any[region] if state.temple[r])


def temple_cost(state: State, region: int, discount: int | None = None) -> tuple[int, int]:
    """(marble, coin surcharge) of a temple in ``region`` now."""
    d = state.mods.get(TEMPLE_DISCOUNT, 0) if discount is None else discount
    return max(0, RULES.temple_marble - d), adjacent_temples(state, region)


def wall_cost(state: State) -> int:
    """Marble for the next wall (0 with a pending Stonemasons)."""
    return 0 if state.mods.get(FREE_WALL, 0) > 0 else RULES.wall_marble


def check_temple(
    state: State, seat: int, region: int, discount: int | None = None, choice: Pay | None = None
) -> str | None:
    """Why a temple in ``region`` is illegal now, or ``None``."""
    if not in_templum(state):
        return "Temples are built only in a TEMPLUM action."
    name = state.map.names[region]
    if state.owner[region] != seat:
        return f"{name} is not one of your cities."
    if state.temple[region]:
        return f"{name} already has a temple (one per city)."
    if state.bank_temples <= 0:
        return "All 12 temples are on the map; none can be built until one is destroyed."
    marble, coins = temple_cost(state, region, discount)
    res = state.players[seat].res
    if not can_pay(res, (marble, 0, 0), coins):
        return (
            f"Building a temple in {name} costs {cost_text((marble, 0, 0), coins)} "
            f"(coins replace missing marble; the surcharge must be coins); you have {holdings_text(res)}."
        )
    return check_choice(res, (marble, 0, 0), coins, choice)


def check_wall(state: State, seat: int, region: int, choice: Pay | None = None) -> str | None:
    """Why a wall in ``region`` is illegal now, or ``None``."""
    if not in_templum(state):
        return "Walls are built only in a TEMPLUM action."
    name = state.map.names[region]
    if state.owner[region] != seat:
        return f"{name} is not one of your cities."
    if state.wall[region]:
        return f"{name} already has a wall (one per city)."
    if state.players[seat].walls <= 0:
        return "You have no wall in your personal supply (walls come from the VP track)."
    res = state.players[seat].res
    if not can_pay(res, (wall_cost(state), 0, 0)):
        return f"A wall costs {wall_cost(state)} marble; you have {holdings_text(res)}."
    return check_choice(res, (wall_cost(state), 0, 0), 0, choice)


def options(state: State, seat: int) -> Iterator[BuildTemple | BuildWall]:
    """Legal temples, then legal walls; each paid chips first, then the other payments."""
    res = state.players[seat].res
    # Unaffordable builds are skipped before their check: it would refuse them too, after
    # wording a refusal nobody reads (the list is made for every step of a TEMPLUM action).
    for r, o in enumerate(state.owner):
        if o != seat:
            continue
        marble, coins = temple_cost(state, r)
        if can_pay(res, (marble, 0, 0), coins) and check_temple(state, seat, r) is None:
            yield BuildTemple(r)
            for p in payments(res, (marble, 0, 0), coins)[1:]:
                yield BuildTemple(r, p)
    wall = wall_cost(state)
    for r, o in enumerate(state.owner):
        if o == seat and can_pay(res, (wall, 0, 0)) and check_wall(state, seat, r) is None:
            yield BuildWall(r)
            for p in payments(res, (wall, 0, 0))[1:]:
                yield BuildWall(r, p)


def apply_temple(state: State, seat: int, a: BuildTemple, log: Log) -> None:
    """Build the temple and pay for it."""
    marble, coins = temple_cost(state, a.region)
    paid = settle(state, seat, (marble, 0, 0), coins, a.pay)
    state.mods.pop(TEMPLE_DISCOUNT, None)
    state.temple[a.region] = True
    state.bank_temples -= 1
    log.say(f"{log.nation(seat)} build a temple in {log.region(a.region)} for {describe(paid)}.", "build", [a.region])


def apply_wall(state: State, seat: int, a: BuildWall, log: Log) -> None:
    """Build the wall from the personal supply and pay for it."""
    cost = wall_cost(state)
    paid = settle(state, seat, (cost, 0, 0), 0, a.pay)
    if state.mods.get(FREE_WALL, 0) > 0:
        state.mods[FREE_WALL] -= 1
        if not state.mods[FREE_WALL]:
            del state.mods[FREE_WALL]
    state.wall[a.region] = True
    state.players[seat].walls -= 1
    log.say(f"{log.nation(seat)} build a wall in {log.region(a.region)} for {describe(paid)}.", "build", [a.region])
