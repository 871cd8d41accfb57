"""Views, status, help, notation forms, move groups, the automatic player and timeouts."""

from __future__ import annotations

import json

import pytest

from engine.core.errors import InvalidNotation, NotYourTurn
from engine.core.testing import random_playout
from engine.seven_wonders.actions import Action

from .builders import G, act, city, hands, moves_of, table, turn

NEUTRAL = ["altar", "theater"]


def test_view_schema_for_a_seat_and_a_spectator() -> None:
    s = table(("gizah", "rhodos", "ephesos"), coins=3)
    city(s, 0, built=["altar"])
    city(s, 2, built=["stone_pit"])
    hands(
        s, ["temple", "baths", "palace"], ["stockade", "tavern", "barracks"], ["pawnshop", "loom_1", "press_1"], age=2
    )
    v = G.view(s, 0)
    json.dumps(v)  # JSON-able
    for key in (
        "game",
        "viewer",
        "age",
        "turn",
        "turns_in_age",
        "direction",
        "step",
        "awaiting",
        "to_move",
        "chosen",
        "cities",
        "decks",
        "discard_size",
        "hand",
        "my_picks",
        "prompt",
        "cards",
        "last_turn",
    ):
        assert key in v
    assert v["direction"] == "right" and v["to_move"] == [0, 1, 2] and v["chosen"] == []
    c0 = v["cities"][0]
    assert c0["left"] == 1 and c0["right"] == 2 and c0["structures"]["blue"] == ["altar"]
    assert c0["wonder"]["resource"] == "stone" and len(c0["wonder"]["stages"]) == 3
    assert c0["hand_count"] == 3 and c0["coins"] == 3 and c0["military"] == {"shields": 0, "tokens": [], "points": 0}
    hand = {h["id"]: h for h in v["hand"]}
    assert hand["temple"]["play"]["free_by_chain"] and hand["temple"]["play"]["cheapest_trade"] == 0
    assert hand["baths"]["play"]["affordable"] and hand["baths"]["play"]["cheapest_trade"] == 0
    assert hand["palace"]["play"]["cheapest_trade"] is None and not hand["palace"]["play"]["legal"]
    assert hand["baths"]["wonder"]["stage"] == 1 and hand["baths"]["sell"]
    assert set(v["cards"]) == {"altar", "stone_pit", "temple", "baths", "palace"}
    spectator = G.view(s, None)
    assert spectator["hand"] is None and spectator["prompt"] is None
    assert "temple" not in spectator["cards"] and spectator["cities"][1]["hand_count"] == 3
    other = G.view(s, 1)
    assert {h["id"] for h in other["hand"]} == {"stockade", "tavern", "barracks"}


def test_view_trade_costs_and_has_chosen_flags() -> None:
    s = table(("rhodos", "gizah", "babylon"), coins=3)
    hands(s, ["baths", "altar"], NEUTRAL, NEUTRAL)
    v = G.view(s, 0)
    baths = next(h for h in v["hand"] if h["id"] == "baths")
    assert baths["play"]["cheapest_trade"] == 2 and baths["play"]["payments"] == [[2, 0]]
    s, _ = act(s, 1, "play altar")
    v = G.view(s, 0)
    assert v["chosen"] == [1] and v["cities"][1]["has_chosen"] and v["to_move"] == [0, 2]
    assert G.view(s, 1)["my_picks"] == [{"city": 1, "move": "play Altar"}]
    assert G.status(s, 0).startswith("Age I, turn 1/7: waiting for Rhodos, Babylon") and "Your move" in G.status(s, 0)
    assert "You have chosen" in G.status(s, 1)
    assert "Gizah" not in G.status(s, None).split("waiting for")[1]


def test_view_prompts_for_debt_and_scores_at_the_end() -> None:
    s = table(("gizah", "rhodos", "ephesos"), coins=3)
    hands(s, ["hideout", "altar"], NEUTRAL, NEUTRAL)
    s, _ = turn(s, {0: "play hideout", 1: "play altar", 2: "play altar"})
    v = G.view(s, 1)
    assert v["prompt"] == {"kind": "debt", "city": 1, "owed": 1, "coins": 3}
    assert v["cities"][1]["owes"] == 1 and G.view(s, 0)["prompt"] is None
    assert "pay" in G.status(s, 1)
    p = random_playout(G, 3, 3, {}, check_replay=False, check_dump_every=0, check_mutation=False)
    end = G.view(p.state, 0)
    assert end["step"] == "over" and len(end["scores"]) == 3 and end["hand"] == []
    assert G.status(p.state, 0).startswith("The game is over.")


def test_two_player_views() -> None:
    s = G.new_game(4, 2, {})
    v0, v1 = G.view(s, 0), G.view(s, 1)
    assert v0["free_city"] == 2 and v0["free_city_holder"] == 0
    assert len(v0["hand"]) == 9 and len(v0["free_city_hand"]) == 9
    assert v1["free_city_hand"] is None and len(v1["hand"]) == 8
    assert v0["cities"][2]["seat"] is None and v0["cities"][2]["free_city"]


def test_team_views_show_the_teammate_hand() -> None:
    s = G.new_game(4, 4, {"teams": True})
    assert sorted(G.view(s, 0)["teammate_hand"]) == sorted(s.hands[1])
    assert sorted(G.view(s, 3)["teammate_hand"]) == sorted(s.hands[2])
    assert [c["team"] for c in G.view(s, 0)["cities"]] == [0, 0, 1, 1]


def test_notation_round_trips_and_forms() -> None:
    s = table(("rhodos", "gizah", "babylon"), coins=5)
    city(s, 2, built=["stone_pit"])
    hands(s, ["baths", "altar", "loom_1"], NEUTRAL, NEUTRAL)
    for seat in range(3):
        for a in G.legal_actions(s, seat):
            assert G.parse(s, seat, G.notation(s, seat, a)) == a
    assert G.parse(s, 0, "discard altar") == Action("sell", 0, "altar")
    assert G.parse(s, 0, "pl lo") == Action("play", 0, "loom_1")
    with pytest.raises(InvalidNotation):
        G.parse(s, 0, "fly baths")
    with pytest.raises(NotYourTurn):
        G.parse(G.apply(s, 0, G.parse(s, 0, "sell altar")).state, 0, "play baths")
    assert G.action_group("play Baths") == "build a structure"
    assert G.action_group("city play Baths") == "free city"
    assert G.action_group("pay 1 debt 0") == "coin loss"
    assert set(G.verbs) >= {"play", "wonder", "sell", "build", "skip", "pay", "city"}
    assert "play Caravansery pay left 2 right 1" in G.help_text() and "wonder" in G.help_text()


def test_free_city_moves_use_the_city_prefix() -> None:
    s = table(("gizah", "rhodos", "ephesos"), players=2, coins=3)
    s.fc_ctrl = 0
    s.fc_pile = ["tavern", "stockade"]
    hands(s, ["altar", "baths", "theater"], ["pawnshop", "barracks"])
    ms = moves_of(s, 0)
    assert "play Altar" in ms and "city play Altar" in ms
    # The Free City may not discard a card it can build (A16.4, D-26).
    assert "city sell Altar" not in ms and "sell Altar" in ms
    s, _ = act(s, 0, "city play altar")
    assert "play Altar" not in moves_of(s, 0) and "play Baths" in moves_of(s, 0)
    assert G.to_move(s) == {0, 1}
    assert "already chosen" in G.illegal_reason(s, 0, Action("play", 0, "altar"))


def test_free_city_must_chain() -> None:
    s = table(("gizah", "rhodos", "ephesos"), players=2, coins=3)
    s.fc_ctrl = 0
    s.fc_pile = ["tavern", "stockade"]
    city(s, 2, built=["altar"])
    hands(s, ["temple", "baths", "theater"], ["pawnshop", "barracks"], age=2)
    fc = [m for m in moves_of(s, 0) if m.startswith("city") and "Temple" in m]
    assert fc == ["city play Temple"]
    assert "through its chain" in G.illegal_reason(s, 0, Action("sell", 2, "temple"))


@pytest.mark.parametrize("n", [2, 3, 5, 8])
def test_bot_is_legal_and_seeded(n: int) -> None:
    s = G.new_game(n, n, {"side": "B"})
    for seat in sorted(G.to_move(s)):
        a = G.auto_action(s, seat, 11)
        assert G.is_legal(s, seat, a) and G.auto_action(s, seat, 11) == a
    # Bots alone finish a game.
    while G.outcome(s) is None:
        seat = min(G.to_move(s))
        s = G.apply(s, seat, G.auto_action(s, seat, 5)).state
    out = G.outcome(s)
    assert out is not None and max(out.scores.values()) > 20


def test_bot_prefers_points_and_timeouts_follow_the_rules() -> None:
    s = table(("gizah", "rhodos", "ephesos"), coins=3)
    hands(s, ["pawnshop", "theater", "altar"], NEUTRAL, NEUTRAL, age=3)
    a = G.auto_action(s, 0, 1)
    assert a == Action("play", 0, "pawnshop")
    t = G.on_timeout(s, 0)
    assert t.kind == "sell"
    s2 = table(("halikarnassos", "gizah", "rhodos"), side="B", coins=3)
    city(s2, 0, built=["foundry"])
    s2.discard.append("palace")
    hands(s2, ["altar", "baths", "theater"], ["pawnshop", "stockade", "tavern"], ["altar", "baths", "tavern"])
    s2, _ = turn(s2, {0: "wonder altar", 1: "play pawnshop", 2: "play altar"})
    assert G.on_timeout(s2, 0) == Action("build", 0, "palace")
    with pytest.raises(NotYourTurn):
        G.on_timeout(s2, 1)
