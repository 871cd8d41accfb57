"""Out-of-turn combat decisions: the defending seat is awaited through ``to_move`` while the
attacker waits, the combat-card plug-in point, timeouts and notation of every choice."""

from __future__ import annotations

from typing import Any

import pytest

from engine.clash.actions import Action
from engine.clash.builder import GAME, Position
from engine.clash.combat_cards import CombatCardProvider
from engine.clash.combat_rounds import Modifiers, register_cards
from engine.clash.state import State
from engine.core.errors import IllegalAction
from tests.engine.clash.combat_dice import Dice, dice

__all__ = ["dice"]


class FakeCards:
    """A combat-card provider as the card module will give: one card per side, +5 CV."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def options(self, state: State, battle: dict[str, Any], side: str) -> list[Action]:
        self.asked.append(side)
        return [Action("combatcard", name="fury")]

    def play(self, state: State, battle: dict[str, Any], side: str, action: Action) -> list[str]:
        battle["cards"][side].append(action.name)
        return [f"{side} plays {action.name}"]

    def modifiers(self, state: State, battle: dict[str, Any], side: str) -> Modifiers:
        return Modifiers(cv=5 * len(battle["cards"][side]), notes=["Fury"])


def _fight() -> Position:
    pos = Position(2).clear_units().reveal_all()
    pos.advances(0, "tactics").advances(1, "tactics")
    return pos.units(0, "c3", army=2).units(1, "c4", army=2).turn(0)


def test_defender_decides_out_of_turn_with_cards(dice: Dice) -> None:
    cards = FakeCards()
    register_cards(cards)
    try:
        pos = _fight()
        pos.play(0, "attack c3 c4 army army")
        assert pos.state.pending == {"kind": "combat_card", "seat": 0, "side": "attacker"}
        pos.state = GAME.apply(pos.state, 0, Action("nocard")).state
        # Now the defending seat is awaited while Red, the active player, waits.
        assert GAME.to_move(pos.state) == frozenset({1}) and pos.state.active == 0
        assert GAME.legal_actions(pos.state, 0) == []
        assert "waiting for Blue to decide whether to play a combat card" in GAME.status(pos.state)
        assert GAME.on_timeout(pos.state, 1) == Action("nocard")
        dice.set(1, 1, 1, 1)  # Blue's card turns 2 into 7: one hit
        pos.state = GAME.apply(pos.state, 1, Action("combatcard", name="fury")).state
        r = pos.state.battle["rounds"][0]
        assert r["defender"]["cv"] == 7 and r["defender"]["hits"] == 1 and "Fury" in r["defender"]["notes"]
        assert r["attacker"]["cv"] == 2
        assert pos.state.battle["cards"] == {"attacker": [], "defender": []}  # a card lasts one round
        assert GAME.to_move(pos.state) == frozenset({0})
    finally:
        register_cards(CombatCardProvider())  # the real provider again


def test_no_cards_without_tactics_or_provider(dice: Dice) -> None:
    cards = FakeCards()
    register_cards(cards)
    try:
        pos = _fight()
        pos.state.pl[1].advances.remove("tactics")
        pos.play(0, "attack c3 c4 army army")
        dice.set(1, 1, 1, 1)
        pos.state = GAME.apply(pos.state, 0, Action("nocard")).state
        assert "defender" not in cards.asked and pos.state.pending["kind"] == "battle"
    finally:
        register_cards(CombatCardProvider())  # the real provider again
    pos = _fight()
    dice.set(1, 1, 1, 1)
    pos.play(0, "attack c3 c4 army army")
    assert pos.state.pending["kind"] == "battle"


def test_every_choice_has_notation_that_parses_back(dice: Dice) -> None:
    pos = _fight()
    dice.set(1, 1, 1, 1)
    pos.play(0, "attack c3 c4 army army")
    for a in GAME.legal_actions(pos.state, 0):
        for form in GAME.notation_forms(pos.state, 0, a):
            assert GAME.parse(pos.state, 0, form) == a
    assert set(pos.moves(0)) == {"continue", "retreat"}
    assert GAME.action_group("attack c3 c4 army") == "attack from C3"


def test_move_typed_into_an_enemy_is_the_attack() -> None:
    pos = _fight()
    a = GAME.parse(pos.state, 0, "move army army c3 c4")
    assert GAME.notation(pos.state, 0, a) == "attack c3 c4 army army"


def test_attack_on_an_empty_space_is_explained() -> None:
    pos = _fight()
    with pytest.raises(IllegalAction, match="nothing foreign on D3"):
        pos.play(0, "attack c3 d3 army")


class RetreatCards(FakeCards):
    """A defender's card that withdraws its army before the dice; an attacker's card with an
    "after hits" effect."""

    def play(self, state: State, battle: dict[str, Any], side: str, action: Action) -> list[str]:
        battle["cards"][side].append(action.name)
        if side == "defender":
            for u in state.units:
                if u.owner == battle["defender"] and u.space == battle["space"]:
                    u.space = "d4"
            battle["end_now"] = "attacker"
        return [f"{side} plays {action.name}"]

    def after_round(self, state: State, battle: dict[str, Any]) -> list[str]:
        return [f"after hits: {battle['rounds'][-1]['attacker']['hits']}"]


def test_cards_can_end_a_battle_or_act_after_hits(dice: Dice) -> None:
    register_cards(RetreatCards())
    try:
        pos = _fight()
        pos.play(0, "attack c3 c4 army army")
        pos.state = GAME.apply(pos.state, 0, Action("nocard")).state
        step = GAME.apply(pos.state, 1, Action("combatcard", name="fury"))
        assert not step.state.battle and step.state.battles[-1]["winner"] == 0
        assert not step.state.battles[-1]["rounds"]
        pos = _fight()
        pos.play(0, "attack c3 c4 army army")
        dice.set(5, 1, 1, 1)
        pos.state = GAME.apply(pos.state, 0, Action("combatcard", name="fury")).state
        events = GAME.apply(pos.state, 1, Action("nocard")).events
        assert "after hits: 2" in events[0].text
    finally:
        register_cards(CombatCardProvider())  # the real provider again
