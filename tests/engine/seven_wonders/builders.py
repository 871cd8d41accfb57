"""7 Wonders test positions: the engine's public position builder (boards, built cards, coins,
hands), then whole turns played by notation."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.core.events import Event
from engine.seven_wonders import SevenWondersGame, position
from engine.seven_wonders.actions import Action
from engine.seven_wonders.state import State

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
    """The engine's :func:`engine.seven_wonders.position.table` with the boards as one list."""
    return position.table(*wonders, side=side, cities=cities, teams=teams, coins=coins, seed=seed, players=players)


city = position.city
hands = position.hands


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
