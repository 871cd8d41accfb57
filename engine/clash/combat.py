"""Battles: when they happen, who may attack, the sequence of rounds with the attacker's choice to
go on or stop, and the end of a battle (rules 10.1-10.6).

Why a battle is a small step machine kept in ``state.battle``: between rounds the rules give
choices to seats that are not necessarily the active one (the attacker's Siegecraft payment and
continue-or-stop, either side's combat card, the beaten defender's refugee Settler). Each choice
is an ordinary pending decision (``state.pending``), so ``to_move`` names the seat that is awaited
and the platform's deadlines, reminders and ``on_timeout`` work as for any turn. When the choice is
made, :func:`run_battle` picks up at the recorded ``step``.

Steps: ``start`` (no resistance: settlers destroyed or an undefended city captured, no dice),
``siege`` (round 1 only), ``cards_attacker``, ``cards_defender``, ``roll``, then either the end
or the attacker's decision (``battle`` pending: ``continue`` / ``retreat``).
"""

from __future__ import annotations

from typing import Any

from engine.clash.capture import after_battle, open_next
from engine.clash.combat_rounds import (
    after_round_cards,
    card_options,
    describe_notes,
    fighting_units,
    has_fortress,
    roll_round,
)
from engine.clash.data import LIMITS, TABLES
from engine.clash.state import BARBARIAN, State, Unit
from engine.core.text import count


def name(seat: int) -> str:
    """Display name of a seat (the Barbarians included)."""
    return "the Barbarians" if seat == BARBARIAN else TABLES.colours[seat]


def defender_of(state: State, space: str, seat: int) -> int:
    """The owner of the foreign city or units on ``space``."""
    city = state.city_at(space)
    if city is not None and city.owner != seat:
        return city.owner
    return next(u.owner for u in state.units if u.space == space and u.owner != seat)


def great_wall_owner(state: State) -> int:
    """The seat owning the Great Wall, or -2."""
    return next((c.owner for c in state.cities if c.wonder == "great_wall" and c.owner >= 0), -2)


def attack_refusal(state: State, seat: int, dest: str, units: list[Unit], items: tuple[str, ...]) -> str:
    """Why the group ``items`` taken from ``units`` may not start a land battle on ``dest``
    (``""``: it may). ``units`` are the movable units on the group's space."""
    if "army" not in items:
        return "Settlers cannot start a battle on their own: an army unit must go with them."
    if items.count("army") > LIMITS["stack"]:
        return "At most 4 army units may attack together."
    fresh = [u for u in units if not u.forest]
    for kind in ("army", "settler"):
        if sum(1 for u in fresh if u.kind == kind) < items.count(kind):
            return "Units that entered a Forest this turn may move on, but not into a battle."
    from engine.clash.decks import truce_forbids

    if truce_forbids(state, seat, defender_of(state, dest, seat)):
        return "Negotiations: you may not attack that player this turn."
    city = state.city_at(dest)
    if city is not None and city.owner >= 0 and city.owner != seat:
        p = state.pl[seat]
        if great_wall_owner(state) == city.owner and "fortress" in city.pieces and "siegecraft" not in p.advances:
            return "The Great Wall protects that city's Fortress: attacking it needs Siegecraft."
        if city.wonder == "mausoleum" and p.mood_tokens + p.culture_tokens < items.count("army"):
            return "Each army unit attacking the Mausoleum's city costs 1 mood or culture token."
    return ""


def ship_attack_allowed(state: State, seat: int, dest: str) -> bool:
    """Ships may attack foreign Ships on a Sea space (rules 10.1), unless Negotiations forbid it."""
    from engine.clash.decks import truce_forbids

    return any(
        u.space == dest and u.owner != seat and u.kind == "ship" and not truce_forbids(state, seat, u.owner)
        for u in state.units
    )


# ------------------------------------------------------------------ starting
def _new_battle(state: State, kind: str, seat: int, defender: int, space: str, origin: str) -> dict[str, Any]:
    city = state.city_at(space)
    return {
        "kind": kind,
        "attacker": seat,
        "defender": defender,
        "space": space,
        "origin": origin,
        "att": [],
        "carriers": {},
        "disembark": False,
        "built": False,
        "round": 1,
        "siege": [],
        "cards": {"attacker": [], "defender": []},
        "mood": city.mood if city is not None and city.owner == defender else "",
        "city": city.name if city is not None and city.owner == defender else "",
        "size": city.size if city is not None and city.owner == defender else 0,
        "temple": city is not None and "temple" in city.pieces,
        "rounds": [],
        "lost": {"attacker": 0, "defender": 0},
        "start_units": {"attacker": 0, "defender": 0},
        "step": "start",
        "result": "",
        "winner": -2,
        "captured": False,
        "when": turn_key(state),
    }


def start_land_battle(state: State, seat: int, units: list[Unit], origin: str, dest: str) -> list[str]:
    """The group has arrived on ``dest`` (already moved there): fight (rules 10.1-10.2)."""
    defender = defender_of(state, dest, seat)
    b = _new_battle(state, "land", seat, defender, dest, origin)
    b["att"] = [u.id for u in units]
    b["disembark"] = any(u.carrier >= 0 for u in units)
    b["carriers"] = {str(u.id): u.carrier for u in units if u.carrier >= 0}
    city = state.city_at(dest)
    if city is not None and city.wonder == "mausoleum" and city.owner != seat:
        # D-35: the attacking move pays 1 token per army unit (mood tokens first: Decision).
        p = state.pl[seat]
        n = sum(1 for u in units if u.kind == "army")
        mood = min(p.mood_tokens, n)
        p.mood_tokens -= mood
        p.culture_tokens -= n - mood
    for u in units:
        u.space = dest
        u.carrier = -1
    state.battle = b
    return [f"attacks {name(defender)} on {dest.upper()}", *run_battle(state)]


def start_naval_battle(state: State, seat: int, ships: list[Unit], origin: str, dest: str, built: bool) -> list[str]:
    """Ships (with their cargo, already on ``dest``) attack the foreign Ships there (rules 10.6);
    ``built``: the ships were built onto the enemy and cannot stop (D-15)."""
    defender = defender_of(state, dest, seat)
    b = _new_battle(state, "naval", seat, defender, dest, origin)
    b["att"] = [s.id for s in ships]
    b["built"] = built
    state.battle = b
    return [f"attacks {name(defender)}'s ships on {dest.upper()}", *run_battle(state)]


# ------------------------------------------------------------------ the rounds
def siege_options(state: State) -> list[tuple[str, ...]]:
    """What the attacker may pay with Siegecraft (2 Wood: no Fortress die; 2 Ore: no cancel)."""
    b = state.battle
    p = state.pl[int(b["attacker"])]
    if "siegecraft" not in p.advances or not has_fortress(state, b) or int(b["round"]) != 1:
        return []
    res = p.res
    out: list[tuple[str, ...]] = [()]
    for pick in (("wood",), ("ore",), ("wood", "ore")):
        need_w = 2 if "wood" in pick else 0
        need_o = 2 if "ore" in pick else 0
        short = max(0, need_w - res["wood"]) + max(0, need_o - res["ore"])
        if short <= res["gold"]:
            out.append(pick)
    return out if len(out) > 1 else []


def pay_siege(state: State, pick: tuple[str, ...]) -> None:
    """Pay 2 Wood and/or 2 Ore; Gold stands in for what is missing (rules 4.1: Gold is a
    wildcard in any payment)."""
    p = state.pl[int(state.battle["attacker"])]
    for r in pick:
        own = min(2, p.res[r])
        p.res[r] -= own
        p.res["gold"] -= 2 - own
    state.battle["siege"] = list(pick)


def run_battle(state: State) -> list[str]:
    """Carry the battle on until a seat must choose or the battle ends; narration lines."""
    lines: list[str] = []
    while state.battle and not state.pending:
        b = state.battle
        step = b["step"]
        if step == "start":
            b["start_units"] = {s: len(fighting_units(state, b, s)) for s in ("attacker", "defender")}
            if not b["start_units"]["defender"] and not has_fortress(state, b):
                lines.extend(end_battle(state, "attacker"))
                continue
            b["step"] = "siege"
        elif step == "siege":
            b["step"] = "cards_attacker"
            if siege_options(state):
                state.pending = {"kind": "siege", "seat": int(b["attacker"])}
                lines.append(f"{name(int(b['attacker']))} may pay for Siegecraft")
        elif step in ("cards_attacker", "cards_defender"):
            side = step[6:]
            b["step"] = "cards_defender" if side == "attacker" else "roll"
            if card_options(state, b, side):
                state.pending = {"kind": "combat_card", "seat": int(b[side]), "side": side}
                lines.append(f"{name(int(b[side]))} may play a combat card")
        elif step == "roll":
            if b.get("end_now"):
                # A card ended the battle before the dice (e.g. a tactical retreat): see combat_rounds.
                lines.extend(end_battle(state, str(b.pop("end_now"))))
                continue
            lines.append(_round(state))
            lines.extend(after_round_cards(state, b))
            left = {s: len(fighting_units(state, b, s)) for s in ("attacker", "defender")}
            if not left["attacker"] or not left["defender"]:
                # D-14; Decision: a city defended only by its Fortress holds (the defender wins)
                # when every attacker falls in round 1.
                alone = not b["start_units"]["defender"]
                winner = "attacker" if left["attacker"] else "defender" if left["defender"] or alone else "none"
                lines.extend(end_battle(state, winner))
                continue
            b["round"] = int(b["round"]) + 1
            b["cards"] = {"attacker": [], "defender": []}
            b["step"] = "cards_attacker"
            if not b["built"]:
                b["step"] = "decide"
                state.pending = {"kind": "battle", "seat": int(b["attacker"])}
                lines.append(f"{name(int(b['attacker']))} may continue the attack or retreat")
        elif step == "decide":
            raise AssertionError("the attacker's decision is pending")
    return lines


def _round(state: State) -> str:
    """Roll one round, remove the casualties simultaneously, and say what happened."""
    b = state.battle
    res = roll_round(state, b)
    lost_att = _casualties(state, b, "attacker", res["defender"].hits)
    lost_def = _casualties(state, b, "defender", res["attacker"].hits)
    b["lost"]["attacker"] += lost_att
    b["lost"]["defender"] += lost_def
    b["rounds"].append({"attacker": res["attacker"].to_json(), "defender": res["defender"].to_json()})
    parts = []
    for side in ("attacker", "defender"):
        r = res[side]
        dice = ", ".join(str(d) for d in r.dice)
        extra = f" with {describe_notes(b, r.notes)}" if r.notes else ""
        roller = name(int(b[side]))
        if int(b[side]) == BARBARIAN:
            roller += f" (rolled by {name(state.left_of(int(b['attacker' if side == 'defender' else 'defender'])))})"
        parts.append(
            f"{roller} {'roll' if roller.startswith('the') else 'rolls'} {dice or 'no dice'}{extra}: "
            f"{count(r.hits, 'hit')}"
        )
    return f"round {b['round']}: " + "; ".join(parts)


def _casualties(state: State, b: dict[str, Any], side: str, hits: int) -> int:
    """Remove ``hits`` fighting units of ``side``. Decision: units of one kind are alike, except
    Ships with cargo: the owner loses the ships carrying the least cargo first (cargo dies with
    its ship, rules 10.6)."""
    units = fighting_units(state, b, side)
    if b["kind"] == "naval":
        units.sort(key=lambda s: (sum(1 for c in state.units if c.carrier == s.id), -s.number))
    else:
        units.sort(key=lambda u: -u.id)
    dead = units[:hits]
    for u in dead:
        remove_unit(state, u)
    return len(dead)


def remove_unit(state: State, unit: Unit) -> None:
    """Take a unit off the board (a Ship's cargo goes with it)."""
    gone = {unit.id} | {c.id for c in state.units if c.carrier == unit.id}
    state.units = [u for u in state.units if u.id not in gone]
    if state.battle:
        state.battle["att"] = [i for i in state.battle["att"] if i not in gone]


# ------------------------------------------------------------------ decisions
def decide(state: State, go_on: bool) -> list[str]:
    """The attacker continues (next round) or stops: everyone who attacked goes back (rules 10.5)."""
    state.pending = {}
    b = state.battle
    if go_on:
        b["step"] = "cards_attacker"
        return run_battle(state)
    return retreat(state)


def retreat(state: State) -> list[str]:
    """All attacking units return simultaneously to where they came from; disembarked units board
    their ship again; they still count as having fought."""
    b = state.battle
    ids = set(b["att"])
    carriers = {int(k): int(v) for k, v in b["carriers"].items()}
    ships = {u.id for u in state.units if u.kind == "ship"}
    for u in state.units:
        if u.id in ids:
            u.space = b["origin"]
            u.fought = True
            if u.id in carriers and carriers[u.id] in ships:
                u.carrier = carriers[u.id]
        elif u.carrier in ids:
            u.space = b["origin"]
    state.changed.append(b["origin"])
    return [
        f"{name(int(b['attacker']))} stops the attack and returns to {str(b['origin']).upper()}",
        *_close(state, "retreat", []),
    ]


def end_battle(state: State, winner: str) -> list[str]:
    """One side has no fighting unit left (or there was no resistance): settlers, capture, records."""
    b = state.battle
    space = b["space"]
    seat, defender = int(b["attacker"]), int(b["defender"])
    lines: list[str] = []
    ids = set(b["att"])
    for u in state.units:
        if u.id in ids:
            u.fought = True
    if winner == "attacker":
        lines.append(f"{name(seat)} wins the battle" if b["rounds"] else f"{name(seat)} meets no resistance")
    elif winner == "defender":
        lines.append(f"{name(defender)} wins the battle")
    else:
        lines.append("both sides are wiped out")
    if b["kind"] == "land":
        if winner in ("defender", "none"):
            for u in [u for u in state.units if u.id in ids]:
                remove_unit(state, u)
        if winner in ("attacker", "none"):
            settlers = [u for u in state.units if u.space == space and u.owner == defender and u.kind == "settler"]
            for u in settlers:
                remove_unit(state, u)
            if settlers:
                lines.append(f"{name(defender)} loses {count(len(settlers), 'settler')}")
    more, queue = after_battle(state, b, winner)
    lines.extend(more)
    return lines + _close(state, winner, queue)


def _close(state: State, winner: str, queue: list[dict[str, Any]]) -> list[str]:
    """Record the finished battle and open the follow-up choices (refugees, Fanaticism, camp)."""
    b = state.battle
    b["result"] = winner
    b["winner"] = {"attacker": b["attacker"], "defender": b["defender"]}.get(winner, -2)
    b["step"] = "over"
    b["when"] = turn_key(state)
    state.battles.append(b)
    state.battle = {}
    state.changed.append(str(b["space"]))
    return open_next(state, queue)


def turn_key(state: State) -> str:
    """Which turn a battle belongs to (round, turn, active seat, phase)."""
    return f"{state.round}.{state.turn}.{state.active}.{state.phase}"


def prune_battles(state: State) -> None:
    """At the end of a turn keep only that turn's battles: they stay on the image during the next
    turn until it has battles of its own. Finished records are never changed afterwards, so a
    reader may compare them before and after an action (the immediate objectives do)."""
    key = turn_key(state)
    state.battles = [b for b in state.battles if b.get("when") == key]


def shown_battles(state: State) -> list[dict[str, Any]]:
    """The battles the turn's image shows: this turn's, else the previous turn's."""
    key = turn_key(state)
    now = [b for b in state.battles if b.get("when") == key]
    return now or list(state.battles)


def battle_after_build(state: State, seat: int, city: Any) -> list[str]:
    """Ships built onto a foreign Ship in the port space attack it at once and cannot stop (D-15)."""
    port = str(city.port_space)
    if not port or not any(u.space == port and u.owner != seat and u.kind == "ship" for u in state.units):
        return []
    ships = [u for u in state.units if u.space == port and u.owner == seat and u.kind == "ship"]
    if not ships:
        return []
    return [
        f"{name(seat)}'s new {'ship' if len(ships) == 1 else 'ships'}",
        *start_naval_battle(state, seat, ships, port, port, built=True),
    ]


def sentence(lines: list[str]) -> str:
    """Narration lines as one sentence (first letter capital, final full stop)."""
    text = "; ".join(x for x in lines if x)
    return (text[:1].upper() + text[1:] + ".") if text else ""
