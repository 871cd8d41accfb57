"""Facts of finished battles for the immediate objectives and the cards that need them (rules
13; data file 7.1 and 8): who won a land battle, captured a city, killed how many units.

Why read the battle records instead of being called by the combat rules: the combat rules keep
every finished battle of the turn in ``state.battles`` (for the turn's image); comparing the
records before and after an action tells everything the objectives need, without a call from
the combat code into the card code.
"""

from __future__ import annotations

import json
from typing import Any

from engine.clash.decks import add_fact, facts
from engine.clash.state import BARBARIAN, State

WARFARE = ("tactics", "siegecraft", "steel_weapons", "draft")


def battle_keys(state: State) -> list[str]:
    """One key per finished battle now recorded (before an action)."""
    return [json.dumps(b, sort_keys=True) for b in getattr(state, "battles", [])]


def record(state: State, before: list[str]) -> None:
    """Add the facts of every battle finished by the last action."""
    seen = set(before)
    for b in getattr(state, "battles", []):
        if json.dumps(b, sort_keys=True) not in seen:
            _facts_of(state, b)


def _warfare(state: State, seat: int) -> int:
    return sum(1 for a in state.pl[seat].advances if a in WARFARE)


def _facts_of(state: State, b: dict[str, Any]) -> None:
    kind = str(b.get("kind", ""))
    att, dfd = int(b["attacker"]), int(b["defender"])
    space = str(b["space"])
    lost = b.get("lost", {})
    start = b.get("start_units", {})
    winner = int(b.get("winner", -2))
    sides = {"attacker": att, "defender": dfd}
    other = {"attacker": "defender", "defender": "attacker"}
    if kind == "barbarian_attack":
        if dfd >= 0 and int(lost.get("attacker", 0)) >= 2 and state.city_at(space) is not None:
            add_fact(state, dfd, "resistance")
        return
    for side, seat in sides.items():
        if seat < 0:
            continue
        enemy = sides[other[side]]
        mine, theirs = int(start.get(side, 0)), int(start.get(other[side], 0))
        killed = int(lost.get(other[side], 0))
        won = winner == seat
        if kind == "land":
            before_land = [f for f in facts(state, seat) if f.startswith("land_battle:")]
            add_fact(state, seat, f"land_battle:{space}:{int(won)}")
            elsewhere = any(f.split(":")[1] != space for f in before_land)
            if elsewhere and (won or any(f.endswith(":1") for f in before_land)):
                add_fact(state, seat, "warmonger")
            if killed >= 3:
                add_fact(state, seat, "general")
            if mine + theirs >= 6:
                add_fact(state, seat, "great_battle")
            if won:
                add_fact(state, seat, "won_land")
            if won and side == "attacker" and killed >= 2:
                add_fact(state, seat, "aggressor")
        if won and enemy >= 0 and mine < theirs:
            add_fact(state, seat, "defiance")
        if won and enemy >= 0 and (mine < theirs or _warfare(state, enemy) > _warfare(state, seat)):
            add_fact(state, seat, "bold")
        city = state.city_at(space)
        if side == "attacker" and int(b.get("size", 0)) == 5 and city is not None and city.wonder:
            add_fact(state, seat, "legendary_battle")
    if b.get("captured") and att >= 0:
        if dfd == BARBARIAN:
            if int(lost.get("defender", 0)) >= 2:
                add_fact(state, att, "barbarian_conquest")
                add_fact(state, att, "resistance")
        else:
            add_fact(state, att, f"capture:{dfd}:{space}")
            if b.get("rounds"):
                add_fact(state, att, "capture_defended")
            if b.get("disembark"):
                add_fact(state, att, "naval_assault")
