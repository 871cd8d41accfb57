"""The effects of advances not covered by a rulebook example, each with its legal and illegal case."""

from __future__ import annotations

import pytest

from engine.clash.builder import Position
from engine.core.errors import IllegalAction


def _pos() -> Position:
    return Position(2).clear_units().reveal_all()


def test_husbandry_reaches_two_spaces_once_per_turn() -> None:
    pos = _pos()
    pos.city(0, "d2", pieces=("temple", "academy"), mood="happy", name="Athens")
    pos.city(0, "f6").name = "Far"
    pos.city(0, "b6")
    pos.advances(0, "husbandry", "storage").give(0, food=3).turn(0)
    wide = [m for m in pos.moves(0) if m.startswith("collect athens") and m.endswith("husbandry")]
    assert wide
    pos.play(0, wide[0])
    assert pos.state.pl[0].res["food"] >= 2  # 1 Food paid before collecting
    assert not [m for m in pos.moves(0) if m.endswith("husbandry")]  # once per turn
    assert "husbandry" in pos.state.pl[0].used


def test_husbandry_costs_nothing_with_roads() -> None:
    pos = _pos()
    pos.city(0, "d2", pieces=("temple", "academy"), mood="happy", name="Athens")
    pos.city(0, "f6")
    pos.city(0, "b6")
    pos.advances(0, "husbandry", "engineering", "roads").give(0, food=0, gold=0).turn(0)
    assert [m for m in pos.moves(0) if m.endswith("husbandry")]


def test_irrigation_collects_from_barren() -> None:
    pos = Position(2).clear_units().turn(0)
    assert "collect athens food" in pos.moves(0)
    pos.city(0, "c2")
    pos.city(0, "e2")
    pos.state.city_at("d2").pieces["temple"] = 0  # type: ignore[union-attr]
    pos.turn(0)
    assert not [m for m in pos.moves(0) if m == "collect athens food food"]  # D1 Barren gives nothing yet
    pos.advances(0, "irrigation")
    assert "collect athens food food" in pos.moves(0)


def test_public_education_idea_once_per_turn() -> None:
    pos = Position(2).clear_units()
    pos.city(0, "d2", pieces=("academy",), name="Athens")
    pos.city(0, "c2")
    pos.advances(0, "writing", "public_education").turn(0)
    pos.play(0, "collect athens food ore")
    assert pos.state.pl[0].res["ideas"] == 1
    pos.play(0, "collect athens food ore")
    assert pos.state.pl[0].res["ideas"] == 1


def test_nationalism_token_after_building_an_army() -> None:
    pos = Position(2).clear_units().advances(0, "tactics", "draft", "nationalism")
    pos.tokens(0, culture_level=2, happiness_level=2).give(0, food=2, ore=2).turn(0)
    moves = pos.moves(0)
    assert "build athens army culture" in moves and "build athens army mood" in moves
    assert "build athens army" not in moves
    assert "build athens settler" in moves  # no token for settlers only
    pos.play(0, "build athens army culture")
    assert pos.state.pl[0].culture_tokens == 1


def test_medicine_returns_a_resource() -> None:
    pos = Position(2).clear_units().advances(0, "math", "medicine").give(0, food=2).turn(0)
    pos.play(0, "build athens settler")
    assert pos.state.pl[0].res["food"] == 1


def test_sanitation_adds_a_settler_for_one_food() -> None:
    pos = Position(2).clear_units().advances(0, "myths", "engineering", "sanitation")
    pos.city(0, "c2")
    pos.give(0, food=2, ore=1, wood=1).turn(0)
    pos.play(0, "grow athens temple mood settler")
    assert [u.kind for u in pos.state.units if u.space == "d2"] == ["settler"]
    assert pos.state.pl[0].res == {"food": 0, "wood": 0, "ore": 0, "ideas": 0, "gold": 0}


def test_state_religion_temple_without_food_once_per_turn() -> None:
    pos = Position(2).clear_units().advances(0, "myths", "state_religion")
    pos.city(0, "c2", name="Sparta")
    pos.city(0, "e2")
    pos.give(0, food=0, ore=2, wood=2).turn(0)
    pos.play(0, "grow athens temple mood")
    assert not [m for m in pos.moves(0) if m.startswith("grow sparta temple")]  # Food needed again


def test_taxes_and_civil_liberties() -> None:
    pos = Position(2).clear_units().advances(0, "bartering", "taxes", "philosophy", "voting", "civil_liberties")
    pos.city(0, "c2")
    pos.tokens(0, happiness_level=5, mood=1).turn(0)
    pos.play(0, "taxes")
    assert pos.state.pl[0].res["gold"] == 2 and pos.state.pl[0].mood_tokens == 0
    assert "taxes" not in pos.moves(0)
    pos.play(0, "liberties")
    pos.play(0, "liberties")
    assert pos.state.pl[0].mood_tokens == 5 and pos.state.actions_left == 0


def test_absolute_power_gives_an_action_once() -> None:
    pos = Position(2).clear_units().advances(0, "tactics", "draft", "nationalism", "absolute_power")
    pos.tokens(0, happiness_level=4, mood=4).turn(0)
    pos.play(0, "absolute")
    assert pos.state.actions_left == 4 and pos.state.pl[0].mood_tokens == 2
    assert "absolute" not in pos.moves(0)


def test_forced_labor_lets_angry_cities_act_as_neutral() -> None:
    pos = Position(2).clear_units().reveal_all().advances(0, "tactics", "draft", "nationalism", "forced_labor")
    pos.city(0, "d2", mood="angry", pieces=("temple",), name="Athens")
    pos.city(0, "f4")
    pos.city(0, "b4")
    pos.tokens(0, happiness_level=2, mood=1).give(0, food=1, ore=1, wood=1).turn(0)
    assert not [m for m in pos.moves(0) if m.startswith("grow athens")]
    assert all(len(m.split()) == 3 for m in pos.moves(0) if m.startswith("collect athens"))
    pos.play(0, "forced")
    assert [m for m in pos.moves(0) if m.startswith("grow athens")]
    assert any(len(m.split()) == 4 for m in pos.moves(0) if m.startswith("collect athens"))
    pos.play(0, next(m for m in pos.moves(0) if m.startswith("collect athens")))
    assert not [m for m in pos.moves(0) if m.startswith(("collect athens", "grow athens"))]  # still once


def test_theater_and_music_swaps_a_token_once_per_turn() -> None:
    pos = Position(2).clear_units().advances(0, "arts", "theater_music")
    pos.tokens(0, culture_level=2, happiness_level=2, mood=1, culture=0).turn(0)
    assert "theater culture" in pos.moves(0) and "theater mood" not in pos.moves(0)
    pos.play(0, "theater culture")
    p = pos.state.pl[0]
    assert (p.mood_tokens, p.culture_tokens) == (0, 1)
    assert not [m for m in pos.moves(0) if m.startswith("theater")]


def test_circus_cannot_make_a_happy_city_happier() -> None:
    pos = Position(2).clear_units().tokens(0, happiness_level=2, mood=2)
    pos.state.city_at("d2").mood = "happy"  # type: ignore[union-attr]
    pos.turn(0)
    with pytest.raises(IllegalAction):
        pos.play(0, "civic athens")


def test_storage_and_dogma_caps() -> None:
    pos = Position(2).clear_units().give(0, food=2, ideas=8).turn(0)
    pos.play(0, "collect athens food")
    assert pos.state.pl[0].res["food"] == 2
    assert pos.state.pl[0].res["ideas"] == 8


def test_roads_need_engineering_and_math_makes_it_free() -> None:
    pos = Position(2).clear_units().advances(0, "math", "engineering").give(0, food=0).turn(0)
    assert "advance roads" in pos.moves(0)
    pos.play(0, "advance roads")
    assert pos.state.pl[0].culture_level == 1  # Roads has a blue border
