"""What a move will cost before it is made: for the move list (``action_cost``), for the
accepted spellings of a plain move, and for the ``status`` lines.

Why a module of its own: the six actions with a cost in chips compute it in their rule
modules; this module asks each of them once, so the move list, the parser and the rules
agree on the price.
"""

from __future__ import annotations

from engine.core.text import count, join_words
from engine.duellum import founding, militia, scientia, templum
from engine.duellum.actions import Action, BuildTemple, BuildWall, BuyTech, Deploy, Found, Recruit
from engine.duellum.data import RULES, TECH_ORDER, TECHS
from engine.duellum.payment import Pay, chips_first, describe, holdings_text
from engine.duellum.state import State


def cost_of(state: State, seat: int, a: Action) -> tuple[tuple[int, int, int], int] | None:
    """(chips, coin surcharge) of a move with a cost in chips; ``None`` for other moves."""
    if isinstance(a, BuildTemple):
        marble, coins = templum.temple_cost(state, a.region)
        return (marble, 0, 0), coins
    if isinstance(a, BuildWall):
        return (templum.wall_cost(state), 0, 0), 0
    if isinstance(a, Deploy):
        return (0, militia.iron_cost(state, a.unit, a.count), 0), 0
    if isinstance(a, BuyTech):
        return (0, 0, scientia.price(state, seat, a.tech)), 0
    if isinstance(a, Recruit):
        return (0, 0, RULES.recruit_gold[a.unit] * a.count), 0
    if isinstance(a, Found):
        return founding.base_cost(state), founding.surcharge(state, a.region, a.res)
    return None


def usual_payment(state: State, seat: int, a: Action) -> Pay | None:
    """What the plain form of a move (no ``pay``) spends: chips first, coins for the rest."""
    cost = cost_of(state, seat, a)
    if cost is None:
        return None
    return chips_first(state.players[seat].res, *cost)


def cost_words(state: State, seat: int, a: Action) -> str:
    """``1 gold and 5 coins`` for a plain move that spends something; ``""`` otherwise (free,
    or the notation names the payment itself)."""
    if getattr(a, "pay", None) is not None:
        return ""
    paid = usual_payment(state, seat, a)
    return describe(paid) if paid and any(paid) else ""


def tech_prices(state: State, seat: int) -> str:
    """``Strata 8 gold, Navigatio 3 gold, …`` — what each technology ``seat`` lacks costs it now."""
    parts = [
        f"{TECHS[t].name} {count(scientia.price(state, seat, t, 0), 'gold')}"
        for t in TECH_ORDER
        if t not in state.players[seat].techs
    ]
    return join_words(parts) or "none left to buy"


def seat_line(state: State, seat: int) -> str:
    """One public line per nation: resources, personalities, cities, temples, technologies."""
    p = state.players[seat]
    cities = sum(1 for o in state.owner if o == seat)
    temples = sum(1 for r, o in enumerate(state.owner) if o == seat and state.temple[r])
    techs = join_words(TECHS[t].name for t in TECH_ORDER if t in p.techs) or "no technology"
    return (
        f"{state.map.nations[seat]}: {holdings_text(p.res)}; {count(p.vp, 'personality')} of {RULES.win}; "
        f"{count(cities, 'city')}, {count(temples, 'temple')}; {techs}; {count(len(p.hand), 'event card')} in hand."
    )
