"""The spec's decisions (section 15) that change play, one scenario each, named by AD id.
Decisions already tested elsewhere under their id: AD-04, AD-06, AD-13, AD-16, AD-18, AD-19,
AD-25, AD-27, AD-33, AD-47, AD-48, AD-49, AD-50."""

from __future__ import annotations

from engine.mare_nostrum.board import scores, units_at, war_torn
from engine.mare_nostrum.build import cost
from engine.mare_nostrum.positions import GAME, Position


def test_ad_01_ad_02_costs_and_exact_sets() -> None:
    s = Position(5).state
    assert [cost(s, "babylon", k) for k in ("influence", "caravan", "market", "pyramids")] == [3, 3, 6, 12]
    pos = Position(5).build_turn("babylon").hand("babylon", tax=4)
    pos.play("babylon", "buy legion babylonia", "pay taxes")
    assert pos.state.hands["babylon"] == {"tax": 1}  # exactly 3 paid, no change


def test_ad_03_chain_checked_when_influence_is_placed() -> None:
    pos = Position(5).trireme("greece", "ionium").build_turn("greece").hand("greece", tax=3)
    assert "buy influence sicilia" in pos.legal("greece")
    pos = Position(5).trireme("greece", "athenae").build_turn("greece").hand("greece", tax=3)  # docked
    assert "buy influence sicilia" not in pos.legal("greece")


def test_ad_05_last_single_card_is_taken() -> None:
    pos = Position(5).roles(commerce="carthage")
    pos.hand("carthage", grain=1).hand("greece", wine=1).hand("rome").hand("egypt").hand("babylon")
    pos.offers(1, carthage={"grain": 1}, greece={"wine": 1})
    pos.play("carthage", "take wine from greece")
    assert pos.legal("greece") == ["take grain from carthage"]  # one player left with cards: still taken
    pos.play("greece", "take grain from carthage")
    assert pos.state.phase == "build"


def test_ad_07_no_reassignment_in_round_one() -> None:
    pos = Position(5).legion("greece", "athenae", 5)
    assert pos.state.roles["military"] == "rome" and pos.state.round == 1
    pos.new_round()
    assert pos.state.roles["military"] == "greece"


def test_ad_08_occupied_temple_scores_for_the_occupier() -> None:
    pos = Position(5).temple("roma").legion("greece", "roma", place="temple")
    assert scores(pos.state, "greece")["political"] == 3 and scores(pos.state, "rome")["political"] == 1


def test_ad_09_occupied_market_doubles_nothing_of_the_owner() -> None:
    pos = Position(5, empty=True).own("rome", "roma").caravan("roma", "wine", "metal").market("roma")
    pos.legion("greece", "roma", place="market")
    pos.income()
    assert pos.state.hands["rome"] == {"wine": 1, "metal": 1} and pos.state.hands["greece"] == {}


def test_ad_10_own_legion_never_blocks() -> None:
    pos = Position(5).legion("greece", "macedonia").build_turn("greece").hand("greece", tax=3)
    assert "buy legion macedonia" in pos.legal("greece")
    pos = Position(5).legion("rome", "macedonia").build_turn("greece").hand("greece", tax=3)
    assert "buy legion macedonia" not in pos.legal("greece")


def test_ad_11_pillage_combined_with_occupation() -> None:
    pos = Position(5).legion("rome", "africa", 2)
    s = pos.state
    s.units = [u for u in s.units if not (u.loc == "africa" and u.civ == "carthage")]
    pos.military_turn("rome")
    pos.play("rome", "pillage africa caravan fruit", "occupy africa city carthago", "occupy africa caravan perfume")
    assert sorted(u.place for u in units_at(pos.state, "africa", "rome")) == ["caravan:perfume", "city:Carthago"]
    assert not any(t.startswith("pillage") for t in pos.legal("rome"))


def test_ad_12_standing_legion_may_conquer_without_battle() -> None:
    pos = Position(5).legion("rome", "numidia")
    s = pos.state
    s.units = [u for u in s.units if not (u.loc == "numidia" and u.civ == "carthage")]
    pos.military_turn("rome")
    assert "occupy numidia caravan slaves" in pos.legal("rome")


def test_ad_14_neutrals_never_act_and_their_capital_can_be_annexed() -> None:
    pos = Position(4)  # Babylon neutral
    s = pos.state
    assert "babylon" not in s.seats and s.provs["babylonia"].owner == "babylon"
    s.units = [u for u in s.units if u.loc != "babylonia"]
    pos.legion("egypt", "babylonia").military_turn("egypt")
    assert "claim babylonia" in pos.legal("egypt")


def test_ad_15_docked_trireme_may_stay_and_never_docks_again() -> None:
    pos = Position(5).trireme("greece", "athenae").trireme("greece", "ionium").military_turn("greece")
    legal = pos.legal("greece")
    assert "launch athenae ionium" in legal and "done" in legal
    assert not any(t.startswith(("launch ionium", "dock")) for t in legal)


def test_ad_17_continuing_war_on_every_turn() -> None:
    pos = Position(5).legion("rome", "dacia").legion("greece", "dacia").military_turn("greece")
    assert "done" not in pos.legal("greece")
    pos = Position(5).fortress("greece", "macedonia").legion("rome", "macedonia").military_turn("greece")
    assert not any(t.startswith("attack") for t in pos.legal("greece")) and "done" in pos.legal("greece")


def test_ad_20_one_sea_move_per_trireme_and_turn() -> None:
    pos = Position(5).trireme("greece", "ionium").military_turn("greece")
    pos.play("greece", "sail ionium aegaeum")
    assert not any(t.startswith("sail aegaeum") for t in pos.legal("greece"))


def test_ad_21_hits_are_simultaneous() -> None:
    pos = Position(5).own("rome", "illyria").legion("rome", "illyria").legion("greece", "illyria")
    pos.military_turn("rome")
    pos.dice(6, 6)  # both score a hit: both legions die
    pos.play("rome", "attack greece in illyria with 1 legion")
    assert not units_at(pos.state, "illyria")


def test_ad_23_temple_without_city() -> None:
    pos = Position(5).build_turn("rome").hand("rome", tax=6)
    assert "buy temple gallia_cisalpina" in pos.legal("rome")


def test_ad_24_artemis_limited_by_the_bank() -> None:
    pos = Position(5, empty=True).give_card("greece", "artemis").hand("rome", gold=5)
    pos.income()
    assert "artemis gold" not in pos.legal("greece") and "artemis grain" in pos.legal("greece")


def test_ad_26_ad_51_nebuchadnezzar_only_while_the_bank_has_the_card() -> None:
    pos = Position(5).give_card("babylon", "nebuchadnezzar").legion("babylon", "numidia")
    s = pos.state
    s.units = [u for u in s.units if not (u.loc == "numidia" and u.civ == "carthage")]
    for c in s.seats:
        pos.hand(c)
    pos.hand("rome", slaves=11).military_turn("babylon")
    pos.play("babylon", "pillage numidia caravan slaves")
    assert pos.state.hands["babylon"].get("slaves", 0) == 0


def test_ad_28_gardens_card_counts_in_the_hand() -> None:
    pos = Position(5).give_card("greece", "gardens").build_phase(done=("rome", "carthage", "egypt", "babylon"))
    pos.hand("greece", grain=1, tax=1)
    pos.play("greece", "done")
    assert pos.legal("greece") == ["keep grain", "keep nothing"]  # asked even with one type
    pos.play("greece", "keep grain")
    assert pos.state.hands["greece"] == {"grain": 1, "tax": 1}


def test_ad_29_advanced_setup_capital_marker_and_no_modifiers() -> None:
    s = GAME.new_game(5, 5, {"setup": "advanced"})
    assert all(s.provs[p].owner == c for c, p in (("rome", "roma"), ("egypt", "aegyptus")))
    assert s.pending["setup"]["points"] == 33


def test_ad_32_only_own_ships_make_a_chain() -> None:
    pos = Position(5).legion("greece", "athenae").trireme("rome", "ionium").military_turn("greece")
    assert "march athenae sicilia" not in pos.legal("greece")


def test_ad_34_several_roles_after_the_start() -> None:
    pos = Position(5).legion("rome", "roma", 3).market("roma")
    pos.new_round()
    assert pos.state.roles["military"] == "rome" and pos.state.roles["commerce"] == "rome"


def test_ad_35_one_die_per_unit() -> None:
    pos = Position(5).own("rome", "illyria").legion("rome", "illyria", 5).legion("greece", "illyria")
    pos.military_turn("rome")
    step = pos.play("rome", "attack greece in illyria with 5 legions")
    assert len(step.events[0].data["dice"]["rome"]) == 5


def test_ad_36_destroyed_units_return_and_can_be_rebuilt() -> None:
    pos = Position(5).legion("greece", "athenae", 8).build_turn("greece").hand("greece", tax=3)
    assert "buy legion athenae" not in pos.legal("greece")
    s = pos.state
    s.units.remove(next(u for u in s.units if u.civ == "greece" and u.kind == "legion"))
    assert "buy legion athenae" in pos.legal("greece")


def test_ad_37_ad_38_legions_in_unowned_provinces() -> None:
    pos = Position(5).legion("rome", "illyria").military_turn("rome")
    assert not any(t.startswith(("pillage", "occupy", "claim")) for t in pos.legal("rome"))
    assert pos.state.provs["illyria"].owner is None


def test_ad_39_capital_never_annexed_but_occupied() -> None:
    pos = Position(5).legion("rome", "athenae")
    s = pos.state
    s.units = [u for u in s.units if not (u.loc == "athenae" and u.civ == "greece")]
    pos.military_turn("rome")
    legal = pos.legal("rome")
    assert "claim athenae" not in legal and "occupy athenae city athenae" in legal


def test_ad_40_one_legion_per_building() -> None:
    pos = Position(5).legion("rome", "numidia", 2)
    s = pos.state
    s.units = [u for u in s.units if not (u.loc == "numidia" and u.civ == "carthage")]
    pos.military_turn("rome")
    pos.play("rome", "occupy numidia caravan slaves")
    assert "occupy numidia caravan slaves" not in pos.legal("rome")


def test_ad_41_the_bank_is_public() -> None:
    assert GAME.view(Position(5).state, None)["bank"]["tax"] > 0


def test_ad_42_war_cancels_placements() -> None:
    pos = Position(5).legion("rome", "numidia", place="caravan:slaves").legion("carthage", "africa")
    pos.military_turn("carthage")
    pos.play("carthage", "march africa numidia")
    pos.dice(1, 1)
    pos.play("carthage", "attack rome in numidia with 1 legion")
    assert war_torn(pos.state, "numidia") and units_at(pos.state, "numidia", "rome")[0].place == ""


def test_ad_43_neutral_provinces_option() -> None:
    """Also MN-EX-37."""
    s = Position(4, civs=("rome", "greece", "egypt", "babylon"), neutral_provinces="all_land_neighbours").state
    assert s.provs["garamantia"].owner == "carthage"


def test_ad_44_a_role_holder_is_never_a_candidate() -> None:
    """Also MN-EX-32."""
    s = Position(3, civs=("rome", "greece", "egypt")).state
    assert sorted(s.roles.values()) == ["egypt", "greece", "rome"]


def test_ad_45_neutral_loses_legions_first() -> None:
    """Also MN-EX-31."""
    pos = Position(4).own("egypt", "arabia").legion("egypt", "arabia", 2).military_turn("egypt")
    pos.play("egypt", "march arabia babylonia", "march arabia babylonia")
    pos.dice(5, 1, 1)  # Egypt 6: one hit; the neutral 1 + 6 = 7: one hit
    pos.play("egypt", "attack babylon in babylonia with 2 legions")
    s = pos.state
    assert not units_at(s, "babylonia", "babylon", ("legion",))
    assert len(units_at(s, "babylonia", "babylon", ("fortress",))) == 1


def test_ad_46_the_attackers_fortress_joins_one_battle() -> None:
    """Also MN-EX-30."""
    pos = Position(5).legion("greece", "roma").legion("carthage", "roma").legion("rome", "roma", 2)
    pos.military_turn("rome")
    legal = pos.legal("rome")
    assert "attack greece in roma with 1 legion and 1 fortress" in legal
    assert "attack greece in roma with 1 legion" in legal


def test_ad_52_helen_works_in_a_war_torn_province() -> None:
    pos = Position(5).give_card("greece", "helen").legion("greece", "macedonia").legion("carthage", "macedonia")
    pos.legion("rome", "illyria").military_turn("rome")
    pos.play("rome", "march illyria macedonia")
    assert pos.legal("greece") == ["helen yes", "helen no"]


def test_ad_46_a_fortress_lost_only_in_the_battle_it_joined() -> None:
    pos = Position(5).legion("greece", "roma").legion("carthage", "roma").legion("rome", "roma", 2)
    pos.military_turn("rome")
    pos.dice(1, 1)  # Rome 1 + 6: one hit on Greece; Greece 1: none
    pos.play("rome", "attack greece in roma with 1 legion and 1 fortress")
    pos.dice(1, 6)  # Rome 1: no hit; Carthage 6: one hit on Rome
    pos.play("rome", "attack carthage in roma with 1 legion")
    # the hit is taken by the legion that fought Carthage, never by the fortress: no choice asked
    assert not any(t.startswith("lose") for t in pos.legal("rome"))
    assert len(units_at(pos.state, "roma", "rome", ("fortress",))) == 1
    assert len(units_at(pos.state, "roma", "rome", ("legion",))) == 1
