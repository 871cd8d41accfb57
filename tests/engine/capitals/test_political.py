"""Political phase: buying Start-track positions at the posted price (spec §9.1, §3.3)."""

from __future__ import annotations

import pytest

from engine.capitals.actions import Action
from engine.capitals.builder import Table
from engine.core.errors import IllegalAction


def test_TC_EX_03_political_price() -> None:
    t = Table(players=4).positions(1, 0, 2, 3).political(1, round=3).tracks(1, ECO=20)
    eco = t.p(1).tracks["ECO"]
    t.play("position p4")
    assert t.p(1).tracks["ECO"] == eco - 8 and t.p(1).pos == 4


def test_TC_EX_04_unavailable_position_at_four_players() -> None:
    t = Table(players=4).positions(0, 1, 2, 3).political(0)
    assert t.legal() == ["position p1", "position p2", "position p3", "position p4"]
    with pytest.raises(IllegalAction):
        t.play("position p5")


def test_TC_EX_05_three_player_extra_position() -> None:
    t = Table(players=3).positions(0, 1, 2).political(0)
    assert t.legal() == ["position p1", "position p2", "position p3", "position p4"]


def test_two_players_use_three_positions_D_02() -> None:
    t = Table(players=2).positions(0, 1).political(0)
    assert t.legal() == ["position p1", "position p2", "position p3"]


def test_TC_EX_06_five_player_round_two_multiplier() -> None:
    t = Table(players=5).positions(0, 1, 3, 4, 2).political(2, round=2)
    eco = t.p(2).tracks["ECO"]
    t.play("position p3")
    assert t.p(2).tracks["ECO"] == eco - 2
    t = Table(players=5).positions(0, 1, 3, 4, 2).political(2, round=3)
    eco = t.p(2).tracks["ECO"]
    t.play("position p3")
    assert t.p(2).tracks["ECO"] == eco - 4


def test_taken_positions_are_not_offered_and_order_follows_old_positions() -> None:
    t = Table(players=3).positions(2, 0, 1).political(2)
    assert t.state.order == [2, 0, 1]
    t.play("position p2")
    assert t.state.current == 0
    assert "position p2" not in t.legal()
    with pytest.raises(IllegalAction, match="position p3"):
        t.play("position p2")
    with pytest.raises(IllegalAction, match="Free positions: P1, P3, P4"):
        t.game.apply(t.state, 0, Action("position", pos=2))


def test_loans_pay_for_a_position() -> None:
    t = Table(players=4).positions(0, 1, 2, 3).political(0, round=3).tracks(0, ECO=2, PRE=0)
    t.play("position p1")  # $3 x 4 = $12 from $2: 4 loans -> $14 - 12 = $2
    assert t.p(0).tracks["ECO"] == 2 and t.p(0).pre == -4


def test_status_names_start_positions_in_words() -> None:
    from engine.capitals.builder import GAME
    from engine.capitals.view import awaiting

    t = Table(players=4).positions(0, 1, 2, 3).political(0)
    t.play("position p2")
    lines = GAME.status_lines(t.state, None)
    assert any("(Start position 2)" in line for line in lines), lines
    assert any("(no Start position yet)" in line for line in lines), lines
    assert not any("(P" in line for line in lines)
    assert " — " not in awaiting(t.state) and awaiting(t.state).endswith(" to buy a Start position")
