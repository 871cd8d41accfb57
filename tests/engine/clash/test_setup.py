"""Setup for 2, 3 and 4 players and the options (rules section 3, 19)."""

from __future__ import annotations

import pytest

from engine.clash.builder import GAME
from engine.core.errors import InvalidOptions


@pytest.mark.parametrize(
    ("players", "capitals"), [(2, ["d2", "d7"]), (3, ["e4", "b7", "g8"]), (4, ["c2", "i2", "i8", "c8"])]
)
def test_starting_state(players: int, capitals: list[str]) -> None:
    s = GAME.new_game(5, players)
    assert [c.space for c in sorted(s.cities, key=lambda c: s.order.index(c.owner))] == capitals
    for seat, p in enumerate(s.pl):
        assert p.res == {"food": 2, "wood": 0, "ore": 0, "ideas": 0, "gold": 0}
        assert (p.mood_tokens, p.culture_tokens, p.culture_level, p.happiness_level) == (0, 0, 0, 0)
        assert p.advances == ["farming", "mining"]
        city = s.cities_of(seat)[0]
        assert (city.size, city.mood) == (1, "neutral")
        assert [(u.kind, u.space) for u in s.units if u.owner == seat] == [("settler", city.space)]
        assert s.terrain[city.space] == "fertile"
    homes = [sl for sl in s.slots if sl.home >= 0]
    assert len(homes) == players and all(sl.revealed for sl in homes)
    regular = [sl for sl in s.slots if sl.home < 0]
    assert not any(sl.revealed for sl in regular)
    assert len({sl.tile for sl in regular}) == len(regular) == {2: 8, 3: 12, 4: 14}[players]
    assert (s.round, s.turn, s.actions_left, s.active) == (1, 1, 3, s.first)


def test_home_region_sides() -> None:
    s = GAME.new_game(1, 4)
    assert (s.terrain["d1"], s.terrain["b1"], s.terrain["c1"]) == ("mountain", "forest", "barren")
    assert (s.terrain["j1"], s.terrain["h1"], s.terrain["i1"]) == ("forest", "mountain", "barren")


def test_first_player_and_tiles_come_from_the_seed() -> None:
    firsts = {GAME.new_game(seed, 4).first for seed in range(20)}
    assert firsts == {0, 1, 2, 3}
    assert GAME.dumps(GAME.new_game(9, 3)) == GAME.dumps(GAME.new_game(9, 3))
    assert GAME.dumps(GAME.new_game(9, 3)) != GAME.dumps(GAME.new_game(10, 3))


def test_unrevealed_tiles_are_not_in_the_view() -> None:
    s = GAME.new_game(2, 2)
    view = GAME.view(s, 0)
    hidden = [sl for sl in view["slots"] if not sl["revealed"]]
    assert hidden and all("terrain" not in sl and "tile" not in sl for sl in hidden)


def test_four_round_game_setup() -> None:
    s = GAME.new_game(1, 2, {"four_rounds": True})
    assert all(c.mood == "happy" for c in s.cities)
    assert sum(1 for u in s.units if u.owner == 0 and u.kind == "settler") == 2


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (1, {}, "2, 3 or 4"),
        (5, {}, "2, 3 or 4"),
        (2, {"wonders": True}, "Unknown option"),
        (2, {"four_rounds": "yes"}, "true or false"),
        (2, {"wonderful_end": True, "variable_end": True}, "instead of the variable end"),
        (2, {"four_rounds": True, "variable_end": True}, "either"),
    ],
)
def test_bad_options_are_refused(players: int, options: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidOptions, match=message):
        GAME.new_game(1, players, options)


def test_four_players_sit_at_random_clockwise() -> None:
    orders = {tuple(GAME.new_game(seed, 4).order) for seed in range(30)}
    assert len(orders) > 5
    s = GAME.new_game(3, 4)
    homes = ["c2", "i2", "i8", "c8"]  # clockwise: top-left, top-right, bottom-right, bottom-left
    for pos, seat in enumerate(s.order):
        assert s.cities_of(seat)[0].space == homes[pos]
        assert s.left_of(seat) == s.order[(pos + 1) % 4]
    assert GAME.new_game(3, 2).order == [0, 1] and GAME.new_game(3, 3).order == [0, 1, 2]


def test_turns_follow_the_table_order() -> None:
    s = GAME.new_game(3, 4)
    seen = []
    for _ in range(4):
        seen.append(s.active)
        s = GAME.apply(s, s.active, GAME.parse(s, s.active, "end")).state
    assert seen == s.clockwise_from(seen[0])
