"""Setup: deck composition per player count and mode, boards and sides, options."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core.errors import InvalidOptions
from engine.core.registry import find_game
from engine.seven_wonders.data import CARDS

from .builders import G


def _deck(s, age):  # whole Age deck as dealt: hands (+ Free City pile) or undealt
    if s.age == age:
        cards = [c for h in s.hands for c in h] + list(s.fc_pile)
        return cards
    return list(s.decks[age - 1])


def test_SW_EX_01_six_player_cities_setup() -> None:
    s = G.new_game(5, 6, {"cities": True})
    for age in (1, 2, 3):
        deck = _deck(s, age)
        assert len(deck) == 48
        colours = Counter(CARDS[c].color for c in deck)
        assert colours["black"] == 6
        for cid, k in Counter(deck).items():
            assert k == (1 if CARDS[cid].color in ("black", "purple") else sum(lab <= 6 for lab in CARDS[cid].copies))
    age3 = _deck(s, 3)
    assert Counter(CARDS[c].color for c in age3)["purple"] == 8
    assert sum(1 for c in age3 if CARDS[c].color not in ("purple", "black")) == 34
    assert all(len(h) == 8 for h in s.hands)
    unused = Counter(CARDS[c].color for c in s.unused)
    assert unused["black"] == 9 and unused["purple"] == 5
    # Every 7+ copy is out: the cards with a "7+" label lose one copy each.
    sevens = sum(sum(1 for lab in c.copies if lab == 7) for c in CARDS.values())
    assert sum(n for col, n in unused.items() if col not in ("black", "purple")) == sevens


@pytest.mark.parametrize(("n", "size"), [(3, 21), (4, 28), (5, 35), (6, 42), (7, 49)])
def test_SW_EX_02_deck_sizes(n: int, size: int) -> None:
    base = G.new_game(n, n, {"cities": False})
    cities = G.new_game(n, n, {"cities": True})
    for age in (1, 2, 3):
        assert len(_deck(base, age)) == size
        assert len(_deck(cities, age)) == size + n
    assert Counter(CARDS[c].color for c in _deck(base, 3))["purple"] == n + 2
    assert Counter(CARDS[c].color for c in _deck(cities, 3))["purple"] == n + 2
    assert base.hand_size == 7 and base.turns_per_age == 6
    assert cities.hand_size == 8 and cities.turns_per_age == 7
    assert all(len(h) == 7 for h in base.hands) and all(len(h) == 8 for h in cities.hands)


def test_SW_EX_03_eight_players() -> None:
    s = G.new_game(3, 8, {"cities": True})
    for age in (1, 2, 3):
        deck = _deck(s, age)
        assert len(deck) == 56
        colours = Counter(CARDS[c].color for c in deck)
        assert colours["black"] == 7
        if age == 3:
            assert colours["purple"] == 9
            assert sum(n for col, n in colours.items() if col not in ("black", "purple")) == 40
        else:
            assert sum(n for col, n in colours.items() if col != "black") == 49
    assert s.hand_size == 7 and s.turns_per_age == 6
    assert all(len(h) == 7 for h in s.hands)


def test_two_player_free_city_setup() -> None:
    s = G.new_game(1, 2, {"cities": False})
    assert s.n == 3 and s.free_city == 2 and s.fc_ctrl == 0
    assert len(s.hands[0]) == 8 and len(s.hands[1]) == 7 and len(s.fc_pile) == 6  # holder drew one
    assert all(c.coins == 3 for c in s.cities)
    s2 = G.new_game(1, 2, {"cities": True})
    assert len(s2.hands[0]) == 9 and len(s2.hands[1]) == 8 and len(s2.fc_pile) == 7
    assert G.to_move(s) == {0, 1}


def test_boards_and_sides() -> None:
    base_pool = {"alexandria", "babylon", "ephesos", "gizah", "halikarnassos", "olympia", "rhodos"}
    for seed in range(30):
        s = G.new_game(seed, 7, {"cities": False})
        assert {c.wonder for c in s.cities} == base_pool
        assert {c.side for c in s.cities} == {"A"}
    seen = set()
    for seed in range(40):
        s = G.new_game(seed, 7, {"side": "random"})
        seen |= {c.wonder for c in s.cities}
        assert {c.side for c in s.cities} <= {"A", "B"}
    assert seen == base_pool | {"petra", "byzantium"}
    assert {c.side for c in G.new_game(1, 5, {"side": "b"}).cities} == {"B"}
    sides = {c.side for seed in range(10) for c in G.new_game(seed, 7, {"side": "random"}).cities}
    assert sides == {"A", "B"}


def test_options_are_validated_with_clear_messages() -> None:
    with pytest.raises(InvalidOptions, match="Accepted options"):
        G.new_game(1, 4, {"leaders": True})
    with pytest.raises(InvalidOptions, match='"A", "B" or "random"'):
        G.new_game(1, 4, {"side": "C"})
    with pytest.raises(InvalidOptions, match="true or false"):
        G.new_game(1, 4, {"cities": "yes"})
    with pytest.raises(InvalidOptions, match="8 players need Cities"):
        G.new_game(1, 8, {"cities": False})
    with pytest.raises(InvalidOptions, match="2-8 players"):
        G.new_game(1, 9, {})
    with pytest.raises(InvalidOptions, match="2-8 players"):
        G.new_game(1, 1, {})
    with pytest.raises(InvalidOptions, match="4, 6, 8"):
        G.new_game(1, 5, {"teams": True})
    with pytest.raises(InvalidOptions, match="part of Cities"):
        G.new_game(1, 4, {"teams": True, "cities": False})
    assert G.new_game(1, 4, {"teams": True}).teams


def test_registry_and_determinism() -> None:
    assert find_game("7w") is not None and find_game("7wonders").id == "seven-wonders"
    assert G.dumps(G.new_game(42, 5, {})) == G.dumps(G.new_game(42, 5, {}))
    assert G.dumps(G.new_game(42, 5, {})) != G.dumps(G.new_game(43, 5, {}))
