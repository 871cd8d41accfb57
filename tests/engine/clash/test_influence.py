"""Cultural influence (rules 8.6): range, boosts, the one-success rule, the protecting advances,
Arts, Conversion, the Colossus and the Pyramids; each rule with its refused case."""

from __future__ import annotations

import pytest

from engine.clash.builder import Position
from engine.clash.scoring import breakdown
from engine.clash.state import BARBARIAN, State
from engine.core.errors import IllegalAction
from engine.core.rng import Rng


def dice(state: State, *values: int) -> None:
    """Make the state's next die rolls show ``values`` (a seed whose stream starts so)."""
    for k in range(200_000):
        r = Rng.from_seed(k)
        if all(r.randint(1, 6) == v for v in values):
            state.rng = Rng.from_seed(k)
            return
    raise AssertionError("no seed found")


def _pos() -> Position:
    """Red's size-3 Athens on D2; Blue's capital stays on D7 (size 1)."""
    pos = Position(2).clear_units().reveal_all()
    pos.city(0, "d2", pieces=("temple", "academy"), name="Athens")
    pos.city(0, "c2")
    pos.city(0, "e2")
    return pos


def test_cc_ex_06_influence_with_boosts() -> None:
    pos = _pos()
    target = pos.city(1, "d6", pieces=("temple",), name="Thebes")  # distance 4 from D2
    pos.tokens(0, culture_level=3, culture=3).turn(0)
    assert "influence athens thebes temple" in pos.moves(0)
    before = breakdown(pos.state, 0)["pieces"], breakdown(pos.state, 1)["pieces"]
    dice(pos.state, 3)
    pos.play(0, "influence athens thebes temple")
    assert pos.state.pl[0].culture_tokens == 2  # 1 token for range 3 + 1 = 4
    assert pos.moves(0) == ["boost 2", "no boost"]
    pos.play(0, "boost 2")
    assert pos.state.pl[0].culture_tokens == 0
    assert pos.state.city_at("d6").pieces["temple"] == 0  # type: ignore[union-attr]
    assert pos.state.city_at("d6").owner == 1  # type: ignore[union-attr]
    after = breakdown(pos.state, 0)["pieces"], breakdown(pos.state, 1)["pieces"]
    assert after == (before[0] + 2, before[1] - 2)  # the piece's point moves (in halves)
    assert target.name == "Thebes"
    # Any further attempt this turn is refused.
    pos.city(1, "c6", pieces=("temple",), name="Argos")
    assert not [m for m in pos.moves(0) if m.startswith("influence")]
    with pytest.raises(IllegalAction):
        pos.play(0, "influence athens argos temple")


def test_range_is_the_real_size_and_tokens_extend_it() -> None:
    pos = _pos()
    pos.city(1, "d6", pieces=("temple",), name="Thebes")  # distance 4
    pos.city(0, "d2", pieces=("temple", "academy"), name="Athens", mood="happy")  # happy: still size 3
    pos.turn(0)
    assert not [m for m in pos.moves(0) if "thebes" in m]  # no token: out of range
    pos.tokens(0, culture_level=2, culture=1)
    assert "influence athens thebes temple" in pos.moves(0)


def test_failed_attempts_may_be_repeated_with_further_actions() -> None:
    pos = _pos()
    pos.city(1, "c4", pieces=("temple", "port"), name="Thebes", port="d3")  # distance 2
    pos.turn(0)
    dice(pos.state, 2, 1, 6)
    pos.play(0, "influence athens thebes temple")  # no token: the failure is final
    assert pos.state.pending == {}
    assert pos.state.actions_left == 2
    pos.play(0, "influence athens thebes port")
    pos.play(0, "influence athens thebes port")
    assert pos.state.city_at("c4").pieces == {"temple": 1, "port": 0}  # type: ignore[union-attr]
    assert pos.state.actions_left == 0


def test_source_must_hold_no_foreign_piece_and_target_size_two() -> None:
    pos = _pos()
    pos.state.city_at("d2").pieces["temple"] = 1  # type: ignore[union-attr]
    pos.city(1, "c4", pieces=("temple",), name="Thebes")
    pos.city(1, "e3", name="Tiny")  # size 1: never a target
    pos.turn(0)
    moves = [m for m in pos.moves(0) if m.startswith("influence")]
    assert not [m for m in moves if m.startswith("influence athens")]
    assert not [m for m in moves if "tiny" in m]
    # Removing foreign influence from an own city is an influence on that city (from another source).
    pos.city(0, "c2", name="Corinth")
    assert "influence corinth athens temple" in pos.moves(0)
    assert "influence corinth athens academy" not in pos.moves(0)  # already Red


def test_barbarian_settlements_are_no_targets() -> None:
    pos = _pos()
    camp = pos.city(BARBARIAN, "c4")
    camp.pieces["temple"] = BARBARIAN
    pos.turn(0)
    assert not [m for m in pos.moves(0) if m.startswith("influence")]


def test_no_piece_in_supply_cannot_be_chosen_d33() -> None:
    pos = _pos()
    pos.city(1, "c4", pieces=("temple", "academy"), name="Thebes")
    for space in ("a3", "b4", "c5", "g3", "b5", "c6", "f5"):
        pos.city(0, space, pieces=("temple",))
    pos.turn(0)
    moves = [m for m in pos.moves(0) if "thebes" in m]
    assert moves and all(m.endswith("academy") for m in moves)  # all 7 red temples are out
    with pytest.raises(IllegalAction):
        pos.play(0, "influence athens thebes temple")


def test_conversion_succeeds_on_four_and_gives_a_token() -> None:
    pos = _pos().advances(0, "dogma", "conversion").tokens(0, culture_level=3, culture=0)
    pos.city(1, "c4", pieces=("temple",), name="Thebes")
    pos.turn(0)
    dice(pos.state, 4)
    pos.play(0, "influence athens thebes temple")
    assert pos.state.city_at("c4").pieces["temple"] == 0  # type: ignore[union-attr]
    assert pos.state.pl[0].culture_tokens == 1


def test_arts_takes_no_action_once_per_turn() -> None:
    pos = _pos().advances(0, "arts").tokens(0, culture_level=3, culture=2)
    pos.city(1, "c4", pieces=("temple", "academy"), name="Thebes")
    pos.turn(0)
    dice(pos.state, 1, 1)
    pos.play(0, "influence athens thebes temple arts")
    assert pos.state.actions_left == 3 and pos.state.pl[0].culture_tokens == 1
    assert pos.state.pending == {}  # 1 token cannot make a 1 into a 5
    assert not [m for m in pos.moves(0) if m.endswith(" arts")]  # once per turn
    pos.play(0, "influence athens thebes temple")
    assert pos.state.actions_left == 2


@pytest.mark.parametrize(
    ("advance", "setup"),
    [
        ("separation_of_power", "happy"),
        ("totalitarianism", "army"),
        ("devotion", "temple"),
    ],
)
def test_protecting_advances_forbid_boosts(advance: str, setup: str) -> None:
    pos = _pos().tokens(0, culture_level=5, culture=5)
    mood = "happy" if setup == "happy" else "neutral"
    pieces = ("temple",) if setup == "temple" else ("academy",)
    pos.city(1, "d6", pieces=pieces, name="Thebes", mood=mood)  # distance 4: needs a range token
    pos.city(1, "c4", pieces=pieces, name="Sparta", mood=mood)  # distance 2: in range
    if setup == "army":
        pos.units(1, "d6", army=1).units(1, "c4", army=1)
    pos.turn(0)
    assert "thebes" in " ".join(pos.moves(0))  # boosting allowed without the advance
    pos.advances(1, advance)
    assert "thebes" not in " ".join(pos.moves(0))  # range boost banned
    dice(pos.state, 3)
    pos.play(0, next(m for m in pos.moves(0) if "sparta" in m))
    assert pos.state.pending == {}  # no roll boost offered: plain failure
    assert pos.state.pl[0].culture_tokens == 5


def test_the_ban_does_not_protect_other_cities() -> None:
    pos = _pos().tokens(0, culture_level=5, culture=5).advances(1, "devotion")
    pos.city(1, "d6", pieces=("academy",), name="Thebes")
    pos.turn(0)
    assert "influence athens thebes academy" in pos.moves(0)


def test_colossus_protects_its_city_and_owner_cities_within_two() -> None:
    pos = _pos()
    col = pos.city(1, "c4", pieces=("temple",), name="Rhodes")
    col.wonder = "colossus"
    pos.city(1, "c5", pieces=("temple",), name="Near")  # distance 1 from the Colossus
    pos.city(1, "f5", pieces=("temple",), name="Far")  # distance 4 from it
    pos.tokens(0, culture_level=5, culture=5).turn(0)
    moves = " ".join(pos.moves(0))
    assert "rhodes" not in moves and "near" not in moves and "far" in moves
    # The Colossus adds 1 to its city's range: Red's F3 is 3 spaces from Rhodes (size 2).
    pos.city(0, "f3", pieces=("temple",), name="Miletus")
    pos.tokens(1, culture_level=0, culture=0).turn(1)
    assert "influence rhodes miletus temple" in pos.moves(1)
    assert "influence near miletus temple" not in pos.moves(1)  # Near (size 2) is 4 away


def test_influence_outside_the_turn_or_without_action_is_refused() -> None:
    pos = _pos()
    pos.city(1, "c4", pieces=("temple",), name="Thebes")
    pos.turn(0)
    pos.state.actions_left = 0
    assert not [m for m in pos.moves(0) if m.startswith("influence")]
    assert pos.moves(1) == []


def test_cc_ex_41_pyramids_one_time_influence() -> None:
    pos = Position(2).clear_units().reveal_all()
    pos.city(0, "d2", pieces=("temple", "academy"), name="Memphis")
    pos.city(0, "c2")
    pos.city(0, "e2")
    pos.city(1, "c5", pieces=("temple",), name="Tyre")  # T: size 2, distance 3
    pos.city(1, "d6", pieces=("temple", "academy"), name="Ur")  # U: size 3, distance 4
    pos.advances(0, "engineering", "myths", "rituals").tokens(0, culture_level=6, culture=6)
    pos.give(0, food=2, wood=3, ore=7)
    pos.state.revealed_wonders = ["pyramids"]
    pos.turn(0)
    dice(pos.state, 2, 5)
    pos.play(0, "wonder memphis pyramids")
    assert pos.state.pl[0].culture_tokens == 1 and pos.state.actions_left == 2
    assert pos.state.pending["kind"] == "pyramids"
    pos.play(0, "influence memphis tyre temple")  # roll 2: his one token would only make it 3
    assert pos.state.pending["kind"] == "pyramids"  # no boost is offered; the second attempt
    assert pos.state.pl[0].culture_tokens == 1
    pos.play(0, "influence memphis ur temple")  # 1 token for range 3 + 1 = 4, roll 5
    assert pos.state.city_at("d6").pieces["temple"] == 0  # type: ignore[union-attr]
    assert pos.state.pl[0].culture_tokens == 0 and pos.state.actions_left == 2
    assert pos.state.pending == {}


def test_pyramids_second_attempt_lapses_after_a_success() -> None:
    pos = Position(2).clear_units().reveal_all()
    pos.city(0, "d2", pieces=("temple", "academy"), name="Memphis")
    pos.city(0, "c2")
    pos.city(0, "e2")
    pos.city(1, "c5", pieces=("temple", "academy"), name="Tyre")
    pos.advances(0, "engineering", "myths", "rituals").tokens(0, culture_level=6, culture=5)
    pos.give(0, food=2, wood=3, ore=7)
    pos.state.revealed_wonders = ["pyramids"]
    pos.turn(0)
    dice(pos.state, 6)
    pos.play(0, "wonder memphis pyramids")
    pos.play(0, "influence memphis tyre temple")
    assert pos.state.pending == {}
    # In a later turn an influence from Memphis costs an action as for any city.
    pos.turn(0)
    assert "influence memphis tyre academy" in pos.moves(0)


def test_pyramids_attempts_skipped_after_a_success_this_turn() -> None:
    pos = Position(2).clear_units().reveal_all()
    pos.city(0, "d2", pieces=("temple", "academy"), name="Memphis")
    pos.city(0, "c2")
    pos.city(0, "e2")
    pos.city(1, "c4", pieces=("temple", "academy"), name="Tyre")
    pos.advances(0, "engineering", "myths", "rituals").tokens(0, culture_level=6, culture=5)
    pos.give(0, food=2, wood=3, ore=7)
    pos.state.revealed_wonders = ["pyramids"]
    pos.turn(0)
    dice(pos.state, 6)
    pos.play(0, "influence memphis tyre temple")
    pos.play(0, "wonder memphis pyramids")
    assert pos.state.pending == {}


@pytest.mark.parametrize(
    ("setup", "typed", "message"),
    [
        ("tiny", "influence athens tiny temple", "size 1"),
        ("far", "influence athens thebes temple", "4 spaces from Athens: its range is 3"),
        ("foreign", "influence athens thebes temple", "holds a piece of another colour"),
        ("done", "influence athens thebes temple", "only once per turn"),
    ],
)
def test_refusals_say_why(setup: str, typed: str, message: str) -> None:
    pos = _pos()
    pos.city(1, "e3", name="Tiny")
    pos.city(1, "d6" if setup == "far" else "c4", pieces=("temple",), name="Thebes")
    if setup == "foreign":
        pos.state.city_at("d2").pieces["academy"] = 1  # type: ignore[union-attr]
    if setup == "done":
        pos.state.pl[0].used.append("influenced")
    if setup != "done":
        pos.turn(0)
    with pytest.raises(IllegalAction, match=message):
        pos.play(0, typed)
