"""The wonders (rules section 15): building them with Engineering, Monuments' reservation, their
powers and the A Wonderful End variant (19.5).

Why the powers live here and the other modules only call small hooks (``collect_bonus``,
``temple_skips_activation``, ``library_trigger``, ``after_activation``): a wonder changes a few
steps of rules that belong to cities and advances; keeping its text in one place makes each
power easy to check against the card. Combat powers (Great Wall, Mausoleum's attack toll) are
read by the combat rules through :func:`owner_of`.
"""

from __future__ import annotations

from engine.clash.actions import Action
from engine.clash.cities import acts_angry, add_unit, can_activate, finish_activation, units_of
from engine.clash.data import LIMITS, RULES, TABLES
from engine.clash.influence import open_pyramids, wonder_city
from engine.clash.resources import gain, pay, plan_payment
from engine.clash.state import MOODS, City, State
from engine.core.events import Event, public
from engine.core.text import count

POWERS = RULES["wonder_powers"]
ENGINEERING = "engineering"


def colour(seat: int) -> str:
    """Seat display name."""
    return TABLES.colours[seat]


def owner_of(state: State, wonder: str) -> int:
    """The seat owning ``wonder`` (-1 when it is not on the board): the combat rules ask this for
    the Great Wall and the Mausoleum."""
    city = wonder_city(state, wonder)
    return city.owner if city is not None else -1


def resource_cost(wonder: str) -> dict[str, int]:
    """Food, Wood and Ore of a wonder (Gold may stand in for them)."""
    return {r: n for r, n in TABLES.wonders[wonder].cost.items() if r != "culture"}


def culture_cost(wonder: str) -> int:
    """Culture tokens of a wonder (nothing stands in for them)."""
    return int(TABLES.wonders[wonder].cost.get("culture", 0))


def free_build(state: State, seat: int, wonder: str) -> bool:
    """Monuments: the reserving player builds his reserved wonder without an action (D-13)."""
    return state.reserved.get(wonder) == seat


def buildable(state: State, seat: int, wonder: str) -> bool:
    """Revealed, not reserved by another player, Engineering and the wonder's advance owned, paid."""
    p = state.pl[seat]
    w = TABLES.wonders[wonder]
    if wonder not in state.revealed_wonders or state.reserved.get(wonder, seat) != seat:
        return False
    if ENGINEERING not in p.advances or any(r not in p.advances for r in w.requires):
        return False
    return p.culture_tokens >= culture_cost(wonder) and plan_payment(p, resource_cost(wonder)) is not None


def site_ok(state: State, city: City, wonder: str) -> bool:
    """A non-angry city (Forced Labor: angry acts as neutral) without a wonder that may be
    activated; the Lighthouse needs a Port in the city."""
    if city.wonder or acts_angry(state, city) or not can_activate(state, city):
        return False
    return not TABLES.wonders[wonder].needs_port or "port" in city.pieces


def wonder_options(state: State, seat: int) -> list[Action]:
    """Every wonder ``seat`` may build now, in every city that may hold it."""
    out: list[Action] = []
    for w in state.revealed_wonders:
        if not buildable(state, seat, w):
            continue
        if state.actions_left < 1 and not free_build(state, seat, w):
            continue
        for c in state.cities_of(seat):
            if site_ok(state, c, w):
                out.append(Action("wonder", space=c.space, name=w))
    return out


def build_wonder(state: State, seat: int, a: Action) -> list[Event]:
    """Pay, place, activate the city and apply the "when built" powers."""
    p = state.pl[seat]
    city = state.city_at(a.space)
    if city is None:
        raise AssertionError("wonder without a city")
    free = free_build(state, seat, a.name)
    if not free:
        state.actions_left -= 1
    plan = plan_payment(p, resource_cost(a.name))
    if plan is None:
        raise AssertionError("wonder without the means to pay")
    pay(p, plan)
    p.culture_tokens -= culture_cost(a.name)
    state.revealed_wonders.remove(a.name)
    state.reserved.pop(a.name, None)
    city.wonder = a.name
    dropped = finish_activation(city)
    state.changed.append(city.space)
    name = TABLES.wonders[a.name].name
    how = " without an action (Monuments)" if free else ""
    drop = f"; {city.name} becomes {city.mood}" if dropped else ""
    events = [public(f"{colour(seat)} builds the {name} in {city.name}{how}{drop}.", "wonder")]
    if a.name == "library":
        got = gain(p, "ideas", int(POWERS["library_ideas"]))
        events.append(public(f"The {name} gives {colour(seat)} {count(got, 'idea')}.", "wonder"))
    elif a.name == "lighthouse":
        events.extend(_lighthouse_ship(state, seat, city))
    if state.options.get("wonderful_end") and in_last_turns(state):
        state.wonder_end = True
        events.append(public("A wonder was built in the last five turns: the game ends after this round.", "end"))
    if a.name == "pyramids":
        events.extend(open_pyramids(state, seat, city, int(POWERS["pyramids_attempts"])))
    else:
        events.extend(after_activation(state, seat, city))
    return events


def in_last_turns(state: State) -> bool:
    """The current turn is one of the last five of the 7-round track (the A Wonderful End spaces)."""
    return any(r == state.round and t == state.turn for r, t, _ in RULES["variable_end"]["ranges"])


def _lighthouse_ship(state: State, seat: int, city: City) -> list[Event]:
    """When built: a Ship on the port space.

    Decision: no Ship is placed when none is left in the player's supply or an enemy Ship holds
    the port space (the battle a built ship would start belongs to a Build, not to a wonder)."""
    if units_of(state, seat, "ship") >= LIMITS["ship"] or not city.port_space:
        return []
    if any(u.space == city.port_space and u.owner != seat and u.kind == "ship" for u in state.units):
        return []
    add_unit(state, seat, "ship", city.port_space)
    return [public(f"The Lighthouse gives {colour(seat)} a ship on {city.port_space.upper()}.", "wonder")]


# ------------------------------------------------------------------ powers used by other rules
def collect_bonus(state: State, seat: int, city: City) -> int:
    """Hanging Gardens: +1 Food after this city Collects. Returns the Food kept."""
    if city.wonder != "hanging_gardens" or city.owner != seat:
        return 0
    return gain(state.pl[seat], "food", int(POWERS["gardens_food"]))


def temple_skips_activation(state: State, seat: int, building: str) -> bool:
    """Mausoleum: adding a Temple does not activate the owner's cities."""
    return building == "temple" and owner_of(state, "mausoleum") == seat


def library_trigger(state: State, seat: int, advance: str) -> None:
    """Library of Alexandria: +1 Idea when the player to the owner's left, in his own turn,
    acquires an advance the owner lacks (at most once in that player's turn)."""
    owner = owner_of(state, "library")
    if owner < 0 or owner == seat or state.left_of(owner) != seat:
        return
    if state.phase != "turn" or state.active != seat or "library_fed" in state.pl[seat].used:
        return
    if advance in state.pl[owner].advances:
        return
    state.pl[seat].used.append("library_fed")
    gain(state.pl[owner], "ideas", int(POWERS["library_left_idea"]))


def gardens_options(state: State, seat: int) -> list[Action]:
    """Hanging Gardens (as an action): 1 mood token raises one of the owner's cities one step."""
    if state.actions_left < 1 or owner_of(state, "hanging_gardens") != seat:
        return []
    if state.pl[seat].mood_tokens < int(POWERS["gardens_mood_tokens"]):
        return []
    return [Action("gardens", space=c.space) for c in state.cities_of(seat) if c.mood != "happy"]


def use_gardens(state: State, seat: int, a: Action) -> list[Event]:
    """Carry out the Hanging Gardens' action."""
    city = state.city_at(a.space)
    if city is None:
        raise AssertionError("gardens without a city")
    state.actions_left -= 1
    state.pl[seat].mood_tokens -= int(POWERS["gardens_mood_tokens"])
    city.mood = MOODS[MOODS.index(city.mood) + 1]
    state.changed.append(city.space)
    return [public(f"{colour(seat)} uses the Hanging Gardens: {city.name} becomes {city.mood}.", "wonder")]


# ------------------------------------------------------------------ Lighthouse free move
def after_activation(state: State, seat: int, city: City) -> list[Event]:
    """Lighthouse: after each activation of its city the owner may move one Ship for free."""
    if city.wonder != "lighthouse" or city.owner != seat or state.pending or not lighthouse_moves(state, seat):
        return []
    state.pending = {"kind": "lighthouse", "seat": seat}
    return [public(f"{colour(seat)} may move one ship for free (Lighthouse).", "wonder")]


def lighthouse_moves(state: State, seat: int) -> list[Action]:
    """Single-ship moves as a fresh Move would allow them."""
    from engine.clash.movement import ship_moves

    return [
        Action("move", a.space, a.to, a.name, a.items, tuple(sorted((*a.flags, "lighthouse"))))
        for a in ship_moves(state, seat, state.move_serial + 1)
        if len(a.items) == 1
    ]


def lighthouse_options(state: State) -> list[Action]:
    """The open Lighthouse choice: a ship move or none."""
    return [*lighthouse_moves(state, int(state.pending["seat"])), Action("noship")]


def answer_lighthouse(state: State, seat: int, a: Action) -> list[Event]:
    """Move the ship without spending an action or opening a Move action."""
    from engine.clash.movement import apply_move

    state.pending = {}
    if a.kind == "noship":
        return [public(f"{colour(seat)} moves no ship.", "wonder")]
    mode, left, actions = state.mode, state.mode_left, state.actions_left
    state.mode, state.mode_left = "", 0
    plain = Action("move", a.space, a.to, a.name, a.items, tuple(f for f in a.flags if f != "lighthouse"))
    lines = apply_move(state, seat, plain)
    state.mode, state.mode_left, state.actions_left = mode, left, actions
    tail = (": " + "; ".join(lines)) if lines else ""
    return [
        public(
            f"{colour(seat)} moves {a.items[0]} from {a.space.upper()} to {a.to.upper()} (Lighthouse){tail}.", "move"
        )
    ]


def refusal(state: State, seat: int, words: list[str]) -> str:
    """Why a typed ``wonder <city> <wonder>`` is refused ("" when the words do not say enough)."""
    if len(words) < 3:
        return ""
    key = words[2].replace("-", "_")
    wonder = next((w for w in TABLES.wonders if key in (w, TABLES.wonders[w].name.lower().replace(" ", "_"))), "")
    if not wonder:
        return f"There is no wonder called `{words[2]}`."
    w = TABLES.wonders[wonder]
    p = state.pl[seat]
    if wonder not in state.revealed_wonders:
        return f"The {w.name} is not among the revealed wonders."
    if state.reserved.get(wonder, seat) != seat:
        return f"{TABLES.colours[state.reserved[wonder]]} has reserved the {w.name}."
    missing = [TABLES.advances[a].name for a in (ENGINEERING, *w.requires) if a not in p.advances]
    if missing:
        return f"The {w.name} needs {' and '.join(missing)}."
    if state.actions_left < 1 and not free_build(state, seat, wonder):
        return "You have no action left this turn; type `end` to end your turn."
    city = next((c for c in state.cities_of(seat) if words[1] in (c.name.lower().replace(" ", "-"), c.space)), None)
    if city is None:
        return f"You have no city called `{words[1]}`."
    if city.wonder:
        return f"{city.name} already holds a wonder."
    if acts_angry(state, city):
        return f"{city.name} is angry: an angry city cannot build a wonder."
    if w.needs_port and "port" not in city.pieces:
        return f"The {w.name} needs a port in the city."
    if p.culture_tokens < culture_cost(wonder):
        return f"The {w.name} needs {count(culture_cost(wonder), 'culture token')}; gold cannot stand in for them."
    return f"You cannot pay for the {w.name}."
