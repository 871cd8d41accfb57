"""Barbarians: attacking their settlements (rules 10.9, CC-EX-26), the event symbols "Barbarians
appear" and "Barbarian attack" (rules 11.2, 11.3, CC-EX-40)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.clash.barbarians import RESUME, attack_pairs, barbarian_attack, barbarians_appear, spawn_spaces
from engine.clash.builder import GAME, Position
from engine.clash.state import BARBARIAN, State
from tests.engine.clash.combat_dice import Dice, dice

__all__ = ["dice"]


def _open() -> Position:
    """A 2-player map fully revealed, no units; Red (0) owns Athens on D2, Blue (1) Memphis on D7."""
    return Position(2).clear_units().reveal_all()


def _camp(pos: Position, space: str, units: int) -> None:
    pos.city(BARBARIAN, space)
    pos.units(BARBARIAN, space, army=units)


def _barbs(pos: Position, space: str) -> int:
    return sum(1 for u in pos.state.units if u.owner == BARBARIAN and u.space == space)


def _cc_ex_40() -> Position:
    pos = _open().advances(1, "tactics")
    pos.city(1, "d7", pieces=["temple", "fortress"], name="Memphis")
    pos.units(1, "d7", army=1)
    _camp(pos, "f7", 3)  # B: distance 2 from Memphis
    _camp(pos, "e8", 1)  # B': distance 1
    return pos.turn(1)


def test_cc_ex_26_barbarian_settlement_capture_keep(dice: Dice) -> None:
    pos = _open().advances(0, "tactics").units(0, "c3", army=3)
    _camp(pos, "c4", 2)
    pos.turn(0)
    dice.set(6, 6, 1, 1, 1)  # Red 13 -> 2 hits; the Barbarians 2 -> 0
    pos.play(0, "attack c3 c4 army army army")
    assert pos.state.pl[0].res["gold"] == 2
    assert pos.state.pending["kind"] == "camp" and set(pos.moves(0)) == {"keep camp", "raze camp"}
    pos.play(0, "keep camp")
    city = pos.state.city_at("c4")
    assert city.owner == 0 and city.size == 1 and city.mood == "angry"
    assert pos.state.pl[0].res["gold"] == 2


def test_cc_ex_26_barbarian_settlement_capture_raze(dice: Dice) -> None:
    pos = _open().advances(0, "tactics").units(0, "c3", army=3)
    _camp(pos, "c4", 2)
    pos.turn(0)
    dice.set(6, 6, 1, 1, 1)
    pos.play(0, "attack c3 c4 army army army")
    pos.play(0, "raze camp")
    assert pos.state.city_at("c4") is None and pos.state.pl[0].res["gold"] == 3


def test_barbarian_dice_are_rolled_and_narrated_for_them(dice: Dice) -> None:
    pos = _open().advances(0, "tactics").units(0, "c3", army=1)
    _camp(pos, "c4", 1)
    pos.turn(0)
    dice.set(1, 6)
    events = pos.play(0, "attack c3 c4 army")
    assert "the Barbarians (rolled by Blue) roll 6" in events[0].text
    assert not [u for u in pos.state.units if u.owner == 0]


def test_undefended_camp_is_captured_without_gold(dice: Dice) -> None:
    pos = _open().advances(0, "tactics").units(0, "c3", army=1)
    pos.city(BARBARIAN, "c4")
    pos.turn(0)
    pos.play(0, "attack c3 c4 army")
    assert pos.state.pl[0].res["gold"] == 0 and pos.state.pending["kind"] == "camp"


def test_cc_ex_40_barbarian_attack_on_a_city(dice: Dice) -> None:
    pos = _cc_ex_40()
    assert attack_pairs(pos.state, 1) == [("f7", "d7")]
    dice.set(6, 5, 5, 4, 3)
    events = barbarian_attack(pos.state, 1)
    assert events[0].text.startswith(
        "3 Barbarian units from F7 attack Memphis; the Barbarians (rolled by Red) roll 6, 5, 5"
    )
    assert events[0].public
    assert _barbs(pos, "f7") == 2
    assert pos.state.pending["kind"] == "barbarian_losses" and pos.state.pending["seat"] == 1
    assert set(pos.moves(1)) == {"lose army temple", "lose army fortress"}
    pos.play(1, "lose army temple")
    city = pos.state.city_at("d7")
    assert city.size == 2 and city.mood == "angry" and set(city.pieces) == {"fortress"}
    assert not [u for u in pos.state.units if u.owner == 1]
    assert _barbs(pos, "f7") == 2 and _barbs(pos, "e8") == 1
    assert pos.state.battles[-1]["kind"] == "barbarian_attack"


def test_cc_ex_40_variant_steel_weapons(dice: Dice) -> None:
    pos = _cc_ex_40().advances(1, "steel_weapons")
    dice.set(6, 5, 5, 4, 3)
    barbarian_attack(pos.state, 1)
    assert _barbs(pos, "f7") == 1


def test_cc_ex_40_variant_fortress_cancels_the_only_hit(dice: Dice) -> None:
    pos = _cc_ex_40()
    dice.set(4, 3, 2, 1, 1)
    barbarian_attack(pos.state, 1)
    city = pos.state.city_at("d7")
    assert not pos.state.pending and city.size == 3 and city.mood == "neutral"
    assert any(u.owner == 1 for u in pos.state.units)


def test_cc_ex_40_variant_size_one_city_without_units_is_destroyed(dice: Dice) -> None:
    pos = _open()
    pos.city(1, "g7")
    _camp(pos, "f7", 1)
    pos.state.cities = [c for c in pos.state.cities if c.space != "d7"]
    pos.turn(1)
    dice.set(5)
    barbarian_attack(pos.state, 1)
    assert pos.state.city_at("g7") is None


def test_barbarian_hits_land_on_settlers_too(dice: Dice) -> None:
    pos = _open().units(1, "d7", army=1, settler=1)
    _camp(pos, "e8", 1)
    pos.turn(1)
    dice.set(5, 1)
    barbarian_attack(pos.state, 1)
    assert set(pos.moves(1)) == {"lose army", "lose settler"}
    pos.play(1, "lose settler")
    assert [u.kind for u in pos.state.units if u.owner == 1] == ["army"]
    assert pos.state.city_at("d7").mood == "angry"  # neutral one step down


def test_barbarian_attack_ties_are_the_drawing_players_choice(dice: Dice) -> None:
    pos = _open()
    pos.city(1, "f6")
    _camp(pos, "e8", 1)  # distance 1 from Memphis (d7) and 2 from F6
    _camp(pos, "f5", 1)  # distance 1 from F6
    pos.turn(1)
    assert attack_pairs(pos.state, 1) == [("e8", "d7"), ("f5", "f6")]
    barbarian_attack(pos.state, 1)
    assert set(pos.moves(1)) == {"target e8 memphis", f"target f5 {pos.state.city_at('f6').name.lower()}"}
    dice.set(1)
    pos.play(1, "target e8 d7")
    assert pos.state.battles[-1]["space"] == "d7"


def test_no_settlement_in_range_means_no_attack() -> None:
    pos = _open()
    _camp(pos, "a3", 3)
    pos.turn(1)
    assert [e.text for e in barbarian_attack(pos.state, 1)] == ["No Barbarian settlement can attack."]


def test_great_wall_owner_is_never_attacked() -> None:
    pos = _open()
    pos.state.city_at("d7").wonder = "great_wall"
    _camp(pos, "e8", 3)
    pos.turn(1)
    assert attack_pairs(pos.state, 1) == []


def test_barbarians_appear_near_the_drawing_players_cities() -> None:
    pos = _open()
    pos.state.exhausted.append("c3")
    pos.units(0, "e3", settler=1).turn(0)
    spaces = spawn_spaces(pos.state, 0)
    assert "c3" not in spaces and "e3" not in spaces and "d1" not in spaces and "d2" not in spaces
    assert "c2" in spaces and "f2" in spaces and "d3" not in spaces  # Barren, city, units, Sea excluded
    barbarians_appear(pos.state, 0)
    assert pos.state.pending["kind"] == "barbarian_spawn"
    pos.play(0, "barbarians c2")
    # Step 2: the only settlement is the new one, so the extra unit goes there at once.
    assert pos.state.city_at("c2").owner == BARBARIAN and _barbs(pos, "c2") == 2
    assert not pos.state.pending


def test_barbarians_appear_second_unit_choice() -> None:
    pos = _open()
    _camp(pos, "a3", 1)
    pos.turn(0)
    barbarians_appear(pos.state, 0)
    pos.play(0, "barbarians c2")
    assert pos.state.pending["kind"] == "barbarian_unit"
    assert set(pos.moves(0)) == {"reinforce a3", "reinforce c2"}
    pos.play(0, "reinforce a3")
    assert _barbs(pos, "a3") == 2 and _barbs(pos, "c2") == 1 and not pos.state.pending


def test_barbarians_appear_resumes_the_caller() -> None:
    seen: list[str] = []

    def resume(state: State, record: dict[str, Any]) -> list[str]:
        seen.append(record["card"])
        return ["the event goes on"]

    RESUME["test"] = resume
    try:
        pos = _open()
        _camp(pos, "a3", 4)  # full: no reinforcement possible
        pos.state.exhausted.extend(["c2", "c3", "e3", "f2", "f3", "e2", "c4"])
        pos.turn(0)
        events = barbarians_appear(pos.state, 0, {"key": "test", "card": "Famine"})
        assert not pos.state.pending and seen == ["Famine"] and events[-1].text.endswith("the event goes on.")
    finally:
        del RESUME["test"]


def test_barbarian_choices_time_out_safely() -> None:
    pos = _open()
    _camp(pos, "a3", 1)
    pos.turn(0)
    barbarians_appear(pos.state, 0)
    assert GAME.on_timeout(pos.state, 0).kind == "barbarians"
    assert "waiting for Red to place a new Barbarian settlement" in GAME.status(pos.state)


@pytest.mark.parametrize("seed", [1, 2])
def test_barbarian_events_keep_the_limits(seed: int) -> None:
    pos = _open()
    for _ in range(10):
        barbarians_appear(pos.state, 0)
        while pos.state.pending:
            pos.state = GAME.apply(pos.state, 0, GAME.legal_actions(pos.state, 0)[seed % 2]).state
    assert sum(1 for c in pos.state.cities if c.owner == BARBARIAN) <= 7
    from collections import Counter

    assert max(Counter(u.space for u in pos.state.units if u.owner == BARBARIAN).values()) <= 4


def test_event_steps_go_on_after_a_barbarian_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys
    import types

    from engine.core.events import Event, public

    ran: list[int] = []

    def run_steps(state: State) -> list[Event]:
        ran.append(len(state.cities))
        return [public("The event's main effect.", "event")]

    monkeypatch.setitem(sys.modules, "engine.clash.card_flow", types.SimpleNamespace(run_steps=run_steps))
    pos = _open()
    _camp(pos, "a3", 4)
    pos.turn(0)
    barbarians_appear(pos.state, 0)
    step = GAME.apply(pos.state, 0, GAME.legal_actions(pos.state, 0)[0])
    assert ran and step.events[-1].text == "The event's main effect."


def test_barbarian_narration_agrees_in_number(dice: Dice) -> None:
    pos = _open().units(1, "d7", army=1)
    _camp(pos, "e8", 1)
    pos.turn(1)
    dice.set(1, 1)
    events = barbarian_attack(pos.state, 1)
    assert events[0].text.startswith("1 Barbarian unit from E8 attacks Memphis;")
    assert events[0].text.endswith("1 Barbarian unit stays in the settlement.")


def test_barbarians_from_exploration_name_who_chooses_their_space() -> None:
    pos = Position(2).clear_units()
    pos.tile("R3", "T14").units(0, "d2", settler=1).turn(0)  # three Fertile spaces and a Forest
    events = pos.play(0, "move d2 d3 settler")
    while pos.state.pending.get("kind") == "orient":
        events = pos.play(0, "orient base")
    assert pos.state.pending["kind"] == "barbarians"
    assert "Barbarians will appear in the new region: Red chooses where" in " ".join(e.text for e in events)
    choice = pos.moves(0)[0]
    events = pos.play(0, choice)
    assert events[0].text == f"Barbarians settle on {choice.split()[1].upper()}."
