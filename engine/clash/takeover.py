"""Cultural Takeover (action card, data file 7.1): the player's next Cultural Influence this turn
may target a size-1 Barbarian settlement; on success it becomes his angry city, one Barbarian
unit there is replaced by his Settler or army unit and the others are removed.

Why a separate attempt here rather than in the influence rules: a Barbarian settlement is never
a target of ordinary influence (rules 8.6); the card adds exactly one such attempt, which follows
the same steps (source without foreign pieces, range = size plus culture tokens, one die, 5+ or
4+ with Conversion, tokens after the roll, one success per turn) and replaces a settlement
instead of a building.
"""

from __future__ import annotations

from engine.clash.actions import Action
from engine.clash.board import distances_from
from engine.clash.card_effects import colour
from engine.clash.card_flow import Step, handler, push, run_steps
from engine.clash.cities import city_named, units_of
from engine.clash.data import LIMITS
from engine.clash.decks import flags
from engine.clash.influence import USED, can_source, influence_range, roll_die, success_at
from engine.clash.resources import gain_culture
from engine.clash.state import BARBARIAN, State
from engine.core.events import Event, public
from engine.core.text import count

FLAG = "cultural_takeover"


def takeover_options(state: State, seat: int) -> list[Action]:
    """Takeover attempts ``seat`` may make now (the card played this turn, an action left)."""
    p = state.pl[seat]
    if FLAG not in flags(state, seat) or state.actions_left < 1 or USED in p.used:
        return []
    if len(state.cities_of(seat)) >= LIMITS["settlement"]:
        return []
    camps = [c for c in state.cities if c.owner == BARBARIAN and c.size == 1]
    out = []
    for src in state.cities_of(seat):
        if not can_source(state, seat, src):
            continue
        reach = influence_range(state, src)
        dist = distances_from(state, src.space, reach + p.culture_tokens)
        for camp in camps:
            if camp.space in dist:
                out.append(Action("takeover", space=src.space, to=camp.space, n=max(0, dist[camp.space] - reach)))
    return out


def attempt(state: State, seat: int, a: Action) -> list[Event]:
    """Pay the action and the range tokens, roll, and resolve or offer tokens for the roll."""
    p = state.pl[seat]
    state.decks["flags"][seat].remove(FLAG)
    state.actions_left -= 1
    p.culture_tokens -= a.n
    roll = roll_die(state)
    short = success_at(state, seat) - roll
    head = f"{colour(seat)} attempts a cultural takeover of the Barbarian settlement on {a.to.upper()}: rolls {roll}"
    state.changed.append(a.to)
    if short <= 0:
        return [public(head + ".", "influence"), *_succeed(state, seat, a.to)]
    if p.culture_tokens >= short:
        push(state, {"do": "takeover_boost", "seat": seat, "camp": a.to, "short": short})
        return [
            public(f"{head}; {count(short, 'culture token')} would make it a success.", "influence"),
            *run_steps(state),
        ]
    return [public(head + ": no success.", "influence")]


@handler(
    "takeover_boost",
    lambda s, st: ["boost", "accept"],
    lambda s, st: (
        f"`choose boost` spends {count(int(st['short']), 'culture token')} for a success, `choose accept` fails"
    ),
    always_ask=True,
)
def _boost(state: State, step: Step, choice: str) -> list[Event]:
    seat = int(step["seat"])
    if choice != "boost":
        return [public(f"{colour(seat)} keeps the tokens: no success.", "influence")]
    state.pl[seat].culture_tokens -= int(step["short"])
    return _succeed(state, seat, str(step["camp"]))


def _succeed(state: State, seat: int, space: str) -> list[Event]:
    camp = state.city_at(space)
    assert camp is not None
    p = state.pl[seat]
    p.used.append(USED)
    camp.owner = seat
    camp.mood = "angry"
    camp.name = city_named(state, seat)
    barbarians = [u for u in state.units if u.space == space and u.owner == BARBARIAN]
    state.units = [u for u in state.units if u not in barbarians]
    tail = ""
    if "conversion" in p.advances:
        tail = f"; Conversion gives {count(gain_culture(p, 1), 'culture token')}"
    if barbarians:
        push(state, {"do": "takeover_unit", "seat": seat, "space": space})
    return [public(f"{colour(seat)} takes over the settlement: it becomes {camp.name}, angry{tail}.", "influence")]


def _unit_options(state: State, step: Step) -> list[str] | None:
    from engine.clash.cities import armies_on

    seat = int(step["seat"])
    out = []
    if units_of(state, seat, "army") < LIMITS["army"] and armies_on(state, str(step["space"]), seat) < LIMITS["stack"]:
        out.append("army")
    if units_of(state, seat, "settler") < LIMITS["settler"]:
        out.append("settler")
    return out


@handler(
    "takeover_unit", _unit_options, lambda s, st: "choose the unit that replaces a Barbarian unit: army or settler"
)
def _unit(state: State, step: Step, choice: str) -> list[Event]:
    from engine.clash.cities import add_unit

    seat = int(step["seat"])
    add_unit(state, seat, choice, str(step["space"]))
    what = "an army unit" if choice == "army" else "a settler"
    return [public(f"{colour(seat)} gains {what} in the new city.", "influence")]
