"""Event cards: drawn when a level reaches 3, 5 or 7, symbol first, then the main effect; the
variants; Irrigation, Sanitation and Myths (rules 12, 19.1, 19.2; data file 9)."""

from __future__ import annotations

import pytest

from engine.clash.builder import GAME, Position
from engine.clash.decks import card_total
from engine.clash.scoring import breakdown


def trigger(pos: Position, seat: int, *cards: str) -> list[str]:
    """Put ``cards`` on top of the event deck and let ``seat`` reach culture level 3."""
    pos.next_events(*cards)
    pos.tokens(seat, culture_level=2).give(seat, food=2)
    return [e.text for e in pos.play(seat, "advance tactics")]


def settle_barbarians(pos: Position) -> None:
    """Answer the Barbarian rules' own choices (where they appear...) as the automatic player."""
    while pos.state.pending and pos.state.pending["kind"].startswith("barbarian"):
        seat = int(pos.state.pending["seat"])
        pos.state = GAME.apply(pos.state, seat, GAME.auto_action(pos.state, seat, 0)).state


def base(players: int = 2, **options: bool) -> Position:
    pos = Position(players, **options).clear_units().reveal_all()
    return pos


def test_event_is_drawn_once_per_threshold_and_symbol_resolves_first() -> None:
    pos = base().turn(0)
    texts = trigger(pos, 0, "evt17")  # Great Prophet, gold mine
    assert texts[1] == "Red draws the event Great Prophet (symbol: gold mine)."
    assert texts[2] == "Gold mine: Red gains 2 gold."
    assert "keeps Great Prophet" in texts[3]
    assert pos.state.pl[0].res["gold"] == 2
    assert pos.state.decks["great"][0] == ["evt17"]
    pos.give(0, food=2)
    pos.play(0, "advance writing")  # culture 4: no event
    assert pos.state.decks["last_event"] == "evt17"


def test_exhausted_land_is_chosen_on_empty_land_next_to_a_city() -> None:
    pos = base().turn(0)
    trigger(pos, 0, "evt05")  # Famine with exhausted land
    assert pos.state.pending["kind"] == "card"
    options = [m.split()[1] for m in pos.moves(0)]
    # Athens on D2: its neighbours C2 forest, E2 mountain, D1 barren (never), D3 on the next region.
    assert "d1" not in options and "c2" in options
    assert all(GAME.view(pos.state, None)["pending"].get("options") is None for _ in [0])
    pos.play(0, "choose c2")
    assert "c2" in pos.state.exhausted


def test_exhausted_land_skipped_without_markers() -> None:
    pos = base().turn(0)
    pos.state.exhausted = ["a1", "a2", "a3", "a4"]
    trigger(pos, 0, "evt05")
    assert pos.state.exhausted == ["a1", "a2", "a3", "a4"]


def test_famine_pays_food_else_a_city_becomes_angry_and_irrigation_is_immune() -> None:
    pos = base().turn(0)
    trigger(pos, 0, "evt06")  # Severe Famine: 2 food; after paying for Tactics Red has none left
    assert pos.state.city_at("d2").mood == "angry"  # type: ignore[union-attr]
    pos2 = base().advances(0, "irrigation").turn(0)
    trigger(pos2, 0, "evt06")
    assert pos2.state.city_at("d2").mood == "neutral"  # type: ignore[union-attr]


def test_famine_paid_in_full_keeps_the_mood() -> None:
    pos = base().turn(0)
    pos.advances(0, "storage")
    pos.next_events("evt03")
    pos.tokens(0, culture_level=2).give(0, food=3)
    pos.play(0, "advance tactics")
    assert pos.state.pl[0].res["food"] == 0
    assert pos.state.city_at("d2").mood == "neutral"  # type: ignore[union-attr]


def test_plague_every_player_in_seat_order_and_sanitation_immune() -> None:
    pos = base()
    pos.city(0, "c2", name="Sparta")
    pos.city(1, "c8", name="Troy")
    pos.advances(1, "sanitation")
    pos.turn(0)
    texts = trigger(pos, 0, "evt01")
    assert "Blue is immune (Sanitation)." in texts
    assert pos.state.pending["seat"] == 0
    pos.play(0, "choose sparta")
    assert pos.state.city_at("c2").mood == "angry"  # type: ignore[union-attr]
    assert pos.state.city_at("d2").mood == "neutral"  # type: ignore[union-attr]


def test_cc_ex_36_myths_protects_one_city_per_token() -> None:
    pos = base()
    pos.city(0, "c2", name="Sparta")
    pos.advances(0, "myths", "roads", "engineering")
    pos.tokens(0, happiness_level=1, mood=1)
    pos.turn(0)
    trigger(pos, 0, "evt01")  # Plague: Roads makes it 2 cities
    pos.play(0, "choose athens")
    assert set(pos.moves(0)) == {"choose accept", "choose protect"}
    pos.play(0, "choose protect")
    assert pos.state.pl[0].mood_tokens == 0
    # The second city is the only one left to choose and no token is left: it drops at once.
    assert pos.state.city_at("d2").mood == "neutral"  # type: ignore[union-attr]
    assert pos.state.city_at("c2").mood == "angry"  # type: ignore[union-attr]


def test_epidemic_removes_units_of_every_player_with_two() -> None:
    pos = base().units(0, "d2", settler=2).units(1, "d7", settler=1).turn(0)
    trigger(pos, 0, "evt02")
    assert sum(1 for u in pos.state.units if u.owner == 0) == 1
    assert sum(1 for u in pos.state.units if u.owner == 1) == 1


def test_volcano_destroys_a_city_and_its_pieces_give_points() -> None:
    pos = base()
    for space, name in (("c2", "Sparta"), ("e2", "Corinth"), ("c3", "Argos")):
        pos.city(0, space, name=name)
    pos.city(0, "c3", pieces=("temple",), name="Argos")
    pos.state.city_at("c3").pieces["temple"] = 1  # type: ignore[union-attr]  # an influenced piece
    pos.turn(0)
    trigger(pos, 0, "evt26")
    pos.play(0, "choose argos")
    assert pos.state.city_at("c3") is None
    assert breakdown(pos.state, 0)["events"] == 2 and breakdown(pos.state, 1)["events"] == 2


def test_earthquake_removes_a_building_and_lowers_the_mood() -> None:
    pos = base()
    pos.city(0, "c2", name="Sparta", pieces=("temple",))
    pos.city(0, "e2", name="Corinth")
    pos.turn(0)
    trigger(pos, 0, "evt27")
    assert pos.state.city_at("c2").pieces == {}  # type: ignore[union-attr]
    assert pos.state.city_at("c2").mood == "angry"  # type: ignore[union-attr]
    assert breakdown(pos.state, 0)["events"] == 2


def test_great_person_is_played_later_for_a_free_advance_and_bonus() -> None:
    pos = base().turn(0)
    trigger(pos, 0, "evt18")  # Great Philosopher (Education)
    assert "play great-philosopher" in pos.moves(0)
    pos.play(0, "play great-philosopher")
    assert "writing" in pos.state.pl[0].advances
    assert pos.state.pl[0].res["ideas"] == 2
    assert "evt18" in pos.state.decks["event_discard"]


def test_no_events_variant_applies_only_the_symbol() -> None:
    pos = base(no_events=True).turn(0)
    trigger(pos, 0, "evt31")  # Migration, gold mine
    assert pos.state.pl[0].res["gold"] == 2
    assert not pos.state.pending and pos.state.city_at("d2").mood == "neutral"  # type: ignore[union-attr]


def test_optional_events_variant_lets_the_drawer_decline() -> None:
    pos = base(optional_events=True).turn(0)
    trigger(pos, 0, "evt06")
    assert set(pos.moves(0)) == {"choose accept", "choose decline"}
    pos.play(0, "choose decline")
    assert pos.state.city_at("d2").mood == "neutral"  # type: ignore[union-attr]


def test_both_event_variants_are_refused_together() -> None:
    from engine.core.errors import InvalidOptions

    with pytest.raises(InvalidOptions):
        GAME.new_game(1, 2, {"no_events": True, "optional_events": True})


def test_d18_empty_event_deck_reshuffles_the_discards() -> None:
    pos = base().turn(0)
    d = pos.state.decks
    d["event_discard"], d["event"] = d["event"], []
    pos.tokens(0, culture_level=2).give(0, food=2)
    texts = [e.text for e in pos.play(0, "advance tactics")]
    assert any("draws the event" in t for t in texts)
    assert len(pos.state.decks["event"]) >= 30  # the discards became the deck again
    assert card_total(pos.state)["event"] == 38


def test_revolution_loses_an_action_unless_an_army_is_given_up() -> None:
    pos = base().units(0, "d2", army=1).advances(0, "voting", "philosophy").turn(0)
    trigger(pos, 0, "evt35")
    assert pos.state.pl[0].res["gold"] == 2  # gold mine
    pos.play(0, "choose accept")  # lose an action
    assert pos.state.actions_left == 1
    pos.play(0, "choose accept")  # change government
    pos.play(0, "choose theocracy")
    assert "dogma" in pos.state.pl[0].advances and "voting" not in pos.state.pl[0].advances


def test_uprising_pays_tokens_for_half_points() -> None:
    pos = base().tokens(0, happiness_level=3, mood=3).turn(0)
    trigger(pos, 0, "evt36")
    p = pos.state.pl[0]
    assert p.mood_tokens == 0 and p.culture_tokens == 0 and p.event_halves == 4  # 3 mood + 1 culture


def test_good_year_and_population_boom_name_another_player() -> None:
    pos = base().turn(0)
    trigger(pos, 0, "evt10")
    assert pos.state.pl[1].res["food"] == 2  # already at the cap of 2: gains nothing more
    pos2 = base().turn(0)
    trigger(pos2, 0, "evt24")  # Barbarians appear first, then the settlers
    settle_barbarians(pos2)
    assert sum(1 for u in pos2.state.units if u.kind == "settler") == 2


def test_envoy_reveals_a_wonder_and_gives_culture() -> None:
    pos = base().turn(0)
    trigger(pos, 0, "evt37")
    settle_barbarians(pos)
    p = pos.state.pl[0]
    assert p.res["ideas"] == 1 and p.culture_tokens == 2
    assert len(pos.state.revealed_wonders) == 1
