"""After a battle: capturing a player's city, capturing a Barbarian settlement, and the follow-up
choices (the refugee Settler, Fanaticism's free army, keeping or razing a Barbarian settlement)
(rules 10.4 Fanaticism, 10.8, 10.9).

Why the follow-ups are a queue of pending choices: one battle can give choices to two seats in a
row (the captor's nothing, the beaten owner's refugee city, a Fanaticism army of the loser); each
is opened in turn with the rest of the queue kept in the pending record (``then``), so a seat that
is not the active one chooses through ``to_move`` like any other decision. A choice with a single
possibility is carried out at once.
"""

from __future__ import annotations

from typing import Any

from engine.clash.actions import Action
from engine.clash.cities import add_unit, armies_on, city_named, pieces_of, units_of
from engine.clash.data import LIMITS, TABLES
from engine.clash.resources import gain
from engine.clash.state import BARBARIAN, City, State
from engine.core.text import count, join_words

CHAIN_KINDS = ("refugee", "fanatic", "camp")
ASKS = {
    "refugee": "{} chooses a city for the refugee Settler",
    "fanatic": "{} chooses a city for Fanaticism's free army unit",
    "camp": "{} decides whether to keep or raze the settlement",
}


def _name(seat: int) -> str:
    return "the Barbarians" if seat == BARBARIAN else TABLES.colours[seat]


def after_battle(state: State, b: dict[str, Any], winner: str) -> tuple[list[str], list[dict[str, Any]]]:
    """Capture (when the attacker won a land battle at a city) and Fanaticism's free army."""
    lines: list[str] = []
    queue: list[dict[str, Any]] = []
    seat, defender = int(b["attacker"]), int(b["defender"])
    city = state.city_at(str(b["space"]))
    if winner == "attacker" and b["kind"] == "land" and city is not None and city.owner == defender:
        b["captured"] = True
        if defender == BARBARIAN:
            more, queue = capture_camp(state, seat, city, int(b["lost"]["defender"]))
        else:
            before = city.size
            more, queue = capture_city(state, seat, city, str(b["mood"]), int(b["size"]))
            after = state.city_at(str(b["space"]))
            b["removed"] = before - (after.size if after is not None else 0)
        lines.extend(more)
    # Decision: a side "loses" when the other side won; a stopped attack or a battle with no
    # survivors has no loser, and a Barbarian attack (one round, no winner) gives no free army.
    loser = {"attacker": defender, "defender": seat}.get(winner, BARBARIAN)
    if loser != BARBARIAN and b["rounds"] and b.get("temple") and "fanaticism" in state.pl[loser].advances:
        queue.append({"kind": "fanatic", "seat": loser})
    return lines, queue


def capture_city(state: State, seat: int, city: City, mood: str, size: int) -> tuple[list[str], list[dict[str, Any]]]:
    """Rules 10.8 (D-04): every piece of the previous owner becomes the captor's; a piece the
    captor has no more of is removed for 1 Gold; without a Settlement piece the whole city goes.
    Spoils and the refugee only when the city was not angry when attacked; it becomes angry."""
    p = state.pl[seat]
    old = city.owner
    lines: list[str] = []
    gold = 0
    if len(state.cities_of(seat)) >= LIMITS["settlement"]:
        # Decision: every removed piece pays 1 Gold, pieces of a third player's colour included
        # (they are removed with the city and go back to their owner).
        gold += city.size
        state.cities.remove(city)
        lines.append(f"{_name(seat)} has no Settlement piece left: {city.name} is removed")
    else:
        removed = []
        for building, colour in sorted(city.pieces.items()):
            if colour != old:
                continue
            if pieces_of(state, seat, building) >= LIMITS[building]:
                del city.pieces[building]
                removed.append(building)
                gold += 1
            else:
                city.pieces[building] = seat
        city.owner = seat
        city.mood = "angry"
        city.activations = 0
        lines.append(f"{_name(seat)} captures {city.name}")
        if removed:
            lines.append(f"{join_words(removed)} {'is' if len(removed) == 1 else 'are'} removed (no piece left)")
    queue: list[dict[str, Any]] = []
    if mood in ("happy", "neutral"):
        gold += size
        if refugee_cities(state, old):
            queue.append({"kind": "refugee", "seat": old})
    kept = gain(p, "gold", gold)
    if gold:
        lines.append(f"{_name(seat)} gains {kept} gold")
    return lines, queue


def capture_camp(state: State, seat: int, city: City, killed: int) -> tuple[list[str], list[dict[str, Any]]]:
    """Rules 10.9: 1 Gold per Barbarian unit defeated, then keep the settlement (angry) or raze it
    for 1 Gold more; keeping needs a Settlement piece in supply (D-36)."""
    lines = []
    if killed:
        kept = gain(state.pl[seat], "gold", killed)
        lines.append(f"{_name(seat)} gains {kept} gold for {count(killed, 'Barbarian unit')}")
    if len(state.cities_of(seat)) >= LIMITS["settlement"]:
        lines.extend(raze_camp(state, seat, city.space))
        return lines, []
    return lines, [{"kind": "camp", "seat": seat, "space": city.space}]


def raze_camp(state: State, seat: int, space: str) -> list[str]:
    """Remove the captured Barbarian settlement and gain 1 Gold."""
    city = state.city_at(space)
    assert city is not None
    state.cities.remove(city)
    kept = gain(state.pl[seat], "gold", 1)
    return [f"{_name(seat)} razes the Barbarian settlement on {space.upper()} and gains {kept} gold"]


def keep_camp(state: State, seat: int, space: str) -> list[str]:
    """The captured Barbarian settlement becomes the captor's angry size-1 city."""
    city = state.city_at(space)
    assert city is not None
    city.owner = seat
    city.name = city_named(state, seat)  # Decision: it takes the captor's next city name.
    city.mood = "angry"
    city.pieces = {}
    return [f"{_name(seat)} keeps the settlement on {space.upper()} as {city.name}"]


def refugee_cities(state: State, seat: int) -> list[City]:
    """Where the previous owner's refugee Settler may appear (none without a Settler in supply)."""
    if units_of(state, seat, "settler") >= LIMITS["settler"]:
        return []
    return state.cities_of(seat)


def fanatic_cities(state: State, seat: int) -> list[City]:
    """Where Fanaticism's free army unit may appear (unit and stacking limits hold)."""
    if units_of(state, seat, "army") >= LIMITS["army"]:
        return []
    return [c for c in state.cities_of(seat) if armies_on(state, c.space, seat) < LIMITS["stack"]]


def chain_options(state: State) -> list[Action]:
    """The choices of an open follow-up pending."""
    pend = state.pending
    seat = int(pend["seat"])
    if pend["kind"] == "refugee":
        return [Action("refugee", space=c.space) for c in refugee_cities(state, seat)]
    if pend["kind"] == "fanatic":
        return [Action("fanatic", space=c.space) for c in fanatic_cities(state, seat)]
    out = [Action("raze_camp", space=str(pend["space"]))]
    if len(state.cities_of(seat)) < LIMITS["settlement"]:
        out.insert(0, Action("keep_camp", space=str(pend["space"])))
    return out


def _carry_out(state: State, seat: int, action: Action) -> list[str]:
    if action.kind == "refugee":
        city = state.city_at(action.space)
        assert city is not None
        add_unit(state, seat, "settler", action.space)
        return [f"{_name(seat)} gains a refugee Settler in {city.name}"]
    if action.kind == "fanatic":
        city = state.city_at(action.space)
        assert city is not None
        add_unit(state, seat, "army", action.space)
        return [f"{_name(seat)} gains a free army unit in {city.name} through Fanaticism"]
    if action.kind == "keep_camp":
        return keep_camp(state, seat, action.space)
    return raze_camp(state, seat, action.space)


def apply_chain(state: State, seat: int, action: Action) -> list[str]:
    """Carry out the chosen follow-up, then open the next one."""
    then = list(state.pending.get("then", []))
    state.pending = {}
    return _carry_out(state, seat, action) + open_next(state, then)


def open_next(state: State, queue: list[dict[str, Any]]) -> list[str]:
    """Open the next follow-up choice that has more than one possibility; carry out single ones."""
    lines: list[str] = []
    queue = list(queue)
    while queue:
        item = queue.pop(0)
        state.pending = dict(item)
        opts = chain_options(state)
        if len(opts) > 1:
            state.pending["then"] = queue
            return [*lines, ASKS[str(item["kind"])].format(_name(int(item["seat"])))]
        state.pending = {}
        if opts:
            lines.extend(_carry_out(state, int(item["seat"]), opts[0]))
    return lines
