"""Scripted combat dice for tests (the rulebook examples give the dice results)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.clash import combat_rounds
from engine.clash.state import State


class Dice:
    """Hands out the queued values instead of rolling; an empty queue is a test error."""

    def __init__(self) -> None:
        self.queue: list[int] = []

    def __call__(self, state: State) -> int:
        return self.queue.pop(0)

    def set(self, *values: int) -> None:
        """The next dice, attacker's first, then the defender's, round by round."""
        self.queue = list(values)


@pytest.fixture
def dice() -> Iterator[Dice]:
    """Install scripted dice for one test."""
    d = Dice()
    combat_rounds.ROLL[0] = d
    yield d
    combat_rounds.ROLL[0] = combat_rounds.roll_die
