"""Money and the Extra Tax Action: minimum loans, the $1 floor, mandatory payments and
conditionals that cannot be funded (spec §10, §7.1)."""

from __future__ import annotations

from engine.capitals.builder import Table
from engine.capitals.tracks import Event, pay


def test_TC_EX_27_loans_for_a_large_payment() -> None:
    t = Table().tracks(0, ECO=1, PRE=10)
    assert pay(t.state, Event(0), 11) == 4
    assert t.p(0).pre == 6 and t.p(0).tracks["ECO"] == 2


def test_TC_EX_28_keep_one_dollar_after_paying() -> None:
    t = Table().tracks(0, ECO=1, PRE=0)
    assert pay(t.state, Event(0), 14) == 5
    assert t.p(0).tracks["ECO"] == 2 and t.p(0).pre == -5


def test_TC_R_01_paying_all_your_money_takes_a_loan() -> None:
    t = Table().tracks(0, ECO=4, PRE=0)
    assert pay(t.state, Event(0), 4) == 1
    assert t.p(0).tracks["ECO"] == 3 and t.p(0).pre == -1


def test_TC_EX_29_arc_de_triomphe_bought_with_loans() -> None:
    t = Table().clear_rows().row(1, "Arc de Triomphe").tracks(0, ECO=1, PRE=0, CUL=2, PRG=0).building(0)
    t.play("build arc-de-triomphe m12")
    p = t.p(0)
    assert p.pre == -5 and p.tracks["CUL"] == 11 and p.tracks["ECO"] == 2
    assert p.prg == 1  # stand-in extra PRG+1


def test_TC_EX_30_trade_square_conditional_cannot_be_funded() -> None:
    for eco, gain in ((1, 0), (10, 1), (25, 2)):
        t = Table().clear_rows().row(0, "Trade Square").tracks(0, ECO=eco, PRE=0, CUL=2, PS=0).building(0)
        t.play("build trade-square m12")
        p = t.p(0)
        assert p.pre == gain and p.tracks["ECO"] == eco and p.loans == 0
        assert (p.tracks["CUL"], p.tracks["PS"], p.prg) == (4, -1, 1)  # stand-in extras


def test_TC_EX_49_prestige_may_go_negative() -> None:
    t = Table().clear_rows().row(2, "Market").tracks(0, ECO=1, PRE=0).building(0)
    t.play("build market m12")
    assert t.p(0).pre == -2 and t.p(0).tracks["ECO"] == 3
