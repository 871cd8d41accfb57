"""Small builder for 7 Wonders test positions: pick boards, built cards, coins and hands,
then play whole turns by notation."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.core.events import Event
from engine.seven_wonders import SevenWondersGame
from engine.seven_wonders.actions import Action
from engine.seven_wonders.state import City, State

G = SevenWondersGame()


def table(
    wonders: Iterable[str] = ("gizah", "rhodos", "ephesos"),
    *,
    side: str = "A",
    cities: bool = True,
    teams: bool = False,
    coins: int = 3,
    seed: int = 1,
    players: int | None = None,
) -> State:
    """A game in Age I, turn 1 with the given boards (one per city) and empty cities.

    Hands are cleared; give them with :func:`hands`. ``side`` may be one letter per city.
    """
    ws = list(wonders)
    n = players if players is not None else len(ws)
    s = G.new_game(seed, n, {"cities": cities, "teams": teams})
    assert len(ws) == s.n, "one board per city"
    for i, w in enumerate(ws):
        sd = side[i] if len(side) == len(ws) else side
        s.cities[i] = City(wonder=w, side=sd, coins=coins)
    for h in s.hands:
        h.clear()
    s.fc_pile.clear()
    s.discard.clear()
    return s


def city(
    s: State,
    idx: int,
    *,
    built: Iterable[str] = (),
    coins: int | None = None,
    stages: int | None = None,
    tokens: Iterable[int] | None = None,
    debt: int | None = None,
    diplomacy: int | None = None,
) -> City:
    """Adjust one city; returns it."""
    c = s.cities[idx]
    c.built.extend(built)
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
        s.hands[seat] = list(cs)
    s.age = age
    s.turn = s.turns_per_age if last else 1
    s.step = "pick"
    return s


def act(s: State, seat: int, text: str) -> tuple[State, list[Event]]:
    """Parse and apply one move."""
    a = G.parse(s, seat, text)
    step = G.apply(s, seat, a)
    return step.state, list(step.events)


def turn(s: State, moves: Mapping[int, str | Iterable[str]]) -> tuple[State, list[Event]]:
    """Apply every seat's move(s) in seat order; returns the state and all events."""
    events: list[Event] = []
    for seat in sorted(moves):
        texts = moves[seat]
        for text in [texts] if isinstance(texts, str) else texts:
            s, ev = act(s, seat, text)
            events.extend(ev)
    return s, events


def moves_of(s: State, seat: int) -> list[str]:
    """Canonical notations of the seat's legal moves."""
    return [G.notation(s, seat, a) for a in G.legal_actions(s, seat)]


def play_actions(s: State, seat: int, card: str) -> list[Action]:
    """Legal ``play`` moves of a card."""
    return [a for a in G.legal_actions(s, seat) if a.kind == "play" and a.card == card]


def payments(s: State, seat: int, card: str, kind: str = "play") -> list[tuple[int, int]]:
    """(left, right) payments of the legal moves of a card."""
    return [(a.pay_left, a.pay_right) for a in G.legal_actions(s, seat) if a.kind == kind and a.card == card]


def texts(events: Iterable[Event], public_only: bool = True) -> list[str]:
    """Event texts (public ones by default)."""
    return [e.text for e in events if e.public or not public_only]


def data(events: Iterable[Event]) -> list[Mapping[str, Any]]:
    """Event data."""
    return [e.data for e in events]
