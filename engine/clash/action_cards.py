"""Action cards played for their non-combat effect (rules section 14, data file section 7.1),
and the great persons of the event deck, which are played the same way.

Why ``play <card>`` names the effect, not the copy: the two copies of a card differ only in their
combat ability; the engine discards the first copy in the hand (Decision). A card is offered only
when its effect can happen now (its cost can be paid and its condition holds), so ``moves`` never
lists a card that would do nothing.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement

from engine.clash.actions import Action
from engine.clash.actions import slug as adv_slug
from engine.clash.board import distances_from
from engine.clash.card_effects import (
    advance_choices,
    city_by_word,
    colour,
    colour_word,
    gain_advance,
    player_step,
    seat_of,
    unit_cities,
    unit_step,
)
from engine.clash.card_flow import Step, handler, push, run_steps
from engine.clash.cards_data import DECKS, slug
from engine.clash.cities import can_activate, collect_spaces, effective_size, finish_activation, grow, grow_cost
from engine.clash.data import TABLES
from engine.clash.decks import add_fact, advance_truces, deal, draw, facts, flags, hand, in_play
from engine.clash.great_persons import great_usable
from engine.clash.notation import city_word
from engine.clash.resources import gain
from engine.clash.state import State
from engine.core.events import Event, public
from engine.core.text import count, with_article

COMBAT_ONLY: tuple[str, ...] = ()
"""Effects never offered as a play (none: every card of the deck is played somewhere)."""


def card_name(effect: str) -> str:
    """Display name of an action card effect."""
    return next(c.name for c in DECKS.actions.values() if c.effect == effect)


def effect_of_slug(word: str) -> str:
    """``great-ideas`` -> ``great_ideas``."""
    return next(c.effect for c in DECKS.actions.values() if slug(c.name) == word)


def objective_label(card: str) -> str:
    """An objective card as one typeable word: ``wealth-or-large-fleet``."""
    o = DECKS.objectives[card]
    return f"{slug(o.upper.name)}-or-{slug(o.lower.name)}"


def action_label(card: str) -> str:
    """An action card as one typeable word."""
    return slug(DECKS.actions[card].name)


# ------------------------------------------------------------------ who is near (Teach Us, Technology Trade)
def near_players(state: State, seat: int) -> list[int]:
    """Players with a unit or city within 2 spaces of one of ``seat``'s units or cities."""
    mine = {u.space for u in state.units if u.owner == seat} | {c.space for c in state.cities_of(seat)}
    reach: set[str] = set()
    for sp in mine:
        reach |= set(distances_from(state, sp, 2))
    out = set()
    for u in state.units:
        if u.owner >= 0 and u.owner != seat and u.space in reach:
            out.add(u.owner)
    for c in state.cities:
        if c.owner >= 0 and c.owner != seat and c.space in reach:
            out.add(c.owner)
    return sorted(out)


def taught(state: State, seat: int) -> list[str]:
    """Advances a near player owns that ``seat`` may take free."""
    others = sorted({a for o in range(state.players) if o != seat for a in state.pl[o].advances})
    if not advance_choices(state, seat, others, True):
        return []  # nothing to learn from anybody: no need to measure distances
    pool = sorted({a for o in near_players(state, seat) for a in state.pl[o].advances})
    return advance_choices(state, seat, pool, True)


def _synergy_firsts(state: State, seat: int, first_only: bool = False) -> list[str]:
    """First advances of Synergies that leave a second one of the same category to buy (the
    second is checked on a copy of the player board that paid for and owns the first)."""
    from engine.clash.advances import eligible, payment
    from engine.clash.resources import pay
    from engine.clash.state import _copy_player

    out = []
    p = state.pl[seat]
    for a in advance_choices(state, seat, None, False):
        plan = payment(state, p, a, False)
        assert plan is not None
        after = _copy_player(p)
        pay(after, plan)
        after.advances.append(a)
        cat = TABLES.by_category[TABLES.advances[a].category]
        if any(eligible(after, b) and payment(state, after, b, False) is not None for b in cat):
            out.append(a)
            if first_only:
                break
    return out


# ------------------------------------------------------------------ what may be played
def _can_effect(state: State, seat: int, effect: str) -> bool:
    p = state.pl[seat]
    if effect == "quick_advance":
        return bool(advance_choices(state, seat, None, True))
    if effect == "spy":
        return any(hand(state, o) or state.decks["goals"][o] for o in range(state.players) if o != seat)
    if effect == "ideas":
        return any("academy" in c.pieces for c in state.cities_of(seat))
    if effect == "city_development":
        return bool(_development_options(state, seat))
    if effect in ("production_focus", "mass_production"):
        return not ({"production_focus", "mass_production"} & set(flags(state, seat)))
    if effect == "explorer":
        from engine.clash.card_explore import entry_spaces

        return bool(unit_cities(state, seat, "settler") or entry_spaces(state, seat))
    if effect == "leadership":
        return True
    if effect == "assassination":
        return any(state.decks["lost"][o] == 0 for o in range(state.players) if o != seat)
    if effect == "new_plans":
        return bool(state.decks["objective"] or state.decks["objective_discard"])
    if effect == "synergies":
        return bool(_synergy_firsts(state, seat, first_only=True))
    if effect in ("teach_us", "technology_trade"):
        return bool(taught(state, seat))
    if effect == "militia":
        return bool(unit_cities(state, seat, "army"))
    if effect == "new_ideas":
        return bool(advance_choices(state, seat, None, False))
    if effect == "inspiration":
        return bool(_inspirations(state, seat))
    if effect == "hero_general":
        return "won_land" in facts(state, seat) and any(c.mood != "happy" for c in state.cities_of(seat))
    if effect == "great_ideas":
        return any(f == "won_land" or f.startswith("capture:") for f in facts(state, seat))
    if effect == "cultural_takeover":
        from engine.clash.influence import USED

        return (
            any(c.owner < 0 and c.size == 1 for c in state.cities)
            and USED not in p.used
            and "cultural_takeover" not in flags(state, seat)
        )
    if effect == "mercenaries":
        from engine.clash.mercenaries import mercenary_camps

        return bool(mercenary_camps(state, seat))
    if effect == "negotiations":
        # Decision: "at the start of your turn" = before the turn's first action (trade route
        # income and other start-of-turn effects may come first).
        return not state.decks.get("acted") and state.players >= 2
    del p
    return False


def _inspirations(state: State, seat: int) -> dict[str, list[str]]:
    """Per city captured this turn and not yet used for an Inspiration (CC-EX-28): the advances
    its previous owner owns that ``seat`` may take free."""
    out: dict[str, list[str]] = {}
    done = facts(state, seat)
    for f in done:
        if f.startswith("capture:") and f"inspired:{f.split(':')[2]}" not in done:
            prev, space = int(f.split(":")[1]), f.split(":")[2]
            if prev >= 0:
                pool = advance_choices(state, seat, list(state.pl[prev].advances), True)
                if pool:
                    out[space] = pool
    return out


def play_options(state: State, seat: int) -> list[Action]:
    """Cards ``seat`` may play now (in his own turn, nothing pending)."""
    if not in_play(state) or state.phase != "turn" or state.pending or seat != state.active:
        return []
    p = state.pl[seat]
    out: list[Action] = []
    for effect in dict.fromkeys(DECKS.actions[c].effect for c in hand(state, seat)):
        card = next(DECKS.actions[c] for c in hand(state, seat) if DECKS.actions[c].effect == effect)
        if effect in COMBAT_ONLY:
            continue
        if p.culture_tokens < card.culture or (card.costs_action and state.actions_left < 1):
            continue
        if _can_effect(state, seat, effect):
            out.append(Action("play", name=effect))
    for card_id in dict.fromkeys(great_usable(state, seat)):
        out.append(Action("great", name=card_id))
    return out


def card_turn_options(state: State, seat: int, base: list[Action]) -> list[Action]:
    """What the cards add to a turn: card plays, great persons, the collects of Production
    Focus and Mass Production (offered for the cities ``base`` lets collect)."""
    out = play_options(state, seat)
    from engine.clash.takeover import takeover_options

    out.extend(takeover_options(state, seat))
    active = set(flags(state, seat)) & {"production_focus", "mass_production"}
    if not active:
        return out
    cities = dict.fromkeys(a.space for a in base if a.kind == "collect" and "husbandry" not in a.flags)
    for space in cities:
        city = state.city_at(space)
        if city is None:
            continue
        for mode in sorted(active):
            for items in special_collects(state, seat, space, mode):
                out.append(
                    Action(
                        "collect", space=space, items=items, flags=("focus" if mode == "production_focus" else "mass",)
                    )
                )
    return out


ORDER = ("food", "wood", "ore", "gold", "mood")


def special_collects(state: State, seat: int, space: str, mode: str) -> list[tuple[str, ...]]:
    """Production Focus: the effective size in resources, several from one space allowed.
    Mass Production: two more spaces than the effective size, each space once."""
    city = state.city_at(space)
    assert city is not None
    spaces = collect_spaces(state, seat, city, False)
    e = effective_size(state, city)
    land = Counter(ys[0] for h, ys in spaces if state.terrain.get(h) != "sea")
    sea = sorted({y for h, ys in spaces if state.terrain.get(h) == "sea" for y in ys}, key=ORDER.index)
    if mode == "production_focus":
        kinds = sorted(set(land) | set(sea), key=ORDER.index)
        if not kinds:
            return []
        return [tuple(c) for c in combinations_with_replacement(kinds, e)]
    most = min(e + 2, sum(land.values()) + (1 if sea else 0))
    found: set[tuple[str, ...]] = set()
    for f in range(land["food"] + 1):
        for w in range(land["wood"] + 1):
            for o in range(land["ore"] + 1):
                items = ["food"] * f + ["wood"] * w + ["ore"] * o
                if len(items) == most:
                    found.add(tuple(items))
                elif len(items) + 1 == most:
                    for s in sea:
                        found.add(tuple(sorted([*items, s], key=ORDER.index)))
    return sorted(found, key=lambda t: [ORDER.index(x) for x in t])


# ------------------------------------------------------------------ playing
def play(state: State, seat: int, action: Action) -> list[Event]:
    """Discard the card, pay its cost and start its effect."""
    p = state.pl[seat]
    me = colour(seat)
    if action.kind == "great":
        state.decks["great"][seat].remove(action.name)
        state.decks["event_discard"].append(action.name)
        push(state, {"do": "great_advance", "seat": seat, "card": action.name})
        events = [public(f"{me} calls on {DECKS.events[action.name].name}.", "card")]
        events.extend(run_steps(state))
        return events
    effect = action.name
    card = next(DECKS.actions[c] for c in hand(state, seat) if DECKS.actions[c].effect == effect)
    state.decks["hands"][seat].remove(card.id)
    state.decks["action_discard"].append(card.id)
    p.culture_tokens -= card.culture
    if card.costs_action:
        state.actions_left -= 1
    events = [public(f"{me} plays {card.name}.", "card", card=card.name)]
    steps: list[Step] = []
    if effect == "quick_advance":
        steps.append({"do": "adv_pick", "seat": seat, "free": True, "then": ""})
    elif effect == "ideas":
        n = sum(1 for c in state.cities_of(seat) if "academy" in c.pieces)
        events.append(public(f"{me} gains {count(gain(p, 'ideas', n), 'idea')}.", "card"))
    elif effect == "spy":
        steps.append({"do": "spy", "seat": seat})
    elif effect == "city_development":
        steps.append({"do": "develop", "seat": seat})
    elif effect in ("production_focus", "mass_production", "cultural_takeover"):
        state.decks["flags"][seat].append(effect)
    elif effect == "explorer":
        # Decision: "and/or": the exploration may be skipped; the settler follows when possible.
        steps.append({"do": "card_explore", "seat": seat, "optional": True})
        steps.append(unit_step(seat, "settler"))
    elif effect == "leadership":
        state.actions_left += 1
        events.append(public(f"{me} gains an extra action.", "card"))
    elif effect == "assassination":
        steps.append(
            player_step(seat, "lose_action", exclude=[o for o in range(state.players) if state.decks["lost"][o]])
        )
    elif effect == "new_plans":
        drawn = [c for c in (draw(state, "objective"), draw(state, "objective")) if c]
        steps.append({"do": "plans_keep", "seat": seat, "held_objectives": drawn})
    elif effect == "synergies":
        steps.append({"do": "adv_pick", "seat": seat, "free": False, "then": "synergy"})
    elif effect == "teach_us":
        steps.append({"do": "adv_pick", "seat": seat, "free": True, "then": "", "pool": taught(state, seat)})
    elif effect == "militia":
        steps.append(unit_step(seat, "army"))
    elif effect == "technology_trade":
        steps.append({"do": "adv_pick", "seat": seat, "free": True, "then": "trade_back", "pool": taught(state, seat)})
    elif effect == "new_ideas":
        steps.append({"do": "adv_pick", "seat": seat, "free": False, "then": "ideas2"})
    elif effect == "inspiration":
        space, pool = next(iter(_inspirations(state, seat).items()))
        add_fact(state, seat, f"inspired:{space}")
        steps.append({"do": "adv_pick", "seat": seat, "free": True, "then": "", "pool": pool})
    elif effect == "great_ideas":
        events.append(public(f"{me} gains {count(gain(p, 'ideas', 2), 'idea')}.", "card"))
    elif effect == "negotiations":
        steps.append(player_step(seat, "negotiate"))
    elif effect == "mercenaries":
        steps.append({"do": "merc_camp", "seat": seat})
    elif effect == "hero_general":
        steps.append({"do": "hero", "seat": seat, "paid": False})
    else:
        raise AssertionError(f"card {effect} is not playable as an action")
    push(state, *steps)
    events.extend(run_steps(state))
    return events


# ------------------------------------------------------------------ advances through cards
def _adv_options(state: State, step: Step) -> list[str] | None:
    seat = int(step["seat"])
    if step["then"] == "synergy":
        return [adv_slug(a) for a in _synergy_firsts(state, seat)]
    pool = step.get("pool")
    return [
        adv_slug(a) for a in advance_choices(state, seat, list(pool) if pool is not None else None, bool(step["free"]))
    ]


@handler("adv_pick", _adv_options, lambda s, st: "choose the advance you gain")
def _adv_pick(state: State, step: Step, choice: str) -> list[Event]:
    seat = int(step["seat"])
    adv = choice.replace("-", "_")
    events = gain_advance(state, seat, adv, bool(step["free"]))
    then = step["then"]
    if then == "synergy":
        cat = TABLES.advances[adv].category
        push(state, {"do": "adv_pick", "seat": seat, "free": False, "then": "", "pool": list(TABLES.by_category[cat])})
    elif then == "ideas2":
        events.append(public(f"{colour(seat)} gains {count(gain(state.pl[seat], 'ideas', 2), 'idea')}.", "card"))
    elif then == "trade_back":
        partners = [o for o in near_players(state, seat) if adv in state.pl[o].advances]
        push(state, {"do": "trade_back", "seat": seat, "partners": partners})
    return events


@handler(
    "trade_back",
    lambda s, st: [colour_word(o) for o in st["partners"]],
    lambda s, st: "choose the player you traded with (he gains an advance from you)",
)
def _trade_back(state: State, step: Step, choice: str) -> list[Event]:
    other = seat_of(choice)
    pool = list(state.pl[int(step["seat"])].advances)
    push(state, {"do": "adv_pick", "seat": other, "free": True, "then": "", "pool": pool})
    return []


# ------------------------------------------------------------------ Hero General
def _hero_options(state: State, step: Step) -> list[str] | None:
    seat = int(step["seat"])
    cities = [city_word(state, c.space) for c in state.cities_of(seat) if c.mood != "happy"]
    if step["paid"]:
        return ["none", *cities] if cities and state.pl[seat].mood_tokens >= 1 else []
    return cities


@handler(
    "hero_paid",
    _hero_options,
    lambda s, st: "choose a city to make happier for 1 mood token, or `choose none`",
    always_ask=True,
)
@handler("hero", _hero_options, lambda s, st: "choose a city to make happier")
def _hero(state: State, step: Step, choice: str) -> list[Event]:
    from engine.clash.state import MOODS

    seat = int(step["seat"])
    if choice == "none":
        return []
    if step["paid"]:
        state.pl[seat].mood_tokens -= 1
    city = city_by_word(state, choice)
    city.mood = MOODS[min(2, MOODS.index(city.mood) + 1)]
    state.changed.append(city.space)
    if not step["paid"]:
        push(state, {"do": "hero_paid", "seat": seat, "paid": True})
    return [public(f"{city.name} becomes {city.mood}.", "card")]


# ------------------------------------------------------------------ City Development
def _development_options(state: State, seat: int) -> list[str]:
    from engine.clash.cities import grow_options

    p = state.pl[seat]
    saved = dict(p.res)
    for r in ("food", "ore", "wood"):
        p.res[r] = 8
    try:
        out = []
        for c in state.cities_of(seat):
            if not can_activate(state, c):
                continue
            for building, port, _tok, san in grow_options(state, seat, c):
                if not san:
                    out.append(f"{city_word(state, c.space)}-{building}" + (f"-{port}" if port else ""))
        return sorted(set(out))
    finally:
        p.res = saved


def _split_grow(choice: str) -> tuple[str, str, str]:
    parts = choice.split("-")
    if len(parts) >= 3 and parts[-2] == "port":
        return "-".join(parts[:-2]), "port", parts[-1]
    return "-".join(parts[:-1]), parts[-1], ""


@handler(
    "develop", lambda s, st: _development_options(s, int(st["seat"])), lambda s, st: "choose the city and building"
)
def _develop(state: State, step: Step, choice: str) -> list[Event]:
    seat = int(step["seat"])
    p = state.pl[seat]
    word, building, port = _split_grow(choice)
    city = city_by_word(state, word)
    had = "state_religion" in p.used
    for r, n in grow_cost(p, building).items():
        p.res[r] += n  # the card pays the Food, Ore and Wood
    grow(state, seat, city, building, port, "culture" if p.culture_tokens < p.culture_level else "mood", False)
    if not had and "state_religion" in p.used:
        p.used.remove("state_religion")
    dropped = finish_activation(city)
    state.changed.append(city.space)
    tail = f"; {city.name} becomes {city.mood}" if dropped else ""
    return [public(f"{colour(seat)} adds {with_article(building)} to {city.name}{tail}.", "card")]


# ------------------------------------------------------------------ turn bookkeeping
def new_turn(state: State) -> None:
    """Start of a turn: this turn's facts and card effects end; lost actions are taken."""
    d = state.decks
    d["facts"] = [[] for _ in range(state.players)]
    d["used_facts"] = [[] for _ in range(state.players)]
    d["flags"] = [[] for _ in range(state.players)]
    d["acted"] = False
    advance_truces(state)
    if state.phase == "turn" and d["lost"][state.active]:
        state.actions_left = max(0, state.actions_left - d["lost"][state.active])
        d["lost"][state.active] = 0
    if state.turn == 1 and state.active == state.first and d.get("trojan") and d["trojan"] < state.round:
        d["trojan"] = 0


def status_draws(state: State, order: list[int]) -> None:
    """Status step 3: one action card and one objective card each."""
    for seat in order:
        deal(state, seat, 1, 1)


def turn_key(state: State) -> list[int]:
    """Identifies the current turn (a change means a new turn began)."""
    return [state.round, state.turn, state.active, int(state.phase == "turn")]
