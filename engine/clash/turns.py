"""A turn's actions: each kind carried out, with the multi-step actions and pending choices
(rules sections 6 and 16; the start and end of a turn, the status phase and the end of the
game are in :mod:`engine.clash.rounds`).

Why a single dispatcher: every action first checks that it is the seat's turn and that it is legal
(``Game.apply``); here each kind is carried out, the open multi-step action (Move / Civic
Improvement) is closed by any other action, and the turn passes once no action is left and nothing
is pending.
"""

from __future__ import annotations

from engine.clash import culture, wonders
from engine.clash.actions import Action
from engine.clash.advances import acquire, eligible, payment
from engine.clash.cities import (
    build,
    civic,
    collect,
    finish_activation,
    found,
    grow,
    husbandry_cost,
)
from engine.clash.combat import battle_after_build, sentence
from engine.clash.combat_choices import COMBAT_KINDS, apply_combat_choice, resume_card_steps
from engine.clash.data import ADVANCES, TABLES
from engine.clash.movement import anchor, apply_move, finish_orientation, place_barbarians
from engine.clash.resources import gain, gain_culture, gain_mood
from engine.clash.rounds import city_at, colour, end_turn, next_round, run_status
from engine.clash.state import City, State
from engine.core.events import Event, public
from engine.core.text import count, join_words


# ------------------------------------------------------------------ dispatch
def close_mode(state: State, action: Action) -> None:
    """Any action other than a further step closes the open Move / Civic Improvement action."""
    if state.mode == "move" and action.kind == "move" and state.mode_left > 0:
        return
    if state.mode == "civic" and action.kind == "civic" and "voting" not in action.flags:
        return
    state.mode = ""
    state.mode_left = 0


def apply_action(state: State, seat: int, action: Action) -> list[Event]:
    """Carry out a legal action."""
    if state.pending:
        return _apply_pending(state, seat, action)
    if action.kind in ("trade", "invite"):
        return culture.apply_turn(state, seat, action)  # trading is free and keeps a Move open
    close_mode(state, action)
    if action.kind in culture.TURN_KINDS:
        return culture.apply_turn(state, seat, action)
    me = colour(seat)
    p = state.pl[seat]
    kind = action.kind
    events: list[Event] = []
    if kind == "end":
        return end_turn(state)
    if kind == "done":
        state.mode = ""
        state.mode_left = 0
        return [public(f"{me} finishes the action.", "info")]
    if kind == "advance":
        state.actions_left -= 1
        lines = acquire(state, seat, action.name, action.items, free=False)
        events.append(public(f"{me} acquires {ADVANCES[action.name].name}" + _tail(lines) + ".", "advance"))
        events.extend(_after_levels(state, seat))
    elif kind == "found":
        state.actions_left -= 1
        city = found(state, seat, action.space)
        state.changed.append(action.space)
        events.append(public(f"{me} founds {city.name} on {action.space.upper()}.", "found"))
    elif kind == "collect":
        city = city_at(state, action.space)
        if p.free_economy and p.collects >= 1:
            state.actions_left -= 1
            p.mood_tokens -= 2
        elif not (p.free_economy and p.collects == 0):
            state.actions_left -= 1
        p.collects += 1
        if "husbandry" in action.flags:
            p.used.append("husbandry")
            if husbandry_cost(p):
                _pay_food(p, husbandry_cost(p))
        collect(state, seat, city, action.items)
        gardens = wonders.collect_bonus(state, seat, city)
        dropped = finish_activation(city)
        state.changed.append(city.space)
        extra = f" (and {gardens} food from the Hanging Gardens)" if gardens else ""
        events.append(
            public(
                f"{me} collects {_items(action.items)}{extra} in {city.name}" + _drop(dropped, city) + ".", "collect"
            )
        )
        events.extend(wonders.after_activation(state, seat, city))
    elif kind == "build":
        state.actions_left -= 1
        city = city_at(state, action.space)
        token = next((f for f in action.flags if f in ("mood", "culture")), "")
        build(state, seat, city, action.items, "draft" in action.flags, token)
        dropped = finish_activation(city)
        state.changed.append(city.space)
        events.append(
            public(f"{me} builds {_units(action.items)} in {city.name}" + _drop(dropped, city) + ".", "build")
        )
        fight = battle_after_build(state, seat, city)
        if fight:
            events.append(public(sentence(fight), "battle"))
        events.extend(wonders.after_activation(state, seat, city))
    elif kind == "grow":
        state.actions_left -= 1
        city = city_at(state, action.space)
        token = next((f for f in action.flags if f in ("mood", "culture")), "")
        grow(state, seat, city, action.name, action.to, token, "settler" in action.flags)
        skip = wonders.temple_skips_activation(state, seat, action.name)  # Mausoleum
        dropped = False if skip else finish_activation(city)
        state.changed.append(city.space)
        events.append(public(f"{me} adds {_a(action.name)} to {city.name}" + _drop(dropped, city) + ".", "grow"))
        if action.name == "temple" and "dogma" in p.advances and dogma_options(state, seat):
            state.pending = {"kind": "dogma", "seat": seat}
        if not skip:
            events.extend(wonders.after_activation(state, seat, city))
    elif kind == "civic":
        if "voting" in action.flags:
            p.mood_tokens -= 1
            state.mode = "civic"
        elif state.mode != "civic":
            state.actions_left -= 1
            state.mode = "civic"
        city = city_at(state, action.space)
        civic(state, seat, city, action.n)
        state.changed.append(city.space)
        events.append(public(f"{me} makes {city.name} {city.mood}.", "civic"))
    elif kind == "move":
        ships = action.items[0].startswith("ship")
        # Land units on a Sea space are aboard a ship: the chat says they disembark from it.
        src = action.space.upper()
        if not ships and state.terrain.get(action.space) == "sea":
            src = f"the ship on {src}"
        lines = apply_move(state, seat, action)
        what = join_words(action.items) if ships else _units(action.items)
        road = " by road" if "road" in action.flags else ""
        events.append(public(f"{me} moves {what} from {src} to {action.to.upper()}{road}" + _tail(lines) + ".", "move"))
    elif kind in ("play", "great"):
        from engine.clash.action_cards import play

        events.extend(play(state, seat, action))
    elif kind == "takeover":
        from engine.clash.takeover import attempt

        events.extend(attempt(state, seat, action))
    elif kind == "taxes":
        state.actions_left -= 1
        p.used.append("taxes")
        p.mood_tokens -= 1
        n = len(state.cities_of(seat))
        kept = gain(p, "gold", n)
        events.append(public(f"{me} raises taxes: {kept} gold.", "ability"))
    elif kind == "liberties":
        state.actions_left -= 1
        kept = gain_mood(p, 3)
        events.append(public(f"{me} uses Civil Liberties: {count(kept, 'mood token')}.", "ability"))
    elif kind == "cartography":
        state.actions_left -= 1
        p.used.append("cartography")
        n = cartography_regions(state, seat)
        c = gain_culture(p, n)
        i = gain(p, "ideas", n)
        events.append(public(f"{me} uses Cartography: {count(c, 'culture token')} and {count(i, 'idea')}.", "ability"))
    elif kind == "absolute":
        p.used.append("absolute_power")
        p.mood_tokens -= 2
        state.actions_left += 1
        events.append(public(f"{me} uses Absolute Power for an extra action.", "ability"))
    elif kind == "forced":
        p.mood_tokens -= 1
        p.forced_labor = True
        events.append(public(f"{me} uses Forced Labor: angry cities act as neutral this turn.", "ability"))
    elif kind == "theater":
        p.used.append("theater_music")
        if action.name == "culture":
            p.mood_tokens -= 1
            gain_culture(p)
        else:
            p.culture_tokens -= 1
            gain_mood(p)
        events.append(public(f"{me} exchanges a token at the theater for {_a(action.name + ' token')}.", "ability"))
    else:
        raise AssertionError(f"unknown action kind {kind}")
    return events


def cartography_regions(state: State, seat: int) -> int:
    """Regions holding at least one of ``seat``'s ships (CC-EX-10)."""
    from engine.clash.board import geometry

    geo = geometry(state.players)
    return len({geo.slot_of[u.space] for u in state.units if u.owner == seat and u.kind == "ship"})


def dogma_options(state: State, seat: int) -> list[Action]:
    """Free Theocracy advances Dogma grants for a new Temple."""
    p = state.pl[seat]
    return [
        Action("advance", name=a)
        for a in TABLES.by_category["theocracy"]
        if eligible(p, a) and payment(state, p, a, True) is not None
    ]


def _apply_pending(state: State, seat: int, action: Action) -> list[Event]:
    pend = state.pending
    kind = pend["kind"]
    me = colour(seat)
    events: list[Event] = []
    if kind in culture.PENDING_KINDS:
        return culture.apply_pending(state, seat, action)
    if kind in COMBAT_KINDS:
        events.append(public(sentence(apply_combat_choice(state, seat, action)), "battle"))
        events.extend(resume_card_steps(state))
    elif kind == "orient":
        lines = finish_orientation(state, action.name == "turned")
        events.append(public(f"{me} " + "; ".join(lines) + ".", "explore"))
    elif kind == "anchor":
        lines = anchor(state, action.to)
        events.append(public(f"{me}'s ship ends on {action.to.upper()}" + _tail(lines) + ".", "explore"))
    elif kind == "barbarians":
        lines = place_barbarians(state, action.to)
        events.append(public(f"{lines[0]}.", "barbarians"))
    elif kind == "income":
        p = state.pl[seat]
        n = int(pend["n"])
        state.pending = {}
        gold = gain(p, "gold", action.n)
        food = gain(p, "food", n - action.n)
        events.append(public(f"{me} gains {food} food and {gold} gold from trade routes.", "income"))
    elif kind in ("free", "dogma"):
        state.pending = {}
        lines = acquire(state, seat, action.name, action.items, free=True)
        events.append(
            public(f"{me} takes {ADVANCES[action.name].name} as a free advance" + _tail(lines) + ".", "advance")
        )
        events.extend(_after_levels(state, seat))
        if kind == "free":
            events.extend(run_status(state))
    elif kind == "reserve":
        state.pending = {}
        state.reserved[action.name] = seat
        events.append(public(f"{me} reserves {TABLES.wonders[action.name].name} with Monuments.", "wonder"))
        events.extend(_after_levels(state, seat))
        if state.phase == "status" and not state.pending:
            events.extend(run_status(state))
    elif kind == "raze":
        state.pending = {}
        if action.kind == "raze":
            city = city_at(state, action.space)
            state.cities.remove(city)
            gain(state.pl[seat], "gold", 1)
            events.append(public(f"{me} razes {city.name} and gains 1 gold.", "raze"))
        events.extend(run_status(state))
    elif kind == "card":
        from engine.clash.card_flow import choose

        events.extend(choose(state, seat, action))
        if state.phase == "status" and not state.pending:
            events.extend(run_status(state))
    elif kind == "first":
        state.pending = {}
        state.first = action.n
        events.append(public(f"{me} makes {colour(action.n)} the first player.", "first"))
        events.extend(next_round(state))
    else:
        raise AssertionError(f"unknown pending {kind}")
    return events


def _after_levels(state: State, seat: int) -> list[Event]:
    """Event cards drawn because a level reached 3, 5 or 7 are resolved now (rules 4.3, 12.1)."""
    if not state.decks or state.pending:
        return []
    from engine.clash.card_flow import run_steps

    return run_steps(state)


def _pay_food(p: object, n: int) -> None:
    from engine.clash.state import Player

    assert isinstance(p, Player)
    use = min(p.res["food"], n)
    p.res["food"] -= use
    p.res["gold"] -= n - use


def _tail(lines: list[str]) -> str:
    return (": " + "; ".join(lines)) if lines else ""


def _drop(dropped: bool, city: City) -> str:
    return f"; {city.name} becomes {city.mood}" if dropped else ""


def _a(word: str) -> str:
    from engine.core.text import with_article

    return with_article(word)


def _items(items: tuple[str, ...]) -> str:
    parts = []
    for r in ("food", "wood", "ore", "gold"):
        n = items.count(r)
        if n:
            parts.append(f"{n} {r}")
    if items.count("mood"):
        parts.append(count(items.count("mood"), "mood token"))
    return join_words(parts) or "nothing"


def _units(items: tuple[str, ...]) -> str:
    parts = [count(items.count(k), k) for k in ("settler", "army", "ship") if items.count(k)]
    return join_words(parts)
