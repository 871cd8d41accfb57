"""MILITIA (§8.3): deploy units from the recruitment box into own cities for 2 iron each.

Only units that were in the box when the turn began may be deployed (``state.deployable`` is that
snapshot, used up as units go out), at most 1 new unit per city and action (3 with a temple),
legions never into SEA cities and galleys never into LAND cities. A new unit meeting an enemy
unit of its type fights at once and both go back to their boxes.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.core.text import count, with_article
from engine.duellum.actions import SPECIAL, Deploy, unit_phrase
from engine.duellum.data import RULES, UNIT_WORDS
from engine.duellum.log import Log
from engine.duellum.payment import can_pay, check_choice, describe, holdings_text, payments, settle
from engine.duellum.state import PHASE_ACTION, SPECIAL_BOX, State

FREE_DEPLOY = "free_deploy"


def special_type(seat: int) -> int:
    """Kind of a seat's special unit: brown's General-unit is a legion, beige's Admiral a galley."""
    return 0 if seat == 0 else 1


def in_militia(state: State) -> bool:
    """Whether the active player is in a MILITIA action."""
    return state.phase == PHASE_ACTION and state.action >= 0 and RULES.rondel[state.action] == "MILITIA"


def limit(state: State, region: int) -> int:
    """New units a city may still receive in this action (D-17: units that died count)."""
    cap = RULES.deploy_limit_temple if state.temple[region] else RULES.deploy_limit
    return cap - state.deployed.get(region, 0)


def iron_cost(state: State, unit: int, count: int) -> int:
    """Iron for deploying ``count`` units (Levy makes one unit free)."""
    free = min(count, state.mods.get(FREE_DEPLOY, 0))
    each = RULES.special_deploy_iron if unit == SPECIAL else RULES.deploy_iron
    return (count - free) * each


def check(state: State, seat: int, a: Deploy) -> str | None:
    """Why the deployment is illegal, or ``None``."""
    if not in_militia(state):
        return "Units are deployed only in a MILITIA action."
    m = state.map
    if not 0 <= a.region < m.size:
        return "There is no such region."
    name = m.names[a.region]
    if a.count < 1:
        return "Deploy at least one unit."
    if state.owner[a.region] != seat:
        return f"Units are deployed only into your own cities; {name} is not yours."
    p = state.players[seat]
    if a.unit == SPECIAL:
        if not state.config.special_units:
            return "Special units are only used in the special-units variant."
        kind = special_type(seat)
        if a.count != 1:
            return "There is only one special unit."
        if p.special != SPECIAL_BOX or not state.special_deployable[seat]:
            return "Your special unit was not in your recruitment box at the start of this turn."
        if not state.temple[a.region]:
            return f"The special unit may only be deployed into a city with a temple; {name} has none."
    else:
        kind = a.unit
        if a.unit not in (0, 1):
            return "Deploy legions or galleys."
        if state.deployable[a.unit] < a.count:
            return (
                f"Only units that were in your recruitment box at the start of the turn can be deployed; "
                f"{count(state.deployable[a.unit], UNIT_WORDS[a.unit])} "
                f"{'remains' if state.deployable[a.unit] == 1 else 'remain'} deployable."
            )
    if not m.accepts[kind][a.region]:
        what = "galleys" if kind == 1 else "legions"
        return f"{name} is {with_article(m.kinds[a.region].lower())} region: it cannot take {what}."
    left = limit(state, a.region)
    if a.count > left:
        cap = RULES.deploy_limit_temple if state.temple[a.region] else RULES.deploy_limit
        return f"{name} may receive at most {count(cap, 'new unit')} per MILITIA action; {max(0, left)} left."
    iron = iron_cost(state, a.unit, a.count)
    if not can_pay(p.res, (0, iron, 0)):
        return f"Deploying {unit_phrase(a.unit, a.count, seat)} costs {iron} iron; you have {holdings_text(p.res)}."
    return check_choice(p.res, (0, iron, 0), 0, a.pay)


def options(state: State, seat: int) -> Iterator[Deploy]:
    """Every legal deployment."""
    if not in_militia(state):
        return
    for r, o in enumerate(state.owner):
        if o != seat:
            continue
        left = limit(state, r)
        if left <= 0:
            continue
        for t in (0, 1):
            for n in range(1, min(left, state.deployable[t]) + 1):
                yield from _paid(state, seat, Deploy(t, n, r))
        if state.config.special_units:
            yield from _paid(state, seat, Deploy(SPECIAL, 1, r))


def _paid(state: State, seat: int, a: Deploy) -> Iterator[Deploy]:
    """``a`` paid chips first, then every other way to pay it, when it is legal.

    An unaffordable one is skipped before its check, which would refuse it too after wording
    a refusal nobody reads (the list is made for every step of a MILITIA action)."""
    iron = iron_cost(state, a.unit, a.count)
    res = state.players[seat].res
    if can_pay(res, (0, iron, 0)) and check(state, seat, a) is None:
        yield a
        for p in payments(res, (0, iron, 0))[1:]:
            yield Deploy(a.unit, a.count, a.region, p)


def apply(state: State, seat: int, a: Deploy, log: Log) -> None:
    """Deploy, pay, and fight enemy units of the same type already there."""
    p = state.players[seat]
    iron = iron_cost(state, a.unit, a.count)
    paid = settle(state, seat, (0, iron, 0), 0, a.pay)
    free = min(a.count, state.mods.get(FREE_DEPLOY, 0))
    if free:
        state.mods[FREE_DEPLOY] -= free
        if not state.mods[FREE_DEPLOY]:
            del state.mods[FREE_DEPLOY]
    state.deployed[a.region] = state.deployed.get(a.region, 0) + a.count
    what = unit_phrase(a.unit, a.count, seat)
    name = log.region(a.region)
    said = with_article(what) if a.count == 1 and a.unit != SPECIAL else what  # "deploy a legion"
    if a.unit == SPECIAL:
        # Decision: a deployed special unit does not fight enemy regular units (as when it moves, D-35b).
        p.special = a.region
        state.special_deployable[seat] = False
        log.say(f"{log.nation(seat)} deploy their {what} to {name} for {describe(paid)}.", "deploy", [a.region])
        return
    t = a.unit
    p.box[t] -= a.count
    state.deployable[t] -= a.count
    enemy = 1 - seat
    # D-35a: a special unit is not fought by newly deployed units.
    fights = min(a.count, state.units[enemy][t][a.region])
    state.units[seat][t][a.region] += a.count - fights
    battle = ""
    if fights:
        state.units[enemy][t][a.region] -= fights
        p.box[t] += fights
        state.players[enemy].box[t] += fights
        battle = f"; battle: both lose {fights} {UNIT_WORDS[t]}{'s' if fights != 1 else ''}"
    log.say(
        f"{log.nation(seat)} deploy {said} to {name} for {describe(paid)}{battle}.",
        "battle" if fights else "deploy",
        [a.region],
    )
