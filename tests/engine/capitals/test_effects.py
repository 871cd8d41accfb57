"""Immediate, construction and permanent effects, the track primitive and the POP-before-LAB
batch order (spec §7, §3.1, D-09, D-10, D-20)."""

from __future__ import annotations

from engine.capitals.builder import Table


def build(t: Table, name: str, at: str, seat: int = 0) -> Table:
    """Put ``name`` in the $0 row and build it on ``at`` as ``seat``."""
    return t.clear_rows().row(0, name).building(seat).play(f"build {name.lower().replace(' ', '-')} {at}")


def test_TC_EX_08_plain_immediate_effect() -> None:
    t = Table().tracks(0, PRG=0, LAB=2, POP=5, PS=1)
    build(t, "Stock Exchange", "m12")
    p = t.p(0)
    assert (p.prg, p.tracks["LAB"], p.tracks["PS"], p.tracks["POP"]) == (3, 4, -1, 5)


def test_TC_EX_09_conditional_immediate_effect() -> None:
    t = Table().tracks(0, POP=12, CUL=0, PRG=0)
    build(t, "Aquarium", "m12")
    assert t.p(0).tracks["CUL"] == 3 + 4 and t.p(0).tracks["POP"] == 12
    t = Table().tracks(0, POP=2, CUL=0, PRG=0, ECO=1, PRE=0)
    build(t, "Aquarium", "m12")
    assert t.p(0).tracks["CUL"] == 3 and t.p(0).tracks["POP"] == 2 and t.p(0).pre == 0


def test_TC_EX_10_park_on_station_upgrade() -> None:
    t = Table().city(0, "Park", "l13").tracks(0, PRG=5, CUL=0)
    build(t, "Market", "m12")
    assert t.p(0).level == 2 and t.p(0).tracks["CUL"] == 2
    t.tracks(0, PRG=5)
    build(t, "Bakery", "n12")
    assert t.p(0).level == 3 and t.p(0).tracks["CUL"] == 4


def test_TC_EX_11_opera_house_counts_high_density_residential() -> None:
    t = (Table().city(0, "DaVinci Estate", "l13").city(0, "Victoria Terraces", "k13")
         .city(0, "Tudor Townhouses", "o13").tracks(0, CUL=0, PRG=0))
    build(t, "Opera House", "m12")
    assert t.p(0).tracks["CUL"] == 8 and t.p(0).prg == 2
    build(t, "King George Mansion", "m14")
    assert t.p(0).tracks["CUL"] == 8 + 3
    build(t, "Dillon Residences", "n14")
    assert t.p(0).tracks["CUL"] == 11


def test_TC_EX_12_school_counts_adjacent_residential() -> None:
    t = Table().city(0, "DaVinci Estate", "l12").city(0, "Tudor Townhouses", "l11").tracks(0, POP=3, PS=0, PRG=0)
    build(t, "School", "m12")
    p = t.p(0)
    assert (p.prg, p.tracks["PS"], p.tracks["POP"]) == (1, 2, 5)
    build(t, "Dillon Residences", "n12")  # adjacent to the School: its own POP+2, School +1
    assert t.p(0).tracks["POP"] == 5 + 2 + 1
    build(t, "Victoria Terraces", "n14")  # not adjacent to the School
    assert t.p(0).tracks["POP"] == 8 + 4


def test_TC_EX_13_track_end_symbol_once_per_build() -> None:
    t = Table().tracks(0, PS=6, NRG=4, PRG=0)
    build(t, "Hospital", "m14")
    assert t.p(0).tracks["PS"] == 6 and t.p(0).nrg == 4 + 3 and t.p(0).prg == 1


def test_TC_EX_45_labour_cap() -> None:
    t = Table().tracks(0, POP=3, LAB=2, PRG=0)
    build(t, "Cog Factory", "m12")
    assert (t.p(0).tracks["POP"], t.p(0).tracks["LAB"], t.p(0).prg) == (5, 5, 1)


def test_TC_EX_46_pop_before_lab_across_one_build() -> None:
    t = Table().city(0, "Barrel Factory", "l12").tracks(0, POP=3, LAB=3, PRG=0)
    build(t, "Cog Factory", "m12")
    assert (t.p(0).tracks["POP"], t.p(0).tracks["LAB"], t.p(0).prg) == (6, 6, 1)


def test_TC_EX_50_museum_of_industry_D_09() -> None:
    t = Table().city(0, "Barrel Factory", "l13").city(0, "Iron Foundry", "o13").tracks(0, CUL=0, PRG=0)
    build(t, "Museum of Industry", "m12")
    assert t.p(0).tracks["CUL"] == 6 and t.p(0).prg == 2
    build(t, "Steam Engine Plant", "n14")
    assert t.p(0).tracks["CUL"] == 8
    build(t, "Market", "m14")
    assert t.p(0).tracks["CUL"] == 8


def test_TC_EX_51_brick_works_counts_distinct_types_D_10() -> None:
    t = (Table().city(0, "DaVinci Estate", "o13").city(0, "Tudor Townhouses", "p13")
         .city(0, "Iron Foundry", "p12").markers(0, "p13", "n14").tracks(0, POP=15, LAB=1, PRG=0))
    build(t, "Brick Works", "o12")
    p = t.p(0)
    assert (p.tracks["LAB"], p.tracks["POP"], p.prg) == (1 + 1 + 2, 16, 1)
    t.markers(0, "n13", "n14")
    build(t, "Market", "n12")  # a new type (COM) next to the Brick Works: +1, plus the Market's own +1
    assert t.p(0).tracks["LAB"] == 4 + 2
    t.markers(0, "o12", "n14")
    build(t, "Bakery", "n11")  # a second COM neighbour: only the Bakery's own +1
    assert t.p(0).tracks["LAB"] == 6 + 1


def test_no_self_effects_on_build_and_city_counts_exclude_the_tile() -> None:
    t = Table().tracks(0, CUL=0, PRG=0)
    build(t, "Museum of Industry", "m12")
    assert t.p(0).tracks["CUL"] == 2


def test_labour_never_passes_population_and_pop_loss_drags_labour() -> None:
    from engine.capitals.tracks import Event, change

    t = Table().tracks(0, POP=4, LAB=4)
    change(t.state, Event(0), "LAB", 3)
    assert t.p(0).tracks["LAB"] == 4 and t.p(0).pre == 0  # lost, no end symbol
    change(t.state, Event(0), "POP", -2)
    assert t.p(0).tracks["LAB"] == 2


def test_bottom_end_symbol_once_per_event() -> None:
    from engine.capitals.tracks import Event, change

    t = Table().tracks(0, PS=-5, PRE=0)
    ev = Event(0)
    change(t.state, ev, "PS", -3)
    change(t.state, ev, "PS", -1)
    assert t.p(0).tracks["PS"] == -6 and t.p(0).pre == -2
    change(t.state, Event(0), "PS", -1)
    assert t.p(0).pre == -4


def test_end_symbol_texts_name_the_track() -> None:
    from engine.capitals.tracks import Event, change

    ev = Event(0)
    t = Table().tracks(0, ECO=59, PS=6)
    change(t.state, ev, "ECO", 5)
    change(t.state, ev, "PS", 1)
    assert ev.notes == ["reached the top of Economy: +1 prestige",
                        "reached the top of Public Services: +3 energy cubes"]
