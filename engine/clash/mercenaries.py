"""Mercenaries (action card, data file 7.1): a Barbarian settlement near the player attacks
another player's city through the Barbarian attack rules (rules 11.3), paid per Barbarian unit.
"""

from __future__ import annotations

from engine.clash.board import distances_from
from engine.clash.card_effects import city_by_word, colour
from engine.clash.card_flow import Step, handler, push
from engine.clash.notation import city_word
from engine.clash.state import State
from engine.core.events import Event, public
from engine.core.text import count, join_words


# ------------------------------------------------------------------ Mercenaries
def _merc_budget(state: State, seat: int) -> int:
    p = state.pl[seat]
    return p.res["food"] + p.res["wood"] + p.res["ore"] + p.res["gold"] + p.culture_tokens


def mercenary_targets(state: State, seat: int, camp: str) -> list[str]:
    """Other players' cities within 2 spaces of the settlement (never the Great Wall owner's, D-32)."""
    from engine.clash.combat import great_wall_owner

    near = distances_from(state, camp, 2)
    wall = great_wall_owner(state)
    return [c.space for c in state.cities if c.owner >= 0 and c.owner not in (seat, wall) and c.space in near]


def mercenary_camps(state: State, seat: int) -> list[str]:
    """Barbarian settlements within 2 spaces of ``seat``'s cities or army units, with units, a
    target and a price ``seat`` can pay (1 food, wood, ore or culture token per unit; Decision:
    gold may stand in, as in any payment)."""
    from engine.clash.barbarians import barbarian_units_at, camps

    mine = {c.space for c in state.cities_of(seat)} | {
        u.space for u in state.units if u.owner == seat and u.kind == "army"
    }
    out = []
    for camp in camps(state):
        n = len(barbarian_units_at(state, camp.space))
        if not n or n > _merc_budget(state, seat) or not mercenary_targets(state, seat, camp.space):
            continue
        if any(camp.space in distances_from(state, sp, 2) for sp in mine):
            out.append(camp.space)
    return out


@handler(
    "merc_camp",
    lambda s, st: mercenary_camps(s, int(st["seat"])),
    lambda s, st: "choose the Barbarian settlement you hire",
)
def _merc_camp(state: State, step: Step, choice: str) -> list[Event]:
    from engine.clash.barbarians import barbarian_units_at

    seat = int(step["seat"])
    p = state.pl[seat]
    due = len(barbarian_units_at(state, choice))
    paid: list[str] = []
    # Decision: paid in food, wood, ore, culture tokens, then gold.
    for res in ("food", "wood", "ore", "culture", "gold"):
        while due:
            if res == "culture" and p.culture_tokens:
                p.culture_tokens -= 1
            elif res != "culture" and p.res[res]:
                p.res[res] -= 1
            else:
                break
            paid.append(res)
            due -= 1
    push(state, {"do": "merc_target", "seat": seat, "camp": choice})
    what = join_words(
        [
            count(paid.count(r), "culture token") if r == "culture" else f"{paid.count(r)} {r}"
            for r in dict.fromkeys(paid)
        ]
    )
    return [public(f"{colour(seat)} hires the Barbarians of {choice.upper()} for {what}.", "card")]


@handler(
    "merc_target",
    lambda s, st: [city_word(s, sp) for sp in mercenary_targets(s, int(st["seat"]), str(st["camp"]))],
    lambda s, st: "choose the city the Barbarians attack",
)
def _merc_target(state: State, step: Step, choice: str) -> list[Event]:
    from engine.clash.barbarians import begin_attack
    from engine.clash.combat import sentence

    city = city_by_word(state, choice)
    lines = begin_attack(state, city.owner, str(step["camp"]), city.space, None)
    return [public(sentence(lines), "barbarians")] if lines else []
