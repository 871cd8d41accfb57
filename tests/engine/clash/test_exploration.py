"""The board: distances, exploration by land and by ship, Navigation (rules 9.4-9.7)."""

from __future__ import annotations

from engine.clash.board import distance
from engine.clash.builder import Position


def _ex15() -> Position:
    pos = Position(2).clear_units()
    pos.tile("R3", "T01").units(0, "d2", settler=1).turn(0)
    pos.play(0, "move d2 d3 settler")
    return pos


def test_cc_ex_15_rule_1_first_region() -> None:
    pos = _ex15()
    t = pos.state.terrain
    assert (t["d3"], t["c4"], t["e4"], t["d4"]) == ("forest", "forest", "sea", "sea")
    assert [u.space for u in pos.state.units if u.kind == "settler"] == ["d3"]
    assert not pos.state.pending


def test_cc_ex_16_mountain_stop_then_found() -> None:
    pos = Position(2).clear_units()
    # T13 (Forest, Mountain, Fertile, Mountain) in R3: base puts Forest on D3, turned puts Mountain.
    pos.tile("R3", "T13").units(0, "d2", settler=1).turn(0)
    pos.play(0, "move d2 d3 settler")
    assert pos.moves(0) == ["orient base", "orient turned"]
    pos.play(0, "orient turned")
    assert pos.state.terrain["d3"] == "mountain"
    assert not [m for m in pos.moves(0) if m.startswith("move")]
    pos.play(0, "found d3")
    assert pos.state.city_at("d3") is not None


def test_cc_ex_17_rule_2_connects_sea_and_places_barbarians() -> None:
    pos = _ex15()
    pos.tile("R2", "T05")
    pos.units(0, "d3", settler=1)
    pos.play(0, "done")
    pos.state.units[-1].moved = -1
    pos.play(0, "move d3 e3 settler")
    t = pos.state.terrain
    assert (t["f2"], t["e3"], t["g3"], t["f3"]) == ("barren", "fertile", "fertile", "sea")
    camp = pos.state.city_at("g3")
    assert camp is not None and camp.owner == -1
    assert [u.kind for u in pos.state.units_at("g3")] == ["army"]


def test_cc_ex_18_rule_3_edge() -> None:
    pos = _ex15()
    pos.tile("R2", "T05").units(0, "d3", settler=1)
    pos.play(0, "move d3 e3 settler")
    pos.tile("R1", "T09").units(0, "c2", settler=1)
    pos.play(0, "move c2 b2 settler")
    t = pos.state.terrain
    assert (t["b2"], t["a3"], t["c3"], t["b3"]) == ("forest", "sea", "fertile", "forest")


def test_cc_ex_19_free_choice_and_mountain_stop() -> None:
    pos = Position(2).clear_units()
    pos.tile("R3", "T13").units(0, "d2", settler=1).turn(0)
    pos.play(0, "move d2 d3 settler")
    assert pos.state.pending["kind"] == "orient"
    assert sorted(m for m in pos.moves(0)) == ["orient base", "orient turned"]
    assert pos.moves(1) == []
    pos.play(0, "orient base")
    assert pos.state.terrain["d3"] == "forest"
    settler = next(u for u in pos.state.units if u.kind == "settler")
    assert settler.forest and not settler.stopped


def _ex20() -> Position:
    pos = _ex15()
    pos.tile("R2", "T05").units(0, "d3", settler=1)
    pos.play(0, "done")
    pos.state.units[-1].moved = -1
    pos.play(0, "move d3 e3 settler")
    pos.advances(0, "fishing").tile("R6", "T04")
    pos.ship(0, "e4")
    pos.turn(0)
    return pos


def test_cc_ex_20_ship_exploration_connected() -> None:
    pos = _ex20()
    move = next(m for m in pos.moves(0) if m.startswith("move ship1 ") and m.split()[2] in ("d5", "c6", "e6", "d6"))
    pos.play(0, move)
    t = pos.state.terrain
    assert (t["d5"], t["c6"], t["e6"], t["d6"]) == ("sea", "forest", "sea", "fertile")
    assert pos.state.pending["kind"] == "anchor"
    assert sorted(pos.moves(0)) == ["anchor d5", "anchor e6"]
    pos.play(0, "anchor e6")
    ship = next(u for u in pos.state.units if u.kind == "ship")
    assert ship.space == "e6"
    assert not any(m.startswith("move ship1") for m in pos.moves(0))  # further exploring needs a new action
    pos.play(0, "done")
    assert any(m.startswith("move ship1") for m in pos.moves(0))


def test_cc_ex_21_ship_exploration_without_sea_returns() -> None:
    pos = _ex20()
    pos.tile("R6", "T16")
    move = next(m for m in pos.moves(0) if m.startswith("move ship1 ") and m.split()[2] in ("d5", "c6", "e6", "d6"))
    pos.play(0, move)
    if pos.state.pending:
        pos.play(0, "orient base")
    slot = next(s for s in pos.state.slots if s.id == "R6")
    assert slot.revealed
    ship = next(u for u in pos.state.units if u.kind == "ship")
    assert ship.space == "e4"
    assert pos.state.actions_left == 2


def test_cc_ex_07_navigation() -> None:
    pos = _ex15()
    pos.tile("R1", "T09").units(0, "c2", settler=1)
    pos.play(0, "move c2 b2 settler")
    pos.tile("R2", "T05")
    pos.units(0, "d3", settler=1)
    pos.play(0, "move d3 e3 settler")
    assert pos.state.terrain["f3"] == "sea"
    pos.ship(0, "a3")
    pos.advances(0, "fishing")
    pos.turn(0)
    ship_moves = [m for m in pos.moves(0) if m.startswith("move ship1")]
    assert ship_moves == []  # its sea group is {A3} alone: without Navigation it cannot move
    pos.advances(0, "navigation")
    around = sorted(m for m in pos.moves(0) if m.startswith("move ship1") and m.endswith("around"))
    assert around == ["move ship1 b4 around", "move ship1 d4 around", "move ship1 e4 around", "move ship1 f3 around"]
    pos.play(0, "move ship1 e4 around")
    assert next(u for u in pos.state.units if u.kind == "ship").space == "e4"


def test_distance_never_crosses_unrevealed_regions() -> None:
    pos = Position(2)
    assert distance(pos.state, "d2", "d1") == 1
    assert distance(pos.state, "d2", "d7") > 50
    pos.reveal_all()
    assert distance(pos.state, "d2", "d7") == 5


def test_orientation_choice_shows_both_placements() -> None:
    from engine.clash.builder import GAME

    pos = Position(2).clear_units()
    pos.tile("R3", "T13").units(0, "d2", settler=1).turn(0)
    step = GAME.apply(pos.state, 0, GAME.parse(pos.state, 0, "move d2 d3 settler"))
    assert not step.undoable  # the tile is face up while it is turned
    view = GAME.view(step.state, 1)
    assert view["pending"]["choices"] == {
        "base": {"d3": "forest", "c4": "mountain", "e4": "fertile", "d4": "mountain"},
        "turned": {"d3": "mountain", "c4": "fertile", "e4": "mountain", "d4": "forest"},
    }
    assert "`orient base`: D3 forest" in GAME.status(step.state, 0)
