"""Tourism phase: Highest Culture, tie-breaks, attraction levels, the two-player neutral and
where tourists go (spec §9.3, §12, §14)."""

from __future__ import annotations

from engine.capitals.builder import Table
from engine.capitals.state import NEUTRAL
from engine.capitals.tourism import destinations, tourism_phase

PURPLE, GREEN, RED, BLACK, BLUE = 3, 2, 0, 4, 1


def culture(t: Table, **by_seat: int) -> Table:
    for seat, cul in by_seat.items():
        t.tracks(int(seat[1:]), CUL=cul)
    return t


def test_TC_EX_14_attraction_level_two() -> None:
    t = culture(Table(players=5), s3=15, s2=12, s0=9, s4=7, s1=4)
    high, dest = destinations(t.state)
    assert high == PURPLE
    assert {o: d for o, d in dest.items() if d != o} == {RED: PURPLE, BLACK: PURPLE, BLUE: PURPLE}


def test_TC_EX_15_attraction_level_three() -> None:
    t = culture(Table(players=5), s3=24, s2=12, s0=9, s4=7, s1=4)
    _, dest = destinations(t.state)
    assert all(dest[o] == PURPLE for o in range(5))


def test_TC_EX_16_level_held_above_its_threshold() -> None:
    t = culture(Table(players=4), s0=10, s1=8, s2=6, s3=3)
    high, dest = destinations(t.state)
    assert high == 0 and dest == {0: 0, 1: 1, 2: 0, 3: 0}


def test_TC_EX_39_highest_culture_tie_break() -> None:
    t = culture(Table(players=3), s0=12, s1=12, s2=3).tracks(0, ECO=8).tracks(1, ECO=11)
    assert destinations(t.state)[0] == 1
    t.tracks(0, ECO=11).positions(0, 1, 2)
    assert destinations(t.state)[0] == 0
    t.positions(1, 0, 2)
    assert destinations(t.state)[0] == 1


def test_TC_EX_37_tourist_persistence() -> None:
    dan, eva, fay = 0, 1, 2
    t = culture(Table(players=3), s0=2, s1=8, s2=5)
    tourism_phase(t.state)
    dans = next(x for x in t.state.tourists if x.owner == dan)
    assert dans.city == eva and dans.cell is None
    dans.cell = (0, 0)  # Eva placed it on a tile when paying
    tourism_phase(t.state)
    assert dans.city == eva and dans.cell == (0, 0)
    culture(t, s0=6, s2=3)
    tourism_phase(t.state)
    fays = next(x for x in t.state.tourists if x.owner == fay)
    assert fays.city == eva and fays.cell is None
    assert dans.city == dan and dans.cell is None


def test_TC_EX_42_two_player_neutral() -> None:
    ana, ben = 0, 1
    t = culture(Table(players=2), s0=7, s1=4)
    t.state.neutral_cul = 5
    high, dest = destinations(t.state)
    assert high == ana and dest[NEUTRAL] == ana and dest[ben] == ana
    from engine.capitals.flow import begin_relocate

    begin_relocate(t.state)
    assert t.state.neutral_cul == 6
    t = culture(Table(players=2), s0=7, s1=5)
    t.state.neutral_cul = 5
    high, dest = destinations(t.state)
    assert dest[ben] == ben and dest[NEUTRAL] == ana


def test_two_player_neutral_ahead_of_both_players_is_never_highest_D_19() -> None:
    t = culture(Table(players=2), s0=3, s1=4)
    t.state.neutral_cul = 10
    high, dest = destinations(t.state)
    assert high == 1 and dest[0] == 1 and dest[NEUTRAL] == 1


def test_TC_EX_47_level_three_keeps_its_limit() -> None:
    t = culture(Table(players=4), s0=27, s1=25, s2=20, s3=5)
    high, dest = destinations(t.state)
    assert high == 0 and dest == {0: 0, 1: 1, 2: 0, 3: 0}


def test_highest_culture_marker_is_given() -> None:
    t = culture(Table(players=3), s0=3, s1=9, s2=4)
    tourism_phase(t.state)
    assert t.state.hc == 1
