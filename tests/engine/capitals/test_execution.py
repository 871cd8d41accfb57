"""Execution phase: activation costs, cubes staying on tiles, tourists as payment, the pass
bonus and the number of activations (spec §9.4, §11, §12)."""

from __future__ import annotations

import pytest

from engine.capitals.builder import Table, cell
from engine.capitals.effects import activation_cost
from engine.core.errors import IllegalAction


def cost(t: Table, seat: int, at: str) -> int:
    return activation_cost(t.p(seat), t.state, seat, cell(at))


def test_TC_EX_17_TC_EX_18_activation_cost_fresh_and_repeated() -> None:
    t = Table().city(0, "DaVinci Estate", "m12").station(0, 4, cubes=20).positions(0, 1, 2, 3).execution(0)
    assert cost(t, 0, "m12") == 2
    t.play("activate davinci-estate")
    assert t.p(0).city[cell("m12")].cubes == 2 and cost(t, 0, "m12") == 4
    t.play("activate davinci-estate")
    assert t.p(0).city[cell("m12")].cubes == 6 and cost(t, 0, "m12") == 8
    assert t.p(0).nrg == 20 - 6


def test_TC_EX_19_paying_with_tourists() -> None:
    red, black = 0, 4
    t = (Table(players=5).city(red, "Restaurant", "m12").station(red, 1, cubes=5)
         .tourist(black, red).positions(0, 1, 2, 3, 4).execution(red))
    t.play("activate restaurant tourists red black")
    tile = cell("m12")
    on = sorted(x.owner for x in t.state.tourists if x.city == red and x.cell == tile)
    assert on == [red, black] and t.p(red).city[tile].cubes == 1 and t.p(red).nrg == 4


def test_TC_EX_20_a_tourist_cannot_pay_for_its_own_tile() -> None:
    green = 2
    t = (Table(players=3).city(green, "DaVinci Estate", "m12", cubes=1).city(green, "Market", "n12")
         .tourist(green, green, "m12").station(green, 1, cubes=5).positions(2, 0, 1))
    t.state.hc = green  # two activations
    t.execution(green)
    assert cost(t, green, "m12") == 4
    assert "activate davinci-estate tourists green" not in t.legal()
    with pytest.raises(IllegalAction):
        t.play("activate davinci-estate tourists green")
    t.play("activate market tourists green")
    assert t.p(green).nrg == 5 and cost(t, green, "m12") == 3


def test_TC_EX_21_jefferson_apartments_and_art_museum() -> None:
    blue = 1
    t = (Table().city(blue, "Jefferson Apartments", "m12").city(blue, "Art Museum", "n12")
         .tourist(blue, blue, "m13").tracks(blue, CUL=10, POP=6).station(blue, 1, cubes=3)
         .positions(1, 0, 2, 3).execution(blue))
    t.play("activate jefferson-apartments tourists blue")
    assert t.p(blue).tracks["CUL"] == 9 and t.p(blue).tracks["POP"] == 8 and t.p(blue).nrg == 2


def test_TC_EX_44_no_self_effects_on_activation() -> None:
    t = Table().city(0, "Market", "m12").city(0, "Bakery", "n12").tracks(0, ECO=5).positions(0, 1, 2, 3).execution(0)
    t.play("activate market")
    assert t.p(0).tracks["ECO"] == 5 + 4 + 4


def test_TC_EX_38_pass_bonus() -> None:
    t = Table().positions(0, 1, 2, 3)
    t.state.hc = 0
    t.execution(0)
    nrg = t.p(0).nrg
    assert "pass cube" in t.legal() and "pass money" in t.legal() and "done" not in t.legal()
    t.play("pass cube")
    assert t.p(0).nrg == nrg + 1
    t = Table().positions(0, 1, 2, 3).tracks(0, CUL=5)
    t.state.hc = 0
    t.execution(0)
    t.play("activate hotel")
    assert "done" in t.legal() and "pass cube" not in t.legal()
    nrg = t.p(0).nrg
    t.play("done")
    assert t.p(0).nrg == nrg


def test_TC_R_06_highest_culture_with_level_one_station_has_two_activations() -> None:
    t = Table().positions(0, 1, 2, 3).tracks(0, CUL=5, ECO=5).station(0, 1, cubes=10)
    t.state.hc = 0
    t.execution(0)
    t.play("activate hotel")
    assert t.state.current == 0
    t.play("activate city-hall")
    assert t.state.current == 1


def test_TC_R_07_a_tourist_moves_once_per_execution_phase_D_32() -> None:
    t = (Table().city(0, "Market", "m12").city(0, "Bakery", "n12").positions(0, 1, 2, 3)
         .tourist(0, 0).station(0, 4, cubes=10))
    t.execution(0)
    t.play("activate market tourists red")
    assert not any("tourists" in m for m in t.legal())


def test_TC_R_08_exchange_activation_with_an_insufficient_track() -> None:
    t = Table().city(0, "Tudor Townhouses", "m12").tracks(0, LAB=0).positions(0, 1, 2, 3).execution(0)
    assert not any(m.startswith("activate tudor") for m in t.legal())
    t.tracks(0, LAB=1)
    assert "activate tudor" in t.legal()


def test_TC_EX_41_activation_in_the_building_round() -> None:
    t = Table(players=2).clear_rows().row(0, "Bakery", "Market").positions(0, 1).building(0)
    t.play("build bakery m12", seat=0)
    t.play("build market m12", seat=1)
    assert t.state.phase == "execution" and t.state.current == 0
    assert "activate bakery" in t.legal()


def test_cubes_stay_on_tiles_until_the_evaluation() -> None:
    t = Table().city(0, "Market", "m12").positions(0, 1, 2, 3).execution(0)
    t.play("activate market")
    for seat in (1, 2, 3):
        t.play("pass cube", seat=seat)
    assert t.p(0).city[cell("m12")].cubes == 1
