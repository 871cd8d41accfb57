"""Movement: land groups, Tactics, stacking, terrain, Roads, ships and carrying (rules 9.1-9.3)."""

from __future__ import annotations

import pytest

from engine.clash.builder import Position
from engine.core.errors import IllegalAction


def _open() -> Position:
    """A 2-player map fully revealed, no units, Red to play."""
    return Position(2).clear_units().reveal_all()


def test_armies_need_tactics() -> None:
    pos = _open().units(0, "d2", army=1).turn(0)
    assert not [m for m in pos.moves(0) if m.startswith("move")]
    pos.advances(0, "tactics")
    assert "move d2 e2 army" in pos.moves(0)


def test_three_moves_per_move_action_and_each_unit_once() -> None:
    pos = _open().units(0, "d2", settler=3).turn(0)
    pos.play(0, "move d2 d1 settler")
    assert pos.state.actions_left == 2
    pos.play(0, "move d2 c2 settler")
    assert not any(m.startswith("move d1") for m in pos.moves(0) if pos.state.mode_left)  # moved this action
    pos.play(0, "move d2 d1 settler")
    assert pos.state.actions_left == 2 and pos.state.mode_left == 0
    pos.play(0, "move d1 d2 settler")  # a new Move action
    assert pos.state.actions_left == 1


def test_mountain_stops_forest_does_not() -> None:
    pos = _open().units(0, "d2", settler=2).turn(0)
    pos.play(0, "move d2 e2 settler")  # Mountain
    pos.play(0, "move d2 c2 settler")  # Forest
    pos.play(0, "done")
    moves = pos.moves(0)
    assert not any(m.startswith("move e2") for m in moves)
    assert any(m.startswith("move c2") for m in moves)


def test_stacking_limit_four_armies() -> None:
    pos = _open().advances(0, "tactics").units(0, "d2", army=3).units(0, "d1", army=2).turn(0)
    moves = pos.moves(0)
    assert "move d1 d2 army" in moves and "move d1 d2 army army" not in moves


def test_moving_into_foreign_units_or_cities_attacks() -> None:
    pos = _open().advances(0, "tactics").units(0, "d2", army=1).units(1, "e2", army=1).turn(0)
    pos.city(-1, "c2")
    moves = pos.moves(0)
    assert "attack d2 e2 army" in moves and "attack d2 c2 army" in moves
    pos.units(0, "c3", settler=1)
    with pytest.raises(IllegalAction, match="Settlers cannot start a battle"):
        pos.play(0, "move c3 c2 settler")


def test_cc_ex_08_ship_transport() -> None:
    pos = Position(2).clear_units()
    pos.tile("R3", "T01", revealed=True, rotated=True)  # E4, D4 Sea
    pos.tile("R6", "T04", revealed=True)  # D5, E6 Sea
    pos.advances(0, "tactics").units(0, "d3", army=1).units(0, "d2", settler=1)
    pos.ship(0, "d4")
    pos.turn(0)
    pos.play(0, "move d3 d4 army")  # embark
    pos.play(0, "move ship1 e6")
    assert {u.space for u in pos.state.units if u.owner == 0 and u.kind != "settler"} == {"e6"}
    assert not [m for m in pos.moves(0) if m.startswith("move e6")]  # embarked this action
    pos.play(0, "move d2 d1 settler")
    assert pos.state.mode_left == 0  # a 4th move would start a new Move action
    pos.play(0, "move e6 f6 army") if "move e6 f6 army" in pos.moves(0) else pos.play(0, "move e6 d6 army")
    assert pos.state.actions_left == 1 and pos.state.mode_left == 2
    army = next(u for u in pos.state.units if u.kind == "army")
    assert army.carrier == -1 and army.space in ("f6", "d6")
    assert "move ship1 d5" in pos.moves(0)  # the same ship may go back in this action


def test_ship_capacity_two() -> None:
    pos = Position(2).clear_units()
    pos.tile("R3", "T01", revealed=True, rotated=True)
    pos.advances(0, "tactics").units(0, "d3", army=3)
    pos.ship(0, "d4")
    pos.turn(0)
    moves = pos.moves(0)
    assert "move d3 d4 army army" in moves and "move d3 d4 army army army" not in moves


def test_cc_ex_09_roads_two_groups() -> None:
    pos = _open().tile("R2", "T09", revealed=True)  # F2 Forest, E3 Sea: from D2, F2 is reached only over E2
    pos.advances(0, "tactics", "engineering", "roads")
    pos.units(0, "d2", army=2, settler=2).give(0, food=2, ore=1).turn(0)
    moves = pos.moves(0)
    assert "move d2 f2 army army settler ore road" in moves
    assert "move d2 f2 army army settler road" not in moves  # without the Ore the Mountain stops it
    plain_road = [
        m
        for m in moves
        if m.startswith("move d2 ") and m.endswith(" settler road") and "army" not in m and " f2 " not in m
    ]
    assert plain_road
    pos.play(0, plain_road[0])
    pos.play(0, "move d2 f2 army army settler ore road")
    p = pos.state.pl[0]
    assert (p.res["food"], p.res["ore"]) == (0, 0)
    moved = [u for u in pos.state.units if u.space == "f2"]
    assert len(moved) == 3 and not any(u.stopped or u.forest for u in moved)
    pos.play(0, "done")
    assert any(m.startswith("move f2 ") for m in pos.moves(0))
