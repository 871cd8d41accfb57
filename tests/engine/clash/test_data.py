"""The data files against the counts the spec gives (data file sections 3-6, 10)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.clash.board import geometry
from engine.clash.data import TABLES, build_tables, read_json


def test_sixteen_regular_tiles_with_the_printed_terrain_totals() -> None:
    assert len(TABLES.tiles) == 16
    totals = Counter(t for tile in TABLES.tiles.values() for t in tile.terrain)
    assert totals == {"sea": 16, "fertile": 17, "mountain": 14, "forest": 12, "barren": 5}
    assert sorted(t.id for t in TABLES.tiles.values() if t.barbarians) == ["T05", "T10", "T14", "T15"]
    for tile in TABLES.tiles.values():
        seas = [i for i, t in enumerate(tile.terrain) if t == "sea"]
        assert not any(3 - i in seas for i in seas), f"{tile.id}: rule 1 must always be satisfiable"
        assert tile.provenance in ("real", "stand-in")


def test_start_sides_differ_only_in_mountain_and_forest() -> None:
    assert TABLES.start_sides["A"] == ("fertile", "forest", "mountain", "barren")
    assert TABLES.start_sides["B"] == ("fertile", "mountain", "forest", "barren")


@pytest.mark.parametrize(("players", "slots", "ring"), [(2, 10, 24), (3, 15, 30), (4, 18, 38)])
def test_layouts(players: int, slots: int, ring: int) -> None:
    layout = TABLES.layouts[players]
    assert len(layout.slots) == slots
    assert len(layout.homes) == players
    assert len(layout.ring) == ring == len(set(layout.ring))
    # The ring is exactly the set of hexes with a side facing outside the layout.
    assert set(layout.ring) == set(geometry(players).edge)
    assert layout.provenance == "stand-in"


def test_home_capitals_follow_the_spec() -> None:
    capitals = {
        n: [next(s for s in TABLES.layouts[n].slots if s.id == h).hexes[0] for h in TABLES.layouts[n].homes]
        for n in (2, 3, 4)
    }
    assert capitals == {2: ["d2", "d7"], 3: ["e4", "b7", "g8"], 4: ["c2", "i2", "i8", "c8"]}


def test_forty_eight_advances_in_twelve_categories() -> None:
    assert len(TABLES.advances) == 48
    assert len(TABLES.categories) == 12 and all(len(v) == 4 for v in TABLES.by_category.values())
    firsts = [v[0] for v in TABLES.by_category.values()]
    assert firsts == [
        "farming",
        "mining",
        "fishing",
        "writing",
        "tactics",
        "myths",
        "bartering",
        "arts",
        "math",
        "voting",
        "nationalism",
        "dogma",
    ]
    borders = Counter(a.border for a in TABLES.advances.values())
    assert borders == {"happiness": 13, "culture": 14, "": 21}
    assert {a.id: a.prereq for a in TABLES.advances.values() if a.prereq} == {"roads": "engineering"}
    assert {a.id: a.gateway for a in TABLES.advances.values() if a.gateway} == {
        "voting": "philosophy",
        "nationalism": "draft",
        "dogma": "state_religion",
    }
    assert {a.unlocks: a.id for a in TABLES.advances.values() if a.unlocks} == {
        "port": "fishing",
        "academy": "writing",
        "fortress": "tactics",
        "temple": "myths",
    }
    assert TABLES.governments == ("democracy", "autocracy", "theocracy")


def test_costs_limits_and_wonders() -> None:
    rules = TABLES.rules
    assert rules["unit_cost"] == {"settler": {"food": 2}, "army": {"food": 1, "ore": 1}, "ship": {"wood": 2}}
    assert rules["limits"]["army"] == 16 and rules["limits"]["settler"] == 4 and rules["limits"]["ship"] == 4
    assert len(TABLES.wonders) == 7
    assert all(w.cost["culture"] == 5 and w.requires[0] == "engineering" for w in TABLES.wonders.values())


def test_bad_data_is_rejected() -> None:
    adv = read_json("advances.json")
    adv["advances"][1]["border"] = "purple"
    with pytest.raises(ValueError, match="border"):
        build_tables(
            read_json("tiles.json"),
            read_json("layouts.json"),
            adv,
            read_json("rules.json"),
            read_json("wonders.json"),
            read_json("names.json"),
        )
    tiles = read_json("tiles.json")
    tiles["regular"][0]["terrain"] = ["sea", "lava", "sea", "sea"]
    with pytest.raises(ValueError, match="terrain"):
        build_tables(
            tiles,
            read_json("layouts.json"),
            read_json("advances.json"),
            read_json("rules.json"),
            read_json("wonders.json"),
            read_json("names.json"),
        )
