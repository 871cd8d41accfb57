"""The build phase: sets (D5, AD-02), influence (R-B2, R-B3, D9), building rules (R-B1, R-B4-R-B6),
cost modifiers, civilization heroes, annexation (9.6, AD-13), Hammurabi, Cleopatra, discard."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction, InvalidNotation
from engine.mare_nostrum.board import units_at
from engine.mare_nostrum.build import cost
from engine.mare_nostrum.positions import GAME, Position


def test_mn_ex_05_sets_and_splitting() -> None:
    pos = Position(5).build_turn("babylon")
    pos.hand("babylon", tax=3, grain=2, perfume=1, livestock=1, gold=1, slaves=1)
    legal = pos.legal("babylon")
    assert "buy temple babylonia" not in legal  # 5 different goods or 3 taxes: no set of 6
    pos.play("babylon", "buy legion babylonia")
    assert "pay goods" not in pos.legal("babylon")  # 5 types for a cost of 3: choose them
    pos.play("babylon", "pay grain", "pay perfume", "pay livestock")
    pos.play("babylon", "buy legion babylonia", "pay grain", "pay gold", "pay slaves")
    pos.play("babylon", "buy trireme syria", "pay taxes")
    s = pos.state
    assert s.hands["babylon"] == {}
    assert len(units_at(s, "babylonia", "babylon", ("legion",))) == 2
    assert len(units_at(s, "syria", "babylon", ("trireme",))) == 1


def test_a_set_never_mixes_tax_and_goods() -> None:
    pos = Position(5).build_turn("greece").hand("greece", tax=2, grain=1)
    assert not any(t.startswith("buy legion") for t in pos.legal("greece"))
    pos.hand("greece", tax=3, grain=1)
    pos.play("greece", "buy legion athenae")
    assert pos.legal("greece") == ["pay taxes", "cancel"]
    pos.play("greece", "cancel")
    assert pos.state.hands["greece"] == {"tax": 3, "grain": 1}


def test_mn_ex_16_no_influence_chaining() -> None:
    pos = Position(5).build_turn("greece").hand("greece", tax=9)
    pos.play("greece", "buy influence thracia", "pay taxes")
    legal = pos.legal("greece")
    assert "buy influence bithynia" not in legal
    assert not any(t.startswith("buy city thracia") for t in legal)
    with pytest.raises(IllegalAction):
        pos.play("greece", "buy city thracia byzantium")
    pos.new_round()
    pos.build_turn("greece").hand("greece", tax=9)
    assert "buy influence bithynia" in pos.legal("greece")
    assert "buy city thracia byzantium" in pos.legal("greece")


def test_mn_ex_17_disconnected_province_stays_owned() -> None:
    pos = Position(5).own("greece", "creta").caravan("creta", "wine")
    for c in pos.state.seats:
        pos.hand(c)
    pos.income()
    assert pos.state.provs["creta"].owner == "greece" and pos.state.hands["greece"].get("wine", 0) == 2
    pos.build_turn("greece").hand("greece", tax=3)
    assert "buy city creta cnossus" in pos.legal("greece")


def test_mn_ex_18_no_self_destruction() -> None:
    pos = Position(5).build_turn("rome").hand("rome", tax=3)
    with pytest.raises(InvalidNotation):
        pos.play("rome", "remove caravan roma wine")
    assert not any("pillage" in t for t in pos.legal("rome"))


def test_mn_ex_19_the_pl_order_decides_the_winner() -> None:
    pos = Position(5).roles(political="egypt").build_phase()
    pos.give_card("greece", "solomon", "agamemnon").give_card("babylon", "colossus", "zeus")
    pos.hand("greece", tax=9).hand("babylon", tax=9)
    assert GAME.to_move(pos.state) == {pos.seat("egypt")}
    pos.play("egypt", "next babylon")
    pos.play("babylon", "buy lighthouse")
    step = pos.play("babylon", "pay taxes")
    s = pos.state
    assert s.phase == "over" and s.winner == "babylon"
    out = GAME.outcome(s)
    assert out is not None and out.winners == (pos.seat("babylon"),)
    assert any(e.kind == "victory" for e in step.events)
    assert GAME.to_move(s) == frozenset()


def test_pyramids_win_at_once() -> None:
    pos = Position(5).build_turn("rome").hand("rome", tax=12)
    pos.play("rome", "buy pyramids", "pay taxes")
    assert pos.state.winner == "rome"


def test_mn_ex_24_mausoleum_prices() -> None:
    pos = Position(5).build_turn("rome").hand("rome", tax=11)
    s = Position(5).give_card("egypt", "mausoleum").state
    costs = {k: cost(s, "egypt", k) for k in ("city", "caravan", "temple", "market", "fortress", "legion",
                                               "solomon", "colossus", "pyramids")}
    assert costs == {"city": 2, "caravan": 2, "temple": 5, "market": 5, "fortress": 3, "legion": 3,
                     "solomon": 9, "colossus": 9, "pyramids": 12}
    pos.play("rome", "buy mausoleum", "pay taxes", "buy city gallia_cisalpina ravenna", "pay taxes")
    assert pos.state.hands["rome"] == {} and "Ravenna" in pos.state.provs["gallia_cisalpina"].cities


def test_caesar_and_pericles_discounts() -> None:
    s = Position(5).state
    assert cost(s, "rome", "legion") == 2 and cost(s, "rome", "fortress") == 2 and cost(s, "rome", "trireme") == 3
    assert cost(s, "greece", "trireme") == 2 and cost(s, "greece", "legion") == 3


def test_mn_ex_28_exclusive_civilization_hero() -> None:
    pos = Position(5, empty=True).own("greece", "athenae").own("rome", "roma")
    pos.build_turn("greece").hand("greece", tax=9)
    assert "buy caesar" not in pos.legal("greece") and "buy pericles" in pos.legal("greece")
    pos.build_turn("rome").hand("rome", tax=9)
    assert "buy caesar" in pos.legal("rome")


def test_mn_ex_29_end_of_build_discard_with_gardens() -> None:
    pos = Position(5).give_card("greece", "gardens").build_phase(done=("rome", "carthage", "egypt", "babylon"))
    pos.hand("greece", tax=4, grain=1, wine=1, gold=1).hand("rome", tax=3, fish=2)
    pos.play("greece", "done")
    s = pos.state
    assert s.phase == "gardens" and GAME.to_move(s) == {pos.seat("greece")}
    assert s.hands["rome"] == {"tax": 2}
    pos.play("greece", "keep gold")
    assert pos.state.hands["greece"] == {"tax": 2, "gold": 1} and pos.state.phase == "military"


def test_mn_ex_34_enemy_legion_blocks_influence() -> None:
    pos = Position(5).legion("rome", "illyria")
    pos.build_turn("greece").hand("greece", tax=3)
    assert "buy influence illyria" not in pos.legal("greece")
    pos.build_turn("rome").hand("rome", tax=3)
    assert "buy influence illyria" in pos.legal("rome")


def test_mn_ex_36_first_round_expansion() -> None:
    pos = Position(5).build_turn("carthage").hand("carthage", tax=12)
    legal = pos.legal("carthage")
    assert "buy influence garamantia" in legal
    assert not any(f"buy influence {p}" in legal for p in ("sicilia", "sardinia", "corsica"))
    pos.build_turn("egypt").hand("egypt", tax=3)
    assert "buy influence garamantia" not in pos.legal("egypt")
    assert "buy influence sinai" in pos.legal("egypt")


def test_qa_11_trireme_chain_makes_influence_adjacent() -> None:
    pos = Position(5).trireme("carthage", "sardoum").build_turn("carthage").hand("carthage", tax=3)
    legal = pos.legal("carthage")
    assert "buy influence sardinia" in legal and "buy influence corsica" in legal
    assert "buy influence sicilia" not in legal


def test_lighthouse_lifts_adjacency_only() -> None:
    pos = Position(5).give_card("carthage", "lighthouse").legion("rome", "cyprus")
    pos.build_turn("carthage").hand("carthage", tax=3)
    legal = pos.legal("carthage")
    assert "buy influence phrygia" in legal and "buy influence cyprus" not in legal
    assert "buy influence syria" not in legal  # Babylon's marker


def test_r_b4_capacities_and_r_b5_triremes() -> None:
    pos = Position(5).build_turn("babylon").hand("babylon", tax=12)
    legal = pos.legal("babylon")
    assert "buy caravan babylonia grain" not in legal  # icon already used
    assert "buy fortress babylonia" not in legal  # one fortress per province
    assert "buy fortress assyria" in legal
    assert "buy trireme babylonia" not in legal and "buy trireme syria" in legal
    pos.play("babylon", "buy temple assyria", "pay taxes")
    assert "buy temple assyria" not in pos.legal("babylon")


def test_ad_33_statue_of_zeus_second_fortress() -> None:
    pos = Position(5).give_card("babylon", "zeus").build_turn("babylon").hand("babylon", tax=6)
    pos.play("babylon", "buy fortress babylonia", "pay taxes")
    assert "buy fortress babylonia" not in pos.legal("babylon")


def test_r_b6_blocked_province_but_own_capital() -> None:
    pos = Position(5).legion("carthage", "magna_graecia").legion("carthage", "roma")
    pos.build_turn("rome").hand("rome", tax=9)
    legal = pos.legal("rome")
    assert "buy legion roma" in legal and "buy market roma" in legal  # war-torn, but the own capital
    assert not any(" magna_graecia" in t for t in legal)


def test_building_supply_limits() -> None:
    pos = Position(3, civs=("greece", "carthage", "babylon"))
    pos.state.supply["temple"] = 0
    pos.build_turn("greece").hand("greece", tax=6)
    assert not any(t.startswith("buy temple") for t in pos.legal("greece"))


def test_piece_limits() -> None:
    pos = Position(5).legion("greece", "athenae", 8).build_turn("greece").hand("greece", tax=3)
    assert "buy legion athenae" not in pos.legal("greece")


def test_ad_13_completing_an_annexation() -> None:
    pos = Position(4).legion("rome", "babylonia", place="influence").legion("rome", "assyria", place="influence")
    s = pos.state
    # remove the neutral's own units there so that Rome stands alone
    s.units = [u for u in s.units if not (u.civ == "babylon" and u.loc in ("babylonia", "assyria"))]
    pos.build_turn("rome").hand("rome", tax=6)
    legal = pos.legal("rome")
    assert "annex babylonia" in legal and "annex assyria" in legal  # neutral capitals can be annexed
    pos.play("rome", "annex assyria", "pay taxes")
    pr = pos.state.provs["assyria"]
    assert pr.owner == "rome" and pr.fresh
    assert all(u.place == "" for u in units_at(pos.state, "assyria", "rome"))
    assert not any(t.startswith("buy caravan assyria") for t in pos.legal("rome"))


def test_a_players_capital_is_never_annexed() -> None:
    pos = Position(5)
    s = pos.state
    s.units = [u for u in s.units if u.loc != "africa"]
    pos.legion("rome", "africa", place="influence").build_turn("rome").hand("rome", tax=3)
    assert "annex africa" not in pos.legal("rome")


def test_hammurabi_free_influence_once_per_round() -> None:
    pos = Position(5).build_turn("babylon").hand("babylon")
    legal = pos.legal("babylon")
    assert "buy influence arabia free" in legal and "buy influence arabia" not in legal
    pos.play("babylon", "buy influence arabia free")
    assert not any(t.endswith("free") for t in pos.legal("babylon"))


def test_ad_25_cleopatra_swap_once_per_build_phase() -> None:
    pos = Position(5).build_turn("egypt").hand("egypt", tax=1, grain=1)
    legal = pos.legal("egypt")
    assert "swap grain for tax" in legal and "swap tax for gold" in legal
    pos.play("egypt", "swap tax for gold")
    assert pos.state.hands["egypt"] == {"grain": 1, "gold": 1}
    assert not any(t.startswith("swap") for t in pos.legal("egypt"))


def test_influence_never_in_war_torn_province() -> None:
    pos = Position(5).legion("greece", "dacia").legion("rome", "dacia")
    pos.build_turn("greece").hand("greece", tax=3)
    assert "buy influence dacia" not in pos.legal("greece")


def test_purchases_are_told_in_plain_words() -> None:
    from engine.mare_nostrum.build import describe

    assert describe("city", "peloponnesus", "Sparta") == "the city of Sparta in Peloponnesus"
    assert describe("caravan", "roma", "wine") == "a wine caravan in Roma"
    assert describe("caravan", "roma", "oil") == "an oil caravan in Roma"
    assert describe("caravan", "roma", "slaves") == "a slave caravan in Roma"
