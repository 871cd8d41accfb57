"""Great persons (event cards 15-23, data file 9): kept face up by the drawer and played in a
later turn of his for a free advance of their category and a bonus.

Why apart from :mod:`engine.clash.events`: a great person is used like an action card (``play
great-artist``), long after the event was drawn; its bonuses reuse the city and card rules.
"""

from __future__ import annotations

from engine.clash.actions import slug as adv_slug
from engine.clash.card_effects import advance_choices, city_by_word, colour
from engine.clash.card_flow import Step, handler, push
from engine.clash.cards_data import DECKS
from engine.clash.data import TABLES
from engine.clash.decks import deal
from engine.clash.notation import city_word
from engine.clash.resources import gain
from engine.clash.state import State
from engine.core.events import Event, public
from engine.core.text import count

# ------------------------------------------------------------------ great persons
GREAT_BONUS_TEXT = {
    "explorer": "a new region and a city",
    "artist": "a happy city",
    "prophet": "a temple",
    "philosopher": "2 ideas",
    "scientist": "an idea and an action card",
    "statesman": "2 action cards",
    "general": "a free Move action",
    "merchant": "trade route income",
    "engineer": "a building",
}


def great_pool(card_id: str) -> list[str]:
    """Advances a great person may give."""
    cat = str(DECKS.events[card_id].params["category"])
    if cat == "government":
        return [a for g in TABLES.governments for a in TABLES.by_category[g]]
    return list(TABLES.by_category[cat])


def great_usable(state: State, seat: int) -> list[str]:
    """Great persons ``seat`` may use now (an advance of the category can be taken free)."""
    return (
        [c for c in state.decks["great"][seat] if advance_choices(state, seat, great_pool(c), True)]
        if state.decks
        else []
    )


def _great_options(state: State, step: Step) -> list[str] | None:
    return [adv_slug(a) for a in advance_choices(state, int(step["seat"]), great_pool(str(step["card"])), True)]


@handler(
    "great_advance", _great_options, lambda s, st: f"choose the advance {DECKS.events[str(st['card'])].name} gives"
)
def _great_advance(state: State, step: Step, choice: str) -> list[Event]:
    from engine.clash.card_effects import gain_advance

    seat = int(step["seat"])
    events = gain_advance(state, seat, choice.replace("-", "_"), True)
    push(state, {"do": "great_bonus", "seat": seat, "bonus": DECKS.events[str(step["card"])].params["bonus"]})
    return events


def _bonus_options(state: State, step: Step) -> list[str] | None:
    from engine.clash.cities import grow_options

    seat = int(step["seat"])
    b = step["bonus"]
    if b == "artist":
        return [city_word(state, c.space) for c in state.cities_of(seat) if c.mood != "happy"]
    if b in ("prophet", "engineer"):
        out = []
        for c in state.cities_of(seat):
            for building, port, _tok, san in grow_options(state, seat, c):
                if san or (b == "prophet" and building != "temple"):
                    continue
                out.append(f"{city_word(state, c.space)}-{building}" + (f"-{port}" if port else ""))
        return sorted(set(out))
    return None


@handler(
    "great_bonus",
    _bonus_options,
    lambda s, st: f"choose where the great person's bonus ({GREAT_BONUS_TEXT[str(st['bonus'])]}) goes",
)
def _great_bonus(state: State, step: Step, choice: str) -> list[Event]:
    from engine.clash.cities import grow
    from engine.clash.trade_routes import route_count

    seat = int(step["seat"])
    p = state.pl[seat]
    b = step["bonus"]
    me = colour(seat)
    if b == "explorer":
        push(state, {"do": "card_explore", "seat": seat, "found": True})
        return []
    if b == "artist":
        city = city_by_word(state, choice)
        city.mood = "happy"
        state.changed.append(city.space)
        return [public(f"{city.name} becomes happy.", "event")]
    if b in ("prophet", "engineer"):
        parts = choice.split("-")
        port = (
            parts[-1]
            if len(parts) >= 2 and parts[-1][1:].isdigit() and parts[-1][0].isalpha() and parts[-2] == "port"
            else ""
        )
        building = parts[-2] if port else parts[-1]
        word = "-".join(parts[: -2 if port else -1])
        city = city_by_word(state, word)
        # Decision: the Temple's token is a culture token when the level allows it, else mood.
        grow(state, seat, city, building, port, "culture" if p.culture_tokens < p.culture_level else "mood", False)
        state.changed.append(city.space)
        return [
            public(
                f"{me} adds {'an' if building[0] in 'aeiou' else 'a'} {building} to {city.name} without an action.",
                "event",
            )
        ]
    if b == "philosopher":
        return [public(f"{me} gains {count(gain(p, 'ideas', 2), 'idea')}.", "event")]
    if b == "scientist":
        i = gain(p, "ideas", 1)
        deal(state, seat, 1, 0)
        return [public(f"{me} gains {count(i, 'idea')} and draws an action card.", "event")]
    if b == "statesman":
        deal(state, seat, 2, 0)
        return [public(f"{me} draws 2 action cards.", "event")]
    if b == "general":
        # Decision: the free Move action is one extra action this turn (used in the player's
        # own turn, when great persons are played).
        state.actions_left += 1
        return [public(f"{me} gains an extra action for a move.", "event")]
    if b == "merchant":
        if "trade_routes" not in p.advances:
            return []
        n = route_count(state, seat)
        kept = gain(p, "food", n)
        return [public(f"{me} collects {kept} food from trade routes.", "event")]
    raise AssertionError(f"unknown bonus {b}")
