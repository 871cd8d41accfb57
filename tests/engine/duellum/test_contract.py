"""The action contract in the positions where each rule module's actions are legal (random
games rarely reach a Commercium trade or a founding with coins): every listed action is legal,
every mutation of one that is not listed raises ``IllegalAction`` and changes nothing."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.core.rng import Rng
from engine.core.testing import check_action_contract

from .builders import GAME, Board

CARTHAGINIANS, ROMANS = 0, 1


def _rich(b: Board, seat: int) -> Board:
    return b.resources(seat, marble=7, iron=5, gold=9, coins=8)


POSITIONS: dict[str, Callable[[], Board]] = {
    "rondel": lambda: _rich(Board(active=ROMANS), ROMANS).techs(ROMANS, "Commercium"),
    "templum": lambda: _rich(Board(active=ROMANS), ROMANS).city("Ancona", ROMANS, "gold").action("TEMPLUM"),
    "militia": lambda: _rich(Board(active=ROMANS), ROMANS).box(ROMANS, 3, 2).start(ROMANS).action("MILITIA"),
    "scientia": lambda: _rich(Board(active=ROMANS), ROMANS).techs(CARTHAGINIANS, "Strata").action("SCIENTIA"),
    "duellum": lambda: Board(active=ROMANS).units(ROMANS, "Roma", legions=3, galleys=2).action("DUELLUM"),
    "conquest": lambda: Board(active=CARTHAGINIANS)
    .city("Tarraco", ROMANS, "gold", temple=True)
    .units(CARTHAGINIANS, "Tarraco", legions=4)
    .hand(CARTHAGINIANS, "Veterans")
    .conquest_step(),
    "founding": lambda: _rich(Board(active=CARTHAGINIANS), CARTHAGINIANS)
    .units(CARTHAGINIANS, "Numantia", legions=1)
    .founding_step(),
    "cards": lambda: _rich(Board(active=ROMANS), ROMANS)
    .hand(ROMANS, "Earthquake", "Forced March", "Merchant Caravan", "Treasury")
    .action("DUELLUM"),
    "picks": lambda: Board(active=ROMANS).owed(ROMANS, 1),
}


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_contract_holds_where_each_kind_of_action_is_legal(name: str) -> None:
    b = POSITIONS[name]()
    s = b.state
    rng = Rng.from_seed(len(name))
    for seat in sorted(GAME.to_move(s)):
        assert GAME.legal_actions(s, seat)
        check_action_contract(GAME, s, seat, rng, samples=25)
