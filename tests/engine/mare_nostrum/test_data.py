"""The data files against the counts the rules give (spec 3, data file 2, 3, 5, 6)."""

from __future__ import annotations

from collections import Counter

from engine.mare_nostrum.data import (
    BASE_COST,
    BUILDING_SUPPLY,
    CARDS,
    CIV_DATA,
    CIVS,
    DECK,
    GOODS,
    MAP_PROVENANCE,
    PLAYER_PIECES,
    PROVINCES,
    SEAS,
)


def test_deck_counts() -> None:
    assert DECK["tax"] == 35
    assert sum(DECK[g] for g in GOODS) == 88
    assert len(GOODS) == 12
    assert sum(DECK.values()) == 123
    assert (DECK["grain"], DECK["wine"], DECK["gold"]) == (11, 7, 5)


def test_heroes_wonders_and_costs() -> None:
    heroes = [c for c in CARDS.values() if c.kind == "hero"]
    wonders = [c for c in CARDS.values() if c.kind == "wonder"]
    assert len(heroes) == 11 and len(wonders) == 7
    assert sorted(c.civ for c in heroes if c.civ) == sorted(CIVS)
    assert all(c.cost == 9 for c in CARDS.values() if c.id != "pyramids") and CARDS["pyramids"].cost == 12
    assert BASE_COST == {"caravan": 3, "city": 3, "market": 6, "temple": 6, "legion": 3, "fortress": 3,
                         "trireme": 3, "influence": 3}
    # 144 cards: 3 roles + 18 heroes and wonders + 123 resource cards
    assert 3 + len(CARDS) + sum(DECK.values()) == 144


def test_supply_and_pieces() -> None:
    assert BUILDING_SUPPLY[5] == {"caravan": 28, "city": 12, "market": 12, "temple": 6}
    assert sum(BUILDING_SUPPLY[5].values()) == 58
    assert BUILDING_SUPPLY[4] == {"caravan": 23, "city": 10, "market": 10, "temple": 5}
    assert BUILDING_SUPPLY[3] == {"caravan": 18, "city": 8, "market": 8, "temple": 4}
    assert PLAYER_PIECES == {"trireme": 5, "legion": 8, "fortress": 8, "influence": 12}
    assert sum(PLAYER_PIECES.values()) == 33


def test_map_counts_and_symmetry() -> None:
    assert MAP_PROVENANCE == "stand-in"
    assert len(PROVINCES) == 33 and len(SEAS) == 10
    kinds = Counter(p.kind for p in PROVINCES.values())
    assert kinds == {"coastal": 20, "island": 6, "inland": 7}
    assert sum(len(p.sites) for p in PROVINCES.values()) == 25
    icons = Counter(g for p in PROVINCES.values() for g in p.goods)
    assert sum(icons.values()) == 38
    for g in GOODS:
        assert DECK[g] == 2 * icons[g] + 1, g
    for p in PROVINCES.values():
        assert all(p.id in PROVINCES[q].land for q in p.land)
        assert (p.kind == "inland") == (not p.seas)
        assert (p.kind == "island") == (not p.land)
    for z in SEAS.values():
        assert all(z.id in SEAS[n].adjacent for n in z.adjacent)
    assert set(SEAS["aegaeum"].coasts) == {"macedonia", "athenae", "peloponnesus", "thracia", "creta", "rhodus",
                                           "troas"}


def test_setups_are_worth_36_points() -> None:
    for civ in CIVS:
        data = CIV_DATA[civ]
        assert PROVINCES[data.capital].capital_of == civ
        points = 9  # the civilization hero
        for pid, pieces in data.basic.items():
            assert pid in data.start
            for piece in pieces:
                kind = piece.split(":")[0]
                points += BASE_COST[kind]
                if kind == "caravan":
                    assert all(g in PROVINCES[pid].goods for g in piece.split(":")[1].split("|"))
                if kind == "city":
                    assert piece.split(":")[1] in PROVINCES[pid].sites
        assert points == 36, civ
        assert data.provenance == ("real" if civ == "rome" else "stand-in")
