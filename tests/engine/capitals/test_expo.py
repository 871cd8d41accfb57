"""World Expo Evaluations, station upgrades, the final payment and final scoring
(spec §9.7, §11, §13, D-06, D-07, D-25, D-31)."""

from __future__ import annotations

from engine.capitals.builder import Table, cell
from engine.capitals.expo import (
    evaluation,
    final_order,
    final_payment,
    final_scoring,
    labour_prestige,
    ps_ranking,
    unemployment,
)
from engine.capitals.flow import after_management
from engine.capitals.tracks import Event, advance_progress


def test_TC_EX_23_unemployment() -> None:
    assert unemployment(8, 6) == -2
    assert unemployment(10, 4) == -3
    assert unemployment(5, 5) == 0


def test_TC_EX_24_public_services_icon_at_an_evaluation() -> None:
    t = Table(players=3).tracks(0, PS=3, PRG=2)
    evaluation(t.state, final=False)
    assert t.p(0).prg == 3
    t = Table(players=3).tracks(0, PS=3, PRG=5)
    evaluation(t.state, final=False)
    assert t.p(0).level == 2  # the +1 Progress crossed the upgrade symbol


def test_TC_EX_25_public_services_ranking() -> None:
    green, black, purple = 0, 1, 2
    t = Table(players=3).positions(0, 1, 2).tracks(green, PS=6).tracks(black, PS=4).tracks(purple, PS=2)
    for seat in range(3):
        t.tracks(seat, PRE=0, LAB=3, POP=3, CUL=5)
    base = labour_prestige(3)
    evaluation(t.state, final=False)
    assert [t.p(s).pre - base for s in (green, black, purple)] == [0, -2, -4]
    t = Table(players=3).positions(0, 1, 2).tracks(green, PS=6).tracks(black, PS=4, ECO=5).tracks(purple, PS=4, ECO=9)
    assert ps_ranking(t.state) == [green, purple, black]
    t.tracks(purple, ECO=5)
    assert ps_ranking(t.state) == [green, black, purple]


def test_TC_EX_26_cube_clearing() -> None:
    t = Table(players=3).city(0, "Market", "m12", cubes=3).tourist(1, 0, "m12").tracks(0, NRG=3)
    t.state.round = 3
    after_management(t.state, 3)
    assert t.p(0).city[cell("m12")].cubes == 3
    after_management(t.state, 4)
    assert t.p(0).city[cell("m12")].cubes == 0
    assert t.p(0).nrg == 3
    assert next(x for x in t.state.tourists if x.owner == 1).cell == cell("m12")


def test_TC_EX_35_final_conversions() -> None:
    t = Table(players=3).tracks(0, NRG=11, ECO=14, CUL=15, PRG=4, PRE=0)
    final_scoring(t.state)
    p = t.p(0)
    assert p.pre == 16 and p.nrg == 3 and p.tracks["ECO"] == 2 and p.tracks["CUL"] == 15
    assert p.final["energy"] == 2 and p.final["money"] == 3 and p.final["culture"] == 7 and p.final["progress"] == 4


def test_TC_EX_36_station_upgrade_priority_and_carry_over() -> None:
    ana, ben = 0, 1
    t = Table(players=3).tracks(ana, NRG=3, PRG=5).tracks(ben, NRG=0, PRG=5)
    advance_progress(t.state, Event(ana), 1)
    assert t.p(ana).level == 2 and t.p(ana).nrg == 9
    advance_progress(t.state, Event(ben), 1)
    assert t.p(ben).nrg == 5


def test_TC_R_05_simultaneous_upgrades_at_an_evaluation_in_start_order() -> None:
    t = Table(players=3).positions(2, 0, 1)
    for seat in range(3):
        t.tracks(seat, PS=5, PRG=5, NRG=0)
    evaluation(t.state, final=False)
    assert [t.p(s).nrg for s in (2, 0, 1)] == [6, 5, 5]


def test_TC_EX_48_final_start_payment_keeps_the_dollar_floor() -> None:
    t = Table(players=3).positions(0, 1, 2).tracks(0, ECO=12, PRE=20, NRG=0, CUL=0, PRG=0)
    final_payment(t.state)
    assert t.p(0).tracks["ECO"] == 3 and t.p(0).pre == 19
    final_scoring(t.state)
    assert t.p(0).final["money"] == 0 and t.p(0).tracks["ECO"] == 3


def test_TC_EX_33_city_council_before_the_final_labour_scoring() -> None:
    t = Table(players=3).city(0, "City Council", "m12").tracks(0, POP=10, LAB=2, PRE=0)
    for seat in range(3):
        t.tracks(seat, PS=0)
    evaluation(t.state, final=True)
    rank = ps_ranking(t.state).index(0)
    assert t.p(0).tracks["LAB"] == 5
    assert t.p(0).pre == labour_prestige(5) + unemployment(10, 5) - 2 * rank


def test_end_game_effects_count_other_tiles_only() -> None:
    t = (Table(players=4).city(0, "Recycling Plant", "m12").city(0, "Barrel Factory", "n12")
         .city(0, "Expo Pavilion", "l13").tracks(0, NRG=0, ECO=0, CUL=0, PRG=0, PRE=0))
    final_scoring(t.state)
    assert t.p(0).final["end_effects"] == 1 + 1  # one other IND; one other PUB (the City Hall)


def test_final_tie_breaks_D_07() -> None:
    t = Table(players=3).positions(0, 1, 2)
    for seat in range(3):
        t.tracks(seat, PRE=10, NRG=2, ECO=1)
    t.tracks(2, NRG=3)
    assert final_order(t.state)[0] == 2
    t.tracks(2, NRG=2, ECO=2)
    assert final_order(t.state)[0] == 2
    t.tracks(2, ECO=1)
    assert final_order(t.state) == [0, 1, 2]
