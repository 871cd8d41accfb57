"""Founding cities (§9, turn step 2): in a region with a free city site where the player has a
unit now; 1 marble + 1 iron + 1 gold plus 1 coin per adjacent city producing the chosen resource
(any owner, any border colour); the bank must still have a token of that resource.

Why one city per action: a city founded earlier in the step is already a neighbour for the next,
so the order changes the surcharges.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.core.text import with_article
from engine.duellum.actions import Found
from engine.duellum.data import RES_WORDS, RULES
from engine.duellum.log import Log
from engine.duellum.payment import can_pay, check_choice, cost_text, describe, holdings_text, payments, settle
from engine.duellum.state import PHASE_FOUNDING, State

DISCOUNT = "found_base_discount"


def discount_key(res: int) -> str:
    """``mods`` key of a pending Colonists discount on ``res``."""
    return f"{DISCOUNT}:{res}"


def has_unit(state: State, seat: int, region: int) -> bool:
    """Whether ``seat`` has a unit (legion, galley or special unit, D-35d) in ``region``."""
    if state.units[seat][0][region] or state.units[seat][1][region]:
        return True
    return state.config.special_units and state.players[seat].special == region


def surcharge(state: State, region: int, res: int) -> int:
    """Coins: adjacent regions holding a city producing ``res`` (D-03: coins only)."""
    return sum(1 for r in state.map.adj_any[region] if state.owner[r] >= 0 and state.cres[r] == res)


def base_cost(state: State) -> tuple[int, int, int]:
    """Chips for the next foundation, after any pending Colonists discount."""
    cost = list(RULES.found_cost)
    for k in range(3):
        cost[k] = max(0, cost[k] - state.mods.get(discount_key(k), 0))
    return (cost[0], cost[1], cost[2])


def check(state: State, seat: int, a: Found, cost: tuple[int, int, int] | None = None) -> str | None:
    """Why founding is illegal, or ``None``."""
    if state.phase != PHASE_FOUNDING:
        return "Cities are founded in the founding step, after your action (type `done` to finish the action)."
    m = state.map
    if not 0 <= a.region < m.size or not 0 <= a.res < 3:
        return "Name a region and a resource, e.g. `found ancona gold`."
    name = m.names[a.region]
    if not m.site[a.region]:
        return f"{name} has no city site."
    if state.owner[a.region] >= 0:
        return f"{name} already has a city."
    if not has_unit(state, seat, a.region):
        return f"You need one of your units in {name} to found a city there."
    if state.bank_tokens[a.res] <= 0:
        return f"The bank has no {RES_WORDS[a.res]} city token left."
    base = base_cost(state) if cost is None else cost
    coins = surcharge(state, a.region, a.res)
    res = state.players[seat].res
    if not can_pay(res, base, coins):
        return (
            f"Founding {name} as {with_article(RES_WORDS[a.res])} city costs {cost_text(base, coins)} "
            f"(the surcharge must be coins); you have {holdings_text(res)}."
        )
    return check_choice(res, base, coins, a.pay)


def options(state: State, seat: int) -> Iterator[Found]:
    """Every legal foundation."""
    if state.phase != PHASE_FOUNDING:
        return
    m = state.map
    for r in range(m.size):
        if m.site[r] and state.owner[r] < 0 and has_unit(state, seat, r):
            for k in range(3):
                a = Found(r, k)
                if check(state, seat, a) is None:
                    yield a
                    res = state.players[seat].res
                    for choice in payments(res, base_cost(state), surcharge(state, r, k))[1:]:
                        yield Found(r, k, choice)


def apply(state: State, seat: int, a: Found, log: Log) -> None:
    """Found the city and pay for it."""
    coins = surcharge(state, a.region, a.res)
    paid = settle(state, seat, base_cost(state), coins, a.pay)
    for k in range(3):
        state.mods.pop(discount_key(k), None)
    state.owner[a.region] = seat
    state.cres[a.region] = a.res
    state.temple[a.region] = False
    state.wall[a.region] = False
    state.bank_tokens[a.res] -= 1
    log.say(
        f"{log.nation(seat)} found {log.region(a.region)} as {with_article(RES_WORDS[a.res])} city "
        f"for {describe(paid)}.",
        "found",
        [a.region],
    )
