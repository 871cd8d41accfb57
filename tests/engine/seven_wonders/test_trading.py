"""Costs, production and commerce: prices, discounts, docks, choice cards, illegal cases."""

from __future__ import annotations

import pytest

from engine.core.errors import AmbiguousAction, IllegalAction
from engine.seven_wonders.actions import Action
from engine.seven_wonders.data import res_vec
from engine.seven_wonders.resources import missing_units, own_supply, payment_options, trade_terms

from .builders import G, act, city, hands, payments, table, turn


def test_SW_EX_13_clandestine_dock_with_marketplace() -> None:
    # Alexis (Ephesos, papyrus) needs stone + loom for Embassy; only the right neighbour
    # (Gizah: stone board + Loom) sells them.
    s = table(("ephesos", "rhodos", "gizah"))
    city(s, 0, built=["marketplace", "clandestine_dock_east"], coins=10)
    city(s, 2, built=["loom_1"])
    hands(s, ["embassy", "altar"], ["baths", "theater"], ["stockade", "tavern"], age=3)
    assert payments(s, 0, "embassy") == [(0, 2)]  # loom 1 + stone 2 - 1 rebate
    s, _ = act(s, 0, "play embassy")
    s, _ = turn(s, {1: "sell baths", 2: "sell stockade"})
    assert s.cities[0].coins == 10 - 2 and s.cities[2].coins == 3 + 2 + 3


def test_SW_EX_14_dock_with_trading_post_once_per_turn() -> None:
    s = table(("halikarnassos", "rhodos", "babylon"))
    city(s, 0, built=["east_trading_post", "clandestine_dock_east"], coins=5)
    city(s, 2, built=["brickyard"])
    hands(s, ["altar", "theater", "baths"], ["baths", "altar", "theater"], ["stockade", "altar", "theater"])
    assert payments(s, 0, "altar", "wonder") == [(0, 1)]  # stage 1 costs 2 clay: 1 + 1 - 1
    s, _ = turn(s, {0: "wonder altar", 1: "sell baths", 2: "sell stockade"})
    assert s.cities[0].coins == 4 and s.cities[0].stages == 1
    # Next turn the rebate applies again (stage 2 needs 3 ore: none sold around, so check a card).
    terms = trade_terms(s, 0)
    assert payment_options(res_vec("CC"), own_supply(s, 0), terms) == ((0, 1),)


def test_SW_EX_33_trading_prices() -> None:
    s = table(("rhodos", "babylon", "ephesos"))
    city(s, 1, built=["stone_pit", "quarry"])
    city(s, 0, coins=10)
    hands(s, ["walls", "altar"], ["altar", "baths"], ["baths", "altar"], age=2)
    assert payments(s, 0, "walls") == [(6, 0)]
    assert payment_options(res_vec("SSSS"), own_supply(s, 0), trade_terms(s, 0)) == ()
    s.cities[0].built.append("west_trading_post")
    assert payments(s, 0, "walls") == [(3, 0)]
    s.cities[0].built[-1] = "east_trading_post"
    assert payments(s, 0, "walls") == [(6, 0)]


def test_SW_EX_34_choice_card_sold_to_a_neighbour() -> None:
    s = table(("rhodos", "ephesos", "alexandria"))
    city(s, 1, built=["tree_farm"])
    hands(s, ["stables", "stockade", "guard_tower"], ["stockade", "altar"], ["altar", "baths"], age=2)
    assert payments(s, 0, "stables") == []  # wood AND clay: the Tree Farm sells only one
    assert payments(s, 0, "stockade") == [(2, 0)]
    assert payments(s, 0, "guard_tower") == [(2, 0)]
    # The seller uses the same Tree Farm for its own Stockade in the same turn.
    s, _ = turn(s, {0: "play stockade", 1: "play stockade", 2: "sell altar"})
    assert "stockade" in s.cities[0].built and "stockade" in s.cities[1].built
    assert s.cities[1].coins == 5 and s.cities[0].coins == 1


def test_SW_EX_35_non_purchasable_production() -> None:
    s = table(("rhodos", "alexandria", "ephesos"))
    city(s, 0, built=[])
    city(s, 1, built=["caravansery"], stages=2)
    s.cities[0].wonder = "gizah"  # buyer without ore
    hands(s, ["barracks", "altar"], ["altar", "baths"], ["baths", "theater"])
    assert payments(s, 0, "barracks") == []
    # Alexandria itself uses both for its own constructions.
    assert own_supply(s, 1).choices == ((0, 1, 2, 3), (0, 1, 2, 3))


def test_SW_EX_36_sale_income_not_spendable_the_same_turn() -> None:
    s = table(("gizah", "rhodos", "ephesos"))
    city(s, 0, coins=0, built=["timber_yard"])
    hands(s, ["barracks", "altar"], ["baths", "altar"], ["baths", "theater"])
    # Both neighbours buy stone from Gizah; Gizah has no coins and cannot buy ore.
    assert payments(s, 0, "barracks") == []
    assert payments(s, 1, "baths") == [(0, 2)] or payments(s, 1, "baths") == [(2, 0)]
    s, _ = turn(s, {0: "sell barracks", 1: "play baths", 2: "play baths"})
    assert s.cities[0].coins == 3 + 2 + 2


def test_SW_EX_16_secret_warehouse_doubles_black_market_fills() -> None:
    s = table(("gizah", "rhodos", "ephesos"))
    city(s, 0, built=["clay_pool", "caravansery", "secret_warehouse"])
    assert own_supply(s, 0).choices == ((0, 1, 2, 3), (1, 2))
    s.cities[0].built[-1] = "black_market"
    assert own_supply(s, 0).choices == ((0, 1, 2, 3), (0, 3, 4, 5, 6))


def test_SW_EX_47_warehouse_and_market_with_a_choice_card() -> None:
    s = table(("alexandria", "rhodos", "ephesos"))
    city(s, 0, built=["timber_yard", "secret_warehouse"])
    own = own_supply(s, 0)
    assert (0, 1, 4) in own.choices
    assert missing_units(res_vec("WSG"), own)[0] == 0  # wood (Timber Yard), stone (Warehouse), glass
    assert missing_units(res_vec("WGG"), own)[0] == 0  # the Warehouse doubles the glass
    assert missing_units(res_vec("WSGG"), own)[0] == 1  # one unit per turn only
    assert missing_units(res_vec("C"), own)[0] == 1  # never clay
    s.cities[0].built[-1] = "black_market"
    assert (2, 3, 5, 6) in own_supply(s, 0).choices


def test_own_production_first_then_shortfall_only() -> None:
    # Timber Yard (wood/stone) + a need of wood and stone: one unit must be bought, and
    # it may be either wood or stone (D-15 allows varying types, not extra units).
    s = table(("rhodos", "gizah", "olympia"))
    city(s, 0, built=["timber_yard"], coins=10)
    hands(s, ["statue", "school"], ["altar", "baths"], ["baths", "altar"], age=2)
    # Statue: wood + 2 ore; Rhodos has 1 ore + Timber Yard wood: 1 ore short, nobody sells ore.
    assert payments(s, 0, "statue") == []
    s.cities[0].built.append("ore_vein")
    assert payments(s, 0, "statue") == [(0, 0)]


def test_trade_payments_are_moves_and_short_form_picks_the_cheapest() -> None:
    s = table(("rhodos", "gizah", "babylon"))
    city(s, 0, built=["west_trading_post"], coins=10)
    city(s, 2, built=["stone_pit"])
    hands(s, ["baths", "altar"], ["altar", "theater"], ["theater", "altar"])
    acts = [a for a in G.legal_actions(s, 0) if a.card == "baths" and a.kind == "play"]
    assert [(a.pay_left, a.pay_right) for a in acts] == [(1, 0), (0, 2)]
    assert G.notation(s, 0, acts[0]) == "play Baths pay left 1 right 0"
    assert G.parse(s, 0, "play baths") == acts[0]
    assert G.parse(s, 0, "play baths pay left 0 right 2") == acts[1]
    assert G.parse(s, 0, "PLAY   Bat pay l 0 r 2") == acts[1]
    assert G.parse(s, 0, "play baths pay right 2") == acts[1]
    # Without the trading post both cost 2: the short form is ambiguous.
    s.cities[0].built.clear()
    with pytest.raises(AmbiguousAction):
        G.parse(s, 0, "play baths")


def test_illegal_reasons_say_why() -> None:
    s = table(("rhodos", "gizah", "babylon"))
    city(s, 0, built=["loom_1"], coins=0)
    hands(s, ["baths", "loom_2", "walls", "palace"], ["altar", "theater"], ["theater", "altar"], age=2)
    # Unaffordable: stone must be bought and Rhodos has no coins.
    msg = G.illegal_reason(s, 0, Action("play", 0, "baths", 2, 0))
    assert "stone" in msg and "coins" in msg
    # Duplicate name (Loom I built, Loom II in hand).
    assert "same name" in G.illegal_reason(s, 0, Action("play", 0, "loom_2"))
    with pytest.raises(IllegalAction, match="same name"):
        G.apply(s, 0, Action("play", 0, "loom_2"))
    # Paying a neighbour that cannot sell the resource (Babylon, right, sells no stone).
    s.cities[0].coins = 10
    msg = G.illegal_reason(s, 0, Action("play", 0, "baths", 0, 2))
    assert "Possible: pay left 2 right 0" in msg
    with pytest.raises(IllegalAction):
        G.apply(s, 0, Action("play", 0, "baths", 0, 2))
    # Nobody sells glass/papyrus here.
    assert "cannot sell" in G.illegal_reason(s, 0, Action("play", 0, "palace", 0, 0))
    # Stage out of order.
    msg = G.illegal_reason(s, 0, Action("wonder", 0, "walls", stage=2))
    assert "next stage is stage 1" in msg
    # A card that is not in the hand (never names other hands).
    assert G.illegal_reason(s, 0, Action("play", 0, "altar")) == "That card is not in your hand."


def test_paying_for_what_you_produce_is_not_a_move() -> None:
    s = table(("gizah", "rhodos", "babylon"))
    hands(s, ["baths", "altar"], ["altar", "theater"], ["theater", "altar"])
    assert payments(s, 0, "baths") == [(0, 0)]
    assert "produce everything" in G.illegal_reason(s, 0, Action("play", 0, "baths", 2, 0))


def test_coin_cost_and_purchases_need_start_of_turn_coins() -> None:
    s = table(("rhodos", "gizah", "babylon"))
    city(s, 0, coins=2)
    hands(s, ["timber_yard", "baths", "altar"], ["altar", "theater"], ["theater", "altar"])
    assert payments(s, 0, "timber_yard") == [(0, 0)]
    assert payments(s, 0, "baths") == [(2, 0)]
    s.cities[0].coins = 0
    assert payments(s, 0, "timber_yard") == [] and payments(s, 0, "baths") == []
    assert "costs 1 coin and you have 0" in G.illegal_reason(s, 0, Action("play", 0, "timber_yard"))


def test_chain_is_free_and_offered_alone() -> None:
    s = table(("rhodos", "gizah", "babylon"))
    city(s, 0, built=["altar"], coins=0)
    hands(s, ["temple", "baths"], ["altar", "theater"], ["theater", "altar"], age=2)
    plays = [a for a in G.legal_actions(s, 0) if a.card == "temple" and a.kind == "play"]
    assert plays == [Action("play", 0, "temple", via="chain")]
    assert G.notation(s, 0, plays[0]) == "play Temple"


def test_SW_EX_37_chains_and_duplicates() -> None:
    s = table(("rhodos", "gizah", "babylon"))
    city(s, 0, built=["altar", "loom_1", "sawmill"], coins=0)
    hands(s, ["temple", "loom_2", "altar"], ["altar", "theater"], ["theater", "altar"], age=2)
    assert payments(s, 0, "temple") == [(0, 0)]
    s2, _ = turn(s, {0: "play temple", 1: "play altar", 2: "play altar"})
    assert "temple" in s2.cities[0].built and s2.cities[0].coins == 0
    loom = [G.notation(s, 0, a) for a in G.legal_actions(s, 0) if a.card == "loom_2"]
    assert loom == ["wonder Loom", "sell Loom"]


def _brute_force(cost, own, terms):
    """Every (left, right) payment by exhaustive enumeration (reference for the search)."""
    from itertools import product as prod

    def assignments(choices):
        for pick in prod(*[(None, *ch) for ch in choices]):
            v = [0] * 7
            for t in pick:
                if t is not None:
                    v[t] += 1
            yield v

    best, vectors = None, set()
    for v in assignments(own.choices):
        rem = tuple(max(0, cost[t] - own.fixed[t] - v[t]) for t in range(7))
        total = sum(rem)
        if best is None or total < best:
            best, vectors = total, {rem}
        elif total == best:
            vectors.add(rem)
    if best == 0:
        return {(0, 0)}

    def supplies(sup):
        return [tuple(sup.fixed[t] + v[t] for t in range(7)) for v in assignments(sup.choices)]

    left_sup, right_sup = supplies(terms.left), supplies(terms.right)
    pairs = set()
    for short in vectors:
        for split in prod(*[range(short[t] + 1) for t in range(7)]):
            lv = split
            rv = tuple(short[t] - lv[t] for t in range(7))
            if not any(all(lv[t] <= s[t] for t in range(7)) for s in left_sup):
                continue
            if not any(all(rv[t] <= s[t] for t in range(7)) for s in right_sup):
                continue
            cl = sum(lv[t] * terms.price_left[t] for t in range(7))
            cr = sum(rv[t] * terms.price_right[t] for t in range(7))
            if terms.dock_left and any(lv):
                cl -= 1
            if terms.dock_right and any(rv):
                cr -= 1
            pairs.add((cl, cr))
    return pairs


def test_payment_search_matches_brute_force() -> None:
    from engine.core.rng import Rng
    from engine.seven_wonders.resources import Supply, Terms

    rng = Rng.from_seed(2024)

    def supply(max_fixed, n_choices):
        fixed = tuple(rng.below(max_fixed + 1) if rng.below(2) else 0 for _ in range(7))
        choices = []
        for _ in range(rng.below(n_choices + 1)):
            k = 2 + rng.below(2)
            types = sorted({rng.below(7) for _ in range(k)})
            choices.append(tuple(types))
        return Supply(fixed, tuple(sorted(choices)))

    checked = 0
    for _ in range(300):
        cost = [0] * 7
        for _ in range(1 + rng.below(5)):
            cost[rng.below(7)] += 1
        own = supply(1, 3)
        terms = Terms(
            supply(2, 2),
            supply(2, 2),
            tuple(1 + rng.below(2) for _ in range(7)),
            tuple(1 + rng.below(2) for _ in range(7)),
            bool(rng.below(2)),
            bool(rng.below(2)),
        )
        got = set(payment_options(tuple(cost), own, terms))
        assert got == _brute_force(tuple(cost), own, terms), (cost, own, terms)
        checked += bool(got - {(0, 0)})
    assert checked > 50
