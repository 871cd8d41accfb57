"""Role reassignment (7.3): scores with occupation and hero bonuses, the holder keeps a tie,
the holder chooses among tied challengers; several roles after the start (AD-34)."""

from __future__ import annotations

from engine.mare_nostrum.board import scores
from engine.mare_nostrum.positions import GAME, Position


def test_mn_ex_09_occupation_moves_role_points() -> None:
    pos = Position(5).legion("rome", "numidia", place="caravan:slaves")
    s = pos.state
    assert scores(s, "rome")["commerce"] == 5 and scores(s, "carthage")["commerce"] == 3
    pos.new_round()
    assert pos.state.roles["commerce"] == "rome"


def test_mn_ex_23_archimedes_in_reassignment() -> None:
    pos = Position(5).legion("rome", "roma", 3).give_card("carthage", "archimedes").legion("carthage", "africa", 2)
    s = pos.state
    assert scores(s, "rome")["military"] == 4 and scores(s, "carthage")["military"] == 5
    pos.new_round()
    assert pos.state.roles["military"] == "carthage"


def test_mn_ex_25_holder_keeps_a_tie() -> None:
    pos = Position(5)
    s = pos.state
    assert scores(s, "carthage")["commerce"] == scores(s, "rome")["commerce"] == 4
    pos.new_round()
    assert pos.state.roles["commerce"] == "carthage"


def test_mn_ex_25_holder_chooses_among_tied_challengers() -> None:
    pos = Position(5)
    pos.market("roma").market("babylonia")  # Rome and Babylon 5, Carthage 4
    s = pos.state
    s.provs["tripolitania"].caravans.remove("fish")  # Carthage 3
    s.supply["caravan"] += 1
    pos.new_round()
    s = pos.state
    assert s.phase == "roles" and GAME.to_move(s) == {pos.seat("carthage")}
    assert pos.legal("carthage") == ["give commerce to rome", "give commerce to babylon"]
    pos.play("carthage", "give commerce to babylon")
    assert pos.state.roles["commerce"] == "babylon" and pos.state.phase != "roles"


def test_qa_05_solomon_and_agamemnon_bonuses() -> None:
    pos = Position(5).give_card("babylon", "solomon")
    pos.new_round()
    assert pos.state.roles["political"] == "egypt"  # 3 each: the holder keeps it
    pos = Position(5).give_card("babylon", "solomon", "agamemnon").city("assyria", "Ninive")
    pos.new_round()
    assert pos.state.roles["political"] == "babylon" and pos.state.roles["commerce"] == "babylon"  # AD-34
