"""The military phase: sea step, legion moves through trireme chains, battles with dice and
fortresses, several sides, war-torn provinces, conquest (pillage, occupy, annex), neutrals, Helen."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction
from engine.mare_nostrum.board import units_at, war_torn
from engine.mare_nostrum.positions import GAME, Position


def _legions(pos: Position, pid: str, civ: str) -> int:
    return len(units_at(pos.state, pid, civ, ("legion",)))


def test_mn_ex_03_land_combat_arithmetic() -> None:
    pos = Position(5).legion("rome", "illyria", 3).legion("greece", "macedonia").fortress("greece", "macedonia")
    pos.military_turn("rome")
    pos.play("rome", *["march illyria macedonia"] * 3)
    assert "done" not in pos.legal("rome")  # the battle is mandatory
    pos.dice(6, 3, 2, 3)
    step = pos.play("rome", "attack greece in macedonia with 3 legions")
    assert "total 11" in step.events[0].text and "total 9" in step.events[0].text
    s = pos.state
    assert _legions(pos, "macedonia", "rome") == 2 and not units_at(s, "macedonia", "greece")
    legal = pos.legal("rome")
    assert "pillage macedonia caravan wine" in legal and "occupy macedonia caravan wine" in legal
    assert "claim macedonia" in legal


def test_mn_ex_04_transport_across_two_sea_zones() -> None:
    pos = Position(5).legion("greece", "athenae", 2).trireme("greece", "aegaeum").trireme("greece", "aegyptium")
    pos.military_turn("greece")
    assert "march athenae aegyptus" in pos.legal("greece")
    pos = Position(5).legion("greece", "athenae", 2).trireme("greece", "aegaeum").military_turn("greece")
    assert "march athenae aegyptus" not in pos.legal("greece")
    with pytest.raises(IllegalAction):
        pos.play("greece", "march athenae aegyptus")


def test_mn_ex_06_athens_to_syracusae_then_rome() -> None:
    pos = Position(5).build_turn("greece").hand("greece", tax=5)
    pos.play("greece", "buy legion athenae", "pay taxes", "buy trireme athenae", "pay taxes")
    assert units_at(pos.state, "athenae", "greece", ("trireme",))[0].docked
    pos.military_turn("greece")
    assert "march athenae sicilia" not in pos.legal("greece")  # docked ships make no chain
    pos.play("greece", "launch athenae ionium", "march athenae sicilia")
    assert _legions(pos, "sicilia", "greece") == 1
    pos = Position(5).legion("greece", "athenae").trireme("greece", "ionium").trireme("greece", "adriaticum")
    pos.military_turn("greece")
    assert "march athenae roma" in pos.legal("greece")
    pos = Position(5).legion("greece", "athenae").trireme("greece", "ionium").military_turn("greece")
    assert "march athenae roma" not in pos.legal("greece")


def test_mn_ex_07_egypt_attacks_jerusalem_and_pillages() -> None:
    pos = Position(5).own("babylon", "judaea").city("judaea", "Hierosolyma").fortress("babylon", "judaea")
    pos.legion("babylon", "judaea").own("egypt", "sinai").legion("egypt", "sinai", 3).military_turn("egypt")
    pos.play("egypt", *["march sinai judaea"] * 3)
    cities = pos.state.supply["city"]
    pos.dice(4, 2, 5, 5)
    pos.play("egypt", "attack babylon in judaea with 3 legions")
    assert _legions(pos, "judaea", "egypt") == 1 and not units_at(pos.state, "judaea", "babylon")
    pos.play("egypt", "pillage judaea city hierosolyma")
    s = pos.state
    assert s.supply["city"] == cities + 1 and s.provs["judaea"].cities == [] and s.provs["judaea"].owner == "babylon"
    assert units_at(s, "judaea", "egypt")[0].place == ""
    pos.build_turn("babylon").hand("babylon", tax=6)
    assert not any(" judaea" in t for t in pos.legal("babylon"))


def test_mn_ex_08_docked_trireme_is_ignored() -> None:
    pos = Position(5).legion("egypt", "cyrenaica").trireme("egypt", "cyrenaica").legion("carthage", "tripolitania", 2)
    pos.military_turn("carthage")
    pos.play("carthage", "march tripolitania cyrenaica", "march tripolitania cyrenaica")
    pos.dice(4, 3, 2)
    pos.play("carthage", "attack egypt in cyrenaica with 2 legions")
    s = pos.state
    assert not war_torn(s, "cyrenaica") and _legions(pos, "cyrenaica", "egypt") == 0
    legal = pos.legal("carthage")
    assert "claim cyrenaica" in legal and not any(t.startswith("pillage") for t in legal)
    pos.play("carthage", "claim cyrenaica", "done")
    pos.military_turn("egypt")
    legal = pos.legal("egypt")
    assert "launch cyrenaica libycum" in legal and "launch cyrenaica aegyptium" in legal


def test_mn_ex_20_several_legions_one_chain() -> None:
    pos = Position(5).trireme("rome", "tyrrhenum").legion("rome", "roma", 3).military_turn("rome")
    pos.play("rome", *["march roma sardinia"] * 3)
    assert _legions(pos, "sardinia", "rome") == 3


def _ex21() -> Position:
    pos = Position(5).city("numidia", "Cirta")
    pos.legion("rome", "numidia", place="city:Cirta").legion("rome", "numidia", place="caravan:slaves")
    pos.legion("carthage", "africa").military_turn("carthage")
    pos.play("carthage", "march africa numidia")
    return pos


def test_mn_ex_21_case_a_occupier_wins() -> None:
    pos = _ex21().dice(2, 5, 5)
    pos.play("carthage", "attack rome in numidia with 1 legion")
    places = sorted(u.place for u in units_at(pos.state, "numidia", "rome"))
    assert places == ["caravan:slaves", "city:Cirta"] and _legions(pos, "numidia", "carthage") == 0


def test_mn_ex_21_case_b_war_torn_cancels_occupation() -> None:
    pos = _ex21().dice(6, 1, 2)
    pos.play("carthage", "attack rome in numidia with 1 legion")
    assert GAME.to_move(pos.state) == {pos.seat("rome")}
    assert pos.legal("rome") == ["lose legion on caravan slaves", "lose legion on city cirta"]
    pos.play("rome", "lose legion on caravan slaves")
    s = pos.state
    assert war_torn(s, "numidia") and all(u.place == "" for u in units_at(s, "numidia", "rome"))
    pos.play("carthage", "done")
    for c in s.seats:
        pos.hand(c)
    pos.income()
    assert pos.state.hands["carthage"].get("slaves") == 1 and pos.state.hands["carthage"].get("tax", 0) >= 2


def test_mn_ex_21_case_c_keeps_the_city_placement() -> None:
    pos = _ex21().dice(6, 5, 6)
    pos.play("carthage", "attack rome in numidia with 1 legion")
    pos.play("rome", "lose legion on caravan slaves")
    s = pos.state
    assert [u.place for u in units_at(s, "numidia", "rome")] == ["city:Cirta"]
    assert not units_at(s, "numidia", "carthage")


def test_mn_ex_22_the_defender_flees_no_delayed_conquest() -> None:
    pos = Position(5).legion("rome", "illyria", 2).legion("greece", "macedonia", 2).roles(military="rome")
    pos.military_phase()
    pos.play("rome", "next rome")
    pos.play("rome", "march illyria macedonia", "march illyria macedonia")
    pos.dice(1, 1, 1, 1)
    pos.play("rome", "attack greece in macedonia with 2 legions", "done")
    assert war_torn(pos.state, "macedonia")
    pos.play("rome", "next greece")
    assert "done" not in pos.legal("greece")  # stay and fight, or leave
    pos.play("greece", "march macedonia athenae", "march macedonia athenae", "done")
    assert pos.legal("rome") == ["next carthage", "next egypt", "next babylon"]  # only as the leader
    pos.military_turn("rome")  # next round
    assert "pillage macedonia caravan wine" in pos.legal("rome")


def test_mn_ex_30_the_attackers_own_fortress_fights() -> None:
    pos = Position(5).legion("carthage", "roma", 2)
    pos.build_turn("rome").hand("rome", tax=2)
    pos.play("rome", "buy legion roma", "pay taxes")
    pos.military_turn("rome")
    assert "attack carthage in roma with 1 legion and 1 fortress" in pos.legal("rome")
    pos.dice(4, 3, 3)
    pos.play("rome", "attack carthage in roma with 1 legion and 1 fortress")
    assert not units_at(pos.state, "roma", "carthage")
    assert sorted(pos.legal("rome")) == ["lose fortress", "lose legion"]
    pos.play("rome", "lose fortress")
    legal = pos.legal("rome")
    assert not war_torn(pos.state, "roma") and not any(t.startswith(("pillage", "claim")) for t in legal)
    pos = Position(5).legion("carthage", "roma", 2).military_turn("rome")
    assert not any(t.startswith("attack") for t in pos.legal("rome"))
    pos.military_turn("carthage")
    assert "done" not in pos.legal("carthage")


def test_mn_ex_31_neutral_loses_legions_first() -> None:
    pos = Position(4).own("egypt", "arabia").legion("egypt", "arabia", 2).military_turn("egypt")
    pos.play("egypt", "march arabia babylonia", "march arabia babylonia")
    pos.dice(5, 2, 1)
    pos.play("egypt", "attack babylon in babylonia with 2 legions")
    s = pos.state
    assert units_at(s, "babylonia", "babylon", ("legion",)) == []
    assert len(units_at(s, "babylonia", "babylon", ("fortress",))) == 1
    assert _legions(pos, "babylonia", "egypt") == 1 and war_torn(s, "babylonia")
    assert not any(t.startswith(("pillage", "occupy", "claim")) for t in pos.legal("egypt"))
    pos.military_turn("egypt")
    assert "done" not in pos.legal("egypt")


def test_mn_ex_35_a_pillage_card_outlives_the_round() -> None:
    pos = Position(5).give_card("babylon", "nebuchadnezzar").own("egypt", "sinai").caravan("sinai", "livestock")
    pos.own("babylon", "arabia").legion("babylon", "arabia").military_turn("babylon")
    for c in pos.state.seats:
        pos.hand(c)
    pos.play("babylon", "march arabia sinai", "pillage sinai caravan livestock")
    s = pos.state
    assert s.provs["sinai"].caravans == [] and s.hands["babylon"] == {"livestock": 1}
    pos.play("babylon", "done")
    assert pos.state.hands["babylon"] == {"livestock": 1}
    # next round: still in hand, counted for N (Babylon as DoC may ask for it) and offerable
    for c in pos.state.seats:
        if c != "babylon":
            pos.hand(c)
    pos.roles(commerce="babylon").new_round()
    s = pos.state
    assert s.hands["babylon"].get("livestock") == 1
    n = sum(s.hands["babylon"].values())
    assert f"trade {n}" in pos.legal("babylon")
    step = pos.play("babylon", f"trade {n}")  # Babylon alone holds n cards: its whole hand is offered
    assert any("1 livestock card" in e.text for e in step.events if e.kind == "reveal")


def test_ad_47_conquest_chance_closes_when_acting_elsewhere() -> None:
    pos = Position(5)
    s = pos.state
    s.units = [u for u in s.units if u.loc != "numidia"]
    pos.legion("rome", "numidia").legion("rome", "sardinia").trireme("rome", "sardoum").military_turn("rome")
    assert "occupy numidia caravan slaves" in pos.legal("rome")
    pos.play("rome", "march sardinia corsica")
    assert not any("numidia" in t for t in pos.legal("rome") if not t.startswith("march"))


def test_ad_47_more_legions_may_enter_first() -> None:
    pos = Position(5).legion("rome", "numidia").legion("rome", "sardinia").trireme("rome", "sardoum")
    s = pos.state
    s.units = [u for u in s.units if not (u.loc == "numidia" and u.civ == "carthage")]
    pos.military_turn("rome")
    pos.play("rome", "march sardinia numidia", "occupy numidia caravan slaves", "claim numidia")
    places = sorted(u.place for u in units_at(pos.state, "numidia", "rome"))
    assert places == ["caravan:slaves", "influence"]


def test_ad_48_pillaging_an_occupied_building() -> None:
    pos = Position(5).legion("rome", "numidia", place="caravan:slaves").military_turn("rome")
    pos.play("rome", "pillage numidia caravan slaves")
    s = pos.state
    assert units_at(s, "numidia", "rome")[0].place == ""
    assert "claim numidia" in pos.legal("rome")
    assert not any(t.startswith("pillage") for t in pos.legal("rome"))  # one pillage per province and turn


def test_ad_27_helen_of_troy() -> None:
    pos = Position(5).give_card("greece", "helen").legion("rome", "illyria").military_turn("rome")
    pos.play("rome", "march illyria macedonia")
    s = pos.state
    assert GAME.to_move(s) == {pos.seat("greece")} and pos.legal("greece") == ["helen yes", "helen no"]
    pos.play("greece", "helen yes")
    assert _legions(pos, "macedonia", "rome") == 0 and _legions(pos, "macedonia", "greece") == 1
    assert GAME.to_move(pos.state) == {pos.seat("rome")}


def test_ad_18_and_ad_50_sea_battles() -> None:
    pos = Position(5)  # Greece owns Pericles from its aid
    pos.trireme("greece", "aegaeum", 2).trireme("rome", "aegaeum").military_turn("greece")
    assert "attack rome in aegaeum" in pos.legal("greece")
    pos.dice(6, 4, 1)  # Greece 6+4 (+2 Pericles) = 12: 2 hits; Rome 1
    pos.play("greece", "attack rome in aegaeum")
    s = pos.state
    assert not units_at(s, "aegaeum", "rome", ("trireme",))
    legal = pos.legal("greece")
    assert not any(t.startswith("sail aegaeum") for t in legal)  # fought: may not move
    assert "attack rome in aegaeum" not in legal


def test_legion_moves_end_the_sea_step() -> None:
    pos = Position(5).legion("greece", "athenae").trireme("greece", "ionium").military_turn("greece")
    pos.play("greece", "march athenae macedonia")
    assert not any(t.startswith(("sail", "launch")) for t in pos.legal("greece"))


def test_ad_16_several_sides_split_legions() -> None:
    pos = Position(5).own("rome", "illyria").legion("greece", "illyria").legion("carthage", "illyria")
    pos.legion("rome", "gallia_cisalpina", 3).military_turn("rome")
    pos.play("rome", *["march gallia_cisalpina illyria"] * 3)
    legal = pos.legal("rome")
    assert "attack greece in illyria with 1 legion" in legal and "attack carthage in illyria with 2 legions" in legal
    pos.dice(1, 1)
    pos.play("rome", "attack greece in illyria with 2 legions")
    # the last enemy side takes every remaining legion; Carthage may still be fought once
    assert [t for t in pos.legal("rome") if t.startswith("attack")] == ["attack carthage in illyria with 1 legion"]


def test_ad_16_or_ignore_one_of_several_enemies() -> None:
    pos = Position(5).own("rome", "illyria").legion("greece", "illyria").legion("carthage", "illyria")
    pos.legion("rome", "gallia_cisalpina", 2).military_turn("rome")
    pos.play("rome", *["march gallia_cisalpina illyria"] * 2)
    pos.dice(1, 1, 1)
    pos.play("rome", "attack greece in illyria with 2 legions")
    assert "done" in pos.legal("rome")


def test_ad_19_one_hop_only() -> None:
    pos = Position(5).legion("greece", "athenae").trireme("greece", "pontus").military_turn("greece")
    assert "march athenae bithynia" not in pos.legal("greece")  # land step plus sea link
    pos.play("greece", "march athenae macedonia")
    assert not any(t.startswith("march macedonia") for t in pos.legal("greece"))


def test_hannibal_adds_one_per_legion_die() -> None:
    pos = Position(5).own("rome", "sicilia").legion("rome", "sicilia").legion("carthage", "sicilia", 2)
    pos.military_turn("carthage")
    pos.dice(2, 2, 1)  # 2+2+2 = 6: 1 hit with Hannibal (4 without)
    step = pos.play("carthage", "attack rome in sicilia with 2 legions")
    assert "total 6" in step.events[0].text and not units_at(pos.state, "sicilia", "rome")


def test_leaders_name_every_player_once() -> None:
    pos = Position(5).roles(military="rome").military_phase()
    assert pos.legal("rome") == [f"next {c}" for c in pos.state.seats]
    pos.play("rome", "next egypt")
    pos.play("egypt", "done")
    assert "next egypt" not in pos.legal("rome")
