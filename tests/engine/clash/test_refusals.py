"""What a player is told when a move or a choice is typed wrongly (engine/clash/refusals.py): what
was wrong and what is accepted; and battle narration found unclear in play-testing (several
refusals named the wrong cause, modifiers read as if they made hits)."""

from __future__ import annotations

import pytest

from engine.clash.barbarians import barbarian_attack
from engine.clash.builder import Position
from engine.clash.state import BARBARIAN
from engine.core.errors import IllegalAction
from tests.engine.clash.combat_dice import Dice, dice

__all__ = ["dice"]


def _front() -> Position:
    """Red: 3 armies and a settler on C3 (fertile) next to 2 Blue armies on C4 (forest)."""
    pos = Position(2).clear_units().reveal_all().advances(0, "tactics")
    return pos.units(0, "c3", army=3, settler=1).units(1, "c4", army=2).turn(0)


def _refusal(pos: Position, seat: int, text: str) -> str:
    with pytest.raises(IllegalAction) as err:
        pos.play(seat, text)
    return str(err.value)


def test_attack_without_units_says_to_name_them() -> None:
    assert _refusal(_front(), 0, "attack c3 c4") == "Say which units attack, e.g. `attack c3 c4 army`."


def test_attack_onto_a_space_that_is_not_next_to_the_group() -> None:
    pos = _front()
    pos.units(1, "d4", army=1)
    assert "D4 is not next to C3" in _refusal(pos, 0, "attack c3 d4 army")


def test_attack_with_more_units_than_stand_there() -> None:
    # Was: "Units that entered a Forest this turn may move on, but not into a battle."
    assert _refusal(_front(), 0, "attack c3 c4 army army army army") == "You have 3 armies on C3, not 4."
    assert _refusal(_front(), 0, "attack e3 c4 army") == "You have no units on E3."


def test_choices_typed_with_no_question_open() -> None:
    pos = _front()
    assert "no such question is open" in _refusal(pos, 0, "continue")
    assert "`retreat` answers the question after a battle round" in _refusal(pos, 0, "retreat")
    assert "`keep camp` keeps a Barbarian settlement" in _refusal(pos, 0, "keep camp")
    assert "`lose` chooses the losses after a Barbarian attack" in _refusal(pos, 0, "lose army")


def test_other_moves_during_a_battle_choice_name_the_choice(dice: Dice) -> None:
    pos = _front()
    dice.set(1, 1, 1, 1, 1)
    pos.play(0, "attack c3 c4 army army")
    assert pos.state.pending["kind"] == "battle"
    # Was: "That move cannot start a battle now."
    why = _refusal(pos, 0, "attack c3 c4 army")
    assert why == "First continue the battle or retreat: type `continue` or `retreat`."


def test_barbarian_losses_explain_the_number_and_accept_any_order(dice: Dice) -> None:
    pos = Position(2).clear_units().reveal_all()
    pos.city(0, "d2", pieces=("temple", "fortress", "academy"), mood="happy", name="Athens")
    for space in ("c3", "a3", "g3"):
        pos.city(0, space)
    pos.units(0, "d2", settler=1).city(BARBARIAN, "e3")
    pos.units(BARBARIAN, "e3", army=4).turn(0)
    dice.set(6, 6, 6, 1)  # 19 -> 3 hits (no Fortress die or cancel without Tactics; no army in Athens)
    barbarian_attack(pos.state, 0)
    assert pos.state.pending["kind"] == "barbarian_losses"
    why = _refusal(pos, 0, "lose settler fortress")
    assert why.startswith("The Barbarians landed 3 hits: name 3 losses, units in the city first, e.g. `lose settler")
    events = pos.play(0, "lose temple fortress settler")
    assert "Red loses 1 settler; Athens loses its fortress and temple; Athens becomes angry" in events[0].text


def test_barbarian_losses_of_two_kinds_in_one_clause(dice: Dice) -> None:
    pos = Position(2).clear_units().reveal_all()
    pos.city(0, "d2", mood="happy", name="Athens")
    pos.units(0, "d2", army=1, settler=1).city(BARBARIAN, "e3")
    pos.units(BARBARIAN, "e3", army=2).turn(0)
    dice.set(5, 5, 1)
    events = barbarian_attack(pos.state, 0)
    assert "Red loses 1 army and 1 settler; Athens becomes neutral" in events[0].text


def test_keep_or_raze_alone_takes_a_barbarian_settlement(dice: Dice) -> None:
    pos = Position(2).clear_units().reveal_all().advances(0, "tactics").units(0, "c3", army=3)
    pos.city(BARBARIAN, "c4")
    pos.units(BARBARIAN, "c4", army=1).turn(0)
    dice.set(6, 6, 1, 1)
    pos.play(0, "attack c3 c4 army army army")
    pos.play(0, "keep")
    assert pos.state.city_at("c4") is not None and pos.state.city_at("c4").owner == 0  # type: ignore[union-attr]


def test_other_moves_during_the_free_advance_name_the_choice() -> None:
    pos = _front()
    pos.state.phase = "status"
    pos.state.pending = {"kind": "free", "seat": 0}
    why = _refusal(pos, 0, "collect athens food")
    assert why.startswith("First choose your free advance: type one of the ") and "`moves` lists" in why
    assert _refusal(pos, 0, "advance steel weapons").startswith("Steel Weapons still costs 2 ore as a free advance")
    assert _refusal(pos, 0, "advance roads") == "Roads needs Engineering first."


def test_units_held_back_say_why(dice: Dice) -> None:
    pos = _front()
    pos.play(0, "move c3 b3 army")
    # Was: "Only 0 armies on B3 can move now ..."
    assert _refusal(pos, 0, "attack b3 c4 army") == (
        "No army on B3 can move now: each unit moves once per Move action; type `done` and move it in your next action."
    )
    dice.set(1, 1, 1, 1)
    pos.play(0, "attack c3 c4 army army")
    pos.play(0, "retreat")
    pos.play(0, "done")
    assert _refusal(pos, 0, "attack c3 c4 army army") == (
        "No army on C3 can move now: units that fought this turn stay where they are."
    )


def test_settlers_lost_with_their_army_are_told_after_the_result(dice: Dice) -> None:
    pos = Position(2).clear_units().reveal_all().advances(0, "tactics").units(0, "c3", army=1)
    pos.units(1, "c4", army=1, settler=1).turn(0)
    dice.set(5, 5)
    events = pos.play(0, "attack c3 c4 army")
    assert "both sides are wiped out; Blue loses 1 settler." in events[0].text


def test_a_wrong_answer_to_the_open_question_lists_the_choices() -> None:
    pos = _front()
    pos.state.pending = {"kind": "refugee", "seat": 0, "then": []}
    pos.city(0, "g3", name="Sparta")
    assert _refusal(pos, 0, "refugee memphis") == (
        "`refugee memphis` is not one of the choices: type `refugee athens` or `refugee sparta`."
    )
    assert _refusal(pos, 0, "end").startswith("First place a refugee Settler: type `refugee athens`")


def test_stop_is_the_rules_word_for_retreat(dice: Dice) -> None:
    pos = _front()
    dice.set(1, 1, 1, 1, 1)
    pos.play(0, "attack c3 c4 army army")
    events = pos.play(0, "stop")
    assert "Red stops the attack and returns to C3" in events[0].text
    from engine.clash.actions import VERBS

    assert "stop" in VERBS  # else the chat reads `stop` as `move stop`
    assert "`stop` stops an attack after a battle round; no such question is open now" in _refusal(pos, 0, "stop")


def test_modifiers_are_told_with_what_they_did(dice: Dice) -> None:
    """The narration once read "Red rolls 5 with War Ships: 1 hit", as if War Ships made the hit."""
    pos = Position(2).clear_units().reveal_all().advances(0, "war_ships")
    pos.ship(0, "d3")
    pos.ship(1, "e5")
    pos.ship(1, "e5")
    pos.turn(0)
    dice.set(5, 6, 2)
    events = pos.play(0, "move ship1 e5")
    assert "Red rolls 5 with War Ships (cancels 1 enemy hit): 1 hit; Blue rolls 6, 2: 0 hits" in events[0].text


def test_the_fortress_is_told_with_what_siegecraft_left_of_it(dice: Dice) -> None:
    pos = Position(2).clear_units().reveal_all().advances(0, "tactics", "siegecraft").advances(1, "tactics")
    pos.city(1, "d4", pieces=("fortress",))
    pos.units(1, "d4", army=1).units(0, "c5", army=3).give(0, wood=2).turn(0)
    pos.play(0, "attack c5 d4 army army army")
    dice.set(1, 1, 1, 1)
    events = pos.play(0, "siege wood")
    assert "Blue rolls 1 with the Fortress (cancels 1 enemy hit): 0 hits" in events[0].text


def test_an_open_trade_offer_is_named() -> None:
    pos = _front()
    pos.state.pending = {"kind": "offer", "seat": 0, "to": 1, "give": {}, "get": {}}
    assert _refusal(pos, 0, "attack c3 c4 army").startswith("First finish a trade offer: type ")


def test_a_superscript_digit_in_a_trade_step_is_refused_not_crashed() -> None:
    """Found by fuzzing: ``"²".isdigit()`` is True but ``int("²")`` raises; ``give ² card …``
    during an offer crashed the explanation of the refusal."""
    pos = _front()
    pos.state.pending = {"kind": "offer", "seat": 0, "to": 1, "give": {}, "get": {}}
    why = _refusal(pos, 0, "give ² car technology-trade-surprise")
    assert "is not a legal move right now" in why or why.startswith("Goods to trade"), why


def test_disembarking_and_road_moves_are_told_as_such(dice: Dice) -> None:
    pos = Position(2).clear_units().reveal_all().advances(0, "tactics").advances(1, "tactics")
    pos.ship(0, "d3", army=2)
    pos.units(1, "d4", army=1).turn(0)
    dice.set(6, 6, 1)
    events = pos.play(0, "attack d3 d4 army army")
    assert events[0].text.startswith("Red moves 2 armies from the ship on D3 to D4: attacks Blue on D4")
    road = Position(2).clear_units().reveal_all().advances(0, "engineering", "roads").units(0, "d2", settler=1)
    road.give(0, food=1).turn(0)
    step = next(m for m in road.moves(0) if m.endswith(" road") and m.startswith("move d2"))
    events = road.play(0, step)
    assert events[0].text.endswith(" by road.")


def test_plain_moves_say_what_was_wrong() -> None:
    pos = _front()
    assert _refusal(pos, 0, "move c3 c5 army") == (
        "C5 is not next to C3: a unit moves one space at a time (two with `road`)."
    )
    assert _refusal(pos, 0, "move c3 b3 army army army army") == "You have 3 armies on C3, not 4."
    assert _refusal(pos, 0, "move c3 b3") == "Say which units move, e.g. `move c3 b3 army`."
    assert _refusal(pos, 0, "move z9 b3 army") == "There is no space Z9 on this map."
    assert _refusal(pos, 0, "move d2 d1 army") == "You have no units on D2."
    pos.play(0, "move c3 b3 army")
    assert _refusal(pos, 0, "move b3 a3 army").startswith("No army on B3 can move now: each unit moves once")
