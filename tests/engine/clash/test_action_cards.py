"""Action cards played for their non-combat effect (rules 14; data file 7.1) and the hands:
costs, conditions, discards and card conservation."""

from __future__ import annotations

import pytest

from engine.clash.builder import GAME, Position
from engine.clash.decks import card_total
from engine.core.errors import IllegalAction


def base(players: int = 2) -> Position:
    return Position(players).clear_units().reveal_all()


def test_leadership_costs_a_culture_token_and_gives_an_action() -> None:
    pos = base().hand(0, "leadership").turn(0)
    assert "play leadership" not in pos.moves(0)  # no culture token
    with pytest.raises(IllegalAction):
        pos.play(0, "play leadership")
    pos.tokens(0, culture_level=1, culture=1)
    pos.play(0, "play leadership")
    assert pos.state.actions_left == 4 and pos.state.pl[0].culture_tokens == 0
    assert pos.state.decks["hands"][0] == [] and len(pos.state.decks["action_discard"]) == 1


def test_quick_advance_gives_a_free_advance() -> None:
    pos = base().hand(0, "quick_advance").tokens(0, culture_level=1, culture=1).turn(0)
    pos.play(0, "play quick-advance")
    assert pos.state.pending["kind"] == "card"
    pos.play(0, "choose storage")
    assert "storage" in pos.state.pl[0].advances and pos.state.actions_left == 3
    assert pos.state.pl[0].res["food"] == 2  # nothing paid


def test_new_ideas_costs_an_action_and_the_advance_then_gives_two_ideas() -> None:
    pos = base().hand(0, "new_ideas").turn(0)
    pos.play(0, "play new-ideas")
    pos.play(0, "choose storage")
    p = pos.state.pl[0]
    assert pos.state.actions_left == 2 and p.res["food"] == 0 and p.res["ideas"] == 2


def test_synergies_buys_two_advances_of_one_category() -> None:
    pos = base().hand(0, "synergies").give(0, gold=2).turn(0)
    pos.play(0, "play synergies")
    pos.play(0, "choose tactics")
    assert all(m.split()[1] in ("siegecraft", "steel-weapons", "draft") for m in pos.moves(0))
    pos.play(0, "choose draft")
    assert {"tactics", "draft"} <= set(pos.state.pl[0].advances)


def test_teach_us_needs_a_player_within_two_spaces() -> None:
    pos = base().hand(0, "teach_us").advances(1, "storage").turn(0)
    assert "play teach-us" not in pos.moves(0)
    pos.units(1, "d3", settler=1)
    pos.play(0, "play teach-us")
    assert "storage" in pos.state.pl[0].advances


def test_technology_trade_gives_each_side_an_advance() -> None:
    pos = base().hand(0, "technology_trade").advances(1, "storage").advances(0, "fishing").units(1, "d3", settler=1)
    pos.turn(0)
    pos.play(0, "play technology-trade")
    assert "storage" in pos.state.pl[0].advances
    assert "fishing" in pos.state.pl[1].advances


def test_militia_and_explorer_place_units_in_a_city() -> None:
    pos = base().hand(0, "militia", "explorer").tokens(0, culture_level=2, culture=2).turn(0)
    pos.play(0, "play militia")
    pos.play(0, "play explorer")
    kinds = sorted(u.kind for u in pos.state.units if u.owner == 0)
    assert kinds == ["army", "settler"]
    assert pos.state.actions_left == 2


def test_militia_respects_the_stacking_limit() -> None:
    pos = base().hand(0, "militia").units(0, "d2", army=4).tokens(0, culture_level=1, culture=1).turn(0)
    assert "play militia" not in pos.moves(0)


def test_city_development_adds_a_building_free_and_activates_the_city() -> None:
    pos = base().hand(0, "city_development").advances(0, "myths").tokens(0, culture_level=1, culture=1)
    pos.city(0, "c2", name="Sparta")
    pos.turn(0)
    pos.play(0, "play city-development")
    pos.play(0, "choose athens-temple")
    athens = pos.state.city_at("d2")
    assert athens is not None and athens.pieces == {"temple": 0} and athens.activations == 1
    assert pos.state.pl[0].res == {"food": 2, "wood": 0, "ore": 0, "ideas": 0, "gold": 0}


def test_production_focus_collects_several_from_one_space() -> None:
    pos = base().hand(0, "production_focus")
    pos.city(0, "d2", mood="happy", name="Athens")
    pos.city(0, "c2", name="Sparta")
    pos.turn(0)
    pos.play(0, "play production-focus")
    assert "collect athens ore ore focus" in pos.moves(0)
    pos.play(0, "collect athens ore ore focus")
    assert pos.state.pl[0].res["ore"] == 2
    assert not any(m.endswith("focus") for m in pos.moves(0))


def test_mass_production_uses_two_more_spaces() -> None:
    pos = base().hand(0, "mass_production").turn(0)
    pos.play(0, "play mass-production")
    assert "collect athens food wood ore mass" in pos.moves(0)


def test_spy_shows_the_cards_privately_and_may_swap() -> None:
    pos = base().hand(0, "spy", "leadership").hand(1, "militia").tokens(0, culture_level=1, culture=1).turn(0)
    events = pos.play(0, "play spy")
    secret = [e for e in events if not e.public]
    assert secret and secret[0].seats == frozenset({0}) and "Militia" in secret[0].text
    assert all("Militia" not in e.text for e in events if e.public)
    assert "choose leadership-for-militia" in pos.moves(0)
    assert GAME.private_action(pos.state, 0, GAME.parse(pos.state, 0, "choose none"))
    pos.play(0, "choose leadership-for-militia")
    from engine.clash.cards_data import DECKS

    assert [DECKS.actions[c].effect for c in pos.state.decks["hands"][0]] == ["militia"]
    assert [DECKS.actions[c].effect for c in pos.state.decks["hands"][1]] == ["leadership"]


def test_new_plans_keeps_one_and_returns_the_rest() -> None:
    pos = base().hand(0, "new_plans").tokens(0, culture_level=1, culture=1).turn(0)
    total = card_total(pos.state)
    pos.play(0, "play new-plans")
    assert card_total(pos.state) == total
    first = pos.moves(0)[0]
    pos.play(0, first)
    assert card_total(pos.state) == total
    pos.play(0, "choose none")
    assert len(pos.state.decks["goals"][0]) == 1 and card_total(pos.state) == total


def test_assassination_costs_the_victim_an_action_next_turn() -> None:
    pos = base().hand(0, "assassination").tokens(0, culture_level=1, culture=1).turn(0)
    pos.play(0, "play assassination")
    pos.play(0, "end")
    assert pos.state.active == 1 and pos.state.actions_left == 2


def test_battle_cards_wait_for_a_battle() -> None:
    pos = base().hand(0, "inspiration", "hero_general", "great_ideas", "mercenaries").turn(0)
    assert not any(m.startswith("play") for m in pos.moves(0))


def test_playing_is_only_in_your_own_turn() -> None:
    pos = base().hand(1, "ideas")
    pos.city(1, "d7", pieces=("academy",), name="Troy")
    pos.turn(0)
    assert not any(m.startswith("play") for m in pos.moves(1))


def test_cc_ex_28_one_inspiration_per_capture() -> None:
    from engine.clash.decks import add_fact

    pos = base().hand(0, "inspiration", "inspiration").advances(1, "storage", "fishing").turn(0)
    add_fact(pos.state, 0, "capture:1:d7")  # what the capture rules record
    pos.play(0, "play inspiration")
    pos.play(0, "choose storage")
    assert "storage" in pos.state.pl[0].advances
    assert "play inspiration" not in pos.moves(0)  # the same capture
    add_fact(pos.state, 0, "capture:1:c8")  # a second capture this turn
    assert "play inspiration" in pos.moves(0)


def test_hero_general_and_great_ideas_need_a_won_land_battle() -> None:
    from engine.clash.decks import add_fact

    pos = base().hand(0, "hero_general", "great_ideas").tokens(0, happiness_level=1, mood=1).turn(0)
    assert not any(m.startswith("play") for m in pos.moves(0))
    add_fact(pos.state, 0, "won_land")
    pos.play(0, "play great-ideas")
    assert pos.state.pl[0].res["ideas"] == 2
    pos.play(0, "play hero-general")  # Athens is the only city: it becomes happy at once
    assert pos.state.city_at("d2").mood == "happy"  # type: ignore[union-attr]


def test_cultural_takeover_turns_a_barbarian_settlement_into_a_city(monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.clash import takeover
    from engine.clash.state import BARBARIAN

    pos = base().hand(0, "cultural_takeover")
    pos.city(BARBARIAN, "d3")
    pos.units(BARBARIAN, "d3", army=2)
    pos.turn(0)
    pos.play(0, "play cultural-takeover")
    assert "takeover athens d3" in pos.moves(0)
    monkeypatch.setattr(takeover, "roll_die", lambda state: 5)
    pos.play(0, "takeover athens d3")
    pos.play(0, "choose army")
    city = pos.state.city_at("d3")
    assert city is not None and city.owner == 0 and city.mood == "angry"
    assert [u.owner for u in pos.state.units if u.space == "d3"] == [0]
    assert pos.state.actions_left == 2
    assert not any(m.startswith("takeover") for m in pos.moves(0))  # one success per turn


def test_cultural_takeover_failure_can_be_bought_with_culture_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.clash import takeover
    from engine.clash.state import BARBARIAN

    pos = base().hand(0, "cultural_takeover").tokens(0, culture_level=2, culture=2)
    pos.city(BARBARIAN, "d3")
    pos.turn(0)
    pos.play(0, "play cultural-takeover")
    monkeypatch.setattr(takeover, "roll_die", lambda state: 3)
    pos.play(0, "takeover athens d3")
    assert set(pos.moves(0)) == {"choose boost", "choose accept"}
    pos.play(0, "choose boost")
    assert pos.state.city_at("d3").owner == 0  # type: ignore[union-attr]
    assert pos.state.pl[0].culture_tokens == 0


def _answer_map_choices(pos: Position) -> None:
    """Turn an explored region / place its Barbarians as the automatic player would."""
    while pos.state.pending and pos.state.pending["kind"] in ("orient", "barbarians"):
        seat = int(pos.state.pending["seat"])
        pos.state = GAME.apply(pos.state, seat, GAME.auto_action(pos.state, seat, 0)).state


def test_explorer_reveals_a_region_next_to_a_city_and_gives_a_settler() -> None:
    pos = Position(2).clear_units().hand(0, "explorer").tokens(0, culture_level=1, culture=1).turn(0)
    hidden = sum(1 for s in pos.state.slots if not s.revealed)
    pos.play(0, "play explorer")
    assert "choose none" in pos.moves(0) and "choose d3" in pos.moves(0)
    pos.play(0, "choose d3")
    _answer_map_choices(pos)
    assert sum(1 for s in pos.state.slots if not s.revealed) == hidden - 1
    assert pos.state.terrain["d3"] != "sea"  # explored from D3: rule 1
    assert [u.kind for u in pos.state.units if u.owner == 0] == ["settler"]


def test_great_explorer_reveals_and_may_found_a_city_without_a_settler() -> None:
    from tests.engine.clash.test_events import trigger

    pos = Position(2).clear_units().turn(0)
    trigger(pos, 0, "evt15")  # its exhausted-land symbol asks for a space first
    pos.play(0, pos.moves(0)[0])
    pos.play(0, "play great-explorer")  # Fishing, the one Maritime advance Red may take, comes at once
    assert "fishing" in pos.state.pl[0].advances
    pos.play(0, "choose d3")
    _answer_map_choices(pos)
    spaces = [m.split()[1] for m in pos.moves(0) if m != "choose none"]
    assert spaces
    pos.play(0, f"choose {spaces[0]}")
    assert pos.state.city_at(spaces[0]) is not None and len(pos.state.cities_of(0)) == 2
