"""Objective cards: dealt and drawn, claimed in status step 1 or completed at once, one
objective per card, same names and one fact (rules 13, CC-EX-27; data file 8)."""

from __future__ import annotations

from engine.clash.builder import GAME, Position
from engine.clash.decks import add_fact
from engine.clash.objectives import check_immediate
from engine.clash.scoring import breakdown


def to_status(pos: Position) -> None:
    """End every remaining turn of the round (the bot answers nothing: only `end`)."""
    while pos.state.phase == "turn":
        pos.play(pos.state.active, "end")


def test_setup_deals_one_action_and_one_objective_card() -> None:
    s = GAME.new_game(5, 3)
    for seat in range(3):
        assert len(s.decks["hands"][seat]) == 1 and len(s.decks["goals"][seat]) == 1
    assert len(s.decks["action"]) == 42 - 3 and len(s.decks["objective"]) == 32 - 3


def test_status_claim_pays_and_scores_two_points_and_the_other_half_is_lost() -> None:
    pos = Position(2).goals(0, "obj11").goals(1)  # Wealth (pay 2 gold) / Large Fleet
    pos.give(0, gold=5).turn(0)
    to_status(pos)
    assert pos.state.pending["kind"] == "card" and pos.state.pending["seat"] == 0
    assert set(pos.moves(0)) == {"claim wealth", "claim none"}
    pos.play(0, "claim wealth")
    assert pos.state.pl[0].res["gold"] == 3
    assert pos.state.decks["done"][0] == ["obj11:upper"] and pos.state.decks["goals"][0] == []
    assert breakdown(pos.state, 0)["objectives"] == 4  # 2 points, in halves


def test_status_claim_can_be_declined() -> None:
    pos = Position(2).goals(0, "obj11").goals(1)
    pos.give(0, gold=5).turn(0)
    to_status(pos)
    pos.play(0, "claim none")
    assert pos.state.decks["goals"][0] == ["obj11"] and pos.state.pl[0].res["gold"] == 5


def test_same_name_completes_once_per_status_phase() -> None:
    pos = Position(2).goals(0, "obj24", "obj25").goals(1)  # two Government cards
    pos.advances(0, "philosophy", "voting", "separation_of_power", "civil_liberties", "free_economy").turn(0)
    to_status(pos)
    pos.play(0, "claim government")
    assert pos.state.pending.get("kind") != "card" or pos.state.pending["seat"] != 0
    assert len(pos.state.decks["done"][0]) == 1


def test_standing_army_and_military_might_not_together() -> None:
    from engine.clash.objectives import claimable

    pos = Position(2).clear_units().reveal_all().goals(0, "obj14", "obj26").goals(1)
    for space in ("c2", "e2", "c3"):
        pos.city(0, space)
    for space in ("d2", "c2", "e2", "c3"):
        pos.units(0, space, army=3)
    pos.state.decks["claimed"] = [["Standing Army"], []]
    names = {c + h for c, h in claimable(pos.state, 0)}
    assert "obj26lower" not in names


def test_cc_ex_27_one_capture_completes_one_conqueror() -> None:
    pos = Position(2).goals(0, "obj02", "obj08").goals(1).turn(0)
    add_fact(pos.state, 0, "capture_defended")
    check_immediate(pos.state)
    assert len(pos.state.decks["done"][0]) == 1
    check_immediate(pos.state)
    assert len(pos.state.decks["done"][0]) == 1  # the same capture never completes the second
    add_fact(pos.state, 0, "capture_defended")
    check_immediate(pos.state)
    assert sorted(pos.state.decks["done"][0]) == ["obj02:lower", "obj08:lower"]


def test_city_founder_completes_at_once_when_founding_far_away() -> None:
    pos = Position(2).clear_units().reveal_all().goals(0, "obj27").goals(1)
    pos.units(0, "d7", settler=1).clear_cities(1).turn(0)  # 5 spaces from the capital on D2
    texts = [e.text for e in pos.play(0, "found d7")]
    assert "Red completes the objective City Founder: 2 points." in texts
    assert pos.state.pl[0].objectives == ["obj27:upper"]


def test_draft_twice_in_one_turn() -> None:
    pos = Position(2).clear_units().goals(0, "obj01").goals(1)
    pos.city(0, "c2", name="Sparta")
    pos.advances(0, "tactics", "draft").tokens(0, culture_level=1, happiness_level=2, mood=2).turn(0)
    pos.play(0, "build athens army draft")
    assert pos.state.decks["done"][0] == []
    pos.play(0, "build sparta army draft")
    assert pos.state.decks["done"][0] == ["obj01:lower"]


def test_status_phase_draws_one_of_each_card() -> None:
    pos = Position(2).turn(0)
    to_status(pos)
    while pos.state.phase == "status":
        seat = next(iter(GAME.to_move(pos.state)))
        pos.state = GAME.apply(pos.state, seat, GAME.auto_action(pos.state, seat, 0)).state
    for seat in (0, 1):
        held = len(pos.state.decks["hands"][seat]) + len(pos.state.decks["done"][seat])
        assert len(pos.state.decks["hands"][seat]) >= 1 and held >= 2 - 1


def test_writing_draws_one_action_and_one_objective() -> None:
    pos = Position(2).advances(0, "voting", "philosophy").give(0, food=2).turn(0)
    pos.play(0, "advance writing")
    assert len(pos.state.decks["hands"][0]) == 1 and len(pos.state.decks["goals"][0]) == 1


def test_terror_regime_counts_after_the_holders_own_action() -> None:
    pos = Position(2).clear_units().reveal_all().goals(0, "obj29").goals(1)
    for space, name in (("c2", "Sparta"), ("e2", "Corinth"), ("c3", "Argos")):
        pos.city(0, space, name=name, mood="angry")
    pos.turn(1)
    pos.state.city_at("d2").mood = "angry"  # type: ignore[union-attr]
    pos.play(1, "end")  # Blue's action: Red's four angry cities do not count yet
    assert pos.state.decks["done"][0] == []
    pos.play(0, "end")  # Red's own action
    assert pos.state.decks["done"][0] == ["obj29:lower"]
