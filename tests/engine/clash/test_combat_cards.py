"""Action cards in combat (rules 10.3 step 1, 10.7; data file 7.2): declared once per side per
round with Tactics, only with the unit type the ability names, each for one round."""

from __future__ import annotations

from typing import Any

from engine.clash.builder import GAME, Position
from engine.clash.cards_data import DECKS
from tests.engine.clash.combat_dice import Dice, dice

__all__ = ["dice"]


def _fight(attacker_card: str = "", defender_card: str = "") -> Position:
    """Red (3 armies on C3) attacks Blue (2 armies on C4); both own Tactics."""
    pos = Position(2).clear_units().reveal_all().advances(0, "tactics").advances(1, "tactics")
    if attacker_card:
        pos.hand(0, attacker_card)
    if defender_card:
        pos.hand(1, defender_card)
    return pos.units(0, "c3", army=3).units(1, "c4", army=2).turn(0)


def _ability(effect: str) -> str:
    return next(c.combat for c in DECKS.actions.values() if c.effect == effect)


def test_high_morale_adds_two_combat_value_for_one_round(dice: Dice) -> None:
    pos = _fight("hero_general")  # its first copy: Wedge Formation; the hand holds one copy
    card = pos.state.decks["hands"][0][0]
    ability = DECKS.actions[card].combat
    pos.play(0, "attack c3 c4 army army army")
    assert pos.state.pending["kind"] == "combat_card" and pos.state.pending["seat"] == 0
    assert f"play {DECKS.abilities[ability].name.lower().replace(' ', '-')}" in pos.moves(0)
    dice.set(1, 1, 1, 1, 1)
    pos.play(0, "play " + DECKS.abilities[ability].name.lower().replace(" ", "-"))
    assert pos.state.pending["kind"] == "battle"  # Blue holds no card: not asked; the round is rolled
    rnd = pos.state.battles[-1]["rounds"][0] if not pos.state.battle else pos.state.battle["rounds"][0]
    # Wedge Formation: +1 per defending army unit (2); High Morale: +2. Either way 3 + 2.
    assert rnd["attacker"]["cv"] == 5
    assert card in pos.state.decks["action_discard"] and pos.state.decks["hands"][0] == []


def _give(pos: Position, seat: int, ability: str) -> None:
    """Put a card with this combat ability into ``seat``'s hand."""
    d = pos.state.decks
    card = next(c for c in d["action"] if DECKS.actions[c].combat == ability)
    d["action"].remove(card)
    d["hands"][seat].append(card)


def test_no_card_is_offered_without_tactics_or_the_named_side(dice: Dice) -> None:
    pos = _fight()
    _give(pos, 1, "defensive_formation")
    _give(pos, 0, "defensive_formation")  # a defender's ability: never offered to the attacker
    pos.state.pl[1].advances.remove("tactics")
    dice.set(1, 1, 1, 1, 1)
    pos.play(0, "attack c3 c4 army army army")
    assert pos.state.pending["kind"] == "battle"  # nobody was asked


def test_defensive_formation_gives_the_defender_a_die(dice: Dice) -> None:
    pos = _fight()
    _give(pos, 1, "defensive_formation")
    pos.play(0, "attack c3 c4 army army army")
    assert pos.state.pending == {"kind": "combat_card", "seat": 1, "side": "defender"}
    dice.set(1, 1, 1, 1, 1, 1)
    pos.play(1, "play defensive-formation")
    rounds = (pos.state.battle or pos.state.battles[-1])["rounds"]
    assert len(rounds[0]["defender"]["dice"]) == 3


def test_high_ground_cancels_the_opponents_card(dice: Dice) -> None:
    pos = _fight()
    d = pos.state.decks
    morale = next(c for c in d["action"] if DECKS.actions[c].combat == "high_morale")
    ground = next(c for c in d["action"] if DECKS.actions[c].combat == "high_ground")
    d["action"].remove(morale)
    d["action"].remove(ground)
    d["hands"][0].append(morale)
    d["hands"][1].append(ground)
    pos.play(0, "attack c3 c4 army army army")
    pos.play(0, "play high-morale")
    dice.set(1, 1, 1, 1, 1)
    pos.play(1, "play high-ground")  # the defender is not attacking a city: allowed
    rounds = (pos.state.battle or pos.state.battles[-1])["rounds"]
    assert rounds[0]["attacker"]["cv"] == 3
    assert any("cancelled" in n for n in rounds[0]["attacker"]["notes"])


def test_combat_card_plays_are_private_moves() -> None:
    pos = _fight()
    _give(pos, 0, "flanking")
    pos.play(0, "attack c3 c4 army army army")
    plays = [a for a in GAME.legal_actions(pos.state, 0) if a.kind == "tactic"]
    assert plays and all(GAME.private_action(pos.state, 0, a) for a in plays)


def test_surprise_draws_a_card_after_a_kill(dice: Dice) -> None:
    pos = _fight()
    d = pos.state.decks
    surprise = next(c for c in d["action"] if DECKS.actions[c].combat == "surprise")
    d["action"].remove(surprise)
    d["hands"][0].append(surprise)
    pos.play(0, "attack c3 c4 army army army")
    dice.set(2, 1, 1, 1, 1)  # Red 4 + 1 (Surprise) = 5: one hit
    pos.play(0, "play surprise")
    assert len(pos.state.decks["hands"][0]) == 1


def test_negotiations_forbid_attacks_both_ways() -> None:
    pos = Position(2).clear_units().reveal_all().advances(0, "tactics").advances(1, "tactics")
    pos.units(0, "c3", army=2).units(1, "c4", army=2).hand(0, "negotiations")
    pos.tokens(0, culture_level=1, culture=1).turn(0)
    assert "play negotiations" in pos.moves(0)
    pos.play(0, "play negotiations")  # Blue is the only other player: chosen at once
    assert not any(m.startswith("attack") for m in pos.moves(0))
    pos.play(0, "end")
    assert not any(m.startswith("attack") for m in pos.moves(1))  # Blue's next turn
    pos.play(1, "end")
    assert any(m.startswith("attack") for m in pos.moves(0))  # the truce is over


def test_negotiations_only_before_the_first_action() -> None:
    pos = Position(2).hand(0, "negotiations").tokens(0, culture_level=1, culture=1).turn(0)
    pos.play(0, "collect athens food")
    assert "play negotiations" not in pos.moves(0)


def test_a_defended_capture_completes_conqueror_and_allows_inspiration(dice: Dice) -> None:
    pos = Position(2).clear_units().reveal_all().advances(0, "tactics").advances(1, "storage")
    pos.city(1, "c4", name="Troy")
    pos.units(0, "c3", army=3).units(1, "c4", army=1).goals(0, "obj02").hand(0, "inspiration").turn(0)
    dice.set(6, 6, 6, 1)  # Red 18: 3 hits (capped at 1); Blue 1: none
    pos.play(0, "attack c3 c4 army army army")
    events = [e.text for e in pos.play(0, "no card")]  # Inspiration's combat ability is kept
    assert "Red completes the objective Conqueror: 2 points." in events
    assert "play inspiration" in pos.moves(0)
    pos.play(0, "play inspiration")
    assert "storage" in pos.state.pl[0].advances


def test_mercenaries_hire_barbarians_against_another_player(dice: Dice) -> None:
    from engine.clash.state import BARBARIAN

    pos = Position(2).clear_units().reveal_all()
    pos.city(BARBARIAN, "d4")
    pos.units(BARBARIAN, "d4", army=2)
    pos.city(1, "d5", name="Troy")
    pos.give(0, food=1, wood=1).hand(0, "mercenaries").turn(0)
    assert "play mercenaries" in pos.moves(0)
    dice.set(6, 6)  # the Barbarians roll 12: 2 hits on Troy, a size-1 city without units
    texts = [e.text for e in pos.play(0, "play mercenaries")]
    assert "Red hires the Barbarians of D4 for 1 food and 1 wood." in texts
    assert pos.state.pl[0].res["food"] == 0 and pos.state.actions_left == 2
    assert any("Troy is destroyed" in t for t in texts)
    assert pos.state.city_at("d5") is None and not pos.state.pending


def test_mercenaries_need_a_settlement_near_and_the_price() -> None:
    from engine.clash.state import BARBARIAN

    pos = Position(2).clear_units().reveal_all()
    pos.city(BARBARIAN, "d4")
    pos.units(BARBARIAN, "d4", army=3)
    pos.city(1, "d5", name="Troy")
    pos.give(0, food=1, wood=1).hand(0, "mercenaries").turn(0)
    assert "play mercenaries" not in pos.moves(0)  # 3 units cost 3


def test_trojan_horse_gives_a_point_and_silences_the_defender(dice: Dice) -> None:
    pos = Position(2).clear_units().reveal_all().advances(0, "tactics").advances(1, "tactics")
    pos.city(1, "c4", name="Troy")
    pos.units(0, "c3", army=3).units(1, "c4", army=2)
    _give(pos, 1, "defensive_formation")
    pos.give(0, wood=1).tokens(0, culture_level=1, culture=1).turn(0)
    pos.state.decks["trojan"] = pos.state.round  # the event was drawn this round
    pos.play(0, "attack c3 c4 army army army")
    assert "play trojan-horse" in pos.moves(0)
    dice.set(1, 1, 1, 1, 1)
    pos.play(0, "play trojan-horse")
    assert pos.state.pending.get("kind") != "combat_card"  # Blue is not asked for his card
    p = pos.state.pl[0]
    assert p.res["wood"] == 0 and p.culture_tokens == 0 and p.event_halves == 2


def _round(pos: Position) -> dict[str, Any]:
    rounds: list[dict[str, Any]] = (pos.state.battle or pos.state.battles[-1])["rounds"]
    return rounds[0]


def test_archers_kill_before_the_dice(dice: Dice) -> None:
    pos = _fight()
    _give(pos, 0, "archers")
    pos.play(0, "attack c3 c4 army army army")
    dice.set(5, 1, 1, 1, 1)  # Archers' 5: a Blue unit falls before the round; then 3 + 1 dice
    pos.play(0, "play archers")
    assert len(_round(pos)["defender"]["dice"]) == 1


def test_peltasts_cancel_a_hit_on_a_five(dice: Dice) -> None:
    pos = _fight()
    _give(pos, 1, "peltasts")
    pos.play(0, "attack c3 c4 army army army")
    dice.set(6, 1, 2, 2, 1, 1, 1)  # Peltasts roll 6, 1; Red 2 + 2 + 1 = 5: one hit, cancelled
    pos.play(1, "play peltasts")
    assert _round(pos)["attacker"]["hits"] == 0


def test_heavy_resistance_lowers_the_attackers_value(dice: Dice) -> None:
    pos = _fight()
    _give(pos, 1, "heavy_resistance")
    pos.play(0, "attack c3 c4 army army army")
    dice.set(2, 2, 2, 1, 1)
    pos.play(1, "play heavy-resistance")
    assert _round(pos)["attacker"]["cv"] == 3  # 6 - 3 attacking units


def test_tactical_retreat_ends_the_battle_before_the_dice() -> None:
    pos = _fight()
    _give(pos, 1, "tactical_retreat")
    pos.play(0, "attack c3 c4 army army army")
    pos.play(1, "play tactical-retreat")
    battle = pos.state.battles[-1]
    assert battle["winner"] == 0 and not battle["rounds"]
    assert sum(1 for u in pos.state.units if u.owner == 1 and u.kind == "army") == 2
    assert not any(u.owner == 1 and u.space == "c4" for u in pos.state.units)


def test_scout_cancels_and_takes_the_attackers_card(dice: Dice) -> None:
    pos = _fight()
    _give(pos, 0, "high_morale")
    _give(pos, 1, "scout")
    pos.play(0, "attack c3 c4 army army army")
    pos.play(0, "play high-morale")
    dice.set(1, 1, 1, 1, 1)
    pos.play(1, "play scout")
    assert _round(pos)["attacker"]["cv"] == 3
    assert [DECKS.actions[c].combat for c in pos.state.decks["hands"][1]] == ["high_morale"]


def test_martyr_trades_a_unit_for_a_unit(dice: Dice) -> None:
    pos = _fight()
    _give(pos, 0, "martyr")
    pos.play(0, "attack c3 c4 army army army")
    dice.set(1, 1, 1, 1)
    pos.play(0, "play martyr")
    r = _round(pos)
    assert len(r["attacker"]["dice"]) == 2 and len(r["defender"]["dice"]) == 1


def test_encircled_may_kill_one_more_after_the_hits(dice: Dice) -> None:
    pos = _fight()
    _give(pos, 0, "encircled")
    pos.play(0, "attack c3 c4 army army army")
    dice.set(2, 2, 1, 1, 1, 6)  # Red 5: one hit; Blue 2: none; Encircled rolls 6
    pos.play(0, "play encircled")
    assert not any(u.owner == 1 for u in pos.state.units)


def test_siege_ignores_a_fortress_unless_two_food_are_paid(dice: Dice) -> None:
    pos = Position(2).clear_units().reveal_all().advances(0, "tactics").advances(1, "tactics")
    pos.city(1, "c4", name="Troy", pieces=("fortress",))
    pos.units(0, "c3", army=3).units(1, "c4", army=1)
    _give(pos, 0, "siege")
    pos.give(1, food=0).turn(0)
    pos.play(0, "attack c3 c4 army army army")
    if pos.state.pending.get("kind") == "siege":
        pos.play(0, "no siege")
    dice.set(1, 1, 1, 1)
    pos.play(0, "play siege")
    assert len(_round(pos)["defender"]["dice"]) == 1  # no Fortress die
