"""One scenario per spec decision that changes play (D-nn), each named by its id."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.capitals.builder import Table, cell
from engine.capitals.data import BOARD, TILES, Act, Delta
from engine.capitals.expo import evaluation, final_payment
from engine.capitals.grid import perimeter_vertices, placements
from engine.capitals.tourism import destinations, tourism_phase
from engine.capitals.tracks import Event, advance_progress


def test_D_04_attraction_range_is_inclusive() -> None:
    t = Table(players=4).tracks(0, CUL=9).tracks(1, CUL=6).tracks(2, CUL=7).tracks(3, CUL=8)
    _, dest = destinations(t.state)
    assert dest[1] == 0 and dest[2] == 2


def test_D_05_pass_bonus_may_be_money() -> None:
    t = Table().positions(0, 1, 2, 3).tracks(0, ECO=5).execution(0)
    t.play("pass money")
    assert t.p(0).tracks["ECO"] == 6


def test_D_06_final_payment_price_and_alternative(monkeypatch: pytest.MonkeyPatch) -> None:
    t = Table(players=3).positions(1, 0, 2).tracks(0, ECO=30)
    final_payment(t.state)
    assert t.p(0).tracks["ECO"] == 30 - 3 * 3
    monkeypatch.setitem(BOARD.c, "final_payment", "money")
    t = Table(players=3).positions(1, 0, 2).tracks(0, ECO=30)
    final_payment(t.state)
    assert t.p(0).tracks["ECO"] == 30 - 3


def test_D_08_hotel_is_a_tourism_tile() -> None:
    t = Table()
    assert TILES[t.p(0).city[(0, 0)].tile].type == "TOU"
    assert placements(t.p(0), "TOU")[cell("o13")] == 2  # off-site and no TOU neighbour


def test_D_13_marker_destinations_on_the_perimeter() -> None:
    t = Table()
    for c, name in (("m12", "Market"), ("n12", "Bakery")):
        t.city(0, name, c)
    options = perimeter_vertices(t.p(0), 0)
    assert cell("n14") not in options  # the other marker
    p = t.p(0)
    for v in options:
        around = [(v[0] - 1, v[1] - 1), (v[0], v[1] - 1), (v[0] - 1, v[1]), v]
        assert 0 < sum(c in p.city for c in around) < 4


def test_D_14_loans_at_zero_prestige() -> None:
    t = Table().clear_rows().row(1, "Market").tracks(0, PRE=0, ECO=1).building(0)
    t.play("build market m12")
    assert t.p(0).pre == -1 and t.p(0).tracks["ECO"] == 2


def test_D_15_and_D_16_upgrades_are_automatic_and_stop_at_the_top_level() -> None:
    t = Table().city(0, "Park", "m12").tracks(0, PRG=5, CUL=0)
    advance_progress(t.state, Event(0), 1)
    assert t.p(0).level == 2 and t.p(0).tracks["CUL"] == 2
    t.station(0, 6, cubes=0).tracks(0, PRG=5)
    advance_progress(t.state, Event(0), 1)
    assert t.p(0).level == 6 and t.p(0).nrg == 0 and t.p(0).tracks["CUL"] == 2


def test_D_17_tourists_move_only_in_the_tourism_phase() -> None:
    t = Table(players=3).tracks(0, CUL=2).tracks(1, CUL=9).tracks(2, CUL=5)
    tourism_phase(t.state)
    where = [(x.owner, x.city, x.cell) for x in t.state.tourists]
    from engine.capitals.flow import begin_relocate, slide_and_refill

    begin_relocate(t.state)
    slide_and_refill(t.state)
    assert [(x.owner, x.city, x.cell) for x in t.state.tourists] == where


def test_D_21_exchange_costs_must_be_paid_in_full_money_may_be_loaned() -> None:
    t = Table().city(0, "Dillon Residences", "m12").tracks(0, CUL=1).positions(0, 1, 2, 3).execution(0)
    assert not any(m.startswith("activate dillon") for m in t.legal())
    t = (Table(players=4).city(0, "Brownstone Row", "m12").tracks(0, ECO=1, PRE=0, CUL=0)
         .positions(0, 1, 2, 3).execution(0))
    t.play("activate brownstone-row")
    assert t.p(0).tracks["CUL"] == 3 and t.p(0).pre == -2 and t.p(0).tracks["ECO"] == 2


def test_D_22_each_player_public_services_icons_are_one_event() -> None:
    t = Table(players=3).tracks(0, PS=-6, CUL=1, POP=0, PRE=0, LAB=0)
    evaluation(t.state, final=False)
    # CUL-3 from 1 passes the bottom once (-1), POP-1 from 0 passes once (-1)
    from engine.capitals.expo import labour_prestige, ps_ranking

    rank = ps_ranking(t.state).index(0)
    assert t.p(0).pre == labour_prestige(0) - 1 - 1 - 2 * rank


def test_D_27_tourist_follows_a_new_leader() -> None:
    dan, eva, fay = 0, 1, 2
    t = Table(players=3).tracks(dan, CUL=1).tracks(eva, CUL=8).tracks(fay, CUL=5)
    tourism_phase(t.state)
    assert next(x for x in t.state.tourists if x.owner == dan).city == eva
    t.tracks(fay, CUL=12)
    tourism_phase(t.state)
    dans = next(x for x in t.state.tourists if x.owner == dan)
    assert dans.city == fay and dans.cell is None


def test_D_28_pay_immediates_are_mandatory() -> None:
    t = Table().clear_rows().row(0, "Arc de Triomphe").tracks(0, ECO=1, PRE=0).building(0)
    assert any(m.startswith("build arc de triomphe") for m in t.legal())
    t.play("build arc-de-triomphe m12")
    assert t.p(0).pre == -4 and t.p(0).tracks["ECO"] == 1


def test_D_31_alternative_floor_of_zero(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOARD.c, "min_eco_after_payment", 0)
    t = Table(players=3).positions(0, 1, 2).tracks(0, ECO=12, PRE=20)
    final_payment(t.state)
    assert t.p(0).tracks["ECO"] == 0 and t.p(0).pre == 20  # TC-EX-48's alternative reading


def test_D_32_per_player_tourist_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOARD.c, "tourist_limit", "per_player")
    t = (Table(players=3).city(0, "Restaurant", "m12").city(0, "Bakery", "n12").tourist(1, 0).tourist(2, 0)
         .positions(0, 1, 2).station(0, 4, cubes=10).execution(0))
    t.play("activate restaurant tourists blue green")
    assert "activate bakery" in t.legal()
    assert not any("tourists" in m for m in t.legal())  # the Red tourist could pay per marker


def test_D_34_allowance_is_re_read_after_an_upgrade(monkeypatch: pytest.MonkeyPatch) -> None:
    plant = TILES["I-24"]
    monkeypatch.setitem(TILES, "I-24", replace(plant, act=Act(0, (), (Delta("PRG", 1),))))
    t = Table().city(0, "Steam Engine Plant", "m12").station(0, 3, cubes=10).tracks(0, PRG=5, CUL=5)
    t.positions(0, 1, 2, 3).execution(0)
    t.play("activate steam-engine-plant")
    assert t.p(0).level == 4 and t.state.current == 0  # level 4 allows a second activation
    t.play("activate hotel")
    assert t.state.current == 1


def test_D_37_public_services_numbering() -> None:
    assert BOARD.tracks["PS"].max == 6
    assert [d.text() for d in BOARD.ps_icons[3]] == ["PRG+1"]
