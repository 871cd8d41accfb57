"""Antike Duellum positions for rule tests: the engine's public :class:`Position` builder
plus playing on it.

Why a builder: the rulebook examples start from mid-game positions (cities with temples, units
in place, a stone on MILITIA); playing there move by move would hide what is tested.
"""

from __future__ import annotations

from typing import Any

from engine.core.api import Step
from engine.duellum import DuellumGame
from engine.duellum.actions import Action, id_notation
from engine.duellum.duellum import defence
from engine.duellum.position import Position, space_index
from engine.duellum.state import State

__all__ = ["GAME", "Board", "space_index"]

GAME = DuellumGame()


class Board(Position):
    """The engine's :class:`Position`, which tests also play on: ``play`` and ``do`` move the
    board on to the new state, and a few reads name what the rulebook examples check."""

    def __init__(self, map_id: str = "rome-carthage", active: int = 0, seed: int = 0, **options: Any) -> None:
        super().__init__(map_id, active, seed, **options)
        self.game = GAME

    @property
    def state(self) -> State:
        """The current state; tests change it in place, so cached legal actions are dropped."""
        self._state.touch()
        return self._state

    @state.setter
    def state(self, value: State) -> None:
        self._state = value

    # ------------------------------------------------------------- play
    def play(self, seat: int, text: str) -> Step[State]:
        """Parse and apply a chat command; the board moves on to the new state."""
        action = self.game.parse(self.state, seat, text)
        step = self.game.apply(self.state, seat, action)
        self.state = step.state
        return step

    def do(self, seat: int, action: Action) -> Step[State]:
        """Apply an action object."""
        step = self.game.apply(self.state, seat, action)
        self.state = step.state
        return step

    def legal_texts(self, seat: int) -> list[str]:
        """Notations of the legal actions of ``seat``, spelled with ids (``move legion
        roma-genua``) so rule tests do not depend on printed names."""
        return [id_notation(self.state.map, seat, a) for a in self.game.legal_actions(self.state, seat)]

    # ------------------------------------------------------------ reads
    def res(self, seat: int) -> tuple[int, int, int, int]:
        """(marble, iron, gold, coins) of ``seat``."""
        r = self.state.players[seat].res
        return (r[0], r[1], r[2], r[3])

    def n(self, seat: int, region: str) -> tuple[int, int]:
        """(legions, galleys) of ``seat`` in ``region``."""
        i = self.r(region)
        return (self.state.units[seat][0][i], self.state.units[seat][1][i])

    def owner(self, region: str) -> int:
        """City owner (-1 none)."""
        return self.state.owner[self.r(region)]

    def defence(self, region: str) -> int:
        """Defence of the city in ``region`` against the other nation."""
        i = self.r(region)
        return defence(self.state, i, 1 - self.state.owner[i])
