"""Barbarians from events: "Barbarians appear" and "Barbarian attack" (rules 11.2, 11.3; D-16,
D-17, D-32, D-36, D-39). Barbarians from exploration (11.1) live in :mod:`engine.clash.movement`.

Why each function may stop for a choice and take a ``resume`` record: the drawing player chooses
the space of a new settlement, which settlement gets the extra unit, which settlement attacks
which city on a tie, which units or city pieces absorb the hits, and may play a combat card. Each
such choice is a pending decision; once the symbol is fully resolved, the function named by
``resume["key"]`` in :data:`RESUME` is called with the state and the record, so the event card's
main effect (which comes after its symbol, D-27) continues where it left off. Without ``resume``
the caller looks at ``state.pending`` itself.

Entry points for the event deck: :func:`barbarians_appear` and :func:`barbarian_attack`.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any

from engine.clash.actions import Action
from engine.clash.board import distances_from, is_land
from engine.clash.combat import great_wall_owner, remove_unit, sentence, turn_key
from engine.clash.combat_rounds import card_options, describe_notes, fighting_units, roll_round
from engine.clash.data import LIMITS, TABLES
from engine.clash.state import BARBARIAN, MOODS, City, State, Unit
from engine.core.events import Event, public
from engine.core.text import count, join_words

RESUME: dict[str, Callable[[State, dict[str, Any]], list[str]]] = {}
"""Continuations by key (registered by the event module): called once a symbol is resolved."""

BARBARIAN_KINDS = ("barbarian_spawn", "barbarian_unit", "barbarian_target", "barbarian_losses")


def _resume(state: State, resume: dict[str, Any] | None) -> list[str]:
    if resume and not state.pending:
        return RESUME[str(resume["key"])](state, resume)
    return []


def camps(state: State) -> list[City]:
    """Every Barbarian settlement."""
    return [c for c in state.cities if c.owner == BARBARIAN]


def barbarian_units_at(state: State, space: str) -> list[Unit]:
    """Barbarian army units on ``space``."""
    return [u for u in state.units if u.space == space and u.owner == BARBARIAN]


def _unit_room(state: State) -> bool:
    return sum(1 for u in state.units if u.owner == BARBARIAN) < LIMITS["barbarian_army"]


# ------------------------------------------------------------------ Barbarians appear
def spawn_spaces(state: State, seat: int) -> list[str]:
    """Rules 11.2 (1): empty (no unit, no city), non-Barren, non-exhausted land spaces within 2
    spaces of one of ``seat``'s cities; none when all 7 settlements are out (D-16)."""
    if len(camps(state)) >= LIMITS["barbarian_settlement"]:
        return []
    near: set[str] = set()
    for c in state.cities_of(seat):
        near.update(distances_from(state, c.space, 2))
    taken = {u.space for u in state.units} | {c.space for c in state.cities}
    return sorted(
        h
        for h in near
        if is_land(state, h) and state.terrain[h] != "barren" and h not in state.exhausted and h not in taken
    )


def reinforce_spaces(state: State) -> list[str]:
    """Rules 11.2 (2): Barbarian settlements that can take one more unit (stack of 4, 16 units)."""
    if not _unit_room(state):
        return []
    return sorted(c.space for c in camps(state) if len(barbarian_units_at(state, c.space)) < LIMITS["stack"])


def barbarians_appear(state: State, seat: int, resume: dict[str, Any] | None = None) -> list[Event]:
    """Event symbol "Barbarians appear" drawn by ``seat``: a new settlement with one unit near his
    cities, then one more unit in a settlement of his choice; impossible steps are skipped.
    Returns the public narration (one event); may leave a pending choice open."""
    return _told(appear_lines(state, seat, resume))


def barbarian_attack(state: State, seat: int, resume: dict[str, Any] | None = None) -> list[Event]:
    """Event symbol "Barbarian attack" drawn by ``seat`` (rules 11.3, CC-EX-40). Returns the
    public narration (one event); may leave a pending choice open."""
    return _told(attack_lines(state, seat, resume))


def _told(lines: list[str]) -> list[Event]:
    return [public(sentence(lines), "barbarians")] if lines else []


def appear_lines(state: State, seat: int, resume: dict[str, Any] | None = None) -> list[str]:
    """:func:`barbarians_appear` as narration lines."""
    spaces = spawn_spaces(state, seat)
    if len(spaces) > 1:
        state.pending = {"kind": "barbarian_spawn", "seat": seat, "options": spaces, "resume": resume or {}}
        return [f"Barbarians appear: {TABLES.colours[seat]} chooses where they settle"]
    lines = spawn(state, spaces[0]) if spaces else ["no space can take a new Barbarian settlement"]
    return lines + _reinforce_step(state, seat, resume)


def spawn(state: State, space: str) -> list[str]:
    """A Barbarian settlement with one Barbarian army unit (none if all 16 are out)."""
    state.cities.append(City(state.new_id(), BARBARIAN, space, f"Barbarian camp {space.upper()}"))
    if _unit_room(state):  # Decision (D-16): with all 16 units out, the settlement comes alone.
        state.units.append(Unit(state.new_id(), BARBARIAN, "army", space))
    state.changed.append(space)
    return [f"Barbarians settle on {space.upper()}"]


def _reinforce_step(state: State, seat: int, resume: dict[str, Any] | None) -> list[str]:
    spaces = reinforce_spaces(state)
    if len(spaces) > 1:
        state.pending = {"kind": "barbarian_unit", "seat": seat, "options": spaces, "resume": resume or {}}
        return [f"{TABLES.colours[seat]} chooses which Barbarian settlement gets one more unit"]
    lines = reinforce(state, spaces[0]) if spaces else []
    return lines + _resume(state, resume)


def reinforce(state: State, space: str) -> list[str]:
    """One more Barbarian unit in the settlement on ``space``."""
    state.units.append(Unit(state.new_id(), BARBARIAN, "army", space))
    state.changed.append(space)
    return [f"a Barbarian unit joins the settlement on {space.upper()}"]


# ------------------------------------------------------------------ Barbarian attack
def attack_pairs(state: State, seat: int) -> list[tuple[str, str]]:
    """Rules 11.3 targeting: among Barbarian settlements with at least one unit within 2 spaces of
    ``seat``'s cities, those with the most units; each attacks ``seat``'s nearest city. Every
    (settlement, city) pair left after the ties is a choice of the drawing player. Never the
    Great Wall owner (D-32)."""
    mine = state.cities_of(seat)
    if not mine or great_wall_owner(state) == seat:
        return []
    best = 0
    cands: list[tuple[int, str, dict[str, int]]] = []
    for camp in camps(state):
        n = len(barbarian_units_at(state, camp.space))
        if not n:
            continue
        dist = distances_from(state, camp.space, 2)
        near = {c.space: dist[c.space] for c in mine if c.space in dist}
        if near:
            cands.append((n, camp.space, near))
            best = max(best, n)
    pairs: list[tuple[str, str]] = []
    for n, space, near in cands:
        if n == best:
            closest = min(near.values())
            pairs.extend((space, c) for c, d in sorted(near.items()) if d == closest)
    return sorted(pairs)


def attack_lines(state: State, seat: int, resume: dict[str, Any] | None = None) -> list[str]:
    """:func:`barbarian_attack` as narration lines."""
    pairs = attack_pairs(state, seat)
    if not pairs:
        return ["no Barbarian settlement can attack", *_resume(state, resume)]
    if len(pairs) > 1:
        state.pending = {
            "kind": "barbarian_target",
            "seat": seat,
            "options": [list(p) for p in pairs],
            "resume": resume or {},
        }
        return [f"the Barbarians attack: {TABLES.colours[seat]} chooses which settlement attacks which city"]
    return begin_attack(state, seat, pairs[0][0], pairs[0][1], resume)


def begin_attack(state: State, seat: int, camp: str, target: str, resume: dict[str, Any] | None) -> list[str]:
    """Every unit of the settlement fights the city from where it stands (D-36); one round."""
    city = state.city_at(target)
    assert city is not None
    state.battle = {
        "kind": "barbarian_attack",
        "attacker": BARBARIAN,
        "defender": seat,
        "space": target,
        "camp": camp,
        "origin": camp,
        "att": [u.id for u in barbarian_units_at(state, camp)],
        "carriers": {},
        "disembark": False,
        "built": False,
        "round": 1,
        "siege": [],
        "cards": {"attacker": [], "defender": []},
        "mood": city.mood,
        "city": city.name,
        "size": city.size,
        "temple": "temple" in city.pieces,
        "rounds": [],
        "lost": {"attacker": 0, "defender": 0},
        "start_units": {"attacker": len(barbarian_units_at(state, camp)), "defender": 0},
        "step": "cards_defender",
        "result": "",
        "winner": -2,
        "captured": False,
        "when": turn_key(state),
        "resume": resume or {},
        "hits": 0,
    }
    state.battle["start_units"]["defender"] = len(fighting_units(state, state.battle, "defender"))
    n = len(state.battle["att"])
    lines = [f"{count(n, 'Barbarian unit')} from {camp.upper()} {'attacks' if n == 1 else 'attack'} {city.name}"]
    return lines + run_attack(state)


def run_attack(state: State) -> list[str]:
    """Continue the Barbarian attack until a choice is needed or it is over."""
    b = state.battle
    lines: list[str] = []
    if b["step"] == "cards_defender":
        b["step"] = "roll"
        if card_options(state, b, "defender"):
            state.pending = {"kind": "combat_card", "seat": int(b["defender"]), "side": "defender"}
            return lines
    if b["step"] == "roll":
        res = roll_round(state, b)
        b["rounds"].append({"attacker": res["attacker"].to_json(), "defender": res["defender"].to_json()})
        dead = fighting_units(state, b, "attacker")[: res["defender"].hits]
        for u in dead:
            remove_unit(state, u)
        b["lost"]["attacker"] = len(dead)
        b["hits"] = res["attacker"].hits
        a, d = res["attacker"], res["defender"]
        seat = int(b["defender"])
        roller = TABLES.colours[state.left_of(seat)]
        lines.append(
            f"the Barbarians (rolled by {roller}) roll {', '.join(map(str, a.dice))}: {count(a.hits, 'hit')}; "
            f"{TABLES.colours[seat]} rolls {', '.join(map(str, d.dice)) or 'no dice'}"
            + (f" with {describe_notes(b, d.notes)}" if d.notes else "")
            + f": {count(d.hits, 'hit')}"
        )
        b["step"] = "losses"
        opts = loss_options(state)
        if len(opts) > 1:
            state.pending = {"kind": "barbarian_losses", "seat": seat}
            return [*lines, f"{TABLES.colours[seat]} chooses which units or city pieces are lost"]
        return lines + take_losses(state, opts[0] if opts else ())
    raise AssertionError(f"unexpected step {b['step']}")


def loss_options(state: State) -> list[tuple[str, ...]]:
    """Distinct ways to absorb the Barbarians' hits: units in the city first (armies or settlers,
    the owner's choice), then city pieces, the Settlement last (D-36). ``destroyed`` ends a list
    that removes every piece."""
    b = state.battle
    hits = int(b["hits"])
    if not hits:
        return [()]
    city = state.city_at(str(b["space"]))
    assert city is not None
    seat = int(b["defender"])
    here = [u for u in state.units if u.space == city.space and u.owner == seat and u.carrier < 0 and u.kind != "ship"]
    armies = sum(1 for u in here if u.kind == "army")
    settlers = len(here) - armies
    if hits <= len(here):
        return [("army",) * a + ("settler",) * (hits - a) for a in range(armies + 1) if 0 <= hits - a <= settlers]
    units = ("army",) * armies + ("settler",) * settlers
    rest = hits - len(here)
    buildings = sorted(city.pieces)
    if rest > len(buildings):
        return [(*units, *buildings, "destroyed")]
    return [(*units, *combo) for combo in combinations(buildings, rest)]


def take_losses(state: State, losses: tuple[str, ...]) -> list[str]:
    """Remove the chosen units and pieces, worsen the mood (D-17), record the attack, resume."""
    b = state.battle
    seat = int(b["defender"])
    city = state.city_at(str(b["space"]))
    assert city is not None
    lines: list[str] = []
    lost_units = []
    for kind in ("army", "settler"):
        n = losses.count(kind)
        pool = sorted(
            (u for u in state.units if u.space == city.space and u.owner == seat and u.kind == kind and u.carrier < 0),
            key=lambda u: -u.id,
        )
        for u in pool[:n]:
            remove_unit(state, u)
        if n:
            lost_units.append(count(n, kind))
    if lost_units:
        lines.append(f"{TABLES.colours[seat]} loses {join_words(lost_units)}")
    pieces = [x for x in losses if x not in ("army", "settler", "destroyed")]
    for piece in pieces:
        del city.pieces[piece]
    b["lost"]["defender"] = len(losses)
    if "destroyed" in losses:
        state.cities.remove(city)
        lines.append(f"{city.name} is destroyed")
    else:
        if pieces:
            lines.append(f"{city.name} loses its {join_words(pieces)}")
        if losses:
            city.mood = "angry" if pieces else MOODS[max(0, MOODS.index(city.mood) - 1)]
            lines.append(f"{city.name} becomes {city.mood}")
    survivors = len(barbarian_units_at(state, str(b["camp"])))
    lines.append(f"{count(survivors, 'Barbarian unit')} {'stays' if survivors == 1 else 'stay'} in the settlement")
    b["result"] = "losses" if losses else "repelled"
    b["step"] = "over"
    resume = b.get("resume") or None
    state.battles.append(b)
    state.battle = {}
    state.changed.extend([city.space, str(b["camp"])])
    return lines + _resume(state, resume)


# ------------------------------------------------------------------ choices
def barbarian_options(state: State) -> list[Action]:
    """The choices of an open Barbarian pending decision."""
    pend = state.pending
    kind = pend["kind"]
    if kind == "barbarian_spawn":
        return [Action("barbarians", to=h) for h in pend["options"]]
    if kind == "barbarian_unit":
        return [Action("reinforce", to=h) for h in pend["options"]]
    if kind == "barbarian_target":
        return [Action("target", space=c, to=t) for c, t in pend["options"]]
    return [Action("lose", items=o) for o in loss_options(state)]


def apply_barbarian_choice(state: State, seat: int, action: Action) -> list[str]:
    """Carry out the chosen option and go on with the symbol."""
    pend = state.pending
    resume = pend.get("resume") or None
    state.pending = {}
    kind = pend["kind"]
    if kind == "barbarian_spawn":
        return spawn(state, action.to) + _reinforce_step(state, seat, resume)
    if kind == "barbarian_unit":
        return reinforce(state, action.to) + _resume(state, resume)
    if kind == "barbarian_target":
        return begin_attack(state, seat, action.space, action.to, resume)
    return take_losses(state, action.items)
