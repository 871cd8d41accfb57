"""Setup for 2-5 players, the two-player changes and the prosperity hands (spec §5)."""

from __future__ import annotations

import pytest

from engine.capitals.builder import GAME
from engine.capitals.data import BOARD, ERA_TILES, TILES
from engine.capitals.state import NEUTRAL
from engine.core.errors import InvalidOptions


@pytest.mark.parametrize(("n", "size"), [(2, 4), (3, 5), (4, 6), (5, 7)])
def test_TC_EX_01_projects_area_size_at_setup(n: int, size: int) -> None:
    s = GAME.new_game(3, n)
    assert len(s.rows[0]) == size and s.rows[1] == [] and s.rows[2] == []
    assert all(TILES[t].era == 1 for t in s.rows[0])


def test_TC_EX_02_start_track_setup_payments() -> None:
    s = GAME.new_game(5, 4)
    e0 = BOARD.tracks["ECO"].start
    by_pos = {p.pos: p.tracks["ECO"] for p in s.players}
    assert sorted(by_pos) == [1, 2, 3, 4]  # the last marker is on the "4" icon position
    assert by_pos == {1: e0 - 3, 2: e0 - 3, 3: e0 - 2, 4: e0 - 2}


def test_TC_EX_05_three_players_seat_on_p1_to_p3() -> None:
    s = GAME.new_game(1, 3)
    assert sorted(p.pos for p in s.players) == [1, 2, 3]


def test_city_centre_markers_and_station() -> None:
    s = GAME.new_game(1, 4)
    p = s.players[0]
    assert set(p.city) == {(0, 0), (1, 0)}
    assert TILES[p.city[(0, 0)].tile].name == "Hotel" and TILES[p.city[(1, 0)].tile].name == "City Hall"
    assert p.markers == [(1, 0), (1, 1)]
    assert p.nrg == 4 and p.level == 1
    assert all(t.city == t.owner and t.cell is None for t in s.tourists)


def test_four_plus_tiles_removed_with_two_or_three_players() -> None:
    for n in (2, 3):
        s = GAME.new_game(2, n)
        in_play = [t for d in s.decks.values() for t in d] + s.rows[0]
        assert not any(TILES[t].four_plus for t in in_play)
    s = GAME.new_game(2, 4)
    assert sum(len(d) for d in s.decks.values()) + len(s.rows[0]) == 78


def test_two_player_trim_neutral_and_decks() -> None:
    s = GAME.new_game(9, 2)
    sizes = {e: len(s.decks[e]) + (len(s.rows[0]) if e == 1 else 0) for e in (1, 2, 3)}
    assert sizes == {1: 15, 2: 15, 3: 13}
    for e in (1, 2, 3):
        kept = [t for t in ERA_TILES[e] if not TILES[t].four_plus]
        present = set(s.decks[e]) | (set(s.rows[0]) if e == 1 else set())
        gone = [t for t in kept if t not in present]
        assert sorted(TILES[t].type for t in gone) == ["COM", "IND", "PUB", "RES", "TOU"]
    assert s.neutral_cul == BOARD.tracks["CUL"].start
    assert next(t for t in s.tourists if t.owner == NEUTRAL).city == NEUTRAL
    assert sorted(p.pos for p in s.players) == [1, 2]


@pytest.mark.parametrize(("n", "hand"), [(2, 6), (3, 6), (4, 6), (5, 5)])
def test_prosperity_hands(n: int, hand: int) -> None:
    s = GAME.new_game(4, n, {"prosperity": True})
    assert all(len(p.hand) == hand for p in s.players)
    assert all(TILES[t].type == "PRO" for p in s.players for t in p.hand)
    assert not any(p.hand for p in GAME.new_game(4, n).players)


def test_bad_options_and_player_counts_are_refused() -> None:
    with pytest.raises(InvalidOptions):
        GAME.new_game(1, 6)
    with pytest.raises(InvalidOptions):
        GAME.new_game(1, 3, {"expansion": True})
    with pytest.raises(InvalidOptions):
        GAME.new_game(1, 3, {"prosperity": "maybe"})
