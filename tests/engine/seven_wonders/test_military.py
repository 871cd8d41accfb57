"""Military conflicts: adjacency, token values by Age, diplomacy, the team variant."""

from __future__ import annotations

from engine.seven_wonders.cards import victory_count
from engine.seven_wonders.military import resolve_conflicts, strength
from engine.seven_wonders.scoring import score_city

from .builders import city, hands, table, turn

FOUR = ("gizah", "rhodos", "ephesos", "babylon")


def _shields(s, values):
    cards = {
        0: [],
        1: ["barracks"],
        2: ["militia"],
        3: ["mercenaries"],
        4: ["militia", "archery_range"],
        5: ["contingent"],
        6: ["contingent", "stockade"],
        7: ["contingent", "militia"],
    }
    for i, v in enumerate(values):
        s.cities[i].built.extend(cards[v])
        assert strength(s, i) == v


def test_SW_EX_07_one_absent_player_neighbours_meet() -> None:
    s = table(FOUR, players=4)
    _shields(s, [2, 5, 1, 1])
    city(s, 1, diplomacy=1)
    s.age = 1
    resolve_conflicts(s)
    assert s.cities[1].tokens == [] and s.cities[1].diplomacy == 0
    assert s.cities[0].tokens == [1, 1]
    assert s.cities[2].tokens == [-1]
    assert s.cities[3].tokens == [-1]


def test_SW_EX_08_two_remaining_players_fight_once() -> None:
    s = table(FOUR, players=4)
    _shields(s, [0, 4, 2, 0])
    city(s, 0, diplomacy=1)
    city(s, 3, diplomacy=1)
    s.age = 2
    resolve_conflicts(s)
    assert s.cities[1].tokens == [3] and s.cities[2].tokens == [-1]
    assert s.cities[0].tokens == [] and s.cities[3].tokens == []
    assert s.cities[0].diplomacy == 0 and s.cities[3].diplomacy == 0


def test_SW_EX_09_mandatory_use_and_several_tokens() -> None:
    s = table(("gizah", "rhodos", "ephesos"))
    _shields(s, [5, 1, 0])
    city(s, 0, diplomacy=2)
    for age, expected in ((1, []), (2, []), (3, [5, 5])):
        s.age = age
        resolve_conflicts(s)
        assert s.cities[0].tokens == expected
    assert s.cities[0].diplomacy == 0
    assert s.cities[1].tokens == [1, 3, -1, 5]  # Rhodos meets only Ephesos while Gizah is absent


def test_SW_EX_10_three_players_one_absent() -> None:
    s = table(("gizah", "rhodos", "ephesos"))
    _shields(s, [0, 6, 3])
    city(s, 0, diplomacy=1)
    s.age = 3
    resolve_conflicts(s)
    assert s.cities[0].tokens == [] and s.cities[1].tokens == [5] and s.cities[2].tokens == [-1]


def test_SW_EX_32_military_three_players() -> None:
    s = table(("gizah", "rhodos", "ephesos"))
    _shields(s, [3, 5, 3])
    s.age = 2
    resolve_conflicts(s)
    assert [sum(c.tokens) for c in s.cities] == [-1, 6, -1]
    assert s.cities[1].tokens == [3, 3]


def test_SW_EX_48_only_one_city_left() -> None:
    s = table(("gizah", "rhodos", "ephesos"))
    _shields(s, [0, 1, 5])
    city(s, 0, diplomacy=1)
    city(s, 1, diplomacy=1)
    s.age = 1
    ev = resolve_conflicts(s)
    assert all(c.tokens == [] for c in s.cities)
    assert any("Nobody is left" in e.text for e in ev)


def test_SW_EX_27_team_conflict_with_diplomacy() -> None:
    # Kostas 0, Katerina 1 (team 0); X 2, Y 3 (team 1). Kostas faces Y, Katerina faces X.
    s = table(FOUR, teams=True, players=4)
    _shields(s, [3, 7, 4, 6])
    city(s, 0, diplomacy=1)
    s.age = 3
    resolve_conflicts(s)
    assert s.cities[0].tokens == [-1] and s.cities[3].tokens == [5]
    assert s.cities[1].tokens == [5, 5] and s.cities[2].tokens == [-1, -1]


def test_team_both_sides_use_diplomacy_one_token_each_D17() -> None:
    s = table(FOUR, teams=True, players=4)
    _shields(s, [3, 0, 0, 6])
    city(s, 0, diplomacy=1)
    city(s, 3, diplomacy=1)
    s.age = 2
    resolve_conflicts(s)
    assert s.cities[0].tokens == [-1] and s.cities[3].tokens == [3]


def test_SW_EX_44_doubled_team_tokens_counted_one_by_one() -> None:
    # P is seat 0 (team 0 with seat 1); P's opponent is seat 3.
    s = table(FOUR, teams=True, players=4, coins=10)
    _shields(s, [2, 0, 0, 1])
    s.age = 1
    resolve_conflicts(s)
    assert s.cities[0].tokens == [1, 1]
    city(s, 3, diplomacy=1)
    s.age = 2
    resolve_conflicts(s)
    assert s.cities[0].tokens == [1, 1, 3] and victory_count(s.cities[0]) == 3
    assert score_city(s, 0)["military"] == 5
    # Age III: seat 2 (other team) builds Sepulcher; P owes 3 coins (one per token).
    city(s, 2, built=["stone_pit", "glassworks_1", "loom_1"], coins=10)
    hands(s, ["altar", "theater"], ["altar", "theater"], ["sepulcher", "theater"], ["altar", "theater"], age=3)
    s, _ = turn(s, {0: "sell altar", 1: "sell altar", 2: "play sepulcher", 3: "sell altar"})
    assert s.owed[0] == 3
    # Mourners' Guild owned by P's neighbour (seat 1) counts P's 3 tokens (+ seat 2's none).
    s.cities[1].built.append("mourners_guild")
    assert score_city(s, 1)["guilds"] == 3 + victory_count(s.cities[2])


def test_a_battle_says_which_tokens_each_city_takes() -> None:
    s = table(FOUR, players=4)
    _shields(s, [2, 5, 1, 1])
    s.age = 1
    texts = [e.text for e in resolve_conflicts(s)]
    said = "Rhodos (5 shields) beats Gizah (2 shields): Rhodos takes a +1 victory token, Gizah a -1 defeat token."
    assert said in texts, texts
    assert not any(t.endswith("+1 and -1.") for t in texts)
