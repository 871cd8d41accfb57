"""Card facts about a city: built names (same-name ban, chains) and counting for effects.

Why here: building, scoring and coin effects all count "cards of a colour", "stages",
"victory tokens" in one city or its neighbours (A14, B6, B7); one counting function keeps
those rules identical everywhere (tucked cards never count, A14.4).
"""

from __future__ import annotations

from engine.seven_wonders.data import CARDS, TABLES
from engine.seven_wonders.state import City, State


def built_names(city: City) -> set[str]:
    """Names of the structures in a city (for the same-name ban and chains)."""
    return {CARDS[c].name for c in city.built}


def colour_count(city: City, colour: str) -> int:
    """Built structures of one colour (tucked cards excluded)."""
    return sum(1 for c in city.built if CARDS[c].color == colour)


def victory_count(city: City) -> int:
    """Number of victory tokens (their values do not matter: B6.11, B6.14, B7.3)."""
    return sum(1 for t in city.tokens if t > 0)


def defeat_count(city: City) -> int:
    """Number of defeat tokens."""
    return sum(1 for t in city.tokens if t < 0)


def count_in(city: City, what: str) -> int:
    """One countable quantity of a city (``data.COUNTABLES``)."""
    if what == "stages":
        return city.stages
    if what == "victory_tokens":
        return victory_count(city)
    if what == "defeat_tokens":
        return defeat_count(city)
    return colour_count(city, what)


def scope_cities(state: State, city: int, scope: str) -> tuple[int, ...]:
    """Cities an effect counts: own, the two neighbours, or all three."""
    if scope == "own":
        return (city,)
    if scope == "neighbours":
        return (state.left(city), state.right(city))
    return (city, state.left(city), state.right(city))


def count_scope(state: State, city: int, counts: tuple[str, ...], scope: str) -> int:
    """Sum of ``counts`` over the cities of ``scope``."""
    return sum(count_in(state.cities[c], what) for c in scope_cities(state, city, scope) for what in counts)


def sell_coins() -> int:
    """Coins for discarding a card (A6.3)."""
    return TABLES.sell_coins
