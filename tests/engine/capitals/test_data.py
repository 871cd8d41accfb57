"""Data files against the counts and fixed values the spec gives (spec §2, data file §3-8)."""

from __future__ import annotations

from collections import Counter

from engine.capitals.data import BOARD, ERA_TILES, PROSPERITY, STATION_LEVELS, STATIONS, TILES


def test_component_counts_match_spec_section_2() -> None:
    eras = Counter(t.era for t in TILES.values() if t.type != "PRO" and t.era)
    assert eras == {1: 27, 2: 27, 3: 24}
    starting = sum(t.copies for t in TILES.values() if t.era == 0 and t.type != "PRO")
    stations_start = STATIONS["S-PWR"].copies
    assert starting + stations_start == 15
    assert sum(1 for s in STATIONS.values() if s.level >= 2) == 25
    assert len(PROSPERITY) == 25
    total = sum(len(v) for v in ERA_TILES.values()) + 25 + 15 + len(PROSPERITY)
    assert total == 143


def test_type_mix_and_four_plus_per_era() -> None:
    mix = {e: Counter(TILES[i].type for i in ids) for e, ids in ERA_TILES.items()}
    assert mix[1] == {"RES": 6, "IND": 5, "COM": 5, "TOU": 6, "PUB": 5}
    assert mix[2] == {"RES": 6, "IND": 5, "COM": 5, "TOU": 6, "PUB": 5}
    assert mix[3] == {"RES": 5, "IND": 5, "COM": 5, "TOU": 5, "PUB": 4}
    four = {e: sum(TILES[i].four_plus for i in ids) for e, ids in ERA_TILES.items()}
    assert four == {1: 7, 2: 7, 3: 6}


def test_every_entry_carries_provenance() -> None:
    assert all(t.status for t in TILES.values())
    assert all(s.status for s in STATIONS.values())


def test_stations_sorted_by_cubes_and_levels_two_to_six() -> None:
    assert sorted(STATION_LEVELS) == [1, 2, 3, 4, 5, 6]
    for lvl, ids in STATION_LEVELS.items():
        cubes = [STATIONS[i].cubes for i in ids]
        assert cubes == sorted(cubes, reverse=True)
        if lvl >= 2:
            assert len(ids) == 5
    assert [STATIONS[i].cubes for i in STATION_LEVELS[2]] == [6, 5, 5, 4, 4]
    assert all(STATIONS[i].activations == 1 for lvl in (1, 2, 3) for i in STATION_LEVELS[lvl])
    assert all(STATIONS[i].activations > 1 for lvl in (4, 5, 6) for i in STATION_LEVELS[lvl])


def test_board_known_values() -> None:
    ps = BOARD.tracks["PS"]
    assert (ps.max, ps.top) == (6, {"NRG": 3})
    assert [d.text() for d in BOARD.ps_icons[3]] == ["PRG+1"]
    assert BOARD.attraction == ((1, 9, 6), (2, 14, 10), (3, 24, 24))
    assert [(p.money, p.mult) for p in BOARD.positions] == [(3, 4), (3, 3), (2, 3), (2, 2), (0, 2)]
    assert [p.icon for p in BOARD.positions] == [None, None, 3, 4, 5]
    assert BOARD.political_positions == {2: 3, 3: 4, 4: 4, 5: 5}
    assert len(BOARD.prosperity_rounds) == 5
    assert len(BOARD.labour_prestige) == BOARD.tracks["LAB"].max - BOARD.tracks["LAB"].min + 1


def test_known_tiles_parse_as_the_rulebook_says() -> None:
    by_name = {t.name: t for t in TILES.values()}
    arc = by_name["Arc de Triomphe"]
    assert arc.imm[0].kind == "pay" and arc.imm[0].cost == 12 and arc.imm[0].gain[0].text() == "CUL+9"
    ts = by_name["Trade Square"]
    assert (ts.imm[0].kind, ts.imm[0].n, ts.imm[0].of) == ("per", 10, "ECO")
    jeff = by_name["Jefferson Apartments"].act
    assert jeff is not None and jeff.printed == 1 and jeff.cost[0].text() == "CUL-3"
    hotel, hall = by_name["Hotel"], by_name["City Hall"]
    assert (hotel.type, hall.type) == ("TOU", "PUB")
    wh = by_name["Warehouse"]
    assert wh.imm[0].by_era == (1, 3, 5) and wh.perm[0].on == "activate" and wh.perm[0].filter == "IND"
    assert by_name["City Council"].end[0].kind == "pre_eval"


def test_no_conditional_counts_what_its_own_tile_changes_D_20() -> None:
    """Why the engine needs no order prompt: no tile's conditional counts a track that the
    same tile's own immediate effects change (the spec's D-20 prompt case never arises)."""
    for t in TILES.values():
        counted = {imm.of for imm in t.imm if imm.kind == "per"}
        changed = {g.track for imm in t.imm if imm.kind != "per" for g in imm.gain}
        changed |= {"ECO" for imm in t.imm if imm.kind == "pay"}
        assert not counted & changed, t.name
