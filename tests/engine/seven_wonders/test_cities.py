"""Cities: coin losses and debt, diplomacy, every black card, the two-player Free City rules,
and the Cities examples that involve leaders (only their non-leader part is in scope)."""

from __future__ import annotations

import pytest

from engine.seven_wonders.actions import Action
from engine.seven_wonders.data import CARDS
from engine.seven_wonders.military import strength
from engine.seven_wonders.scoring import score_city

from .builders import G, act, city, hands, moves_of, payments, table, texts, turn

FOUR = ("gizah", "rhodos", "ephesos", "babylon")
NEUTRAL = ["altar", "theater"]


def test_SW_EX_04_paying_or_taking_debt() -> None:
    s = table(FOUR, players=4)
    city(s, 0, built=["lumber_yard", "glassworks_1"], coins=3)
    city(s, 1, coins=5)
    city(s, 2, coins=1)
    city(s, 3, coins=6)
    hands(s, ["lair", "altar"], NEUTRAL, NEUTRAL, NEUTRAL, age=2)
    total_before = sum(c.coins for c in s.cities)
    s, _ev = turn(s, {0: "play lair", 1: "play altar", 2: "play altar", 3: "play altar"})
    assert s.step == "debt" and s.owed == {1: 2, 2: 2, 3: 2}
    assert G.to_move(s) == {1, 2, 3}
    assert moves_of(s, 2) == ["pay 1 debt 1", "pay 0 debt 2"]
    assert moves_of(s, 1) == ["pay 2 debt 0", "pay 1 debt 1", "pay 0 debt 2"]
    step = G.apply(s, 1, G.parse(s, 1, "pay 2 debt 0"))
    assert step.undoable  # others still deciding: nothing hidden revealed
    s = step.state
    s, _ = act(s, 2, "pay 1 debt 1")
    s, _ = act(s, 3, "pay 0 debt 2")
    assert [(c.coins, c.debt) for c in s.cities] == [(3, 0), (3, 0), (0, 1), (6, 2)]
    assert total_before - sum(c.coins for c in s.cities) == 3  # to the bank
    assert s.step == "pick" and s.turn == 2


def test_SW_EX_05_debt_scored_in_treasury() -> None:
    s = table(FOUR, players=4)
    city(s, 0, coins=5, debt=3)
    assert score_city(s, 0)["treasury"] == -2


def test_SW_EX_06_coin_losses_resolved_after_income() -> None:
    s = table(("gizah", "ephesos", "rhodos"))
    city(s, 0, coins=0, built=["stone_pit"])
    city(s, 1, coins=4)
    hands(s, ["altar", "barracks"], ["baths", "theater"], ["hideout", "altar"])
    assert payments(s, 0, "barracks") == []  # A cannot buy ore with income not yet received
    assert payments(s, 1, "baths", "wonder") == [(0, 4)]  # Ephesos stage 1: 2 stone from Gizah
    s, _ = turn(s, {0: "play altar", 1: "wonder baths", 2: "play hideout"})
    assert s.owed[0] == 1 and s.cities[0].coins == 4
    s, _ = act(s, 0, "pay 1 debt 0")
    assert (s.cities[0].coins, s.cities[0].debt) == (3, 0)


def test_no_coins_means_automatic_debt_and_timeout_pays_most_D27() -> None:
    s = table(("gizah", "ephesos", "rhodos"))
    city(s, 0, coins=0)
    city(s, 1, coins=1)
    city(s, 2, built=["sawmill", "loom_1"])
    hands(s, ["altar", "baths"], ["theater", "baths"], ["brotherhood", "altar"], age=3)
    s, ev = turn(s, {0: "play altar", 1: "play theater", 2: "play brotherhood"})
    assert s.cities[0].debt == 3 and 0 not in s.owed
    assert any("has no coins and takes 3 debt" in t for t in texts(ev))
    assert G.to_move(s) == {1}
    assert G.on_timeout(s, 1) == Action("pay", 1, coins=1, debt=2)


def test_SW_EX_28_team_coin_loss_hits_the_teammate() -> None:
    s = table(FOUR, players=4, teams=True)
    city(s, 0, built=["lumber_yard", "glassworks_1"])
    hands(s, ["lair", "altar"], NEUTRAL, NEUTRAL, NEUTRAL, age=2)
    s, _ = turn(s, {0: "play lair", 1: "play altar", 2: "play altar", 3: "play altar"})
    assert s.owed == {1: 2, 2: 2, 3: 2}


def test_SW_EX_17_architects_cabinet_keeps_coin_costs() -> None:
    s = table(("petra", "rhodos", "ephesos"), side="B")
    city(s, 0, built=["architects_cabinet"], coins=3)
    hands(s, ["altar", "theater"], NEUTRAL, NEUTRAL, age=2)
    assert payments(s, 0, "altar", "wonder") == [(0, 0)]  # 2 clay + 2 ore not needed
    s, _ = turn(s, {0: "wonder altar", 1: "play altar", 2: "play altar"})
    assert s.cities[0].stages == 1 and s.owed == {1: 2, 2: 2}
    assert score_city(s, 0)["wonder"] == 3
    s, _ = turn(s, {1: "pay 2 debt 0", 2: "pay 2 debt 0"})
    city(s, 0, coins=13)
    assert payments(s, 0, s.hands[0][0], "wonder") == []
    city(s, 0, coins=14)
    assert payments(s, 0, s.hands[0][0], "wonder") == [(0, 0)]


def test_SW_EX_18_sepulcher_counts_victory_tokens() -> None:
    s = table(("gizah", "rhodos", "ephesos"))
    city(s, 0, built=["glassworks_1", "loom_1"], coins=5)
    city(s, 1, tokens=[1, 3, -1], coins=5)
    city(s, 2, tokens=[5, 5], coins=5)
    hands(s, ["sepulcher", "altar"], NEUTRAL, NEUTRAL, age=2)
    s, _ = turn(s, {0: "play sepulcher", 1: "play altar", 2: "play altar"})
    assert s.owed == {1: 2, 2: 2}
    assert score_city(s, 0)["cities"] == 4


def test_SW_EX_19_builders_union_counts_stages_at_the_loss_step_D33() -> None:
    s = table(("gizah", "rhodos", "ephesos", "babylon"), players=4)
    city(s, 0, built=["lumber_yard", "clay_pool", "glassworks_1", "press_1"], coins=5)
    city(s, 1, stages=2, coins=5)
    city(s, 2, coins=5)
    city(s, 3, stages=2, coins=5, built=["brickyard", "clay_pool"])  # Babylon A stage 3: 4 clay
    hands(s, ["builders_union", "altar"], NEUTRAL, NEUTRAL, ["theater", "altar"], age=3)
    s, _ = turn(s, {0: "play builders union", 1: "play altar", 2: "play altar", 3: "wonder theater"})
    assert s.cities[3].stages == 3
    assert s.owed == {1: 2, 3: 3}
    assert score_city(s, 0)["cities"] == 4


def test_SW_EX_20_secret_society_and_slave_market() -> None:
    for card, coins in (("secret_society", 3), ("slave_market", 3)):
        s = table(("gizah", "rhodos", "ephesos"))
        city(
            s,
            0,
            built=["militia", "residence", "lumber_yard", "sawmill", "ore_vein", "foundry", "press_1"],
            tokens=[1, 3, 3, -1],
            coins=0,
        )
        hands(s, [card, "altar"], NEUTRAL, NEUTRAL, age=3)
        s, _ = turn(s, {0: f"play {CARDS[card].name}", 1: "play altar", 2: "play altar"})
        assert s.cities[0].coins == coins
        assert score_city(s, 0)["cities"] == 1 + 3  # Residence 1 VP + 3 (black cards / victory tokens)


def test_SW_EX_21_mourners_guild_counts_tokens_not_values() -> None:
    s = table(("gizah", "rhodos", "ephesos"))
    city(s, 0, built=["mourners_guild"])
    city(s, 1, tokens=[1, 5])
    city(s, 2, tokens=[3])
    assert score_city(s, 0)["guilds"] == 3


def test_SW_EX_15_gambling_den_and_house() -> None:
    s = table(("gizah", "rhodos", "ephesos"))
    city(s, 0, coins=2)
    city(s, 1, coins=0)
    city(s, 2, coins=0)
    hands(s, ["gambling_den", "altar"], NEUTRAL, NEUTRAL)
    s, _ = turn(s, {0: "play gambling den", 1: "play altar", 2: "play altar"})
    assert [c.coins for c in s.cities] == [8, 1, 1]
    s = table(("gizah", "rhodos", "ephesos"))
    city(s, 0, coins=2)
    city(s, 1, coins=0)
    city(s, 2, coins=0)
    hands(s, ["gambling_house", "altar"], NEUTRAL, NEUTRAL, age=2)
    s, _ = turn(s, {0: "play gambling house", 1: "play altar", 2: "play altar"})
    assert [c.coins for c in s.cities] == [10, 2, 2]


def test_SW_EX_22_byzantium_b_diplomacy() -> None:
    s = table(("byzantium", "rhodos", "ephesos"), side="B", coins=9)
    city(s, 0, built=["lumber_yard", "ore_vein", "glassworks_1", "press_1"])
    city(s, 1, built=["barracks"])
    hands(s, ["altar", "theater"], NEUTRAL, NEUTRAL, age=2, last=True)
    s, ev = turn(s, {0: "wonder altar", 1: "play altar", 2: "play altar"})
    assert any("diplomacy token" in t for t in texts(ev))
    assert s.age == 3 and s.cities[0].tokens == [] and s.cities[0].diplomacy == 0
    assert s.cities[1].tokens == [3] and s.cities[2].tokens == [-1]  # they meet each other once
    assert score_city(s, 0)["wonder"] == 3


def test_SW_EX_25_diplomacy_card_from_the_discard_pile() -> None:
    s = table(("halikarnassos", "rhodos", "ephesos"), coins=5)
    city(s, 0, stages=1, built=["foundry"])
    city(s, 1, built=["barracks"])
    s.discard.extend(["residence", "baths"])
    hands(s, ["altar", "theater"], NEUTRAL, NEUTRAL, age=2, last=True)
    s, _ = turn(s, {0: "wonder altar", 1: "play altar", 2: "play altar"})
    assert s.step == "hali" and G.to_move(s) == {0}
    assert "build Residence" in moves_of(s, 0) and "build Theater" in moves_of(s, 0)  # last cards included
    s, _ = act(s, 0, "build residence")
    assert "residence" in s.cities[0].built and s.age == 3
    assert s.cities[0].tokens == [] and s.cities[0].diplomacy == 0


def test_SW_EX_29_free_city_coin_loss() -> None:
    s = table(("gizah", "rhodos", "ephesos"), players=2)
    s.fc_ctrl = 0
    s.fc_pile = ["stockade", "tavern"]
    hands(s, ["hideout", "altar", "theater"], ["baths", "pawnshop"])
    s, _ = turn(s, {0: ["city play hideout", "play altar"], 1: "play pawnshop"})
    assert s.owed == {0: 1, 1: 1}
    # An opponent's card makes the Free City lose coins: its controller decides.
    s = table(("gizah", "rhodos", "ephesos"), players=2)
    s.fc_ctrl = 1
    s.fc_pile = ["stockade", "tavern"]
    hands(s, ["hideout", "altar"], ["baths", "pawnshop", "theater"])
    s, _ = turn(s, {0: "play hideout", 1: ["play pawnshop", "city play theater"]})
    assert s.owed == {1: 1, 2: 1}
    assert G.to_move(s) == {1}
    assert sorted(moves_of(s, 1)) == sorted(["pay 1 debt 0", "pay 0 debt 1", "city pay 1 debt 0", "city pay 0 debt 1"])
    s, _ = turn(s, {1: ["city pay 0 debt 1", "pay 1 debt 0"]})
    assert s.cities[2].debt == 1 and s.cities[1].debt == 0


def test_SW_EX_30_free_city_diplomacy() -> None:
    s = table(("gizah", "rhodos", "ephesos"), players=2)
    s.fc_ctrl = 0
    city(s, 2, built=["clay_pool"])
    city(s, 0, built=["barracks"])
    hands(s, ["residence", "altar", "theater"], ["baths", "pawnshop"], last=True)
    s, _ = turn(s, {0: ["city play residence", "play altar"], 1: "play pawnshop"})
    assert s.age == 2
    assert s.cities[2].tokens == [] and s.cities[0].tokens == [1] and s.cities[1].tokens == [-1]


def test_SW_EX_45_last_turn_with_halikarnassos_and_coin_losses() -> None:
    s = table(("halikarnassos", "gizah", "rhodos", "ephesos"), players=4, coins=6)
    city(s, 0, stages=1, built=["foundry", "ore_vein"])  # H: stage 2 costs 3 ore
    city(s, 1, built=["lumber_yard", "glassworks_1", "barracks"])  # X builds Lair
    hands(s, ["altar", "theater"], ["lair", "baths"], ["hideout", "pawnshop"], ["altar", "theater"], age=2, last=True)
    s, _ev = turn(s, {0: "wonder altar", 1: "play lair", 2: "play pawnshop", 3: "play altar"})
    # Lair placed, last cards discarded (Hideout among them), then H's free build.
    assert "lair" in s.cities[1].built and "hideout" in s.discard
    assert s.step == "hali" and not s.owed
    s, _ = act(s, 0, "build hideout")
    assert "hideout" in s.cities[0].built
    assert s.owed == {1: 1, 0: 2, 2: 3, 3: 3}
    assert s.age == 2  # conflicts wait for the pay/debt prompts
    s, _ = turn(s, {0: "pay 2 debt 0", 1: "pay 1 debt 0", 2: "pay 3 debt 0", 3: "pay 3 debt 0"})
    assert s.age == 3 and s.cities[1].tokens == [3, 3]  # then Age II conflicts


def test_SW_EX_23_berenice_non_leader_part() -> None:
    """Berenice is a Leaders card (out of scope). In scope: the unboosted amounts she would
    raise — a discard gives 3, a Tavern 5, a sale to a neighbour 2, a Gambling Den 6."""
    s = table(("gizah", "rhodos", "ephesos"), coins=3)
    hands(s, ["tavern", "altar"], ["baths", "theater"], ["gambling_den", "altar"])
    s, _ = turn(s, {0: "play tavern", 1: "play baths", 2: "play gambling den"})
    # Gizah: +5 (Tavern) +2 (stone sold) +1 (Gambling Den neighbour); Rhodos: -2 +1 +1? no:
    assert s.cities[0].coins == 3 + 5 + 2 + 1
    assert s.cities[2].coins == 3 + 6
    s2 = table(("gizah", "rhodos", "ephesos"), coins=3)
    hands(s2, ["tavern", "altar"], ["baths", "theater"], ["altar", "theater"])
    s2, _ = turn(s2, {0: "sell tavern", 1: "play theater", 2: "play altar"})
    assert s2.cities[0].coins == 6


def test_SW_EX_24_nero_berenice_non_leader_part() -> None:
    """Nero and Berenice are Leaders cards (out of scope): without them two victories in a
    conflict give victory tokens and no coins."""
    s = table(("gizah", "rhodos", "ephesos"), coins=3)
    city(s, 0, built=["militia"])
    hands(s, NEUTRAL, NEUTRAL, NEUTRAL, last=True)
    s, _ = turn(s, {0: "play altar", 1: "play altar", 2: "play altar"})
    assert s.cities[0].tokens == [1, 1] and s.cities[0].coins == 3


def test_SW_EX_26_petra_stage_two_costs_exactly_seven_coins() -> None:
    """Imhotep (Leaders) is out of scope; Petra A's stage 2 costs 7 coins and no resources,
    and Architects' Cabinet does not remove coin costs either."""
    s = table(("petra", "rhodos", "ephesos"), coins=7)
    city(s, 0, stages=1, built=["architects_cabinet"])
    hands(s, ["altar", "theater"], NEUTRAL, NEUTRAL, age=2)
    assert payments(s, 0, "altar", "wonder") == [(0, 0)]
    s, _ = turn(s, {0: "wonder altar", 1: "play altar", 2: "play altar"})
    assert s.cities[0].coins == 0 and s.cities[0].stages == 2
    s = table(("petra", "rhodos", "ephesos"), coins=6)
    city(s, 0, stages=1)
    hands(s, ["altar", "theater"], NEUTRAL, NEUTRAL, age=2)
    assert payments(s, 0, "altar", "wonder") == []


def test_SW_EX_46_semiramis_non_leader_part() -> None:
    """Semiramis is a Leaders card (out of scope). In scope: strength is the shields of cards
    and stages only; a defeat token received in a conflict does not change that conflict;
    each defeat token counts -1 VP."""
    s = table(("gizah", "rhodos", "ephesos"))
    city(s, 0, built=["walls", "barracks"], tokens=[-1, -1])
    assert strength(s, 0) == 3
    city(s, 1, built=["contingent"])
    city(s, 2, built=["walls", "barracks"])
    hands(s, NEUTRAL, NEUTRAL, NEUTRAL, age=3, last=True)
    s, _ = turn(s, {0: "play altar", 1: "play altar", 2: "play altar"})
    assert s.cities[0].tokens == [-1, -1, -1] and score_city(s, 0)["military"] == -3


@pytest.mark.parametrize(
    ("card", "vp"),
    [
        ("hideout", 2),
        ("residence", 1),
        ("gates_of_the_city", 4),
        ("lair", 3),
        ("consulate", 2),
        ("sepulcher", 4),
        ("architects_cabinet", 2),
        ("tabularium", 6),
        ("brotherhood", 4),
        ("embassy", 3),
        ("cenotaph", 5),
        ("builders_union", 4),
        ("capitol", 8),
        ("pigeon_loft", 0),
        ("militia", 0),
        ("gambling_den", 0),
        ("clandestine_dock_west", 0),
        ("secret_warehouse", 0),
        ("spy_ring", 0),
        ("mercenaries", 0),
        ("gambling_house", 0),
        ("black_market", 0),
        ("torture_chamber", 0),
        ("contingent", 0),
    ],
)
def test_black_card_end_vp(card: str, vp: int) -> None:
    s = table(("gizah", "rhodos", "ephesos"))
    city(s, 0, built=[card])
    assert score_city(s, 0)["cities"] == vp


@pytest.mark.parametrize(("card", "shields"), [("militia", 2), ("mercenaries", 3), ("contingent", 5)])
def test_black_military_cards_are_not_red(card: str, shields: int) -> None:
    s = table(("gizah", "rhodos", "ephesos"))
    city(s, 0, built=[card])
    city(s, 1, built=["spies_guild"])
    assert strength(s, 0) == shields and score_city(s, 1)["guilds"] == 0


@pytest.mark.parametrize(
    ("card", "age", "loss"), [("hideout", 1, 1), ("lair", 2, 2), ("brotherhood", 3, 3), ("counterfeiters_guild", 3, 3)]
)
def test_coin_loss_cards(card: str, age: int, loss: int) -> None:
    s = table(("gizah", "rhodos", "ephesos"), coins=9)
    city(s, 0, built=["sawmill", "foundry", "glassworks_1", "loom_1"])
    hands(s, [card, "altar"], NEUTRAL, NEUTRAL, age=age)
    s, _ = turn(s, {0: f"play {CARDS[card].name}", 1: "play altar", 2: "play altar"})
    assert s.owed == {1: loss, 2: loss}


@pytest.mark.parametrize(("card", "age"), [("residence", 1), ("consulate", 2), ("embassy", 3)])
def test_diplomacy_cards(card: str, age: int) -> None:
    s = table(("gizah", "rhodos", "ephesos"), coins=9)
    city(s, 0, built=["clay_pool", "press_1", "loom_1"])
    hands(s, [card, "altar"], NEUTRAL, NEUTRAL, age=age)
    s, ev = turn(s, {0: f"play {CARDS[card].name}", 1: "play altar", 2: "play altar"})
    assert s.cities[0].diplomacy == 1
    assert "Gizah takes a diplomacy token and will sit out the next conflicts." in texts(ev)


def test_cenotaph_counts_victory_tokens() -> None:
    s = table(("gizah", "rhodos", "ephesos"), coins=9)
    city(s, 0, built=["brickyard", "glassworks_1", "loom_1"])
    city(s, 1, tokens=[1, 1, 3, -1])
    hands(s, ["cenotaph", "altar"], NEUTRAL, NEUTRAL, age=3)
    s, _ = turn(s, {0: "play cenotaph", 1: "play altar", 2: "play altar"})
    assert s.owed == {1: 3}


def test_clandestine_dock_west() -> None:
    s = table(("rhodos", "gizah", "ephesos"))
    city(s, 0, built=["clandestine_dock_west"])
    hands(s, ["baths", "altar"], NEUTRAL, NEUTRAL)
    assert payments(s, 0, "baths") == [(1, 0)]


def test_unaffordable_black_card_coin_cost() -> None:
    s = table(("gizah", "rhodos", "ephesos"), coins=2)
    hands(s, ["militia", "altar"], NEUTRAL, NEUTRAL)
    assert payments(s, 0, "militia") == []
    assert "costs 3 coins and you have 2" in G.illegal_reason(s, 0, Action("play", 0, "militia"))
