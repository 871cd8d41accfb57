"""Exploring through a card: Explorer (action card) and Great Explorer (event bonus) reveal an
unrevealed region next to a region holding one of the player's cities (data file 7.1, 9).

Why through the exploration rules' own pending choice: the region is turned by the same rules as
for a land unit entering the chosen space (rule 1, then 2 and 3, the explorer's choice when two
orientations are left, CC-EX-15 to CC-EX-19), and a region with two Fertile spaces gets its
Barbarians (rules 11.1); only no unit moves.
"""

from __future__ import annotations

from engine.clash.board import geometry, land_orientations, neighbours
from engine.clash.card_effects import colour
from engine.clash.card_flow import Step, handler, push
from engine.clash.cities import can_found_at, city_named
from engine.clash.movement import barbarians_from_exploration, finish_orientation
from engine.clash.state import City, State
from engine.core.events import Event, public


def entry_spaces(state: State, seat: int) -> list[str]:
    """Spaces of unrevealed regions next to a region holding one of ``seat``'s cities (the
    space the region is explored "from", which rule 1 keeps off the Sea)."""
    geo = geometry(state.players)
    mine = {geo.slot_of[c.space] for c in state.cities_of(seat)}
    home = {h for s in state.slots if s.id in mine for h in s.hexes}
    hidden = {s.id for s in state.slots if not s.revealed}
    return sorted({n for h in home for n in neighbours(state, h) if geo.slot_of[n] in hidden})


def _options(state: State, step: Step) -> list[str] | None:
    spaces = entry_spaces(state, int(step["seat"]))
    return [*spaces, "none"] if spaces and step.get("optional") else spaces


@handler(
    "card_explore",
    _options,
    lambda s, st: "choose the space the region is explored from" + (", or `choose none`" if st.get("optional") else ""),
    always_ask=True,
)
def _explore(state: State, step: Step, choice: str) -> list[Event]:
    seat = int(step["seat"])
    if choice == "none":
        return []
    slot = next(s for s in state.slots if choice in s.hexes)
    opts = land_orientations(state, slot, choice)
    if step.get("found"):
        push(state, {"do": "card_found", "seat": seat, "slot": slot.id})
    state.pending = {
        "kind": "orient",
        "seat": seat,
        "slot": slot.id,
        "options": [int(o) for o in opts],
        "units": [],
        "dest": choice,
        "mode": "card",
        "origin": "",
    }
    if len(opts) == 1:
        lines = finish_orientation(state, opts[0])
        return [public(f"{colour(seat)} " + "; ".join(lines) + ".", "explore")]
    return [public(f"{colour(seat)} reveals a region and chooses how to turn it.", "explore")]


def _found_options(state: State, step: Step) -> list[str] | None:
    seat = int(step["seat"])
    slot = next(s for s in state.slots if s.id == step["slot"])
    if not slot.revealed:
        return []
    spaces = [h for h in slot.hexes if can_found_at(state, seat, h)]
    return [*spaces, "none"] if spaces else []


@handler(
    "card_found",
    _found_options,
    lambda s, st: "choose a space of the new region for a city without a settler, or `choose none`",
    always_ask=True,
)
def _found(state: State, step: Step, choice: str) -> list[Event]:
    seat = int(step["seat"])
    if choice == "none":
        return []
    city = City(state.new_id(), seat, choice, city_named(state, seat))
    state.cities.append(city)
    state.changed.append(choice)
    return [public(f"{colour(seat)} founds {city.name} on {choice.upper()}.", "found")]


__all__ = ["barbarians_from_exploration", "entry_spaces"]
