"""Science, guilds, commercial cards, treasury, final ranking and the tie-break."""

from __future__ import annotations

import pytest

from engine.seven_wonders.science import base_score, best_score, city_science
from engine.seven_wonders.scoring import score_city

from .builders import G, city, hands, table, turn


@pytest.mark.parametrize(
    ("counts", "wilds", "expected"),
    [
        ((3, 2, 1), 0, 21),
        ((2, 2, 2), 0, 26),
        ((4, 0, 0), 0, 16),
        ((2, 2, 1), 1, 26),
        ((3, 0, 0), 1, 16),
        ((1, 1, 1), 0, 10),
    ],
)
def test_SW_EX_31_science(counts: tuple[int, int, int], wilds: int, expected: int) -> None:
    assert best_score(counts, wilds) == expected
    assert base_score(*counts) == best_score(counts, 0)


def test_SW_EX_11_masks_copying_neighbours() -> None:
    s = table(("gizah", "rhodos", "ephesos"))
    city(s, 0, built=["pigeon_loft", "spy_ring"])
    city(s, 1, built=["apothecary"])  # left neighbour: one compass
    assert city_science(s, 0) == 1
    s.cities[1].built.append("dispensary")  # a second compass card on the left
    assert city_science(s, 0) == 4


def test_SW_EX_12_masks_same_symbol_both_sides() -> None:
    s = table(("gizah", "rhodos", "ephesos"))
    city(s, 0, built=["workshop", "pigeon_loft", "spy_ring"])
    city(s, 1, built=["workshop"])
    city(s, 2, built=["workshop"])
    assert city_science(s, 0) == 9


def test_SW_EX_43_masks_and_wildcards_assigned_together() -> None:
    s = table(("gizah", "rhodos", "ephesos"))
    city(s, 0, built=["apothecary", "dispensary", "workshop", "scientists_guild", "pigeon_loft"])
    city(s, 1, built=["scriptorium"])
    assert city_science(s, 0) == 18
    s.cities[0].built.remove("pigeon_loft")
    assert city_science(s, 0) == 13


def test_masks_copy_green_cards_only_D23() -> None:
    s = table(("gizah", "rhodos", "babylon"))
    city(s, 0, built=["pigeon_loft"])
    city(s, 1, built=["scientists_guild", "torture_chamber"], stages=2)
    city(s, 2, built=[])
    assert city_science(s, 0) == 0


def test_SW_EX_05_debt_in_final_scoring() -> None:
    s = table(("gizah", "rhodos", "ephesos"))
    city(s, 0, coins=5, debt=3)
    assert score_city(s, 0)["treasury"] == -2


def test_SW_EX_38_treasury_and_tie_break() -> None:
    s = table(("gizah", "rhodos", "ephesos"))
    city(s, 0, coins=14)
    assert score_city(s, 0)["treasury"] == 4
    common = ["palace", "pantheon", "senate", "town_hall", "gardens", "aqueduct", "capitol", "tabularium"]  # 51
    city(s, 0, coins=7, built=[*common, "courthouse"])  # 55 + 2 = 57
    city(s, 1, coins=4, built=[*common, "temple", "altar"])  # 56 + 1 = 57
    s.step = "over"
    assert score_city(s, 0)["total"] == score_city(s, 1)["total"] == 57
    out = G.outcome(s)
    assert out is not None and out.winners == (0,) and out.ranking[:2] == ((0,), (1,))
    assert "tie-break" in out.reason
    s.cities[1].coins = 7
    s.cities[1].built[-2:] = ["statue"]  # 55 + 2 = 57 with 7 coins too
    out = G.outcome(s)
    assert out is not None and out.winners == (0, 1) and "share" in out.reason


def test_SW_EX_39_arena_and_haven_timing() -> None:
    s = table(("gizah", "rhodos", "ephesos"))
    city(s, 0, stages=2, coins=5, built=["stone_pit", "ore_vein", "quarry"])
    hands(s, ["arena", "altar"], ["altar", "theater"], ["theater", "altar"], age=3)
    s, _ = turn(s, {0: "play arena", 1: "sell altar", 2: "sell theater"})
    assert s.cities[0].coins == 5 + 6
    assert score_city(s, 0)["commercial"] == 2
    s.cities[0].stages = 3
    assert score_city(s, 0)["commercial"] == 3
    # Haven: 1 coin and 1 VP per brown card in the own city only.
    city(s, 1, built=["lumber_yard", "ore_vein", "haven"])
    assert score_city(s, 1)["commercial"] == 2


def test_SW_EX_40_guild_counting_neighbours_only() -> None:
    s = table(("gizah", "rhodos", "ephesos"))
    city(s, 0, built=["lumber_yard", "stone_pit", "clay_pool", "ore_vein", "workers_guild"])
    city(s, 1, built=["lumber_yard", "stone_pit", "clay_pool"])
    city(s, 2, built=["lumber_yard", "ore_vein"])
    assert score_city(s, 0)["guilds"] == 5
    s.cities[0].built[-1] = "shipowners_guild"
    s.cities[0].built.extend(["loom_1", "press_1", "spies_guild"])
    # Shipowners: 4 brown + 2 grey + Spies Guild + itself = 8; Spies: no red around = 0.
    assert score_city(s, 0)["guilds"] == 8


def test_SW_EX_21_mourners_guild() -> None:
    s = table(("gizah", "rhodos", "ephesos"))
    city(s, 0, built=["mourners_guild"])
    city(s, 1, tokens=[1, 5, -1])
    city(s, 2, tokens=[3])
    assert score_city(s, 0)["guilds"] == 3


@pytest.mark.parametrize(
    ("guild", "left", "right", "own", "expected"),
    [
        ("builders_guild", {"stages": 2}, {"stages": 1}, {"stages": 3}, 6),
        ("craftsmens_guild", {"built": ["loom_1", "press_1"]}, {"built": ["glassworks_1"]}, {}, 6),
        ("magistrates_guild", {"built": ["altar", "baths"]}, {"built": ["theater"]}, {"built": ["pawnshop"]}, 3),
        ("philosophers_guild", {"built": ["workshop"]}, {"built": ["apothecary", "school"]}, {}, 3),
        ("spies_guild", {"built": ["barracks", "walls"]}, {"built": ["militia"]}, {}, 2),
        ("strategists_guild", {"tokens": [-1, -1, 3]}, {"tokens": [-1, 5]}, {"tokens": [-1]}, 3),
        ("traders_guild", {"built": ["tavern", "forum"]}, {"built": ["marketplace"]}, {}, 3),
        ("workers_guild", {"built": ["lumber_yard"]}, {"built": ["quarry", "mine"]}, {}, 3),
        ("guild_of_shadows", {"built": ["militia", "lair"]}, {"built": ["residence"]}, {"built": ["hideout"]}, 3),
        ("mourners_guild", {"tokens": [1, 3, -1]}, {"tokens": [5]}, {"tokens": [5]}, 3),
        ("counterfeiters_guild", {}, {}, {}, 5),
        ("shipowners_guild", {"built": ["lumber_yard"]}, {}, {"built": ["loom_1", "stone_pit"]}, 3),
    ],
)
def test_each_guild(guild: str, left: dict, right: dict, own: dict, expected: int) -> None:
    s = table(("gizah", "rhodos", "ephesos"))
    city(s, 0, built=[guild, *own.get("built", [])], stages=own.get("stages"), tokens=own.get("tokens"))
    city(s, 1, built=left.get("built", []), stages=left.get("stages"), tokens=left.get("tokens"))
    city(s, 2, built=right.get("built", []), stages=right.get("stages"), tokens=right.get("tokens"))
    assert score_city(s, 0)["guilds"] == expected


def test_scientists_guild_is_a_wildcard() -> None:
    s = table(("gizah", "rhodos", "ephesos"))
    city(s, 0, built=["apothecary", "workshop", "scientists_guild"])
    assert score_city(s, 0)["science"] == 10 and score_city(s, 0)["guilds"] == 0


def test_olympia_b_copies_the_best_neighbour_guild() -> None:
    s = table(("olympia", "rhodos", "ephesos"), side="B")
    city(s, 0, stages=3, built=["apothecary", "workshop"])
    city(s, 1, built=["scientists_guild", "barracks"])  # left
    city(s, 2, built=["spies_guild", "stockade", "walls"])  # right
    sheet = score_city(s, 0)
    # Copying the Scientists Guild completes a set: 10 - 2 = +8 science; Spies would give 2.
    assert sheet["copied_guild"] == "scientists_guild" and sheet["science"] == 10 and sheet["guilds"] == 0
    s.cities[0].built.clear()
    sheet = score_city(s, 0)
    # Copied Spies Guild counts red cards of Olympia's neighbours: 1 + 2 = 3.
    assert sheet["copied_guild"] == "spies_guild" and sheet["guilds"] == 3


def test_olympia_b_copying_cities_guilds_D22() -> None:
    s = table(("olympia", "rhodos", "ephesos"), side="B")
    city(s, 0, stages=3)
    city(s, 1, built=["counterfeiters_guild"])
    sheet = score_city(s, 0)
    assert sheet["copied_guild"] == "counterfeiters_guild" and sheet["guilds"] == 5


def test_full_score_sheet_rows() -> None:
    s = table(("gizah", "rhodos", "ephesos"))
    city(
        s,
        0,
        coins=10,
        debt=1,
        stages=2,
        tokens=[1, 3, -1],
        built=["altar", "lighthouse", "tavern", "workers_guild", "workshop", "capitol", "secret_society"],
    )
    city(s, 1, built=["lumber_yard"])
    sheet = score_city(s, 0)
    assert sheet["military"] == 3
    assert sheet["treasury"] == 3 - 1
    assert sheet["wonder"] == 3 + 5
    assert sheet["civilian"] == 2
    assert sheet["commercial"] == 2  # Lighthouse: 2 yellow (itself and Tavern)
    assert sheet["guilds"] == 1
    assert sheet["science"] == 1
    assert sheet["cities"] == 8 + 2
    assert sheet["total"] == 3 + 2 + 8 + 2 + 2 + 1 + 1 + 10
    s.step = "over"
    out = G.outcome(s)
    assert out is not None and out.details["cities"][0]["total"] == sheet["total"]
