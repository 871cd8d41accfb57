"""Placement rules A and B, their penalties, where a rule-breaking tile may go, and
construction markers (spec §8, D-12, D-13, D-35)."""

from __future__ import annotations

from engine.capitals.builder import Table, cell
from engine.capitals.grid import placements, sites


def test_TC_EX_07_placement_penalties() -> None:
    # (a) a Market on a construction site: the city's first COM tile -> no penalty
    t = Table().clear_rows().row(0, "Market").tracks(0, PRE=0).building(0)
    t.play("build market m12")
    assert t.p(0).pre == 0
    # (b) a Science Center on a site with no PUB tile adjacent -> -2
    t = (Table().clear_rows().row(0, "Science Center").city(0, "Market", "l13")
         .markers(0, "l13", "n14").tracks(0, PRE=0).building(0))
    assert cell("k13") in sites(t.p(0))
    t.play("build science-center k13")
    assert t.p(0).pre == -2
    # (c) an Arc de Triomphe on no site with no TOU tile adjacent -> -4
    t = Table().clear_rows().row(0, "Arc de Triomphe").tracks(0, PRE=0, ECO=30).building(0)
    t.play("build arc-de-triomphe o13")
    assert t.p(0).pre == -4


def test_rule_breaking_tile_goes_next_to_the_city_only_D_12() -> None:
    t = Table()
    spots = placements(t.p(0), "COM")
    assert cell("o13") in spots and spots[cell("o13")] == 1
    assert cell("p13") not in spots  # not touching the city
    assert all(spots[c] == 0 for c in sites(t.p(0)))


def test_lake_counts_as_a_neighbour_for_rule_breaking_tiles_D_35() -> None:
    t = Table(players=3, prosperity=True)
    t.city(0, t.p(0).hand[0], "o13", lake=True)
    assert cell("p13") in placements(t.p(0), "IND")


def test_TC_R_02_full_markers_offer_no_sites() -> None:
    t = Table()
    for c in ("m12", "n12", "m14", "n14"):
        t.city(0, {"m12": "Market", "n12": "Bakery", "m14": "School", "n14": "Park"}[c], c)
    p = t.p(0)
    assert sites(p) == set()
    assert all(v >= 1 for v in placements(p, "RES").values())


def test_TC_EX_40_construction_marker_relocation() -> None:
    t = Table(players=3).positions(0, 1, 2)
    for c, name in (("m12", "Market"), ("n12", "Bakery"), ("m14", "School")):
        t.city(0, name, c)
    # marker M at n13 is full; marker N at n14 still has n14 free
    t.state.round = 2
    from engine.capitals.flow import advance, begin_relocate

    begin_relocate(t.state)
    advance(t.state)
    assert t.state.phase == "relocate" and t.state.current == 0 and t.state.relocating == 0
    moves = t.legal()
    assert moves and all(m.startswith("relocate ") for m in moves)
    assert "relocate n14" not in moves  # the other marker's corner
    t.play(moves[0])
    assert t.p(0).markers[1] == cell("n14")
    assert t.p(0).markers[0] != cell("n13")
