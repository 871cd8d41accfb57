"""Advances: eligibility, cost with discounts, acquisition effects and government switches
(rules sections 8.1 and 18).

Why one ``acquire`` for every way of gaining an advance (action, status-phase free advance,
Dogma): the procedure is the same (cube, border step and token, event hook, "when acquired"
effects, Philosophy and Free Education triggers); only the base cost differs (rules 8.1, last
paragraph: Steel Weapons' 2 Ore stay due unless Metallurgy).
"""

from __future__ import annotations

from itertools import combinations

from engine.clash.data import ADVANCES, TABLES
from engine.clash.resources import add_cost, clamp, gain, gain_mood, pay, plan_payment, raise_level
from engine.clash.state import Player, State

GOVERNMENTS = TABLES.governments


def government_of(p: Player) -> str:
    """The government category whose advances ``p`` owns (``""`` if none)."""
    for a in p.advances:
        cat = ADVANCES[a].category
        if cat in GOVERNMENTS:
            return cat
    return ""


def eligible(p: Player, adv: str) -> bool:
    """Rules 8.1 eligibility: not owned, first of a new category, red prerequisite, gateway."""
    if adv in p.advances:
        return False
    a = ADVANCES[adv]
    owned_in_cat = [x for x in p.advances if ADVANCES[x].category == a.category]
    if not owned_in_cat and a.index != 0:
        return False
    if a.prereq and a.prereq not in p.advances:
        return False
    return not (a.category in GOVERNMENTS and a.index == 0 and a.gateway not in p.advances)


def switch_options(p: Player, adv: str) -> list[tuple[str, ...]]:
    """For the first advance of a new government while owning k advances of another: every
    choice of the k-1 other advances of the new government (rules 18.4). ``[()]`` otherwise."""
    a = ADVANCES[adv]
    current = government_of(p)
    if a.category not in GOVERNMENTS or not current or current == a.category:
        return [()]
    k = sum(1 for x in p.advances if ADVANCES[x].category == current)
    others = [x for x in TABLES.by_category[a.category] if x != adv]
    return [tuple(c) for c in combinations(others, k - 1)]


def base_cost_waived(state: State, p: Player, adv: str) -> bool:
    """Math, Astronomy, Metallurgy and Priesthood (once per turn, Science) waive the Food."""
    a = ADVANCES[adv]
    if "math" in p.advances and adv in ("engineering", "roads"):
        return True
    if "astronomy" in p.advances and adv in ("navigation", "cartography"):
        return True
    if "metallurgy" in p.advances and adv == "steel_weapons":
        return True
    return "priesthood" in p.advances and a.category == "science" and "priesthood" not in p.used


def cost_of(state: State, p: Player, adv: str, free: bool) -> dict[str, int]:
    """What acquiring ``adv`` costs (``free``: status phase / Dogma, base cost waived)."""
    base: dict[str, int] = {} if free or base_cost_waived(state, p, adv) else dict(TABLES.rules["advance_cost"])
    extra: dict[str, int] = dict(TABLES.extra_cost.get(adv, {}))
    if adv == "steel_weapons" and "metallurgy" in p.advances:
        extra = {}
    return add_cost(base, extra)


def payment(state: State, p: Player, adv: str, free: bool) -> dict[str, int] | None:
    """The planned payment (Ideas before Food for the base cost, Gold for any shortfall)."""
    return plan_payment(p, cost_of(state, p, adv, free), order=("ideas",))


def acquire(state: State, seat: int, adv: str, keep: tuple[str, ...], free: bool) -> list[str]:
    """Pay for and place ``adv`` (switching government with ``keep``); returns narration lines."""
    p = state.pl[seat]
    lines: list[str] = []
    plan = payment(state, p, adv, free)
    if plan is None:
        raise AssertionError("acquire called without the means to pay")
    if not free and ADVANCES[adv].category == "science" and base_cost_waived(state, p, adv):
        p.used.append("priesthood")
    pay(p, plan)
    a = ADVANCES[adv]
    had_government = bool(government_of(p))
    current = government_of(p)
    if a.category in GOVERNMENTS and current and current != a.category:
        removed = [x for x in p.advances if ADVANCES[x].category == current]
        p.advances = [x for x in p.advances if x not in removed]
        p.advances.extend(keep)
        lines.append(
            f"switches government from {current.capitalize()} to {a.category.capitalize()}, moving {len(removed)} cubes"
        )
    p.advances.append(adv)
    # Border step and token (rules 4.3); relocated cubes trigger nothing (D-21).
    if a.border:
        raise_level(state, seat, a.border)
    # "When acquired" effects of the advance itself.
    if adv == "philosophy":
        gain(p, "ideas", 1)
    elif adv == "metallurgy" and "steel_weapons" in p.advances:
        gain(p, "ore", 2)
    elif adv == "dogma":
        clamp(p)
    elif adv in ("engineering", "monuments"):
        # Rules 15: the top wonder card is turned face up (building wonders comes with the second part).
        if state.wonder_deck:
            wonder = state.wonder_deck.pop(0)
            state.revealed_wonders.append(wonder)
            lines.append(f"reveals the wonder {TABLES.wonders[wonder].name}")
        if adv == "monuments" and reservable(state):
            state.pending = {"kind": "reserve", "seat": seat}
    # Triggers of other owned advances.
    if a.category == "science" and adv != "philosophy" and "philosophy" in p.advances:
        gain(p, "ideas", 1)
    if (
        "free_education" in p.advances
        and adv != "free_education"
        and "free_education" not in p.used
        and (plan.get("ideas", 0) or plan.get("gold", 0))
    ):
        p.used.append("free_education")
        gain_mood(p)
    from engine.clash.wonders import library_trigger

    library_trigger(state, seat, adv)
    # Writing (D-22): one Action + one Objective card once a government advance is owned.
    if "writing" in p.advances and not p.writing_cards and (had_government or a.category in GOVERNMENTS):
        p.writing_cards = True
        state.card_log.append([seat, "writing"])
    return lines


def reservable(state: State) -> list[str]:
    """Revealed wonders nobody has reserved (Monuments, rules 15)."""
    return [w for w in state.revealed_wonders if w not in state.reserved]
