"""Advances: eligibility, costs, borders and levels, effects and government switches (rules 4, 8.1, 18)."""

from __future__ import annotations

import pytest

from engine.clash.builder import Position
from engine.core.errors import IllegalAction


def _pos() -> Position:
    pos = Position(2).clear_units()
    return pos


def test_first_advance_of_a_category_and_prerequisites() -> None:
    pos = _pos().give(0, food=2).turn(0)
    moves = pos.moves(0)
    assert "advance fishing" in moves and "advance navigation" not in moves
    assert "advance engineering" in moves and "advance roads" not in moves  # Roads needs Engineering
    assert "advance voting" not in moves and "advance nationalism" not in moves and "advance dogma" not in moves
    with pytest.raises(IllegalAction, match="Navigation needs Fishing first, the first Maritime advance"):
        pos.play(0, "advance navigation")
    with pytest.raises(IllegalAction, match="Roads needs Engineering first"):
        pos.play(0, "advance roads")
    with pytest.raises(IllegalAction, match=r"Voting needs Philosophy first \(the way into Democracy\)"):
        pos.play(0, "advance voting")
    pos.play(0, "advance engineering")
    pos.give(0, food=2)
    assert "advance roads" in pos.moves(0)


def test_gateways() -> None:
    pos = _pos().advances(0, "philosophy", "tactics", "draft", "myths", "state_religion").give(0, food=2).turn(0)
    moves = pos.moves(0)
    assert {"advance voting", "advance nationalism", "advance dogma"} <= set(moves)


def test_cost_uses_ideas_then_food_then_gold() -> None:
    pos = _pos().give(0, food=2, ideas=1).turn(0)
    pos.play(0, "advance fishing")
    p = pos.state.pl[0]
    assert (p.res["ideas"], p.res["food"]) == (0, 1)
    pos.give(0, food=0, gold=2)
    pos.play(0, "advance writing")
    assert p is not pos.state.pl[0]
    assert pos.state.pl[0].res["gold"] == 0


def test_borders_raise_level_then_token() -> None:
    pos = _pos().give(0, food=2).turn(0)
    pos.play(0, "advance storage")
    p = pos.state.pl[0]
    assert (p.happiness_level, p.mood_tokens, p.culture_level) == (1, 1, 0)
    pos.give(0, food=2)
    pos.play(0, "advance engineering")  # no border
    assert (pos.state.pl[0].happiness_level, pos.state.pl[0].culture_level) == (1, 0)


def test_event_hook_fires_once_per_threshold() -> None:
    pos = _pos().tokens(0, culture_level=2).turn(0)
    pos.give(0, food=2)
    pos.play(0, "advance tactics")  # culture 3
    assert pos.state.event_log == [[0, "culture", 3]]
    pos.give(0, food=2)
    pos.play(0, "advance writing")  # culture 4: no event
    pos.give(0, food=2)
    pos.play(0, "advance arts")  # culture 5
    assert pos.state.event_log == [[0, "culture", 3], [0, "culture", 5]]


def test_level_stays_at_eight_but_token_is_gained() -> None:
    pos = _pos().tokens(0, culture_level=8, culture=7).give(0, food=2).turn(0)
    pos.play(0, "advance tactics")
    p = pos.state.pl[0]
    assert (p.culture_level, p.culture_tokens) == (8, 8)


def test_cc_ex_04_government_switch() -> None:
    pos = _pos().advances(0, "tactics", "draft", "nationalism", "totalitarianism", "forced_labor", "philosophy")
    pos.give(0, food=2).turn(0)
    before = len(pos.state.pl[0].advances)
    votes = sorted(m for m in pos.moves(0) if m.startswith("advance voting"))
    assert votes == [
        "advance voting keep civil-liberties free-economy",
        "advance voting keep separation-of-power civil-liberties",
        "advance voting keep separation-of-power free-economy",
    ]
    pos.play(0, "advance voting keep civil-liberties free-economy")
    adv = pos.state.pl[0].advances
    assert len(adv) == before
    assert not {"nationalism", "totalitarianism", "forced_labor"} & set(adv)
    assert {"voting", "civil_liberties", "free_economy"} <= set(adv)
    assert pos.state.pl[0].res["food"] == 0
    assert "forced" not in pos.moves(0)


def test_cc_ex_31_free_economy_mid_turn() -> None:
    pos = _pos().advances(0, "philosophy", "voting", "storage").tokens(0, happiness_level=4, mood=4)
    pos.city(0, "c2")
    pos.give(0, food=4).turn(0)
    pos.play(0, "collect athens food")
    pos.play(0, "advance free-economy")
    pos.play(0, "collect sparta wood")
    p = pos.state.pl[0]
    assert pos.state.actions_left == 0 and p.mood_tokens == 4
    pos.turn(0)
    pos.play(0, "collect athens food")
    assert pos.state.actions_left == 3
    pos.play(0, "collect sparta wood")
    assert pos.state.actions_left == 2 and pos.state.pl[0].mood_tokens == 2


def test_cc_ex_32_philosophy() -> None:
    pos = _pos().advances(0, "math", "astronomy", "writing").give(0, food=2).turn(0)
    pos.play(0, "advance philosophy")
    assert pos.state.pl[0].res["ideas"] == 1
    pos.give(0, food=2, ideas=0)
    pos.play(0, "advance medicine")
    assert pos.state.pl[0].res["ideas"] == 1


def test_cc_ex_33_metallurgy() -> None:
    pos = _pos().advances(0, "math", "tactics", "steel_weapons").give(0, food=2).turn(0)
    pos.play(0, "advance metallurgy")
    assert pos.state.pl[0].res["ore"] == 2
    pos2 = _pos().advances(0, "math", "tactics", "metallurgy").give(0, food=0, ore=0).turn(0)
    pos2.play(0, "advance steel-weapons")
    assert pos2.state.pl[0].res == {"food": 0, "wood": 0, "ore": 0, "ideas": 0, "gold": 0}


def test_steel_weapons_costs_two_ore_more() -> None:
    pos = _pos().advances(0, "tactics").give(0, food=2, ore=1).turn(0)
    assert "advance steel-weapons" not in pos.moves(0)
    pos.give(0, gold=1)
    pos.play(0, "advance steel-weapons")
    assert pos.state.pl[0].res == {"food": 0, "wood": 0, "ore": 0, "ideas": 0, "gold": 0}


def test_cc_ex_35_dogma_idea_cap() -> None:
    pos = _pos().advances(0, "myths", "state_religion").give(0, food=2, ideas=5).turn(0)
    pos.play(0, "advance dogma")
    assert pos.state.pl[0].res["ideas"] == 2  # Ideas pay first (3 left), then the cap of 2 applies
    assert pos.state.pl[0].res["food"] == 2


def test_math_astronomy_priesthood_discounts() -> None:
    pos = _pos().advances(0, "math", "myths", "priesthood").give(0, food=0).turn(0)
    assert "advance engineering" in pos.moves(0)
    assert "advance astronomy" in pos.moves(0)  # Priesthood: a Science advance without Food
    pos.play(0, "advance astronomy")
    assert "advance medicine" not in pos.moves(0)  # once per turn
    assert "advance fishing" not in pos.moves(0)


def test_free_education_token() -> None:
    pos = _pos().advances(0, "writing", "free_education").tokens(0, happiness_level=2)
    pos.give(0, food=1, ideas=1).turn(0)
    pos.play(0, "advance fishing")
    assert pos.state.pl[0].mood_tokens == 2  # the Fishing border token and Free Education's token


def test_writing_card_hook() -> None:
    pos = _pos().advances(0, "tactics", "draft").give(0, food=4).turn(0)
    pos.play(0, "advance writing")
    assert pos.state.card_log == []
    pos.play(0, "advance nationalism")
    assert pos.state.card_log == [[0, "writing"]]


def test_cc_ex_39_token_caps_follow_levels() -> None:
    pos = _pos().advances(0, "myths", "storage", "philosophy", "voting", "civil_liberties")
    pos.tokens(0, culture_level=2, culture=2, happiness_level=3, mood=1).give(0, food=2, ore=1, wood=1)
    pos.city(0, "c2")
    pos.turn(0)
    pos.play(0, "grow athens temple culture")
    assert pos.state.pl[0].culture_tokens == 2  # (a) lost at the cap
    pos.give(0, food=2)
    pos.play(0, "advance irrigation")  # (b) yellow border
    p = pos.state.pl[0]
    assert (p.happiness_level, p.mood_tokens) == (4, 2)
    pos.play(0, "liberties")  # (c) 2 + 3 > 4
    assert pos.state.pl[0].mood_tokens == 4
    pos2 = _pos().advances(0, "myths").give(0, food=1, ore=1, wood=1)
    pos2.city(0, "c2")
    pos2.turn(0)
    pos2.play(0, "grow athens temple culture")  # (d) level 0 keeps 0
    assert pos2.state.pl[0].culture_tokens == 0


def test_cc_ex_10_cartography() -> None:
    pos = _pos().reveal_all().advances(0, "fishing", "cartography").tokens(0, culture_level=5, happiness_level=1)
    seas = sorted(h for h, t in pos.state.terrain.items() if t == "sea")
    from engine.clash.board import geometry

    slot_of = geometry(2).slot_of
    by_slot: dict[str, list[str]] = {}
    for h in seas:
        by_slot.setdefault(slot_of[h], []).append(h)
    regions = list(by_slot.values())[:3]
    assert len(regions) == 3
    pos.ship(0, regions[0][0])
    pos.ship(0, regions[0][-1])
    pos.ship(0, regions[1][0])
    pos.ship(0, regions[2][0])
    pos.turn(0)
    pos.play(0, "cartography")
    p = pos.state.pl[0]
    assert (p.culture_tokens, p.res["ideas"]) == (3, 3)
    assert "cartography" not in pos.moves(0)


def test_engineering_and_monuments_reveal_wonders_and_monuments_reserves() -> None:
    pos = _pos().advances(0, "arts").give(0, food=4).turn(0)
    deck = list(pos.state.wonder_deck)
    pos.play(0, "advance engineering")
    assert pos.state.revealed_wonders == deck[:1]
    pos.play(0, "advance monuments")
    assert pos.state.revealed_wonders == deck[:2]
    assert pos.state.pending == {"kind": "reserve", "seat": 0}
    choice = pos.moves(0)
    assert len(choice) == 2
    pos.play(0, choice[1])
    assert pos.state.reserved == {deck[1]: 0}
    view = pos.state
    assert view.pending == {}


def test_a_drawn_objective_card_is_named_as_the_hand_names_it() -> None:
    from engine.clash.trade_cards import card_name

    pos = _pos().advances(0, "tactics", "draft").give(0, food=4).turn(0)
    pos.play(0, "advance writing")
    pos.play(0, "advance nationalism")  # Writing: one action and one objective card
    state = pos.state
    drawn = [e for e in pos.events if e.text.startswith("You draw")]  # dealt by the hook after the action
    goal = state.decks["goals"][0][-1]
    action = card_name(state.decks["hands"][0][-1]).split(" (")[0]  # the action card by its name
    assert [e.text for e in drawn] == [f"You draw: {action}; {card_name(goal)}."]
