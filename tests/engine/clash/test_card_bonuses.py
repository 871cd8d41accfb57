"""Card effects that reach into combat and the objectives: the Great General's +2 combat value,
the Trojan Horse beside the attacker's own card, and the Scavenger objective (data file 8 and 9)."""

from __future__ import annotations

from typing import Any

from engine.clash.builder import Position
from engine.clash.cards_data import DECKS
from tests.engine.clash.combat_dice import Dice, dice

__all__ = ["dice"]


def _general(pos: Position) -> None:
    """Red plays the Great General (evt21) and takes Draft with it."""
    pos.state.decks["great"][0].append("evt21")
    pos.play(0, "play great-general")
    pos.play(0, "choose draft")


def _last(pos: Position) -> dict[str, Any]:
    battle: dict[str, Any] = pos.state.battle or pos.state.battles[-1]
    return battle


def test_great_general_adds_two_in_every_round_of_the_first_battle_only(dice: Dice) -> None:
    pos = Position(2).clear_units().reveal_all().advances(0, "tactics")
    pos.units(0, "c3", army=3).units(1, "c4", army=3).units(0, "d2", army=1).units(1, "e3", army=1).turn(0)
    _general(pos)
    actions = pos.state.actions_left
    dice.set(1, 1, 1, 1, 1, 1)  # round 1: Red 3 + 2 = 5, one hit; Blue 3
    pos.play(0, "attack c3 c4 army army army")
    rnd = _last(pos)["rounds"][0]
    assert rnd["attacker"]["cv"] == 5 and rnd["attacker"]["hits"] == 1
    assert "Great General" in rnd["attacker"]["notes"] and rnd["defender"]["cv"] == 3
    dice.set(1, 1, 1, 1, 1)  # round 2: still +2
    pos.play(0, "continue")
    assert _last(pos)["rounds"][1]["attacker"]["cv"] == 5
    pos.play(0, "retreat")
    assert pos.state.actions_left == actions - 1
    dice.set(1, 1)  # the second battle of the turn: no bonus
    pos.play(0, "attack d2 e3 army")
    assert _last(pos)["rounds"][0]["attacker"]["cv"] == 1


def test_great_general_bonus_is_not_there_without_the_card(dice: Dice) -> None:
    pos = Position(2).clear_units().reveal_all().advances(0, "tactics")
    pos.units(0, "c3", army=3).units(1, "c4", army=3).turn(0)
    dice.set(1, 1, 1, 1, 1, 1)
    pos.play(0, "attack c3 c4 army army army")
    assert _last(pos)["rounds"][0]["attacker"]["cv"] == 3


def _trojan_fight() -> Position:
    pos = Position(2).clear_units().reveal_all().advances(0, "tactics").advances(1, "tactics")
    pos.city(1, "c4", name="Troy")
    pos.units(0, "c3", army=3).units(1, "c4", army=2)
    card = next(c for c in pos.state.decks["action"] if DECKS.actions[c].combat == "high_morale")
    pos.state.decks["action"].remove(card)
    pos.state.decks["hands"][0].append(card)
    card = next(c for c in pos.state.decks["action"] if DECKS.actions[c].combat == "defensive_formation")
    pos.state.decks["action"].remove(card)
    pos.state.decks["hands"][1].append(card)
    pos.give(0, wood=1).tokens(0, culture_level=1, culture=1).turn(0)
    pos.state.decks["trojan"] = pos.state.round
    return pos


def test_trojan_horse_leaves_the_attackers_card_declaration(dice: Dice) -> None:
    pos = _trojan_fight()
    pos.play(0, "attack c3 c4 army army army")
    pos.play(0, "play trojan-horse")
    # Red is asked again: the Trojan Horse is not his card of the round.
    assert pos.state.pending["kind"] == "combat_card" and pos.state.pending["seat"] == 0
    assert "play trojan-horse" not in pos.moves(0) and "play high-morale" in pos.moves(0)
    dice.set(1, 1, 1, 1, 1)
    pos.play(0, "play high-morale")
    assert pos.state.pending.get("kind") != "combat_card"  # Blue is still not asked
    rnd = _last(pos)["rounds"][0]
    assert rnd["attacker"]["cv"] == 5 and rnd["defender"]["cv"] == 2
    assert pos.state.pl[0].event_halves == 2


def test_trojan_horse_silences_the_defender_only_in_the_first_round(dice: Dice) -> None:
    pos = _trojan_fight()
    pos.play(0, "attack c3 c4 army army army")
    pos.play(0, "play trojan-horse")
    dice.set(1, 1, 1, 1, 1)
    pos.play(0, "no card")
    assert pos.state.pending["kind"] == "battle"
    pos.play(0, "continue")
    assert pos.state.pending["kind"] == "combat_card" and pos.state.pending["seat"] == 0
    pos.play(0, "no card")
    assert pos.state.pending["kind"] == "combat_card" and pos.state.pending["seat"] == 1
    assert "play trojan-horse" not in pos.moves(0)


# ------------------------------------------------------------------ Scavenger
SCAVENGER = next(c for c, o in DECKS.objectives.items() if o.lower.check == "scavenger" or o.upper.check == "scavenger")


def _scavenge(pos: Position) -> list[str]:
    pos.advances(0, "tactics").goals(0, SCAVENGER).goals(1).turn(0)
    return [e.text for e in pos.play(0, "attack c3 c4 army army")]


def test_scavenger_killing_a_settler_near_a_foreign_non_angry_city(dice: Dice) -> None:
    pos = Position(2).clear_units().reveal_all()
    assert pos.state.city_at("d2").owner == 0  # Red's capital: 2 spaces from C4, not Blue's
    pos.units(0, "c3", army=2).units(1, "c4", settler=1)
    texts = _scavenge(pos)
    assert "Red completes the objective Scavenger: 2 points." in texts
    assert [1, "settler"] in pos.state.battles[-1]["killed"]


def test_scavenger_not_near_an_angry_city_nor_near_the_victims_own_city(dice: Dice) -> None:
    pos = Position(2).clear_units().reveal_all()
    pos.city(0, "d2", name="Rome", mood="angry")  # Red's only city near C4 is angry
    pos.city(1, "d4", name="Troy")  # Blue's own city does not count
    pos.units(0, "c3", army=2).units(1, "c4", settler=1)
    texts = _scavenge(pos)
    assert not any("Scavenger" in t for t in texts)
    assert pos.state.decks["goals"][0] == [SCAVENGER]


def test_scavenger_not_for_an_army_unit(dice: Dice) -> None:
    pos = Position(2).clear_units().reveal_all()
    pos.units(0, "c3", army=2).units(1, "c4", army=1)
    dice.set(6, 6, 1)
    texts = _scavenge(pos)
    assert not any("Scavenger" in t for t in texts)


def test_scavenger_sinking_a_ship_near_a_foreign_city(dice: Dice) -> None:
    pos = Position(2).clear_units().reveal_all().advances(0, "tactics")
    pos.ship(0, "e4")  # Blue's ship on D3 is 1 space from Red's capital on D2
    pos.ship(1, "d3", settler=1)
    pos.goals(0, SCAVENGER).goals(1).turn(0)
    dice.set(6, 1)  # Red 6: one hit; Blue 1
    texts = [e.text for e in pos.play(0, "move ship1 d3")]
    killed = pos.state.battles[-1]["killed"]
    assert [1, "ship"] in killed and [1, "settler"] in killed  # the cargo dies with its ship
    assert "Red completes the objective Scavenger: 2 points." in texts
