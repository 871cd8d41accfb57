"""SCIENTIA (§8.4): buy technologies (the first nation pays the higher price and earns a Scholar at
the end of the turn, the second pays the lower price) and recruit units from the personal supply
into the recruitment box (1 gold per legion, 2 per galley).
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.core.text import count
from engine.duellum.actions import BuyTech, Recruit, unit_phrase
from engine.duellum.data import RULES, TECH_ORDER, TECHS, UNIT_WORDS
from engine.duellum.log import Log
from engine.duellum.payment import Pay, can_pay, check_choice, describe, holdings_text, payments, settle
from engine.duellum.state import PHASE_ACTION, State

TECH_DISCOUNT = "tech_discount"


def in_scientia(state: State) -> bool:
    """Whether the active player is in a SCIENTIA action."""
    return state.phase == PHASE_ACTION and state.action >= 0 and RULES.rondel[state.action] == "SCIENTIA"


def is_first(state: State, seat: int, tech: str) -> bool:
    """Whether buying ``tech`` now would be the first purchase (the opponent does not own it)."""
    return tech not in state.players[1 - seat].techs


def price(state: State, seat: int, tech: str, discount: int | None = None) -> int:
    """Gold price of ``tech`` for ``seat`` now (Library discount included, never below 0)."""
    t = TECHS[tech]
    base = t.first if is_first(state, seat, tech) else t.second
    d = state.mods.get(TECH_DISCOUNT, 0) if discount is None else discount
    return max(0, base - d)


def check_buy(
    state: State, seat: int, tech: str, discount: int | None = None, choice: Pay | None = None
) -> str | None:
    """Why buying ``tech`` is illegal, or ``None``."""
    if not in_scientia(state):
        return "Technologies are bought only in a SCIENTIA action."
    if tech not in TECHS:
        return f"There is no technology {tech}. Technologies: {', '.join(TECH_ORDER)}."
    p = state.players[seat]
    if tech in p.techs:
        return f"You already own {TECHS[tech].name}."
    cost = price(state, seat, tech, discount)
    if not can_pay(p.res, (0, 0, cost)):
        return f"{TECHS[tech].name} costs you {cost} gold; you have {holdings_text(p.res)}."
    return check_choice(p.res, (0, 0, cost), 0, choice)


def check_recruit(state: State, seat: int, a: Recruit) -> str | None:
    """Why recruiting is illegal, or ``None``."""
    if not in_scientia(state):
        return "Units are recruited only in a SCIENTIA action."
    if a.unit not in (0, 1) or a.count < 1:
        return "Recruit one or more legions or galleys."
    p = state.players[seat]
    if p.supply[a.unit] < a.count:
        return f"Your personal supply has only {count(p.supply[a.unit], UNIT_WORDS[a.unit])}."
    gold = RULES.recruit_gold[a.unit] * a.count
    if not can_pay(p.res, (0, 0, gold)):
        return f"Recruiting {unit_phrase(a.unit, a.count, seat)} costs {gold} gold; you have {holdings_text(p.res)}."
    return check_choice(p.res, (0, 0, gold), 0, a.pay)


def options(state: State, seat: int) -> Iterator[BuyTech | Recruit]:
    """Legal purchases, then legal recruitments."""
    if not in_scientia(state):
        return
    p = state.players[seat]
    for tech in TECH_ORDER:
        if check_buy(state, seat, tech) is None:
            yield BuyTech(tech)
            for choice in payments(p.res, (0, 0, price(state, seat, tech)))[1:]:
                yield BuyTech(tech, choice)
    for t in (0, 1):
        for n in range(1, p.supply[t] + 1):
            a = Recruit(t, n)
            if check_recruit(state, seat, a) is not None:
                break
            yield a
            for choice in payments(p.res, (0, 0, RULES.recruit_gold[t] * n))[1:]:
                yield Recruit(t, n, choice)


def apply_buy(state: State, seat: int, a: BuyTech, log: Log) -> None:
    """Buy the technology; a first purchase earns a Scholar at the end of the turn."""
    first = is_first(state, seat, a.tech)
    paid = settle(state, seat, (0, 0, price(state, seat, a.tech)), 0, a.pay)
    state.mods.pop(TECH_DISCOUNT, None)
    state.players[seat].techs[a.tech] = state.turn
    if first:
        state.scholars += 1
    note = " (first: a Scholar at the end of the turn)" if first else ""
    log.say(f"{log.nation(seat)} buy {TECHS[a.tech].name} for {describe(paid)}{note}.", "tech")


def apply_recruit(state: State, seat: int, a: Recruit, log: Log) -> None:
    """Move units from the personal supply to the recruitment box."""
    p = state.players[seat]
    paid = settle(state, seat, (0, 0, RULES.recruit_gold[a.unit] * a.count), 0, a.pay)
    p.supply[a.unit] -= a.count
    p.box[a.unit] += a.count
    log.say(
        f"{log.nation(seat)} recruit {unit_phrase(a.unit, a.count, seat, omit_one=False)} "
        f"into their recruitment box for {describe(paid)}.",
        "recruit",
    )
