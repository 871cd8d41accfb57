"""The prosperity module: requirements with ties, prosperity builds as builds, lakes
(spec §9.6, D-24, D-33, D-35, D-36)."""

from __future__ import annotations

from engine.capitals.builder import Table, cell
from engine.capitals.grid import placements


def pros_table(players: int = 3) -> Table:
    return Table(players=players, prosperity=True).positions(*range(players))


def test_TC_EX_31_three_pennants() -> None:
    t = pros_table().hand(0, "Three Pennants", "Almshouses").tracks(0, POP=9, CUL=0).tracks(1, POP=9)
    t.prosperity(0)
    t.play("prosper three-pennants m12")
    assert t.p(0).tracks["CUL"] == 4 + 2
    t = pros_table().hand(0, "Three Pennants", "Almshouses").tracks(0, POP=9).tracks(1, POP=10).prosperity(0)
    assert not any(m.startswith("prosper three") for m in t.legal())


def test_TC_EX_32_warehouse() -> None:
    t = pros_table().hand(0, "Warehouse", "Almshouses").city(0, "Iron Foundry", "l13").tracks(0, CUL=0, ECO=5)
    t.prosperity(0, round=6)  # after round 5: Era II
    t.play("prosper warehouse m12")
    assert t.p(0).tracks["CUL"] == 3
    t.tracks(0, LAB=1, CUL=5).execution(0)
    t.play("activate iron-foundry")
    assert t.p(0).tracks["ECO"] == 5 + 6


def test_TC_EX_33_city_council_build() -> None:
    t = pros_table().hand(0, "City Council", "Almshouses").city(1, "School", "m12").tracks(0, PRG=0, PS=0)
    t.prosperity(0)
    t.play("prosper city-council m12")
    assert t.p(0).prg == 1 and t.p(0).tracks["PS"] == 1


def test_TC_EX_34_lake() -> None:
    t = pros_table().hand(0, "Three Pennants", "Almshouses").tracks(0, POP=0, PRE=5).prosperity(0)
    nrg = t.p(0).nrg
    t.play("lake three-pennants o13")  # around no marker
    p = t.p(0)
    assert p.pre == 5 and p.nrg == nrg + 2 and p.city[cell("o13")].lake
    assert all(v == 0 for c, v in placements(p, "PRO").items() if c in {cell("m12"), cell("n12")})


def test_TC_EX_52_a_prosperity_build_triggers_construction_effects_D_33() -> None:
    def windmill() -> Table:
        return (pros_table().hand(0, "Savings Bank", "Three Pennants").city(0, "Heritage Windmill", "o13")
                .city(0, "DaVinci Estate", "p13").tracks(0, CUL=0, POP=0, ECO=1))

    t = windmill().prosperity(0)
    t.play("prosper savings-bank o12")
    assert t.p(0).tracks["CUL"] == 1
    t = windmill().prosperity(0)
    nrg = t.p(0).nrg
    t.play("lake savings-bank o12")
    assert t.p(0).tracks["CUL"] == 0 and t.p(0).nrg == nrg + 2


def test_TC_R_03_first_pro_ignores_rule_b_and_lakes_never_satisfy_it() -> None:
    t = pros_table().city(0, "Almshouses", "o13", lake=True)
    spots = placements(t.p(0), "PRO")
    assert spots[cell("m12")] == 0 and spots[cell("o12")] == 1
    t = pros_table().city(0, "Almshouses", "m12")
    spots = placements(t.p(0), "PRO")
    assert spots[cell("n12")] == 0 and spots[cell("m14")] == 1


def test_lake_needs_a_building_neighbour_D_36() -> None:
    t = pros_table().hand(0, "Three Pennants").city(0, "Almshouses", "o13", lake=True).prosperity(0)
    assert "lake three p13" not in t.legal()
    assert "lake three o12" in t.legal()


def test_requirement_ties_satisfy_and_neutral_is_ignored_D_24() -> None:
    t = pros_table(2).hand(0, "Village Green").tracks(0, CUL=3).tracks(1, CUL=3)
    t.state.neutral_cul = 0
    t.prosperity(0)
    assert any(m.startswith("prosper village") for m in t.legal())


def test_prosperity_hand_is_private() -> None:
    t = pros_table()
    view = t.game.view(t.state, 1)
    assert "hand" in view and all(p.get("hand") is None for p in view["players"])
    assert [h["id"] for h in view["hand"]] == t.p(1).hand
    assert t.game.view(t.state, None).get("hand") is None
