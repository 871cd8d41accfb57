"""Small effects shared by event and action cards: mood drops with Myths, a settler or army in a
city, choosing a player, gaining an advance through a card.

Why shared steps: "one of your cities' mood drops", "gain 1 settler in one of your cities" and
"choose another player" recur across both decks; one step kind each keeps the choices (and
Myths' protection, rules 12.4) the same everywhere.
"""

from __future__ import annotations

from engine.clash.advances import acquire, eligible, payment, switch_options
from engine.clash.card_flow import Step, handler, push
from engine.clash.cities import add_unit, armies_on, units_of
from engine.clash.data import ADVANCES, LIMITS, TABLES
from engine.clash.notation import city_word
from engine.clash.state import MOODS, City, State
from engine.core.events import Event, public
from engine.core.text import count


def colour(seat: int) -> str:
    """Seat display name."""
    return TABLES.colours[seat]


def colour_word(seat: int) -> str:
    """A seat as a typeable option."""
    return TABLES.colours[seat].lower()


def seat_of(word: str) -> int:
    """Inverse of :func:`colour_word`."""
    return [c.lower() for c in TABLES.colours].index(word)


def city_by_word(state: State, word: str) -> City:
    """The city an option names."""
    for c in state.cities:
        if city_word(state, c.space) == word:
            return c
    raise AssertionError(f"no city {word}")


# ------------------------------------------------------------------ mood drops (Myths)
def mood_step(seat: int, space: str, angry: bool = False, cause: str = "") -> Step:
    """A city's mood drops one step (``angry``: it becomes angry) because of an event or card."""
    return {"do": "mood", "seat": seat, "space": space, "angry": angry, "cause": cause}


def _mood_target(state: State, step: Step) -> City | None:
    city = state.city_at(str(step["space"]))
    if city is None or city.owner != int(step["seat"]) or city.mood == "angry":
        return None
    return city


def _mood_options(state: State, step: Step) -> list[str] | None:
    city = _mood_target(state, step)
    if city is None:
        return []
    p = state.pl[city.owner]
    if step.get("cause") == "event" and "myths" in p.advances and p.mood_tokens >= 1:
        return ["accept", "protect"]
    return None


def _mood_prompt(state: State, step: Step) -> str:
    city = _mood_target(state, step)
    name = city.name if city else "the city"
    return f"{name} would become less happy: `choose protect` pays 1 mood token (Myths), `choose accept` lets it drop"


@handler("mood", _mood_options, _mood_prompt, always_ask=True)
def _mood_run(state: State, step: Step, choice: str) -> list[Event]:
    city = _mood_target(state, step)
    if city is None:
        return []
    who = colour(city.owner)
    if choice == "protect":
        state.pl[city.owner].mood_tokens -= 1
        return [public(f"{who} pays a mood token (Myths): {city.name} keeps its mood.", "event")]
    city.mood = "angry" if step.get("angry") else MOODS[MOODS.index(city.mood) - 1]
    state.changed.append(city.space)
    return [public(f"{city.name} becomes {city.mood}.", "event")]


# ------------------------------------------------------------------ a unit in a city
UNIT_WORDS = {"army": "an army unit", "settler": "a settler"}


def unit_step(seat: int, kind: str) -> Step:
    """``seat`` gains a settler or army unit in one of his cities (he chooses the city)."""
    return {"do": "unit", "seat": seat, "kind": kind}


def unit_cities(state: State, seat: int, kind: str) -> list[City]:
    """Cities of ``seat`` that may receive a new unit of ``kind`` (limits and stacking)."""
    if units_of(state, seat, kind) >= LIMITS[kind]:
        return []
    out = state.cities_of(seat)
    if kind == "army":
        out = [c for c in out if armies_on(state, c.space, seat) < LIMITS["stack"]]
    return out


def _unit_options(state: State, step: Step) -> list[str] | None:
    return [city_word(state, c.space) for c in unit_cities(state, int(step["seat"]), str(step["kind"]))]


def _unit_prompt(state: State, step: Step) -> str:
    return f"choose the city that gains the new {step['kind']}"


@handler("unit", _unit_options, _unit_prompt)
def _unit_run(state: State, step: Step, choice: str) -> list[Event]:
    city = city_by_word(state, choice)
    add_unit(state, int(step["seat"]), str(step["kind"]), city.space)
    state.changed.append(city.space)
    return [
        public(
            f"{colour(int(step['seat']))} gains {UNIT_WORDS[str(step['kind'])]} in {city.name}.",
            "event",
        )
    ]


# ------------------------------------------------------------------ choosing a player
def player_step(seat: int, then: str, *, others: bool = True, **extra: object) -> Step:
    """``seat`` chooses a player (``others``: not himself); ``then`` says what the chosen gets."""
    return {"do": "player", "seat": seat, "then": then, "others": others, **extra}


def _player_options(state: State, step: Step) -> list[str] | None:
    seat = int(step["seat"])
    seats = [s for s in state.clockwise_from(seat) if not (step.get("others") and s == seat)]
    exclude = set(step.get("exclude", []))
    return [colour_word(s) for s in seats if s not in exclude]


def _player_prompt(state: State, step: Step) -> str:
    what = {
        "food": "gains 1 food",
        "culture": "gains 1 culture token",
        "settler": "gains a settler",
        "lose_action": "loses 1 action in his next turn",
        "negotiate": "you will not attack this turn (nor he you in his next turn)",
    }.get(str(step["then"]), "")
    return f"choose the player who {what}" if step["then"] != "negotiate" else f"choose the player {what}"


@handler("player", _player_options, _player_prompt)
def _player_run(state: State, step: Step, choice: str) -> list[Event]:
    from engine.clash.resources import gain, gain_culture

    chosen = seat_of(choice)
    seat = int(step["seat"])
    then = step["then"]
    if then == "food":
        kept = gain(state.pl[chosen], "food", 1)
        return [public(f"{colour(chosen)} gains {kept} food.", "event")]
    if then == "culture":
        kept = gain_culture(state.pl[chosen], 1)
        return [public(f"{colour(chosen)} gains {count(kept, 'culture token')}.", "event")]
    if then == "settler":
        push(state, unit_step(chosen, "settler"))
        return []
    if then == "lose_action":
        state.decks["lost"][chosen] += 1
        state.decks["flags"][seat].append(f"assassinated:{chosen}")
        return [public(f"{colour(chosen)} will lose an action in his next turn.", "card")]
    if then == "negotiate":
        now = int(state.decks.get("turn_no", 0))
        state.decks.setdefault("truces", []).extend(
            [{"attacker": seat, "target": chosen, "turn": now}, {"attacker": chosen, "target": seat, "turn": -1}]
        )
        return [
            public(
                f"{colour(seat)} and {colour(chosen)} will not attack each other: "
                f"{colour(seat)} this turn, {colour(chosen)} in his next turn.",
                "card",
            )
        ]
    raise AssertionError(f"unknown player choice {then}")


# ------------------------------------------------------------------ advances through cards
def gain_advance(state: State, seat: int, adv: str, free: bool) -> list[Event]:
    """Acquire ``adv`` through a card or event (a normal acquisition: borders, events, Steel
    Weapons' Ore). Decision: when it is the first advance of a new government, the other moved
    cubes go to the new government's first advances in board order."""
    keep = switch_options(state.pl[seat], adv)[0]
    lines = acquire(state, seat, adv, keep, free=free)
    tail = (": " + "; ".join(lines)) if lines else ""
    return [public(f"{colour(seat)} gains {ADVANCES[adv].name}{tail}.", "advance")]


def advance_choices(state: State, seat: int, pool: list[str] | None, free: bool) -> list[str]:
    """Advances ``seat`` may gain now (``pool``: only these), eligible and payable."""
    p = state.pl[seat]
    return [
        a
        for a in TABLES.advance_order
        if (pool is None or a in pool) and eligible(p, a) and payment(state, p, a, free) is not None
    ]
