"""Land and naval combat: when battles happen, rounds, modifiers, retreat, capture (rules 10.1-10.8)
and the rulebook examples CC-EX-22 to CC-EX-25."""

from __future__ import annotations

import pytest

from engine.clash.builder import Position
from engine.clash.combat_rounds import hits_from
from engine.core.errors import IllegalAction
from tests.engine.clash.combat_dice import Dice, dice

__all__ = ["dice"]


def _open() -> Position:
    """A 2-player map fully revealed, no units; Red (0) owns Athens on D2, Blue (1) Memphis on D7."""
    return Position(2).clear_units().reveal_all()


def _armies(pos: Position, seat: int, space: str) -> int:
    return sum(1 for u in pos.state.units if u.owner == seat and u.space == space and u.kind == "army")


def test_cc_ex_22_combat_arithmetic() -> None:
    assert hits_from(19, 0, 0) == 3
    assert hits_from(4, 0, 0) == 0
    assert hits_from(5, 0, 0) == 1
    assert hits_from(10, 0, 0) == 2
    assert hits_from(10, 1, 2) == 1  # D-10: cancellations may cancel the extra hit too
    assert hits_from(4, 0, 1) == 0


def test_cc_ex_23_stop_the_attack(dice: Dice) -> None:
    pos = _open().advances(0, "tactics").units(0, "c3", army=3).units(1, "c4", army=2).turn(0)
    dice.set(1, 1, 1, 3, 2)  # Red 3 -> 0 hits; Blue 5 -> 1 hit
    pos.play(0, "attack c3 c4 army army army")
    assert pos.state.pending["kind"] == "battle" and pos.state.pending["seat"] == 0
    assert _armies(pos, 0, "c4") == 2 and _armies(pos, 1, "c4") == 2
    pos.play(0, "retreat")
    assert _armies(pos, 0, "c3") == 2 and _armies(pos, 1, "c4") == 2
    assert all(u.fought for u in pos.state.units if u.owner == 0)
    assert not [m for m in pos.moves(0) if m.startswith(("move c3", "attack c3"))]
    assert pos.state.battles[-1]["result"] == "retreat"


def test_continue_until_one_side_is_gone(dice: Dice) -> None:
    pos = _open().advances(0, "tactics").units(0, "c3", army=2).units(1, "c4", army=1, settler=1).turn(0)
    dice.set(1, 1, 1)  # round 1: no hits either side
    pos.play(0, "attack c3 c4 army army")
    dice.set(5, 1, 1)  # round 2: Red 6 -> 1 hit
    pos.play(0, "continue")
    assert not pos.state.pending and not pos.state.battle
    assert _armies(pos, 0, "c4") == 2 and not [u for u in pos.state.units if u.owner == 1]  # settler destroyed
    assert pos.state.battles[-1]["winner"] == 0


def test_lone_settlers_are_destroyed_without_dice(dice: Dice) -> None:
    pos = _open().advances(0, "tactics").units(0, "c3", army=1).units(1, "c4", settler=2).turn(0)
    pos.play(0, "attack c3 c4 army")
    assert not [u for u in pos.state.units if u.owner == 1]
    assert not pos.state.battles[-1]["rounds"]
    assert all(u.fought for u in pos.state.units if u.owner == 0)


def test_attacker_wiped_out_loses_its_settlers(dice: Dice) -> None:
    pos = _open().advances(0, "tactics").units(0, "c3", army=1, settler=1).units(1, "c4", army=2).turn(0)
    dice.set(1, 6, 6)
    pos.play(0, "attack c3 c4 army settler")
    assert not [u for u in pos.state.units if u.owner == 0]
    assert _armies(pos, 1, "c4") == 2


def test_both_wiped_out_no_winner(dice: Dice) -> None:
    pos = _open().advances(0, "tactics").units(0, "c3", army=1).units(1, "c4", army=1).turn(0)
    dice.set(5, 5)
    pos.play(0, "attack c3 c4 army")
    assert not [u for u in pos.state.units if u.kind == "army"]
    assert pos.state.battles[-1]["result"] == "none"


def test_fortress_first_round_die_and_cancel(dice: Dice) -> None:
    pos = _open().advances(0, "tactics").units(0, "e3", army=2)
    pos.city(1, "f2", pieces=["fortress"])
    pos.advances(1, "tactics")
    pos.units(1, "f2", army=1).turn(0)
    dice.set(5, 5, 2, 3)  # Red 10 -> 2 hits, fortress cancels 1 -> 1 (cap 1); Blue 2 dice: 5 -> 1 hit
    pos.play(0, "attack e3 f2 army army")
    r = pos.state.battles[-1]["rounds"][0]
    assert len(r["defender"]["dice"]) == 2 and r["attacker"]["hits"] == 1 and "fortress" in r["defender"]["notes"]
    assert pos.state.battles[-1]["result"] == "attacker"
    assert pos.state.city_at("f2").owner == 0


def test_fortress_only_defence_rolls_in_round_one(dice: Dice) -> None:
    # D-14: a city whose only defence is a Fortress still fights round 1.
    pos = _open().advances(0, "tactics").units(0, "e3", army=1)
    pos.city(1, "f2", pieces=["fortress"])
    pos.advances(1, "tactics")
    pos.turn(0)
    dice.set(6, 6)  # Red 6 -> 1 hit, cancelled; Blue fortress die 6 -> 1 hit
    pos.play(0, "attack e3 f2 army")
    assert pos.state.battles[-1]["result"] == "defender"
    assert pos.state.city_at("f2").owner == 1
    pos2 = _open().advances(0, "tactics").units(0, "e3", army=2)
    pos2.city(1, "f2", pieces=["fortress"])
    pos2.advances(1, "tactics")
    pos2.turn(0)
    dice.set(1, 1, 6)  # Blue's 6 kills one attacker; the other captures
    pos2.play(0, "attack e3 f2 army army")
    assert pos2.state.city_at("f2").owner == 0


def test_siegecraft_payments(dice: Dice) -> None:
    pos = _open().advances(0, "tactics", "siegecraft").units(0, "e3", army=1).give(0, wood=2, ore=2)
    pos.city(1, "f2", pieces=["fortress"])
    pos.advances(1, "tactics")
    pos.units(1, "f2", army=1).turn(0)
    pos.play(0, "attack e3 f2 army")
    assert pos.state.pending["kind"] == "siege"
    assert set(pos.moves(0)) == {"no siege", "siege wood", "siege ore", "siege wood ore"}
    dice.set(5, 1)
    pos.play(0, "siege wood ore")
    r = pos.state.battles[-1]["rounds"][0]
    assert len(r["defender"]["dice"]) == 1 and r["attacker"]["hits"] == 1
    assert pos.state.pl[0].res["wood"] == 0 and pos.state.pl[0].res["ore"] == 0
    assert pos.state.city_at("f2").owner == 0


def test_steel_weapons_first_round_only(dice: Dice) -> None:
    pos = _open().advances(0, "tactics", "steel_weapons").units(0, "c3", army=2).units(1, "c4", army=3).turn(0)
    dice.set(1, 1, 1, 1, 1)
    pos.play(0, "attack c3 c4 army army")
    assert pos.state.battles == [] and pos.state.battle["rounds"][0]["attacker"]["hits"] == 1
    dice.set(1, 1, 1, 1)
    pos.play(0, "continue")
    assert pos.state.battle["rounds"][1]["attacker"]["hits"] == 0
    both = _open().advances(0, "tactics", "steel_weapons").advances(1, "steel_weapons")
    both.units(0, "c3", army=1).units(1, "c4", army=2).turn(0)
    dice.set(1, 1, 1)
    both.play(0, "attack c3 c4 army")
    assert both.state.battle["rounds"][0]["attacker"]["hits"] == 0


def test_fanaticism_in_a_temple_city(dice: Dice) -> None:
    pos = _open().advances(0, "tactics").units(0, "e3", army=1)
    pos.city(1, "f2", pieces=["temple"])
    pos.city(1, "g7")
    pos.advances(1, "fanaticism").units(1, "f2", army=1).turn(0)
    dice.set(1, 3)  # Blue 3 + 2 -> 5: 1 hit
    pos.play(0, "attack e3 f2 army")
    r = pos.state.battles[-1]["rounds"][0]["defender"]
    assert r["cv"] == 5 and "Fanaticism" in r["notes"]
    assert pos.state.battles[-1]["winner"] == 1


def test_fanaticism_loser_gets_a_free_army(dice: Dice) -> None:
    pos = _open().advances(0, "tactics").units(0, "e3", army=2)
    pos.city(1, "f2", pieces=["temple"])
    pos.advances(1, "fanaticism").units(1, "f2", army=1).turn(0)
    dice.set(6, 6, 1)
    pos.play(0, "attack e3 f2 army army")
    # Blue loses; Memphis (its only other city) gets the free army unit.
    assert _armies(pos, 1, "d7") == 1


def test_war_ships_cancel_when_disembarking(dice: Dice) -> None:
    pos = _open().advances(0, "tactics", "war_ships")
    pos.ship(0, "e4", army=1)
    pos.units(1, "e3", army=1).turn(0)
    dice.set(1, 6)  # Blue 6 -> 1 hit, cancelled by War Ships
    pos.play(0, "attack e4 e3 army")
    b = pos.state.battle
    assert b["disembark"] and b["rounds"][0]["defender"]["hits"] == 0
    assert "War Ships" in b["rounds"][0]["attacker"]["notes"]
    assert _armies(pos, 0, "e3") == 1
    pos.play(0, "retreat")
    unit = next(u for u in pos.state.units if u.owner == 0 and u.kind == "army")
    assert unit.space == "e4" and unit.carrier >= 0


def test_naval_battle_cargo_dies_with_its_ship(dice: Dice) -> None:
    pos = _open()
    pos.ship(0, "e5")
    pos.ship(1, "e4", army=2)
    pos.turn(0)
    dice.set(5, 1)
    pos.play(0, "move ship1 e4")
    assert not [u for u in pos.state.units if u.owner == 1]
    ship = next(u for u in pos.state.units if u.owner == 0)
    assert ship.space == "e4" and ship.fought


def test_build_onto_enemy_ship_cannot_stop(dice: Dice) -> None:
    pos = _open().advances(0, "fishing").give(0, wood=2)
    pos.city(0, "d2", pieces=["port"], port="d3", name="Athens")
    pos.city(0, "c5")
    pos.ship(1, "d3")
    pos.turn(0)
    dice.set(1, 1, 1, 1, 5, 1)
    pos.play(0, "build athens ship")
    assert not pos.state.pending
    assert [u.owner for u in pos.state.units if u.kind == "ship"] == [0]
    assert len(pos.state.battles[-1]["rounds"]) == 3


def test_forest_units_cannot_attack() -> None:
    pos = _open().advances(0, "tactics").units(0, "c3", army=1).units(1, "c5", army=1).turn(0)
    pos.play(0, "move c3 c4 army")
    pos.play(0, "done")
    assert "attack c4 c5 army" not in pos.moves(0)
    with pytest.raises(IllegalAction, match="Forest"):
        pos.play(0, "attack c4 c5 army")


def test_great_wall_needs_siegecraft() -> None:
    pos = _open().advances(0, "tactics").units(0, "e3", army=1)
    city = pos.city(1, "f2", pieces=["fortress"])
    pos.advances(1, "tactics")
    city.wonder = "great_wall"
    pos.turn(0)
    with pytest.raises(IllegalAction, match="Great Wall"):
        pos.play(0, "attack e3 f2 army")
    pos.advances(0, "siegecraft")
    assert "attack e3 f2 army" in pos.moves(0)


def test_mausoleum_costs_a_token_per_army(dice: Dice) -> None:
    pos = _open().advances(0, "tactics").units(0, "e3", army=2).tokens(0, happiness_level=3, mood=1)
    city = pos.city(1, "f2")
    city.wonder = "mausoleum"
    pos.turn(0)
    moves = pos.moves(0)
    assert "attack e3 f2 army" in moves and "attack e3 f2 army army" not in moves
    pos.play(0, "attack e3 f2 army")
    assert pos.state.pl[0].mood_tokens == 0 and pos.state.city_at("f2").owner == 0
    assert pos.state.city_at("f2").wonder == "mausoleum"


def test_cc_ex_24_capture_with_spoils_and_refugees() -> None:
    pos = _open().advances(0, "tactics").units(0, "e3", army=1)
    pos.city(1, "f2", pieces=["temple", "academy"])  # neutral size 3
    pos.city(1, "g7")  # Blue has two other cities: Memphis (d7) and this one
    pos.turn(0)
    pos.play(0, "attack e3 f2 army")
    city = pos.state.city_at("f2")
    assert city.owner == 0 and city.size == 3 and city.mood == "angry"
    assert set(city.pieces.values()) == {0}
    assert pos.state.pl[0].res["gold"] == 3
    assert pos.state.pending == {"kind": "refugee", "seat": 1, "then": []}
    assert set(pos.moves(1)) == {"refugee memphis", f"refugee {pos.state.city_at('g7').name.lower()}"}
    pos.play(1, "refugee memphis")
    assert [u.space for u in pos.state.units if u.owner == 1] == ["d7"]
    assert all(u.fought for u in pos.state.units if u.owner == 0)


def test_cc_ex_24_angry_city_gives_no_spoils() -> None:
    pos = _open().advances(0, "tactics").units(0, "e3", army=1)
    pos.city(1, "f2", pieces=["temple", "academy"], mood="angry")
    pos.turn(0)
    pos.play(0, "attack e3 f2 army")
    assert pos.state.pl[0].res["gold"] == 0 and not pos.state.pending
    assert not [u for u in pos.state.units if u.owner == 1]


def test_cc_ex_25_capture_with_missing_pieces() -> None:
    pos = _open().advances(0, "tactics").units(0, "e3", army=1)
    pos.state.cities = [c for c in pos.state.cities if c.space != "d2"]
    for space in ("c3", "c5", "b7", "a3", "g3", "g5"):
        pos.city(0, space, pieces=["temple"])
    pos.state.city_at("d7").pieces["temple"] = 0  # Red's 7th Temple stands in Memphis
    pos.city(1, "f2", pieces=["temple", "academy"])
    pos.turn(0)
    pos.play(0, "attack e3 f2 army")
    city = pos.state.city_at("f2")
    assert city.owner == 0 and city.size == 2 and city.pieces == {"academy": 0} and city.mood == "angry"
    assert pos.state.pl[0].res["gold"] == 4
    assert any(u.owner == 1 and u.kind == "settler" for u in pos.state.units)


def test_cc_ex_25_no_settlement_piece_removes_the_city() -> None:
    pos = _open().advances(0, "tactics").units(0, "e3", army=1)
    for space in ("c3", "c5", "b7", "a3", "g3", "g5"):
        pos.city(0, space)
    pos.city(1, "f2", pieces=["temple", "academy"])
    pos.turn(0)
    assert sum(1 for c in pos.state.cities if c.owner == 0) == 7
    pos.play(0, "attack e3 f2 army")
    assert pos.state.city_at("f2") is None
    assert pos.state.pl[0].res["gold"] == 6  # 3 removed pieces + 3 spoils


def test_captured_city_keeps_third_party_pieces() -> None:
    from engine.clash.capture import capture_city

    pos = Position(3).clear_units()
    city = next(c for c in pos.state.cities if c.owner == 1)
    city.pieces = {"temple": 2, "academy": 1}
    capture_city(pos.state, 0, city, "neutral", city.size)
    assert city.owner == 0 and city.pieces == {"temple": 2, "academy": 0} and city.size == 3


def test_timeout_retreats_and_status_names_the_awaited_seat(dice: Dice) -> None:
    from engine.clash.actions import Action
    from engine.clash.builder import GAME

    pos = _open().advances(0, "tactics").units(0, "c3", army=2).units(1, "c4", army=2).turn(0)
    dice.set(1, 1, 1, 1)
    pos.play(0, "attack c3 c4 army army")
    assert "waiting for Red to continue the battle or retreat" in GAME.status(pos.state)
    assert GAME.on_timeout(pos.state, 0) == Action("retreat")


def test_dump_round_trip_in_the_middle_of_a_battle(dice: Dice) -> None:
    from engine.clash.builder import GAME

    pos = _open().advances(0, "tactics").units(0, "c3", army=2).units(1, "c4", army=2).turn(0)
    dice.set(1, 1, 1, 1)
    pos.play(0, "attack c3 c4 army army")
    again = GAME.load(GAME.dump(pos.state))
    assert GAME.dumps(again) == GAME.dumps(pos.state)
    assert GAME.legal_actions(again, 0) == GAME.legal_actions(pos.state, 0)


def test_captured_fortress_defends_only_with_tactics(dice: Dice) -> None:
    pos = _open().advances(0, "tactics").units(0, "e3", army=1)
    pos.city(1, "f2", pieces=["fortress"])  # Blue lacks Tactics: the Fortress does nothing
    pos.turn(0)
    pos.play(0, "attack e3 f2 army")
    assert pos.state.city_at("f2").owner == 0 and not pos.state.battles[-1]["rounds"]


def test_naval_retreat_returns_ships_with_cargo(dice: Dice) -> None:
    pos = _open()
    pos.ship(0, "e5", army=1)
    pos.ship(1, "e4")
    pos.ship(1, "e4")
    pos.turn(0)
    dice.set(1, 1, 1)
    pos.play(0, "move ship1 e4")
    pos.play(0, "retreat")
    ship = next(u for u in pos.state.units if u.owner == 0 and u.kind == "ship")
    cargo = next(u for u in pos.state.units if u.owner == 0 and u.kind == "army")
    assert ship.space == cargo.space == "e5" and cargo.carrier == ship.id and ship.fought
    assert not cargo.fought  # the cargo did not fight: it may still disembark with a Move action


def test_at_most_four_armies_attack_and_no_boarding_among_enemy_ships() -> None:
    pos = _open().advances(0, "tactics")
    for _ in range(3):
        pos.ship(0, "e4", army=2)
    pos.units(1, "e3", army=1)
    pos.ship(1, "d3")
    pos.units(0, "c3", army=1).turn(0)
    moves = pos.moves(0)
    assert "attack e4 e3 army army army army" in moves and "attack e4 e3 army army army army army" not in moves
    with pytest.raises(IllegalAction, match="At most 4 army units"):
        pos.play(0, "attack e4 e3 army army army army army")
    with pytest.raises(IllegalAction, match="cannot board a ship"):
        pos.play(0, "move c3 d3 army")


def test_armies_without_tactics_cannot_attack() -> None:
    pos = _open().units(0, "c3", army=1).units(1, "c4", army=1).turn(0)
    with pytest.raises(IllegalAction, match="Tactics"):
        pos.play(0, "attack c3 c4 army")


def test_roads_move_may_end_in_a_battle(dice: Dice) -> None:
    pos = _open().advances(0, "tactics", "engineering", "roads").units(0, "d2", army=1).give(0, food=1)
    pos.units(1, "c4", settler=1).turn(0)
    assert "attack d2 c4 army road" in pos.moves(0)
    pos.play(0, "attack d2 c4 army road")
    assert pos.state.pl[0].res["food"] == 0 and not [u for u in pos.state.units if u.owner == 1]


def test_settlers_return_with_a_stopped_attack(dice: Dice) -> None:
    pos = _open().advances(0, "tactics").units(0, "c3", army=1, settler=1).units(1, "c4", army=1).turn(0)
    dice.set(1, 1)
    pos.play(0, "attack c3 c4 army settler")
    pos.play(0, "retreat")
    mine = [u for u in pos.state.units if u.owner == 0]
    assert {u.space for u in mine} == {"c3"} and len(mine) == 2 and all(u.fought for u in mine)


def test_battle_records_stay_unchanged_and_last_one_turn(dice: Dice) -> None:
    import json

    pos = _open().advances(0, "tactics").units(0, "c3", army=1).units(1, "c4", settler=1).turn(0)
    pos.play(0, "attack c3 c4 army")
    record = json.dumps(pos.state.battles, sort_keys=True)
    pos.play(0, "end")
    assert json.dumps(pos.state.battles, sort_keys=True) == record  # shown during Blue's turn
    from engine.clash.builder import GAME

    assert GAME.view(pos.state, None)["battles"][0]["space"] == "c4"
    pos.play(1, "end")
    assert pos.state.battles == []


def test_captured_port_works_only_for_an_owner_with_fishing() -> None:
    """Rules 5.3 and 10.8: a captured Port counts for size, but without Fishing its captor can
    neither build Ships there nor take Gold or a mood token from the sea."""
    pos = _open().advances(0, "tactics").advances(1, "fishing").units(0, "c5", army=1)
    pos.city(1, "d4", pieces=["port"], port="d5")
    pos.turn(1)
    pos.give(1, wood=2)
    assert "build heliopolis ship" in pos.moves(1)
    assert [m for m in pos.moves(1) if m.startswith("collect heliopolis") and "gold" in m]
    pos.turn(0)
    pos.play(0, "attack c5 d4 army")
    city = pos.state.city_at("d4")
    assert city is not None and city.owner == 0 and city.pieces == {"port": 0} and city.size == 2
    pos.give(0, food=0, wood=4, ore=0, gold=0).turn(0)
    city.mood = "neutral"
    moves = pos.moves(0)
    assert not [m for m in moves if m.startswith("build heliopolis") and "ship" in m]
    assert not [m for m in moves if m.startswith("collect heliopolis") and ("gold" in m or "mood" in m)]
    with pytest.raises(IllegalAction, match="only for an owner with Fishing"):
        pos.play(0, "build heliopolis ship")
    pos.advances(0, "fishing").turn(0)
    assert "build heliopolis ship" in pos.moves(0)
    assert [m for m in pos.moves(0) if m.startswith("collect heliopolis") and "gold" in m]
