"""The public position builder: a position named as the rulebook names it, with the totals of
every component kept (so the engine's invariants hold) and impossible positions refused."""

from __future__ import annotations

import pytest

from engine.duellum import DuellumGame
from engine.duellum.position import Position, PositionError

from .invariants import Invariants

GAME = DuellumGame()


def test_a_rulebook_position_by_printed_names() -> None:
    s = (
        Position(active="Romans")
        .city("Tarraco", "Carthaginians", "gold", temple=True)
        .units("Romans", "Tarraco", legions=5)
        .resources("Romans", marble=2, coins=5)
        .techs("Carthaginians", "Res Publica")
        .hand("Romans", "Forced March")
        .conquest_step()
        .build()
    )
    Invariants()(s)
    r = s.map.index["tarraco"]
    assert s.owner[r] == 0 and s.temple[r] and s.units[1][0][r] == 5
    assert s.players[1].res[0] == 2 and s.players[1].res[3] == 5 and "RES_PUBLICA" in s.players[0].techs
    assert s.players[1].hand == ["FORCED_MARCH"] and s.active == 1
    assert GAME.notation(s, 1, GAME.legal_actions(s, 1)[0]) == "conquer Tarraco"


def test_build_returns_an_independent_state() -> None:
    p = Position(active="brown").resources("brown", marble=9)
    s = p.build()
    p.resources("brown", marble=1)
    assert s.players[0].res[0] == 9


@pytest.mark.parametrize(
    "make",
    [
        lambda: Position().units("Romans", "Roma", legions=99),
        lambda: Position().city("Atlantis", "Romans", "gold"),
        lambda: Position().start("Persians"),
        lambda: Position().stone(0, "NOWHERE"),
    ],
)
def test_impossible_positions_are_refused(make: object) -> None:
    with pytest.raises(PositionError):
        make()  # type: ignore[operator]
