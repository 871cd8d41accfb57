"""Cities: found, collect, build, increase size, mood and Civic Improvement (rules 5, 8.2-8.5)."""

from __future__ import annotations

import pytest

from engine.clash.builder import Position
from engine.core.errors import IllegalAction


def _home(players: int = 2) -> Position:
    """Red's home region revealed, Athens on D2 (E2 Mountain, C2 Forest, D1 Barren), no units."""
    return Position(players).clear_units()


def test_found_city_rules() -> None:
    pos = _home().reveal_all()
    pos.units(0, "e2", settler=1).units(0, "d1", settler=1).turn(0)
    assert "found e2" in pos.moves(0)
    assert "found d1" not in pos.moves(0)  # Barren
    pos.play(0, "found e2")
    assert [c.size for c in pos.state.cities_of(0)] == [1, 1]
    assert not any(u.space == "e2" for u in pos.state.units)
    pos.state.exhausted.append("c2")
    pos.units(0, "c2", settler=1)
    assert "found c2" not in pos.moves(0)


def test_found_is_refused_next_to_foreign_units_on_the_space() -> None:
    pos = _home().reveal_all()
    pos.units(0, "e2", settler=1).units(1, "e2", army=1).turn(0)
    assert "found e2" not in pos.moves(0)


def test_cc_ex_02_happy_city_collects_one_more() -> None:
    pos = _home()
    pos.city(0, "d2", mood="happy", pieces=("temple",), name="Athens")
    pos.city(0, "e3", name="Sparta")
    pos.turn(0)
    collects = [m for m in pos.moves(0) if m.startswith("collect athens")]
    assert collects and all(len(m.split()) == 5 for m in collects)  # 3 resources
    pos.play(0, "collect athens food wood ore")
    athens = pos.state.city_at("d2")
    assert athens is not None and athens.mood == "happy"


def test_cc_ex_03_multiple_activations() -> None:
    pos = _home().reveal_all()
    pos.city(0, "d2", mood="happy", pieces=("temple", "academy"), name="Athens")
    pos.city(0, "f2", name="Sparta")
    pos.city(0, "b4", name="Corinth")
    pos.advances(0, "storage", "irrigation", "fishing").turn(0)
    athens = pos.state.city_at("d2")
    assert athens is not None
    four = [m for m in pos.moves(0) if m.startswith("collect athens") and len(m.split()) == 6]
    assert four
    pos.play(0, four[0])
    assert pos.state.city_at("d2").mood == "happy"  # type: ignore[union-attr]
    four = [m for m in pos.moves(0) if m.startswith("collect athens")]
    assert all(len(m.split()) == 6 for m in four)
    pos.play(0, four[0])
    assert pos.state.city_at("d2").mood == "neutral"  # type: ignore[union-attr]
    three = [m for m in pos.moves(0) if m.startswith("collect athens")]
    assert three and all(len(m.split()) == 5 for m in three)
    pos.play(0, three[0])
    assert pos.state.city_at("d2").mood == "angry"  # type: ignore[union-attr]
    pos.turn(0)
    one = [m for m in pos.moves(0) if m.startswith("collect athens")]
    assert one and all(len(m.split()) == 3 for m in one)
    pos.play(0, one[0])
    assert not [m for m in pos.moves(0) if m.startswith(("collect athens", "build athens"))]


def test_cc_ex_11_collect_limited_by_terrain() -> None:
    pos = _home().reveal_all()
    pos.city(0, "d2", pieces=("temple", "academy", "fortress"), name="Athens")
    for space in ("f2", "b4", "f6"):
        pos.city(0, space)
    pos.advances(0, "irrigation").turn(0)
    collects = [m.split()[2:] for m in pos.moves(0) if m.startswith("collect athens")]
    assert collects and all(len(c) == 4 and c.count("ore") <= 1 for c in collects)


def test_collect_skips_spaces_with_foreign_units_and_cities() -> None:
    pos = _home()
    pos.units(1, "e2", army=1).turn(0)
    assert [m for m in pos.moves(0) if m.startswith("collect")] == ["collect athens food", "collect athens wood"]
    pos.city(1, "c2")
    assert [m for m in pos.moves(0) if m.startswith("collect")] == ["collect athens food"]


def test_food_cap_is_two_before_storage() -> None:
    pos = _home()
    pos.give(0, food=2).turn(0)
    pos.play(0, "collect athens food")
    assert pos.state.pl[0].res["food"] == 2
    pos.advances(0, "storage")
    pos.turn(0)
    pos.play(0, "collect athens food")
    assert pos.state.pl[0].res["food"] == 3


def test_build_units_limits_and_costs() -> None:
    pos = _home()
    pos.city(0, "d2", pieces=("temple",), name="Athens")
    pos.city(0, "c2")
    pos.give(0, food=2, ore=2, gold=1).turn(0)
    builds = [m for m in pos.moves(0) if m.startswith("build athens")]
    assert "build athens settler army" in builds  # 2 food + (1 food, 1 ore): the gold covers 1 food
    assert "build athens army army" in builds
    pos.play(0, "build athens army army")
    assert pos.state.pl[0].res == {"food": 0, "wood": 0, "ore": 0, "ideas": 0, "gold": 1}
    pos.units(0, "d2", army=2)
    pos.give(0, food=2, ore=2)
    pos.turn(0)
    assert not [m for m in pos.moves(0) if m.startswith("build athens") and "army" in m]  # stacking limit 4


def test_ships_need_a_port() -> None:
    pos = _home().reveal_all()
    pos.give(0, wood=4).turn(0)
    assert not [m for m in pos.moves(0) if "ship" in m]


def test_cc_ex_30_draft_limit() -> None:
    pos = _home()
    pos.city(0, "d2", pieces=("temple", "academy"), name="Athens")
    pos.advances(0, "tactics", "draft").tokens(0, happiness_level=3, mood=2).give(0, food=1, ore=1).turn(0)
    moves = pos.moves(0)
    assert "build athens army army draft" in moves
    assert "build athens army army army draft" not in moves  # only one army per Build paid with mood
    pos.play(0, "build athens army army draft")
    p = pos.state.pl[0]
    assert (p.mood_tokens, p.res["food"], p.res["ore"]) == (1, 0, 0)
    pos.advances(0, "civil_liberties")
    pos.tokens(0, mood=1)
    pos.turn(0)
    assert not [m for m in pos.moves(0) if "draft" in m]  # 2 mood tokens now
    pos.tokens(0, mood=2)
    assert "build athens army draft" in pos.moves(0)


def test_cc_ex_29_city_size_limit() -> None:
    pos = _home().reveal_all()
    pos.city(0, "d2", pieces=("temple", "academy"), name="Athens")
    pos.city(0, "f2").name = "Sparta"
    pos.city(0, "b4")
    pos.advances(0, "tactics").give(0, food=2, ore=2, wood=2).units(0, "f6", settler=1).turn(0)
    assert not [m for m in pos.moves(0) if m.startswith("grow athens")]
    pos.play(0, "found f6")
    assert "grow athens fortress" in pos.moves(0)


def test_grow_rules_and_effects() -> None:
    pos = _home()
    pos.city(0, "c2")
    pos.advances(0, "writing", "myths").give(0, food=2, ore=2, wood=2).tokens(0, culture_level=1, happiness_level=1)
    pos.turn(0)
    grows = [m for m in pos.moves(0) if m.startswith("grow athens")]
    assert grows == ["grow athens temple mood", "grow athens temple culture", "grow athens academy"] or sorted(
        grows
    ) == sorted(["grow athens temple mood", "grow athens temple culture", "grow athens academy"])
    pos.play(0, "grow athens academy")
    assert pos.state.pl[0].res["ideas"] == 2
    assert pos.state.city_at("d2").size == 2  # type: ignore[union-attr]
    pos.state.city_at("d2").mood = "angry"  # type: ignore[union-attr]
    pos.city(0, "e2")
    pos.give(0, food=2, ore=2, wood=2).turn(0)
    assert not [m for m in pos.moves(0) if m.startswith("grow athens")]  # angry


def test_port_needs_a_sea_space_and_ships_appear_on_it() -> None:
    pos = _home()
    pos.tile("R3", "T01", revealed=True, rotated=True)  # D3 Forest, C4 Forest, E4 Sea, D4 Sea
    pos.city(0, "d3", name="Corinth")
    pos.advances(0, "fishing").give(0, food=2, ore=2, wood=4).turn(0)
    assert not [m for m in pos.moves(0) if m.startswith("grow athens port")]  # no Sea next to Athens
    assert sorted(m for m in pos.moves(0) if " port" in m) == ["grow corinth port d4", "grow corinth port e4"]
    pos.play(0, "grow corinth port e4")
    pos.give(0, wood=2)
    pos.turn(0)
    assert "build corinth ship" in pos.moves(0)
    pos.play(0, "build corinth ship")
    assert [(u.kind, u.space, u.number) for u in pos.state.units] == [("ship", "e4", 1)]


def test_cc_ex_05_civic_improvement_cost() -> None:
    pos = _home()
    pos.city(0, "d2", mood="angry", pieces=("temple",), name="Athens")
    pos.tokens(0, happiness_level=4, mood=4).turn(0)
    pos.play(0, "civic athens 2")
    assert pos.state.city_at("d2").mood == "happy"  # type: ignore[union-attr]
    assert pos.state.pl[0].mood_tokens == 0 and pos.state.actions_left == 2
    pos.state.city_at("d2").mood = "angry"  # type: ignore[union-attr]
    pos.tokens(0, mood=4)
    pos.play(0, "end")


def test_civic_several_cities_in_one_action() -> None:
    pos = _home()
    pos.city(0, "c2", mood="angry")
    pos.state.city_at("d2").mood = "angry"  # type: ignore[union-attr]
    pos.tokens(0, happiness_level=2, mood=2).turn(0)
    pos.play(0, "civic athens")
    pos.play(0, "civic sparta")
    assert pos.state.actions_left == 2
    assert [c.mood for c in pos.state.cities_of(0)] == ["neutral", "neutral"]


def test_cc_ex_13_circus_and_sports() -> None:
    pos = _home()
    pos.city(0, "d2", pieces=("temple", "academy"), name="Athens")
    pos.city(0, "c2")
    pos.tokens(0, happiness_level=3, mood=2).turn(0)
    assert "civic athens" not in pos.moves(0)
    pos.advances(0, "circus_sports")
    assert "civic athens" in pos.moves(0)
    pos.play(0, "civic athens")
    assert pos.state.pl[0].mood_tokens == 0
    pos.tokens(0, mood=1)
    pos.play(0, "civic sparta")  # size 1 still costs 1
    assert pos.state.pl[0].mood_tokens == 0


def test_cc_ex_14_rituals() -> None:
    pos = _home()
    pos.city(0, "d2", pieces=("temple", "academy"), name="Athens")
    pos.advances(0, "rituals").tokens(0, happiness_level=1, mood=1).give(0, food=1, wood=1, ideas=1).turn(0)
    pos.play(0, "civic athens")
    p = pos.state.pl[0]
    assert (p.mood_tokens, p.res["food"], p.res["wood"], p.res["ideas"]) == (0, 0, 0, 1)
    pos2 = _home()
    pos2.city(0, "d2", pieces=("temple", "academy"), name="Athens")
    pos2.advances(0, "rituals").tokens(0, happiness_level=1, mood=1).give(0, food=1, wood=0, ideas=1).turn(0)
    with pytest.raises(IllegalAction):
        pos2.play(0, "civic athens")  # the Idea cannot pay


def test_voting_civic_without_an_action() -> None:
    pos = _home()
    pos.state.city_at("d2").mood = "angry"  # type: ignore[union-attr]
    pos.advances(0, "philosophy", "voting").tokens(0, happiness_level=2, mood=2).turn(0)
    pos.play(0, "civic athens voting")
    assert pos.state.actions_left == 3 and pos.state.pl[0].mood_tokens == 0


def test_lenient_notation_orders_counts_and_plurals() -> None:
    from engine.clash.builder import GAME

    pos = _home().reveal_all()
    pos.city(0, "d2", pieces=("temple",), mood="happy", name="Athens")
    pos.city(0, "f2")
    pos.advances(0, "tactics").give(0, food=2, ore=2).units(0, "b4", army=1).turn(0)
    s = pos.state
    a = GAME.parse(s, 0, "collect athens ore wood food")
    assert GAME.notation(s, 0, a) == "collect athens food wood ore"
    assert GAME.notation(s, 0, GAME.parse(s, 0, "build athens 2 armies")) == "build athens army army"
    assert GAME.notation(s, 0, GAME.parse(s, 0, "Move army B4 B5")) == "move b4 b5 army"
    assert GAME.notation(s, 0, GAME.parse(s, 0, "collect d2 food wood ore")) == "collect athens food wood ore"


def test_lenient_notation_keeps_option_words() -> None:
    from engine.clash.builder import GAME

    pos = _home().advances(0, "tactics", "draft", "nationalism").tokens(0, happiness_level=2, culture_level=1)
    pos.give(0, food=2, ore=2).turn(0)
    a = GAME.parse(pos.state, 0, "build athens army mood")
    assert GAME.notation(pos.state, 0, a) == "build athens army mood"
