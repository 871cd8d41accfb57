"""Wonder stages and board powers with their exact timing (A12, D-21, D-31, D-32, D-37)."""

from __future__ import annotations

from engine.seven_wonders.actions import Action
from engine.seven_wonders.military import strength
from engine.seven_wonders.resources import own_supply, trade_terms
from engine.seven_wonders.scoring import score_city

from .builders import G, act, city, hands, moves_of, payments, table, texts, turn

NEUTRAL = ["altar", "theater"]


def test_stages_in_order_and_tucked_cards_count_for_nothing() -> None:
    s = table(("gizah", "rhodos", "ephesos"), coins=5)
    city(s, 0, built=["stone_pit"])
    hands(s, ["barracks", "altar", "baths"], ["altar", "baths", "theater"], ["baths", "theater", "altar"])
    wonders = [a for a in G.legal_actions(s, 0) if a.kind == "wonder"]
    assert {a.stage for a in wonders} == {1}
    s, _ = turn(s, {0: "wonder barracks", 1: "sell altar", 2: "sell baths"})
    assert s.cities[0].stages == 1 and s.cities[0].tucked == ["barracks"] and strength(s, 0) == 0
    assert score_city(s, 0)["wonder"] == 3
    # Stage 2 needs 3 wood: nobody sells wood, so no wonder move and a clear reason.
    assert not [a for a in G.legal_actions(s, 0) if a.kind == "wonder"]
    card = s.hands[0][0]
    assert "wood" in G.illegal_reason(s, 0, Action("wonder", 0, card, stage=2))
    assert "next stage is stage 2" in G.illegal_reason(s, 0, Action("wonder", 0, card, stage=3))


def test_complete_wonder_has_no_stage_moves() -> None:
    s = table(("rhodos", "gizah", "ephesos"), side="B")
    city(s, 0, stages=2)
    hands(s, NEUTRAL, NEUTRAL, NEUTRAL)
    assert all(not m.startswith("wonder") for m in moves_of(s, 0))
    assert G.illegal_reason(s, 0, Action("wonder", 0, "altar", stage=3)) == "Your wonder is complete."


def test_rhodos_b_and_ephesos_coins_once_when_built() -> None:
    s = table(("rhodos", "gizah", "ephesos"), side="B", coins=0)
    city(s, 0, built=["quarry", "stone_pit"])
    city(s, 2, built=["stone_pit", "quarry"])
    hands(s, NEUTRAL, NEUTRAL, NEUTRAL, age=2)
    s, _ = turn(s, {0: "wonder altar", 1: "play altar", 2: "wonder altar"})
    assert s.cities[0].coins == 3 and strength(s, 0) == 1 and score_city(s, 0)["wonder"] == 3
    assert s.cities[2].coins == 4 and score_city(s, 2)["wonder"] == 2
    s2 = table(("ephesos", "gizah", "rhodos"), coins=0)
    city(s2, 0, stages=1, built=["sawmill"])
    hands(s2, NEUTRAL, NEUTRAL, NEUTRAL, age=2)
    s2, _ = turn(s2, {0: "wonder altar", 1: "play altar", 2: "play altar"})
    assert s2.cities[0].coins == 9


def test_alexandria_production_stages_and_olympia_b_discount() -> None:
    s = table(("alexandria", "olympia", "gizah"), side="B")
    city(s, 0, stages=2)
    assert own_supply(s, 0).choices == ((0, 1, 2, 3), (4, 5, 6))
    city(s, 1, stages=1)
    terms = trade_terms(s, 1)
    assert terms.price_left[:4] == (1, 1, 1, 1) and terms.price_right[:4] == (1, 1, 1, 1)
    assert terms.price_left[4:] == (2, 2, 2)


def test_SW_EX_42_babylon_b_last_card() -> None:
    for move, check in (
        ("play baths", lambda c: "baths" in c.built),
        ("wonder baths", lambda c: c.stages == 3),
        ("sell baths", lambda c: c.coins == 6),
    ):
        s = table(("babylon", "gizah", "rhodos"), side="B", coins=3)
        city(s, 0, stages=2, built=["clay_pool", "brickyard", "press_1", "stone_pit"])
        hands(s, ["altar", "baths"], NEUTRAL, NEUTRAL, last=True)
        s, _ev = turn(s, {0: "play altar", 1: "play altar", 2: "play altar"})
        assert s.step == "babylon" and G.to_move(s) == {0} and s.hands[0] == ["baths"]
        assert "theater" in s.discard and "baths" not in s.discard
        step = G.apply(s, 0, G.parse(s, 0, move))
        assert not step.undoable
        s = step.state
        assert check(s.cities[0]) and s.age == 2


def test_babylon_b_stage_two_built_on_the_last_turn_applies_at_once_D32() -> None:
    s = table(("babylon", "gizah", "rhodos"), side="B", coins=3)
    city(s, 0, stages=1, built=["sawmill", "glassworks_1"])
    hands(s, ["altar", "baths"], NEUTRAL, NEUTRAL, last=True)
    s, _ = turn(s, {0: "wonder altar", 1: "play altar", 2: "play altar"})
    assert s.step == "babylon" and s.hands[0] == ["baths"]


def test_SW_EX_41_halikarnassos_on_the_last_turn() -> None:
    s = table(("halikarnassos", "gizah", "rhodos"), coins=3)
    city(s, 0, stages=1, built=["foundry", "ore_vein"])
    s.discard.append("pawnshop")
    hands(s, ["altar", "baths"], ["theater", "stockade"], ["tavern", "guard_tower"], last=True)
    s, _ = turn(s, {0: "wonder altar", 1: "sell theater", 2: "sell tavern"})
    assert s.step == "hali"
    assert moves_of(s, 0) == [
        "build Baths",
        "build Guard Tower",
        "build Pawnshop",
        "build Stockade",
        "build Tavern",
        "build Theater",
        "skip",
    ]
    view = G.view(s, 0)
    assert view["prompt"]["kind"] == "hali" and "stockade" in view["prompt"]["choices"]
    assert G.view(s, 1)["prompt"] is None and "stockade" not in repr(G.view(s, 1))
    step = G.apply(s, 0, G.parse(s, 0, "build tavern"))
    assert not step.undoable  # shows a discarded card to everyone
    s, ev = step.state, list(step.events)
    assert "tavern" in s.cities[0].built and s.cities[0].coins == 3 + 5
    assert "Halikarnassos builds Tavern from the discard pile." in texts(ev)


def test_halikarnassos_b_each_stage_builds_and_duplicates_are_refused() -> None:
    s = table(("halikarnassos", "gizah", "rhodos"), side="B", coins=3)
    city(s, 0, built=["foundry", "altar"])
    s.discard.extend(["altar", "loom_1", "loom_2"])
    hands(s, ["baths", "pawnshop", "tavern"], ["theater", "stockade", "altar"], ["altar", "guard_tower", "baths"])
    s, _ = turn(s, {0: "wonder baths", 1: "sell theater", 2: "sell altar"})
    assert s.step == "hali"
    # Altar is already built; Loom I and Loom II are one structure for the player.
    assert moves_of(s, 0) == ["build Loom", "build Theater", "skip"]
    assert G.illegal_reason(s, 0, Action("build", 0, "altar")).startswith("That card is not in the discard pile")
    s, _ = act(s, 0, "build loom")
    assert "loom_1" in s.cities[0].built and "loom_2" in s.discard
    assert s.step == "pick" and s.turn == 2
    assert score_city(s, 0)["wonder"] == 2


def test_halikarnassos_power_lost_when_nothing_usable() -> None:
    s = table(("halikarnassos", "gizah", "rhodos"), coins=3)
    city(s, 0, stages=1, built=["foundry", "ore_vein"])
    hands(s, ["altar", "baths", "theater"], ["pawnshop", "stockade", "tavern"], ["altar", "baths", "tavern"])
    s, ev = turn(s, {0: "wonder altar", 1: "play pawnshop", 2: "play altar"})
    assert s.step == "pick" and any("finds nothing to build" in t for t in texts(ev))


def test_halikarnassos_skip() -> None:
    s = table(("halikarnassos", "gizah", "rhodos"), side="B", coins=3)
    city(s, 0, built=["foundry"])
    s.discard.append("baths")
    hands(s, ["altar", "baths", "theater"], ["pawnshop", "stockade", "tavern"], ["altar", "baths", "tavern"])
    s, _ = turn(s, {0: "wonder altar", 1: "play pawnshop", 2: "play altar"})
    s, _ev = act(s, 0, "skip")
    assert s.step == "pick" and "baths" in s.discard


def test_olympia_a_free_build_once_per_age_D31() -> None:
    s = table(("olympia", "gizah", "rhodos"), coins=0)
    city(s, 0, stages=1, built=["quarry"])
    hands(s, ["palace", "altar", "senate"], ["altar", "baths", "theater"], ["baths", "theater", "altar"], age=1)
    assert not any(a.via == "olympia" for a in G.legal_actions(s, 0))
    s, _ = turn(s, {0: "wonder altar", 1: "play altar", 2: "play altar"})
    assert s.cities[0].stages == 2
    # Usable in the same Age it was built, once.
    hand = s.hands[0]
    assert any(a.via == "olympia" for a in G.legal_actions(s, 0))
    card = sorted(hand)[0]
    free = next(a for a in G.legal_actions(s, 0) if a.via == "olympia" and a.card == card)
    assert G.notation(s, 0, free).endswith(" olympia")
    s, _ = turn(s, {0: G.notation(s, 0, free), 1: f"sell {s.hands[1][0]}", 2: f"sell {s.hands[2][0]}"})
    assert card in s.cities[0].built and s.cities[0].olympia_age == 1
    assert not any(a.via == "olympia" for a in G.legal_actions(s, 0))
    assert "Olympia" in G.illegal_reason(s, 0, Action("play", 0, s.hands[0][0], via="olympia"))
    s.age = 2
    s.hands[0] = ["palace", "theater"]
    assert [G.notation(s, 0, a) for a in G.legal_actions(s, 0) if a.via == "olympia"] == ["play Palace olympia"]
    # Never for a wonder stage, and not for free cards.
    assert all(a.kind == "play" for a in G.legal_actions(s, 0) if a.via == "olympia")


def test_petra_and_byzantium_sides() -> None:
    s = table(("petra", "gizah", "rhodos"), coins=7)
    city(s, 0, stages=1)
    hands(s, NEUTRAL, NEUTRAL, NEUTRAL)
    assert payments(s, 0, "altar", "wonder") == [(0, 0)]
    s, _ = turn(s, {0: "wonder altar", 1: "play altar", 2: "play altar"})
    assert s.cities[0].coins == 0 and score_city(s, 0)["wonder"] == 10
    s = table(("byzantium", "gizah", "rhodos"), coins=3)
    city(s, 0, stages=1, built=["sawmill", "press_1"])
    hands(s, NEUTRAL, NEUTRAL, NEUTRAL)
    s, _ = turn(s, {0: "wonder altar", 1: "play altar", 2: "play altar"})
    assert s.cities[0].diplomacy == 1 and score_city(s, 0)["wonder"] == 5


def test_babylon_a_science_wildcard() -> None:
    s = table(("babylon", "gizah", "rhodos"))
    city(s, 0, stages=2, built=["apothecary", "workshop"])
    assert score_city(s, 0)["science"] == 10


def test_free_city_on_babylon_b_plays_its_last_pile_card_D37() -> None:
    s = table(("gizah", "rhodos", "babylon"), players=2, side="AAB", coins=3)
    s.fc_ctrl = 1
    city(s, 2, stages=2)
    s.fc_pile = ["pawnshop"]
    hands(s, ["altar", "baths"], ["theater", "stockade", "tavern"], last=True)
    s, _ = turn(s, {0: "play altar", 1: ["play tavern", "city play theater"]})
    assert s.step == "babylon" and G.to_move(s) == {1}
    assert moves_of(s, 1) == ["city play Pawnshop"]  # the Free City must build what it can (A16.4)
    s, _ = act(s, 1, "city play pawnshop")
    assert "pawnshop" in s.cities[2].built and s.age == 2
