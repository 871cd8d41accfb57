"""The move list of 7 Wonders: cheapest payment first per card, dearer payments as variants,
what each build costs in coins, and the public status lines of every city."""

from __future__ import annotations

from engine.seven_wonders.actions import Action

from .builders import G, city, hands, table


def test_dearer_payments_are_variants_listed_after_the_cheapest() -> None:
    s = table(("rhodos", "babylon", "ephesos"))
    city(s, 0, coins=10, built=["west_trading_post"])
    city(s, 1, built=["stone_pit", "quarry"])
    city(s, 2, built=["stone_pit", "quarry"])
    hands(s, ["walls", "altar"], ["altar", "baths"], ["baths", "altar"], age=2)
    walls = [a for a in G.legal_actions(s, 0) if a.card == "walls" and a.kind == "play"]
    totals = [a.trade for a in walls]
    assert len(walls) > 1 and totals == sorted(totals)
    assert not G.action_variant(s, 0, walls[0])
    assert all(G.action_variant(s, 0, a) for a in walls if a.trade > walls[0].trade)
    assert G.action_cost(s, 0, walls[0]) == f"{walls[0].trade} coins"


def test_cost_counts_the_cards_coin_cost_and_free_moves_cost_nothing() -> None:
    s = table(("rhodos", "babylon", "ephesos"))
    hands(s, ["timber_yard", "altar"], ["altar", "baths"], ["baths", "altar"])
    assert G.action_cost(s, 0, Action("play", 0, "timber_yard")) == "1 coin"
    assert G.action_cost(s, 0, Action("play", 0, "altar")) == ""
    assert G.action_cost(s, 0, Action("sell", 0, "altar")) == ""


def test_status_lines_show_each_citys_public_standing() -> None:
    s = table(("rhodos", "babylon", "ephesos"))
    city(s, 0, coins=1, built=["stockade"], debt=1)
    lines = G.status_lines(s, None)
    assert lines[0] == "Rhodos: 1 coin and 1 debt token, wonder 0/3, 1 shield, -1 victory point so far."
    assert lines[1].startswith("Babylon: 3 coins, wonder 0/3, 0 shields, 1 victory point so far.")
    assert G.status_lines(s, 1) == lines


def test_view_carries_the_running_victory_points_of_every_city() -> None:
    s = table(("rhodos", "babylon", "ephesos"))
    city(s, 0, built=["altar"])
    v = G.view(s, None)
    assert [c["vp_now"] for c in v["cities"]] == [3, 1, 1]
