"""Event cards (rules section 12, data file section 9): drawn when a level reaches 3, 5 or 7;
the symbol is resolved first for the drawer (D-27), then the main effect; the No Events and
Optional Events variants (rules 19.1, 19.2); Irrigation, Sanitation and Myths (rules 12.4).

Why every effect is a queue of steps (:mod:`engine.clash.card_flow`): most events ask the drawer
(or every player, in seat order from the first player) to choose a city, a unit or a player.
"""

from __future__ import annotations

from engine.clash.board import is_land, neighbours, revealed
from engine.clash.card_effects import (
    city_by_word,
    colour,
    mood_step,
    player_step,
    unit_step,
)
from engine.clash.card_flow import Step, handler, no_choice, push
from engine.clash.cards_data import DECKS
from engine.clash.data import ADVANCES, LIMITS, TABLES
from engine.clash.decks import draw
from engine.clash.notation import city_word
from engine.clash.resources import gain, gain_culture
from engine.clash.state import State
from engine.core.events import Event, public
from engine.core.text import count

SPREAD_ADVANCES = ("roads", "navigation", "trade_routes")
SYMBOL_WORDS = {
    "gold_mine": "gold mine",
    "exhausted_land": "exhausted land",
    "barbarians_appear": "Barbarians appear",
    "barbarian_attack": "Barbarian attack",
}


def queue_event(state: State, seat: int) -> None:
    """A level of ``seat`` reached 3, 5 or 7: an event card is drawn (rules 4.3, 12.1)."""
    push(state, {"do": "draw_event", "seat": seat}, front=True)


def seat_order(state: State) -> list[int]:
    """Seats clockwise from the first player ("every player" effects, rules 12.1)."""
    return state.clockwise_from(state.first)


# ------------------------------------------------------------------ drawing
@handler("draw_event", no_choice, lambda s, st: "")
def _draw(state: State, step: Step, choice: str) -> list[Event]:
    seat = int(step["seat"])
    card_id = draw(state, "event")
    if not card_id:
        return [public("The event deck is empty: no event.", "event")]
    card = DECKS.events[card_id]
    state.decks["last_event"] = card_id
    sym = f" (symbol: {SYMBOL_WORDS[card.symbol]})" if card.symbol else ""
    events = [public(f"{colour(seat)} draws the event {card.name}{sym}.", "event", card=card.name)]
    steps: list[Step] = []
    if card.symbol:
        steps.append({"do": "symbol", "seat": seat, "symbol": card.symbol})
    variant_only_symbol = bool(state.options.get("no_events"))
    if not variant_only_symbol:
        if state.options.get("optional_events"):
            steps.append({"do": "optional", "seat": seat, "card": card_id})
        steps.append({"do": "main", "seat": seat, "card": card_id})
    steps.append({"do": "discard_event", "seat": seat, "event_card": card_id})
    push(state, *steps)
    return events


@handler(
    "optional",
    lambda s, st: ["accept", "decline"],
    lambda s, st: (
        f"the event {DECKS.events[str(st['card'])].name}: `choose accept` resolves it, "
        "`choose decline` applies only its symbol"
    ),
    always_ask=True,
)
def _optional(state: State, step: Step, choice: str) -> list[Event]:
    if choice == "decline":
        queue = state.decks["steps"]
        state.decks["steps"] = [s for s in queue if not (s["do"] == "main" and s["card"] == step["card"])]
        return [public(f"{colour(int(step['seat']))} declines the event.", "event")]
    return []


@handler("discard_event", no_choice, lambda s, st: "")
def _discard(state: State, step: Step, choice: str) -> list[Event]:
    state.decks["event_discard"].append(step["event_card"])
    return []


# ------------------------------------------------------------------ symbols (rules 12.2)
@handler("symbol", no_choice, lambda s, st: "")
def _symbol(state: State, step: Step, choice: str) -> list[Event]:
    seat = int(step["seat"])
    sym = step["symbol"]
    if sym == "gold_mine":
        kept = gain(state.pl[seat], "gold", 2)
        return [public(f"Gold mine: {colour(seat)} gains {kept} gold.", "event")]
    if sym == "exhausted_land":
        push(state, {"do": "exhaust", "seat": seat})
        return []
    return barbarian_symbol(state, seat, str(sym))


def barbarian_symbol(state: State, seat: int, symbol: str) -> list[Event]:
    """The two Barbarian symbols (rules 11.2, 11.3): the one place they are dispatched to the
    Barbarian rules. A choice they open (where the Barbarians settle, the losses...) is an
    ordinary pending decision; the rest of the event's steps wait for it and go on after it."""
    from engine.clash import barbarians

    if symbol == "barbarians_appear":
        return barbarians.barbarians_appear(state, seat)
    return barbarians.barbarian_attack(state, seat)


def exhaust_spaces(state: State, seat: int) -> list[str]:
    """Empty, non-Barren land spaces next to ``seat``'s cities (rules 12.2, D-16)."""
    if len(state.exhausted) >= LIMITS["exhausted_markers"]:
        return []
    taken = {u.space for u in state.units} | {c.space for c in state.cities}
    out: set[str] = set()
    for c in state.cities_of(seat):
        for h in neighbours(state, c.space):
            if (
                revealed(state, h)
                and is_land(state, h)
                and state.terrain.get(h) != "barren"
                and h not in taken
                and h not in state.exhausted
            ):
                out.add(h)
    return sorted(out)


@handler(
    "exhaust",
    lambda s, st: exhaust_spaces(s, int(st["seat"])),
    lambda s, st: "choose the space that becomes exhausted land",
)
def _exhaust(state: State, step: Step, choice: str) -> list[Event]:
    state.exhausted.append(choice)
    state.changed.append(choice)
    return [public(f"Exhausted land: {choice.upper()} can no longer be used.", "event")]


# ------------------------------------------------------------------ main effects
@handler("main", no_choice, lambda s, st: "")
def _main(state: State, step: Step, choice: str) -> list[Event]:
    seat = int(step["seat"])
    card = DECKS.events[str(step["card"])]
    p = state.pl[seat]
    par = card.params
    e = card.effect
    steps: list[Step] = []
    events: list[Event] = []
    if e == "plague":
        for s in seat_order(state):
            q = state.pl[s]
            if "sanitation" in q.advances:
                events.append(public(f"{colour(s)} is immune (Sanitation).", "event"))
            elif len(state.cities_of(s)) >= 2:
                n = 2 if any(a in q.advances for a in SPREAD_ADVANCES) else 1
                steps.extend({"do": "pick_city", "seat": s, "why": "plague"} for _ in range(n))
    elif e == "epidemic":
        for s in seat_order(state):
            q = state.pl[s]
            if "sanitation" in q.advances:
                events.append(public(f"{colour(s)} is immune (Sanitation).", "event"))
            elif sum(1 for u in state.units if u.owner == s) >= 2:
                n = 2 if any(a in q.advances for a in SPREAD_ADVANCES) else 1
                steps.extend({"do": "lose_unit", "seat": s} for _ in range(n))
    elif e == "famine":
        if "irrigation" in p.advances:
            events.append(public(f"{colour(seat)} is immune (Irrigation).", "event"))
        else:
            n = int(par["n"])
            paid = min(n, p.res["food"])
            p.res["food"] -= paid
            events.append(public(f"{colour(seat)} pays {paid} food to the famine.", "event"))
            if paid < n:
                steps.append({"do": "pick_city", "seat": seat, "why": "famine"})
    elif e == "food":
        if "all" in par:
            for s in seat_order(state):
                kept = gain(state.pl[s], "food", int(par["all"]))
                events.append(public(f"{colour(s)} gains {kept} food.", "event"))
        if "self" in par:
            kept = gain(p, "food", int(par["self"]))
            events.append(public(f"{colour(seat)} gains {kept} food.", "event"))
        for _ in range(int(par.get("other", 0)) + int(par.get("spread", 0))):
            steps.append(player_step(seat, "food"))
    elif e == "great_person":
        queue = state.decks["steps"]
        state.decks["steps"] = [s for s in queue if not (s["do"] == "discard_event" and s["event_card"] == card.id)]
        state.decks["great"][seat].append(card.id)
        events.append(public(f"{colour(seat)} keeps {card.name} to use in a later turn.", "event"))
    elif e == "population_boom":
        steps.append(unit_step(seat, "settler"))
        steps.append(player_step(seat, "settler"))
    elif e == "volcano":
        if len(state.cities_of(seat)) >= int(par["cities"]):
            steps.append({"do": "pick_city", "seat": seat, "why": "volcano", "vp": int(par["vp_per_piece"])})
    elif e == "earthquake":
        if len(state.cities_of(seat)) >= int(par["cities"]):
            steps.append({"do": "quake", "seat": seat, "vp": int(par["vp_per_piece"])})
    elif e == "flood":
        steps.append({"do": "pick_city", "seat": seat, "why": "flood"})
    elif e == "migration":
        steps.append(player_step(seat, "settler", others=False))
        steps.append({"do": "pick_city", "seat": seat, "why": "migration"})
    elif e == "civil_war":
        steps.append({"do": "civil_war", "seat": seat})
    elif e == "revolution":
        steps.append({"do": "revolution", "seat": seat, "part": 1})
        steps.append({"do": "revolution", "seat": seat, "part": 2})
    elif e == "uprising":
        events.extend(_uprising(state, seat, int(par["max"])))
    elif e == "envoy":
        i = gain(p, "ideas", 1)
        c = gain_culture(p, 1)
        events.append(public(f"{colour(seat)} gains {count(i, 'idea')} and {count(c, 'culture token')}.", "event"))
        steps.append(player_step(seat, "culture"))
        if state.wonder_deck:
            w = state.wonder_deck.pop(0)
            state.revealed_wonders.append(w)
            events.append(public(f"The wonder {TABLES.wonders[w].name} is revealed.", "wonder"))
    elif e == "trojan_horse":
        state.decks["trojan"] = state.round
        events.append(
            public("Until the end of the round, attackers of defended cities may use the Trojan Horse.", "event")
        )
    push(state, *steps)
    return events


def _uprising(state: State, seat: int, most: int) -> list[Event]:
    """Decision: a player pays as many tokens as he can up to the maximum, mood tokens first
    (the card leaves no real choice of the count; each token is worth the same half point)."""
    p = state.pl[seat]
    mood = min(p.mood_tokens, most)
    culture = min(p.culture_tokens, most - mood)
    p.mood_tokens -= mood
    p.culture_tokens -= culture
    p.event_halves += mood + culture
    return [
        public(
            f"{colour(seat)} pays {count(mood + culture, 'token')} to the uprising "
            f"for {count(mood + culture, 'half point')}.",
            "event",
        )
    ]


# ------------------------------------------------------------------ choices of the effects
def _pick_city_options(state: State, step: Step) -> list[str] | None:
    seat = int(step["seat"])
    why = step["why"]
    mine = state.cities_of(seat)
    if why == "volcano":
        pool = mine
    elif why == "flood":
        pool = [
            c
            for c in mine
            if c.mood != "angry" and any(state.terrain.get(h) == "sea" for h in neighbours(state, c.space))
        ]
    elif why == "famine":
        pool = [c for c in mine if c.mood != "angry"]
    else:
        pool = [c for c in mine if c.mood != "angry" and c.space not in step.get("done", [])]
    return [city_word(state, c.space) for c in pool]


def _pick_city_prompt(state: State, step: Step) -> str:
    return {
        "volcano": "choose the city the volcano destroys",
        "famine": "choose the city that becomes angry from the famine",
        "plague": "choose a city whose mood drops from the plague",
    }.get(str(step["why"]), "choose the city whose mood drops")


@handler("pick_city", _pick_city_options, _pick_city_prompt)
def _pick_city(state: State, step: Step, choice: str) -> list[Event]:
    seat = int(step["seat"])
    city = city_by_word(state, choice)
    why = step["why"]
    if why == "volcano":
        return _destroy(state, city.space, int(step["vp"]))
    if why == "plague":
        for later in state.decks["steps"]:
            if later["do"] == "pick_city" and later["seat"] == seat and later["why"] == "plague":
                later.setdefault("done", []).append(city.space)
    push(state, mood_step(seat, city.space, angry=why == "famine", cause="event"))
    return []


def _destroy(state: State, space: str, vp: int) -> list[Event]:
    """Volcano: the city, its pieces, wonder and units leave the game; each piece gives ``vp``
    points to the player of its colour (rules 12.3)."""
    city = state.city_at(space)
    assert city is not None
    state.units = [u for u in state.units if u.space != space]
    for col in [city.owner, *city.pieces.values()]:
        if col >= 0:
            state.pl[col].event_halves += 2 * vp
    state.cities.remove(city)
    state.changed.append(space)
    return [public(f"The volcano destroys {city.name} with {count(city.size, 'piece')}.", "event")]


def _quake_options(state: State, step: Step) -> list[str] | None:
    seat = int(step["seat"])
    return [f"{city_word(state, c.space)}-{b}" for c in state.cities_of(seat) if c.size >= 2 for b in c.pieces]


@handler("quake", _quake_options, lambda s, st: "choose the building the earthquake destroys (city-building)")
def _quake(state: State, step: Step, choice: str) -> list[Event]:
    word, building = choice.rsplit("-", 1)
    city = city_by_word(state, word)
    col = city.pieces.pop(building)
    if building == "port":
        city.port_space = ""
    state.pl[col].event_halves += 2 * int(step["vp"])
    state.changed.append(city.space)
    push(state, mood_step(city.owner, city.space, cause="event"))
    return [public(f"The earthquake destroys the {building} of {city.name}.", "event")]


def _unit_word(state: State, u_space: str, kind: str, number: int) -> str:
    return f"ship{number}" if kind == "ship" else f"{kind}-{u_space}"


def unit_words(state: State, seat: int, kinds: tuple[str, ...] = ("settler", "army", "ship")) -> list[str]:
    """Options naming one of ``seat``'s units (``army-c4``, ``ship2``)."""
    out: list[str] = []
    for u in state.units:
        if u.owner == seat and u.kind in kinds:
            w = _unit_word(state, u.space, u.kind, u.number)
            if w not in out:
                out.append(w)
    return out


def remove_unit(state: State, seat: int, word: str) -> str:
    """Remove the unit an option names (a ship takes its cargo with it); returns its space."""
    if word.startswith("ship"):
        ship = next(u for u in state.units if u.owner == seat and u.kind == "ship" and u.number == int(word[4:]))
        state.units = [u for u in state.units if u is not ship and u.carrier != ship.id]
        return ship.space
    kind, space = word.split("-", 1)
    unit = next(
        u
        for u in sorted(state.units, key=lambda x: x.carrier >= 0)
        if u.owner == seat and u.kind == kind and u.space == space
    )
    state.units.remove(unit)
    return space


@handler("lose_unit", lambda s, st: unit_words(s, int(st["seat"])), lambda s, st: "choose a unit the epidemic removes")
def _lose_unit(state: State, step: Step, choice: str) -> list[Event]:
    seat = int(step["seat"])
    space = remove_unit(state, seat, choice)
    state.changed.append(space)
    return [public(f"{colour(seat)} loses {choice.split('-')[0]} on {space.upper()} to the epidemic.", "event")]


def _civil_options(state: State, step: Step) -> list[str] | None:
    from engine.clash.cities import armies_on

    seat = int(step["seat"])
    armed = [c for c in state.cities_of(seat) if c.mood != "happy" and armies_on(state, c.space, seat)]
    if armed:
        return [city_word(state, c.space) + "-army" for c in armed]
    return [city_word(state, c.space) for c in state.cities_of(seat) if c.mood != "angry"]


@handler("civil_war", _civil_options, lambda s, st: "choose the city of the civil war")
def _civil(state: State, step: Step, choice: str) -> list[Event]:
    seat = int(step["seat"])
    events: list[Event] = []
    word = choice[:-5] if choice.endswith("-army") else choice
    city = city_by_word(state, word)
    if choice.endswith("-army"):
        remove_unit(state, seat, f"army-{city.space}")
        events.append(public(f"{colour(seat)} loses an army unit in {city.name} to the civil war.", "event"))
    push(state, mood_step(seat, city.space, cause="event"))
    return events


def _revolution_options(state: State, step: Step) -> list[str] | None:
    seat = int(step["seat"])
    from engine.clash.advances import government_of

    if step["part"] == 2 and not government_of(state.pl[seat]):
        return []
    return ["accept", *unit_words(state, seat, ("army",))]


@handler(
    "revolution",
    _revolution_options,
    lambda s, st: (
        "revolution: `choose accept` "
        + ("loses an action" if st["part"] == 1 else "changes your government")
        + ", or name an army unit to remove instead"
    ),
    always_ask=True,
)
def _revolution(state: State, step: Step, choice: str) -> list[Event]:
    seat = int(step["seat"])
    if choice != "accept":
        space = remove_unit(state, seat, choice)
        return [
            public(f"{colour(seat)} removes an army unit on {space.upper()} to avoid the revolution's step.", "event")
        ]
    if step["part"] == 1:
        if state.phase == "turn" and state.active == seat:
            state.actions_left = max(0, state.actions_left - 1)
        else:
            state.decks["lost"][seat] += 1
        return [public(f"{colour(seat)} loses an action to the revolution.", "event")]
    push(state, {"do": "new_government", "seat": seat})
    return []


def _gov_options(state: State, step: Step) -> list[str] | None:
    from engine.clash.advances import government_of

    current = government_of(state.pl[int(step["seat"])])
    return [g for g in TABLES.governments if g != current]


@handler("new_government", _gov_options, lambda s, st: "choose your new government")
def _new_government(state: State, step: Step, choice: str) -> list[Event]:
    """Decision: the moved cubes go to the new government's advances in board order (the
    card's switch needs no gateway, rules data file 9, card 35)."""
    from engine.clash.advances import government_of

    seat = int(step["seat"])
    p = state.pl[seat]
    current = government_of(p)
    old = [a for a in p.advances if ADVANCES[a].category == current]
    p.advances = [a for a in p.advances if a not in old]
    p.advances.extend(TABLES.by_category[choice][: len(old)])
    return [
        public(
            f"{colour(seat)}'s revolution changes the government from {current.capitalize()} to {choice.capitalize()}.",
            "event",
        )
    ]
