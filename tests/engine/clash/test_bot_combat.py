"""The automatic player around battles (play-tested against it: it walked the only army out of
its last city next to an enemy army, which then took the city unopposed)."""

from __future__ import annotations

from engine.clash.actions import Action
from engine.clash.bot import score
from engine.clash.builder import GAME, Position


def test_the_last_army_stays_in_a_threatened_city() -> None:
    pos = Position(2).clear_units().reveal_all().advances(1, "tactics").advances(0, "tactics")
    pos.units(1, "d7", army=1).units(0, "e7", army=1).turn(1)
    out = Action("move", "d7", "c7", items=("army",))
    assert out in GAME.legal_actions(pos.state, 1)
    assert score(pos.state, 1, out) < score(pos.state, 1, Action("end"))
    for seed in range(5):
        assert GAME.auto_action(pos.state, 1, seed) != out
    # With no foreign army near, moving it is allowed again.
    pos.state.units = [u for u in pos.state.units if u.owner == 1]
    assert score(pos.state, 1, out) > score(pos.state, 1, Action("end"))
