"""The rulebook's Q&A (spec 13) as scenarios; each test name carries its QA id. Several answers
are also worked examples and are tested there (named in the docstrings)."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction, InvalidNotation
from engine.mare_nostrum.board import units_at, war_torn
from engine.mare_nostrum.positions import GAME, Position


def test_qa_01_heroes_and_wonders_cannot_be_captured() -> None:
    pos = Position(5).legion("rome", "africa", 3).military_turn("rome")
    pos.dice(6, 6, 6, 1)
    pos.play("rome", "attack carthage in africa with 3 legions")
    assert "hannibal" in pos.state.cards["carthage"]
    assert not any("hannibal" in t for t in pos.legal("rome"))


def test_qa_02_qa_13_advanced_setup_hero_is_optional() -> None:
    s = GAME.new_game(2, 5, {"setup": "advanced"})
    while s.phase == "setup":
        seat = min(GAME.to_move(s))
        s = GAME.apply(s, seat, GAME.parse(s, seat, "done")).state
    assert all(not cards for cards in s.cards.values()) and "caesar" in s.market
    pos = Position(5, empty=True).own("greece", "athenae").build_turn("greece").hand("greece", tax=9)
    assert "buy caesar" not in pos.legal("greece")


def test_qa_03_qa_04_roles_and_erratum() -> None:
    """Also MN-EX-10 and MN-EX-11 in test_setup."""
    s = Position(4).state
    assert s.roles == {"commerce": "carthage", "political": "egypt", "military": "rome"}


def test_qa_06_leader_names_next_during_the_phase() -> None:
    pos = Position(5).roles(political="egypt").build_phase()
    pos.play("egypt", "next greece")
    assert GAME.to_move(pos.state) == {pos.seat("greece")}
    pos.play("greece", "done")
    assert GAME.to_move(pos.state) == {pos.seat("egypt")} and "next greece" not in pos.legal("egypt")


def test_qa_07_one_caravan_one_good() -> None:
    """Also MN-EX-12."""
    pos = Position(5, empty=True).own("carthage", "africa").caravan("africa", "perfume", "fruit")
    pos.income()
    assert pos.state.hands["carthage"] == {"perfume": 1, "fruit": 1}


def test_qa_08_qa_14_trading_is_compulsory_and_taxes_trade() -> None:
    pos = Position(5).roles(commerce="carthage").commerce()
    pos.hand("carthage", tax=2).hand("greece", tax=1, wine=1).hand("rome").hand("egypt").hand("babylon")
    pos.play("carthage", "trade 2")
    assert pos.state.phase == "take"  # both hold exactly 2 cards: offered at once
    assert "take tax from greece" in pos.legal("carthage")


def test_qa_09_two_players_exchanged_twice_ends_trading() -> None:
    """Also MN-EX-02 variant and MN-EX-14."""
    pos = Position(5).roles(commerce="carthage")
    pos.hand("carthage", tax=2).hand("greece", wine=2).hand("rome").hand("egypt").hand("babylon")
    pos.offers(2, carthage={"tax": 2}, greece={"wine": 2})
    pos.play("carthage", "take wine from greece")
    pos.play("greece", "take tax from carthage")
    assert pos.state.phase == "build" and pos.state.hands["carthage"] == {"tax": 1, "wine": 1}


def test_qa_12_no_influence_at_sea_islands_need_influence() -> None:
    pos = Position(5).trireme("greece", "aegaeum").build_turn("greece").hand("greece", tax=9)
    legal = pos.legal("greece")
    assert "buy influence aegaeum" not in legal and "buy influence creta" in legal
    assert not any(t.startswith("buy city creta") for t in legal)


def test_qa_15_qa_16_qa_17() -> None:
    """See MN-EX-16, MN-EX-17 and MN-EX-18 in test_build."""
    pos = Position(5).build_turn("rome").hand("rome", tax=3)
    with pytest.raises(InvalidNotation):
        pos.play("rome", "destroy city roma")


def test_qa_18_first_to_finish_wins() -> None:
    """See MN-EX-19."""
    pos = Position(5).give_card("rome", "zeus", "colossus").build_turn("rome").hand("rome", tax=9)
    pos.play("rome", "buy solomon", "pay taxes")
    assert pos.state.winner == "rome"


def test_qa_19_long_sea_moves_need_own_ships() -> None:
    pos = Position(5).legion("greece", "athenae").trireme("greece", "ionium").trireme("rome", "adriaticum")
    pos.military_turn("greece")
    assert "march athenae sicilia" in pos.legal("greece") and "march athenae roma" not in pos.legal("greece")


def test_qa_20_pillage_is_immediate() -> None:
    """See MN-EX-07."""
    pos = Position(5).legion("egypt", "syria")
    s = pos.state
    s.units = [u for u in s.units if not (u.loc == "syria" and u.civ != "egypt")]
    pos.military_turn("egypt")
    pos.play("egypt", "pillage syria caravan fruit")
    assert pos.state.provs["syria"].caravans == []


def test_qa_21_occupied_buildings_score_for_the_occupier() -> None:
    """Also MN-EX-09."""
    from engine.mare_nostrum.board import scores

    pos = Position(5).legion("rome", "aegyptus", place="city:Alexandria")
    assert scores(pos.state, "rome")["political"] == 2 and scores(pos.state, "egypt")["political"] == 2


def test_qa_22_docked_trireme_ignored() -> None:
    """Also MN-EX-08."""
    pos = Position(5).trireme("rome", "sicilia").legion("carthage", "sicilia")
    assert not war_torn(pos.state, "sicilia")


def test_qa_23_one_chain_many_legions() -> None:
    """Also MN-EX-20."""
    pos = Position(5).trireme("greece", "ionium").legion("greece", "athenae", 4).military_turn("greece")
    pos.play("greece", *["march athenae sicilia"] * 4)
    assert len(units_at(pos.state, "sicilia", "greece", ("legion",))) == 4


def test_qa_24_gather_armies_against_one_province() -> None:
    pos = Position(5).legion("rome", "illyria", 2).legion("rome", "thracia").own("rome", "thracia")
    pos.legion("greece", "macedonia").military_turn("rome")
    pos.play("rome", "march illyria macedonia", "march illyria macedonia", "march thracia macedonia")
    assert "attack greece in macedonia with 3 legions" in pos.legal("rome")


def test_qa_25_leave_a_war_torn_province_or_fight() -> None:
    pos = Position(5).legion("rome", "macedonia").legion("greece", "macedonia").military_turn("rome")
    legal = pos.legal("rome")
    assert "done" not in legal and "march macedonia illyria" in legal
    pos.play("rome", "march macedonia illyria")
    assert "done" in pos.legal("rome") and not war_torn(pos.state, "macedonia")


def test_qa_26_attacked_while_occupying() -> None:
    """Also MN-EX-21 (cases A, B, C): every legion there fights, placed ones included."""
    pos = Position(5).legion("rome", "numidia", place="caravan:slaves").legion("carthage", "africa")
    pos.military_turn("carthage")
    pos.play("carthage", "march africa numidia")
    pos.dice(6, 5)
    step = pos.play("carthage", "attack rome in numidia with 1 legion")
    assert "Rome rolls 5" in step.events[0].text


def test_qa_27_no_delayed_conquest() -> None:
    """Also MN-EX-22: a province that was war-torn after the attacker's battle offers no conquest."""
    pos = Position(5).legion("rome", "illyria").legion("greece", "macedonia").military_turn("rome")
    pos.play("rome", "march illyria macedonia")
    pos.dice(1, 1)
    pos.play("rome", "attack greece in macedonia with 1 legion")
    assert not any(t.startswith(("pillage", "occupy", "claim")) for t in pos.legal("rome"))


def test_qa_10_sets() -> None:
    """See MN-EX-05."""
    pos = Position(5).build_turn("babylon").hand("babylon", grain=2)
    with pytest.raises(IllegalAction):
        pos.play("babylon", "buy legion babylonia")
    assert not units_at(pos.state, "babylonia", "babylon", ("legion",))
