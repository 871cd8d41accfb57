"""Setup for 2, 3 and 4 players and the options (rules sections 3 and 19).

Why the regular tiles are shuffled into the slots at setup: the rulebook places them face down in
random order, so which tile lies where is fixed from the start (and hidden); the 4-player game
leaves 2 tiles out unseen.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.clash.board import reveal
from engine.clash.data import RULES, TABLES
from engine.clash.state import City, Player, Slot, State, Unit
from engine.core.errors import InvalidOptions
from engine.core.rng import Rng

OPTION_HELP = {
    "four_rounds": "true: the four-round game (two settlers, a happy city, two free advances per status phase)",
    "variable_end": "true: the 7-round track where the first player rolls for the end in the last five turns",
    "no_events": "true: events apply only their symbol (gold mine, exhausted land, Barbarians)",
    "optional_events": "true: a player may decline an event's main effect (its symbol still applies)",
    "wonderful_end": "true: A Wonderful End, the 7-round track where a wonder built in the last five turns ends the "
    "game after that round",
}
NOT_YET: dict[str, str] = {}
"""Options of the box not yet played (none left)."""


def check_options(players: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Validate the player count and the options."""
    if players not in TABLES.layouts:
        raise InvalidOptions("Clash of Cultures is for 2, 3 or 4 players.")
    opts: dict[str, Any] = {}
    for key, val in (options or {}).items():
        if key in NOT_YET and val:
            raise InvalidOptions(NOT_YET[key])
        if key not in OPTION_HELP and key not in NOT_YET:
            raise InvalidOptions(f"Unknown option `{key}`. Options: {', '.join(OPTION_HELP)}.")
        if not isinstance(val, bool):
            raise InvalidOptions(f"Option `{key}` takes true or false.")
        if val:
            opts[key] = True
    if opts.get("no_events") and opts.get("optional_events"):
        raise InvalidOptions("Choose either no events or optional events, not both.")
    if opts.get("four_rounds") and opts.get("variable_end"):
        raise InvalidOptions("Choose either the four-round game or the variable end, not both.")
    if opts.get("wonderful_end") and (opts.get("four_rounds") or opts.get("variable_end")):
        raise InvalidOptions("A Wonderful End is played on the 7-round track instead of the variable end.")
    return opts


def initial_state(seed: int, players: int, options: Mapping[str, Any] | None = None) -> State:
    """A fresh game at Round 1, Turn 1 of the first player (chosen at random)."""
    opts = check_options(players, options)
    rng = Rng.from_seed(seed)
    layout = TABLES.layouts[players]
    tiles = list(TABLES.tile_order)
    rng.shuffle(tiles)
    slots: list[Slot] = []
    regular = [s for s in layout.slots if not s.home_side]
    for i, sd in enumerate(regular):
        slots.append(Slot(sd.id, list(sd.hexes), tiles[i]))
    # Seating (rules 3.1): 4 players sit at random around the table (seat = map corner, homes in
    # clockwise order); Decision (the seed is silent for 2 and 3): seats in order, as the data file maps them.
    order = list(range(players))
    if players == 4:
        rng.shuffle(order)
    homes = {sid: order[pos] for pos, sid in enumerate(layout.homes)}
    home_slots = [
        Slot(sd.id, list(sd.hexes), "start:" + sd.home_side, home=homes[sd.id]) for sd in layout.slots if sd.home_side
    ]
    home_slots.sort(key=lambda s: s.home)
    slots = home_slots + slots
    wonders = list(TABLES.wonders)
    rng.shuffle(wonders)
    start = dict(RULES["start"])
    state = State(
        players=players,
        options=opts,
        slots=slots,
        cities=[],
        units=[],
        pl=[Player(seat=s, res=dict(start), advances=list(TABLES.start_advances)) for s in range(players)],
        rng=rng,
        wonder_deck=wonders,
        order=order,
    )
    for s in home_slots:
        reveal(state, s, False)
        capital = s.hexes[0]
        seat = s.home
        state.pl[seat].start_space = capital
        mood = "happy" if opts.get("four_rounds") else "neutral"
        state.cities.append(City(state.new_id(), seat, capital, TABLES.city_names[seat][0], mood))
        for _ in range(2 if opts.get("four_rounds") else 1):
            state.units.append(Unit(state.new_id(), seat, "settler", capital))
    state.first = rng.below(players)
    state.active = state.first
    return state
