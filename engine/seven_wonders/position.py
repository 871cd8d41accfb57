"""Set up a 7 Wonders position by naming it: which boards sit at the table, what each city has
built, its coins and tokens, each hand, the Age and the turn.

Why public: the rulebook's examples (and rule tests, tutorials, bug reports) start from a
table in mid-game; editing a :class:`State` by hand leaves dealt cards behind and is easy to
get inconsistent. A test reads like the example it checks::

    s = table("gizah", "rhodos", "ephesos", coins=3)
    city(s, "rhodos", built=["Lumber Yard", "Stone Pit"], coins=5)
    hands(s, ["Baths", "Altar"], ["Theater", "Altar"], ["Loom", "Altar"])

Boards and cards are named as printed (``Lumber Yard``) or by id (``lumber_yard``); a city may
be named by its board (``rhodos``) or its seat number.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.core.notation import normalize
from engine.seven_wonders.data import CARDS, WONDERS
from engine.seven_wonders.setup import initial_state
from engine.seven_wonders.state import City, State
from engine.seven_wonders.turns import start_age


class PositionError(ValueError):
    """The position asked for is impossible (an unknown board or card)."""


def _key(name: str) -> str:
    return normalize(name).replace(" ", "_")


def card_id(name: str) -> str:
    """Card id of a printed name or an id."""
    key = _key(name)
    if key in CARDS:
        return key
    for cid, c in CARDS.items():
        if _key(c.name) == key:
            return cid
    raise PositionError(f"No card {name!r}.")


def wonder_id(name: str) -> str:
    """Board id of a board or city name."""
    key = _key(name)
    for wid, w in WONDERS.items():
        if key in (wid, _key(w.name), _key(w.city)):
            return wid
    raise PositionError(f"No wonder board {name!r}.")


def table(
    *wonders: str,
    side: str = "A",
    cities: bool = True,
    teams: bool = False,
    coins: int = 3,
    seed: int = 1,
    players: int | None = None,
) -> State:
    """A game in Age I, turn 1 with the given boards (one per city), empty cities, empty hands
    and an empty discard pile. ``side`` may give one letter per city; ``players`` is needed
    only for the two-player game (three boards: the third is the Free City)."""
    ws = [wonder_id(w) for w in wonders] or ["gizah", "rhodos", "ephesos"]
    n = players if players is not None else len(ws)
    s = initial_state(seed, n, {"cities": cities, "teams": teams})
    start_age(s, 1)
    if len(ws) != s.n:
        raise PositionError(f"A {n}-player table has {s.n} cities: name one board for each.")
    for i, w in enumerate(ws):
        sd = side[i] if len(side) == len(ws) else side
        s.cities[i] = City(wonder=w, side=sd.upper(), coins=coins)
    for h in s.hands:
        h.clear()
    s.fc_pile.clear()
    s.discard.clear()
    return s


def city_index(s: State, who: int | str) -> int:
    """Seat of a city named by its board or city name, or given as a number."""
    if isinstance(who, int):
        return who
    wid = wonder_id(who)
    for i, c in enumerate(s.cities):
        if c.wonder == wid:
            return i
    raise PositionError(f"No city with the board {who!r} at this table.")


def city(
    s: State,
    who: int | str,
    *,
    built: Iterable[str] = (),
    coins: int | None = None,
    stages: int | None = None,
    tokens: Iterable[int] | None = None,
    debt: int | None = None,
    diplomacy: int | None = None,
) -> City:
    """Adjust one city (structures added to what it has built); returns it."""
    c = s.cities[city_index(s, who)]
    c.built.extend(card_id(b) for b in built)
    if coins is not None:
        c.coins = coins
    if stages is not None:
        c.stages = stages
        c.tucked = ["altar"] * stages
    if tokens is not None:
        c.tokens = list(tokens)
    if debt is not None:
        c.debt = debt
    if diplomacy is not None:
        c.diplomacy = diplomacy
    return c


def hands(s: State, *cards: Iterable[str], age: int = 1, last: bool = False) -> State:
    """Give each seat its hand (in seat order). ``last``: make this the last turn of the Age."""
    for seat, cs in enumerate(cards):
        s.hands[seat] = [card_id(c) for c in cs]
    s.age = age
    s.turn = s.turns_per_age if last else 1
    s.step = "pick"
    return s
