"""Scenarios for the spec's decisions that change play in this part (D-nn), and refusals."""

from __future__ import annotations

import pytest

from engine.clash.builder import Position
from engine.core.errors import IllegalAction


def test_d02_activations_are_counted_per_turn() -> None:
    pos = Position(2).clear_units()
    pos.city(0, "c2")
    pos.turn(0)
    pos.play(0, "collect athens food")
    pos.play(0, "collect athens food")
    assert pos.state.city_at("d2").mood == "angry"  # type: ignore[union-attr]
    pos.play(0, "end")
    pos.play(1, "end")
    assert pos.state.city_at("d2").activations == 0  # type: ignore[union-attr]
    assert any(m.startswith("collect athens") for m in pos.moves(0))


def test_d03_angry_city_collects_and_builds_one() -> None:
    pos = Position(2).clear_units()
    pos.city(0, "d2", mood="angry", pieces=("temple", "academy"), name="Athens")
    pos.give(0, food=2, ore=2).turn(0)
    assert all(len(m.split()) == 3 for m in pos.moves(0) if m.startswith(("collect athens", "build athens")))


def test_d06_first_player_tie_walks_clockwise() -> None:
    from engine.clash.rounds import first_player_chooser

    pos = Position(4)
    s = pos.state
    s.order = [0, 1, 2, 3]
    s.first = 2
    for seat, total in enumerate((5, 5, 3, 1)):
        s.pl[seat].culture_level = total
    assert first_player_chooser(s) == 0  # from seat 3 clockwise: 3 (1), 0 (5)
    s.order = [2, 1, 3, 0]
    assert first_player_chooser(s) == 1  # now seat 1 sits left of the first player


def test_d08_roads_intermediate_space_must_be_free_land() -> None:
    pos = Position(2).clear_units().reveal_all().tile("R2", "T09", revealed=True)
    pos.advances(0, "tactics", "engineering", "roads").units(0, "d2", army=1).give(0, food=2, ore=2)
    pos.units(1, "e2", army=1).turn(0)
    assert not [m for m in pos.moves(0) if m.startswith("move d2 f2")]


def test_d09_rule_3_applies_when_both_or_neither_connect() -> None:
    # CC-EX-18 is the case where neither orientation connects; see test_exploration.
    pos = Position(2).clear_units().tile("R1", "T09").units(0, "c2", settler=1).turn(0)
    pos.play(0, "move c2 b2 settler")
    assert pos.state.terrain["a3"] == "sea"  # the Sea touches the edge


def test_d16_barbarians_skipped_when_no_settlement_piece_is_left() -> None:
    pos = Position(2).clear_units().reveal_all()
    r2 = {"f2", "e3", "g3", "f3"}
    free = [
        h
        for h, t in sorted(pos.state.terrain.items())
        if t in ("fertile", "forest") and not pos.state.city_at(h) and h not in r2 and h != "d3"
    ]
    for h in free[:7]:
        pos.city(-1, h)
    pos = _explore_t05(pos)
    assert next(s for s in pos.state.slots if s.id == "R2").revealed
    assert pos.state.terrain["e3"] == "fertile"
    assert not [c for c in pos.state.cities if c.space in r2]
    assert sum(1 for c in pos.state.cities if c.owner == -1) == 7


def _explore_t05(pos: Position) -> Position:
    """Hide R2 again with T05 and let a settler next to E3 explore it (T05 bears the barbarian symbol)."""
    slot = next(s for s in pos.state.slots if s.id == "R2")
    for h in slot.hexes:
        pos.state.terrain.pop(h, None)
    slot.revealed = False
    for c in [c for c in pos.state.cities if c.space in slot.hexes]:
        pos.state.cities.remove(c)
    pos.tile("R2", "T05")
    pos.units(0, "d3" if pos.state.terrain.get("d3") != "sea" else "e2", settler=1).turn(0)
    src = next(u.space for u in pos.state.units if u.owner == 0)
    pos.play(0, f"move {src} e3 settler")
    if pos.state.pending.get("kind") == "orient":
        pos.play(0, "orient base")
    return pos


def test_d19_starting_advances_move_no_level() -> None:
    pos = Position(2)
    assert all(p.culture_level == p.happiness_level == 0 for p in pos.state.pl)


def test_d21_relocated_cubes_trigger_nothing() -> None:
    pos = Position(2).advances(0, "tactics", "draft", "nationalism", "totalitarianism", "writing", "philosophy")
    pos.state.pl[0].writing_cards = True
    pos.give(0, food=2).turn(0)
    before = (pos.state.pl[0].culture_level, pos.state.pl[0].happiness_level)
    pos.play(0, "advance voting keep civil-liberties")
    assert (pos.state.pl[0].culture_level, pos.state.pl[0].happiness_level) == before


def test_d22_writing_draws_once() -> None:
    pos = Position(2).advances(0, "tactics", "draft", "nationalism", "philosophy").give(0, food=4).turn(0)
    pos.play(0, "advance writing")
    pos.play(0, "advance voting")
    assert pos.state.card_log == [[0, "writing"]]


def test_d24_foreign_ships_block_collecting_at_sea() -> None:
    pos = Position(2).clear_units().tile("R3", "T01", revealed=True, rotated=True)
    pos.city(0, "d3", name="Corinth")
    pos.advances(0, "fishing").turn(0)
    assert "collect corinth food" in pos.moves(0)
    pos.ship(1, "d4")
    pos.ship(1, "e4")
    assert "collect corinth food" not in pos.moves(0)
    assert "collect corinth wood" in pos.moves(0)


def test_d25_found_on_explored_mountain() -> None:
    pos = Position(2).clear_units().reveal_all().units(0, "e2", settler=1).turn(0)
    assert "found e2" in pos.moves(0)  # E2 is the home Mountain


def test_d29_port_collects_gold_or_mood_from_one_sea_space() -> None:
    pos = Position(2).clear_units().tile("R3", "T01", revealed=True, rotated=True)
    pos.city(0, "d3", pieces=("port",), port="e4", name="Corinth")
    pos.city(0, "c2")
    pos.city(0, "e2")
    pos.advances(0, "fishing").tokens(0, happiness_level=2).turn(0)
    collects = [m for m in pos.moves(0) if m.startswith("collect corinth")]
    assert any("gold" in m for m in collects) and any("mood" in m for m in collects)
    assert all(m.count("gold") + m.count("mood") + m.split().count("food") <= 2 for m in collects)


def test_d31_unit_costs() -> None:
    pos = Position(2).clear_units().give(0, food=2).turn(0)
    pos.play(0, "build athens settler")
    assert pos.state.pl[0].res["food"] == 0


def test_d43_never_raze_the_only_city() -> None:
    from engine.clash.rounds import raze_options

    pos = Position(2)
    assert raze_options(pos.state, 0) == []


@pytest.mark.parametrize(
    ("setup", "text", "message"),
    [
        ("angry", "grow athens temple", "angry"),
        ("small", "grow athens temple", "larger than your number of cities"),
        ("nomyths", "grow athens temple", "needs Myths"),
        ("none", "build athens army army", "at most 1 unit"),
        ("none", "found d1", "no settler"),
        ("none", "grow rome temple", "no city called"),
    ],
)
def test_refusals_say_why(setup: str, text: str, message: str) -> None:
    pos = Position(2).advances(0, "myths").give(0, food=3, ore=3, wood=3)
    if setup != "small":
        pos.city(0, "c2")
    if setup == "nomyths":
        pos.state.pl[0].advances.remove("myths")
    if setup == "angry":
        pos.state.city_at("d2").mood = "angry"  # type: ignore[union-attr]
    pos.turn(0)
    with pytest.raises(IllegalAction, match=message):
        pos.play(0, text)


def test_refusal_when_all_temples_are_on_the_board() -> None:
    pos = Position(2).clear_units().reveal_all().advances(0, "myths").give(0, food=3, ore=3, wood=3)
    spaces = [
        h for h, t in sorted(pos.state.terrain.items()) if t in ("fertile", "forest") and not pos.state.city_at(h)
    ]
    for h in spaces[:6]:
        pos.city(0, h, pieces=("temple",))
    pos.turn(0)
    assert "grow athens temple mood" in pos.moves(0)
    memphis = pos.state.city_at("d7")
    assert memphis is not None
    memphis.pieces["temple"] = 0  # a Red temple standing in Blue's city counts too
    assert not [m for m in pos.moves(0) if m.startswith("grow athens temple")]
    with pytest.raises(IllegalAction, match="All your 7 temples are on the board"):
        pos.play(0, "grow athens temple mood")
