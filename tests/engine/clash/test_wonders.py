"""Wonders (rules 15 and 19.5): requirements, costs, building as an activation, Monuments, each
wonder's powers, their points and A Wonderful End."""

from __future__ import annotations

import pytest

from engine.clash.builder import GAME, Position
from engine.clash.scoring import breakdown
from engine.core.errors import IllegalAction

COSTS = {
    "hanging_gardens": {"food": 5, "wood": 5, "ore": 2},
    "pyramids": {"food": 2, "wood": 3, "ore": 7},
    "library": {"food": 3, "wood": 6, "ore": 3},
    "colossus": {"food": 3, "wood": 4, "ore": 5},
    "lighthouse": {"food": 3, "wood": 5, "ore": 4},
    "great_wall": {"food": 3, "wood": 2, "ore": 7},
    "mausoleum": {"food": 4, "wood": 4, "ore": 4},
}
NEEDS = {
    "hanging_gardens": "irrigation",
    "pyramids": "rituals",
    "library": "philosophy",
    "colossus": "monuments",
    "lighthouse": "cartography",
    "great_wall": "siegecraft",
    "mausoleum": "priesthood",
}


def _pos(wonder: str, *, culture: int = 5) -> Position:
    pos = Position(2).clear_units().reveal_all()
    pos.city(0, "d2", pieces=("temple", "port"), port="d3", name="Athens")
    pos.city(0, "c2", name="Corinth")
    pos.city(0, "e2", name="Sparta")
    pos.advances(0, "storage", "engineering", NEEDS[wonder]).give(0, **COSTS[wonder])
    pos.tokens(0, culture_level=8, culture=culture, happiness_level=5, mood=3)
    pos.state.revealed_wonders = [wonder]
    return pos.turn(0)


@pytest.mark.parametrize("wonder", sorted(COSTS))
def test_each_wonder_costs_its_resources_and_five_culture_tokens(wonder: str) -> None:
    pos = _pos(wonder)
    slug = wonder.replace("_", "-")
    assert f"wonder athens {slug}" in pos.moves(0)
    pos.play(0, f"wonder athens {slug}")
    p = pos.state.pl[0]
    assert p.culture_tokens == 0
    assert all(p.res[r] == 0 for r in ("wood", "ore"))
    assert pos.state.city_at("d2").wonder == wonder  # type: ignore[union-attr]
    assert wonder not in pos.state.revealed_wonders  # built once only
    assert pos.state.city_at("d2").activations == 1  # type: ignore[union-attr]
    assert breakdown(pos.state, 0)["wonders"] == 10  # 5 VP, in halves


@pytest.mark.parametrize("wonder", sorted(COSTS))
def test_each_wonder_needs_engineering_and_its_advance(wonder: str) -> None:
    pos = _pos(wonder)
    pos.state.pl[0].advances.remove(NEEDS[wonder])
    assert not [m for m in pos.moves(0) if m.startswith("wonder")]
    pos.advances(0, NEEDS[wonder])
    pos.state.pl[0].advances.remove("engineering")
    assert not [m for m in pos.moves(0) if m.startswith("wonder")]


def test_gold_stands_in_for_resources_but_not_for_culture_tokens() -> None:
    pos = _pos("great_wall", culture=4)
    pos.give(0, gold=8)
    assert not [m for m in pos.moves(0) if m.startswith("wonder")]
    with pytest.raises(IllegalAction):
        pos.play(0, "wonder athens great-wall")
    pos.tokens(0, culture=5).give(0, food=0, wood=0, ore=4, gold=8)
    pos.play(0, "wonder athens great-wall")
    assert pos.state.pl[0].res["gold"] == 0  # 3 food, 2 wood and 3 ore paid with gold


def test_angry_city_or_city_with_a_wonder_cannot_build() -> None:
    pos = _pos("pyramids")
    pos.state.city_at("d2").mood = "angry"  # type: ignore[union-attr]
    pos.state.city_at("c2").wonder = "library"  # type: ignore[union-attr]
    moves = [m for m in pos.moves(0) if m.startswith("wonder")]
    assert moves == ["wonder sparta pyramids"]


def test_forced_labor_lets_an_angry_city_build() -> None:
    pos = _pos("pyramids").advances(0, "nationalism", "forced_labor")
    pos.state.city_at("d2").mood = "angry"  # type: ignore[union-attr]
    pos.play(0, "forced")
    assert "wonder athens pyramids" in pos.moves(0)


def test_building_is_an_activation_with_the_mood_drop() -> None:
    pos = _pos("pyramids")
    pos.give(0, food=2)
    pos.play(0, "collect athens food food food")  # first activation (Athens is neutral)
    pos.give(0, **COSTS["pyramids"])
    pos.play(0, "wonder athens pyramids")
    if pos.state.pending:
        pos.play(0, "no influence")
    assert pos.state.city_at("d2").mood == "angry"  # type: ignore[union-attr]


def test_lighthouse_needs_a_port_and_gives_a_ship() -> None:
    pos = _pos("lighthouse").advances(0, "fishing")
    assert [m for m in pos.moves(0) if m.startswith("wonder")] == ["wonder athens lighthouse"]
    pos.play(0, "wonder athens lighthouse")
    ships = [u for u in pos.state.units if u.kind == "ship" and u.owner == 0]
    assert [u.space for u in ships] == ["d3"]
    # After each activation of the city: one free ship move.
    assert pos.state.pending["kind"] == "lighthouse"
    free = [m for m in pos.moves(0) if m.startswith("move ship1")]
    assert free and "no ship" in pos.moves(0)
    left = pos.state.actions_left
    pos.play(0, free[0])
    assert pos.state.actions_left == left and pos.state.mode == ""


def test_reserved_wonder_is_free_for_its_holder_and_closed_to_others() -> None:
    pos = _pos("colossus")
    pos.state.reserved["colossus"] = 1
    assert not [m for m in pos.moves(0) if m.startswith("wonder")]
    pos.state.reserved["colossus"] = 0
    pos.state.actions_left = 0
    assert "wonder athens colossus" in pos.moves(0)  # Monuments: no action needed
    pos.play(0, "wonder athens colossus")
    assert pos.state.reserved == {} and pos.state.city_at("d2").activations == 1  # type: ignore[union-attr]


def test_monuments_reveals_and_reserves() -> None:
    pos = Position(2).clear_units().advances(0, "arts").give(0, food=2).turn(0)
    first = pos.state.wonder_deck[0]
    pos.play(0, "advance monuments")
    assert pos.state.revealed_wonders == [first]
    pos.play(0, f"reserve {first.replace('_', '-')}")
    assert pos.state.reserved == {first: 0}


def test_hanging_gardens_food_after_collect_and_mood_action() -> None:
    pos = _pos("hanging_gardens")
    pos.play(0, "wonder athens hanging-gardens")
    pos.give(0, food=0).turn(0)
    pos.play(0, "collect athens food food food")
    assert pos.state.pl[0].res["food"] == 4  # 3 collected + 1 from the gardens
    pos.state.city_at("c2").mood = "angry"  # type: ignore[union-attr]
    mood = pos.state.pl[0].mood_tokens
    pos.play(0, "gardens corinth")
    assert pos.state.city_at("c2").mood == "neutral"  # type: ignore[union-attr]
    assert pos.state.pl[0].mood_tokens == mood - 1 and pos.state.actions_left == 1
    pos.tokens(0, mood=0)
    assert not [m for m in pos.moves(0) if m.startswith("gardens")]


def test_library_ideas_when_built_and_from_the_left_neighbour() -> None:
    pos = _pos("library")
    pos.play(0, "wonder athens library")
    assert pos.state.pl[0].res["ideas"] == 2
    pos.give(0, ideas=0).give(1, food=2, ideas=2)
    pos.turn(1)
    pos.play(1, "advance storage")  # Red owns Storage: nothing
    assert pos.state.pl[0].res["ideas"] == 0
    pos.play(1, "advance myths")
    assert pos.state.pl[0].res["ideas"] == 1
    pos.give(1, food=2)
    pos.play(1, "advance tactics")  # once per that player's turn
    assert pos.state.pl[0].res["ideas"] == 1


def test_mausoleum_temples_do_not_activate() -> None:
    pos = _pos("mausoleum").advances(0, "myths")
    pos.play(0, "wonder athens mausoleum")
    pos.city(0, "f2", name="Delphi")
    pos.give(0, food=2, wood=2, ore=2).turn(0)
    pos.play(0, "collect corinth wood")
    pos.play(0, "grow corinth temple mood")
    corinth = pos.state.city_at("c2")
    assert corinth is not None and corinth.activations == 1 and corinth.mood == "neutral"


def test_cc_ex_42_a_wonderful_end() -> None:
    pos = Position(3, wonderful_end=True).clear_units()
    pos.city(1, "b7", pieces=("temple",), name="Babylon")
    pos.advances(1, "engineering", "rituals").give(1, **COSTS["pyramids"]).tokens(1, culture_level=5, culture=5)
    pos.state.revealed_wonders = ["pyramids"]
    pos.turn(1, round_=6, turn=2, first=0)
    pos.play(1, "wonder babylon pyramids")
    if pos.state.pending:
        pos.play(1, "no influence")
    assert pos.state.wonder_end
    sequence = []
    while GAME.outcome(pos.state) is None:
        seat = pos.state.active
        sequence.append((pos.state.round, pos.state.turn, seat))
        pos.play(seat, "end")
    assert sequence == [(6, 2, 1), (6, 2, 2), (6, 3, 0), (6, 3, 1), (6, 3, 2)]
    assert pos.state.round == 6 and pos.state.phase == "over"
    assert not any(e.text.startswith("Round 6 ends: status phase") for e in pos.events)


def test_wonder_in_round_6_turn_1_does_not_end_the_game() -> None:
    pos = Position(3, wonderful_end=True).clear_units()
    pos.city(1, "b7", pieces=("temple",), name="Babylon")
    pos.advances(1, "engineering", "rituals").give(1, **COSTS["pyramids"]).tokens(1, culture_level=5, culture=5)
    pos.state.revealed_wonders = ["pyramids"]
    pos.turn(1, round_=6, turn=1, first=0)
    pos.play(1, "wonder babylon pyramids")
    assert not pos.state.wonder_end


def test_wonderful_end_plays_seven_rounds() -> None:
    from engine.clash.rounds import last_round

    assert last_round(Position(2, wonderful_end=True).state) == 7


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("unrevealed", "not among the revealed wonders"),
        ("reserved", "Blue has reserved"),
        ("advance", "needs Rituals"),
        ("tokens", "needs 5 culture tokens; gold cannot stand in"),
        ("angry", "angry city cannot build"),
    ],
)
def test_wonder_refusals_say_why(change: str, message: str) -> None:
    pos = _pos("pyramids")
    if change == "unrevealed":
        pos.state.revealed_wonders = []
    elif change == "reserved":
        pos.state.reserved["pyramids"] = 1
    elif change == "advance":
        pos.state.pl[0].advances.remove("rituals")
    elif change == "tokens":
        pos.tokens(0, culture=4)
    else:
        pos.state.city_at("d2").mood = "angry"  # type: ignore[union-attr]
    with pytest.raises(IllegalAction, match=message):
        pos.play(0, "wonder athens pyramids")


def test_automatic_player_builds_a_wonder_it_can_pay_for() -> None:
    pos = _pos("pyramids")
    assert GAME.auto_action(pos.state, 0, 0).kind == "wonder"


def test_move_lists_name_the_cost() -> None:
    from engine.clash.actions import Action

    pos = _pos("pyramids")
    cost = GAME.action_cost(pos.state, 0, Action("wonder", space="d2", name="pyramids"))
    assert cost == "2 food, 3 wood, 7 ore and 5 culture tokens"


def test_lighthouse_free_move_may_explore_and_costs_no_action() -> None:
    pos = Position(2).clear_units()
    pos.tile("R3", "T01", revealed=True, rotated=True)  # D3 forest, E4 and D4 sea
    pos.city(0, "d3", pieces=("port",), port="d4", name="Pharos")
    pos.city(0, "c2")
    pos.city(0, "e2")
    pos.advances(0, "storage", "engineering", "cartography", "fishing").give(0, **COSTS["lighthouse"])
    pos.tokens(0, culture_level=8, culture=5)
    pos.state.revealed_wonders = ["lighthouse"]
    pos.turn(0)
    pos.play(0, "wonder pharos lighthouse")
    assert "move ship1 d5 lighthouse" in pos.moves(0)  # D5 lies in a face-down region
    pos.play(0, "move ship1 d5 lighthouse")
    while pos.state.pending:
        pos.play(0, pos.moves(0)[0])
    ship = next(u for u in pos.state.units if u.kind == "ship")
    assert ship.space != "d4" and pos.state.actions_left == 2 and pos.state.mode == ""
    assert any(s.id == "R6" and s.revealed for s in pos.state.slots)
