"""Simultaneous selection, hidden picks, resolution order, passing and the end of an Age."""

from __future__ import annotations

import pytest

from engine.core.errors import NotYourTurn

from .builders import G, act, city, hands, table, texts, turn


def test_picks_are_hidden_until_everyone_has_chosen() -> None:
    s = table(("gizah", "rhodos", "ephesos"))
    hands(s, ["altar", "baths", "theater"], ["stockade", "barracks", "tavern"], ["pawnshop", "loom_1", "press_1"])
    assert G.to_move(s) == {0, 1, 2}
    step = G.apply(s, 0, G.parse(s, 0, "play altar"))
    assert step.undoable
    s1 = step.state
    assert G.to_move(s1) == {1, 2}
    pub = [e for e in step.events if e.public]
    assert [e.text for e in pub] == ["Gizah has chosen."]
    priv = [e for e in step.events if not e.public]
    assert priv and priv[0].seats == frozenset({0}) and "Altar" in priv[0].text
    # Nothing in other seats' views tells what was chosen.
    for viewer in (1, 2, None):
        v = G.view(s1, viewer)
        assert v["my_picks"] == [] and v["cities"][0]["has_chosen"] is True
        assert "altar" not in repr(v)
    assert G.view(s1, 0)["my_picks"] == [{"city": 0, "move": "play Altar"}]
    with pytest.raises(NotYourTurn):
        G.apply(s1, 0, G.legal_actions(s, 0)[1])
    s2, _ = act(s1, 1, "play barracks")
    last = G.apply(s2, 2, G.parse(s2, 2, "play pawnshop"))
    assert not last.undoable  # completes the step: reveals every pick
    built = texts(last.events)
    assert "Gizah builds Altar." in built and "Rhodos builds Barracks." in built
    assert last.state.cities[0].built == ["altar"]


def test_hands_pass_left_right_left_by_age() -> None:
    for age, shift in ((1, +1), (2, -1), (3, +1)):
        s = table(("gizah", "rhodos", "ephesos", "babylon"), players=4)
        hs = [
            ["altar", "baths", "theater"],
            ["altar", "baths", "pawnshop"],
            ["altar", "theater", "pawnshop"],
            ["baths", "theater", "pawnshop"],
        ]
        hands(s, *hs, age=age)
        s, _ = turn(s, {i: f"sell {['altar', 'altar', 'altar', 'baths'][i]}" for i in range(4)})
        for seat in range(4):
            src = (seat - shift) % 4
            expected = list(hs[src])
            expected.remove(["altar", "altar", "altar", "baths"][src])
            assert sorted(s.hands[seat]) == sorted(expected)
        assert s.turn == 2


def test_last_card_of_the_age_is_discarded_for_nothing_then_conflicts() -> None:
    s = table(("gizah", "rhodos", "ephesos"))
    hands(s, ["barracks", "altar"], ["baths", "theater"], ["pawnshop", "tavern"], last=True)
    city(s, 0, built=["ore_vein"])
    s, ev = turn(s, {0: "play barracks", 1: "sell baths", 2: "sell pawnshop"})
    assert sorted(s.discard) == ["altar", "baths", "pawnshop", "tavern", "theater"]
    assert s.cities[1].coins == 6 and s.cities[2].coins == 6  # no coins for the last cards
    assert s.age == 2 and s.turn == 1 and all(len(h) == 8 for h in s.hands)
    assert s.cities[0].tokens == [1, 1] and s.cities[1].tokens == [-1] and s.cities[2].tokens == [-1]
    assert any("conflicts" in t for t in texts(ev))


def test_income_before_coin_losses_and_simultaneous_counting() -> None:
    # Vineyard counts a neighbour's brown card built in the same turn (D-13).
    s = table(("gizah", "rhodos", "ephesos"))
    city(s, 1, built=["lumber_yard"])
    hands(s, ["vineyard", "altar"], ["ore_vein", "baths"], ["clay_pool", "theater"], age=2)
    s, _ = turn(s, {0: "play vineyard", 1: "play ore vein", 2: "play clay pool"})
    assert s.cities[0].coins == 3 + 3


def test_apply_never_mutates_and_undo_flags() -> None:
    s = G.new_game(7, 4, {})
    before = G.dumps(s)
    for seat in (0, 1, 2):
        step = G.apply(s, seat, G.legal_actions(s, seat)[0])
        assert G.dumps(s) == before and step.undoable
        s = step.state
        before = G.dumps(s)
    assert not G.apply(s, 3, G.legal_actions(s, 3)[0]).undoable


def test_timeouts() -> None:
    s = table(("gizah", "rhodos", "ephesos"))
    hands(s, ["palace", "altar", "lumber_yard"], ["stockade", "baths"], ["pawnshop", "tavern"])
    a = G.on_timeout(s, 0)
    assert a.kind == "sell" and a.card in ("palace", "altar", "lumber_yard")
    assert G.is_legal(s, 0, a)


def test_last_debt_answer_passes_hands_and_is_not_undoable() -> None:
    s = table(("gizah", "rhodos", "ephesos"))
    hands(s, ["hideout", "altar", "baths"], ["theater", "altar", "baths"], ["pawnshop", "altar", "baths"])
    s, _ = turn(s, {0: "play hideout", 1: "play theater", 2: "play pawnshop"})
    first = G.apply(s, 1, G.parse(s, 1, "pay 1 debt 0"))
    assert first.undoable
    last = G.apply(first.state, 2, G.parse(first.state, 2, "pay 0 debt 1"))
    assert not last.undoable and last.state.turn == 2


def test_load_rejects_damaged_saves() -> None:
    from engine.core.errors import InvalidSave

    s = G.new_game(1, 3, {})
    data = G.dump(s)
    assert G.dumps(G.load(data)) == G.dumps(s)
    broken = {**data, "state": {k: v for k, v in data["state"].items() if k != "cities"}}
    with pytest.raises(InvalidSave):
        G.load(broken)
    with pytest.raises(InvalidSave):
        G.load({**data, "schema": 99})
