"""Commerce: income (8.1, AD-09, AD-24, AD-49, the Colossus and Artemis) and trading (8.2):
N, compulsory offers, simultaneous hidden offers, the pair rule, the end, compensation, Ulysses."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction, NotYourTurn
from engine.mare_nostrum.positions import GAME, Position
from engine.mare_nostrum.state import total


def test_mn_ex_12_one_caravan_one_good() -> None:
    pos = Position(5, empty=True).own("carthage", "africa").caravan("africa", "perfume")
    pos.income()
    assert pos.state.hands["carthage"] == {"perfume": 1}


def test_mn_ex_27_temple_doubling_under_occupation() -> None:
    pos = Position(5, empty=True).own("egypt", "aegyptus").city("aegyptus", "Alexandria", "Memphis")
    pos.temple("aegyptus").caravan("aegyptus", "papyrus")
    pos.legion("babylon", "aegyptus", place="city:Alexandria").legion("babylon", "aegyptus", place="temple")
    pos.income()
    assert pos.state.hands["babylon"] == {"tax": 2}
    assert pos.state.hands["egypt"] == {"tax": 1, "papyrus": 1}


def test_unoccupied_temple_and_market_double_the_owner() -> None:
    pos = Position(5, empty=True).own("rome", "roma").city("roma", "Roma").temple("roma")
    pos.caravan("roma", "wine", "metal").market("roma")
    pos.income()
    assert pos.state.hands["rome"] == {"tax": 2, "wine": 2, "metal": 2}


def test_mn_ex_09_occupied_caravan_pays_the_occupier() -> None:
    pos = Position(5)
    pos.legion("rome", "numidia", place="caravan:slaves")
    for c in pos.state.seats:
        pos.hand(c)
    pos.income()
    assert pos.state.hands["rome"].get("slaves") == 1
    assert "slaves" not in pos.state.hands["carthage"]


def test_war_torn_province_still_produces() -> None:
    pos = Position(5, empty=True).own("greece", "macedonia").caravan("macedonia", "wine")
    pos.legion("greece", "macedonia").legion("rome", "macedonia")
    pos.income()
    assert pos.state.hands["greece"] == {"wine": 1}


def test_colossus_and_artemis() -> None:
    pos = Position(5, empty=True).give_card("rome", "colossus").give_card("greece", "artemis")
    pos.income()
    assert pos.state.hands["rome"] == {"tax": 1}
    assert pos.state.phase == "artemis" and GAME.to_move(pos.state) == {pos.seat("greece")}
    pos.play("greece", "artemis gold")
    assert pos.state.hands["greece"] == {"gold": 1} and pos.state.phase == "commerce_n"


def test_ad_49_short_bank_round_robin_from_the_doc() -> None:
    pos = Position(5, empty=True).roles(commerce="carthage")
    s = pos.state
    s.seat_order = ["carthage", "babylon", "rome", "greece", "egypt"]
    pos.own("carthage", "africa").caravan("africa", "perfume").market("africa")
    pos.own("babylon", "babylonia").caravan("babylonia", "perfume")
    pos.hand("rome", perfume=3)  # the bank now holds 2 perfume
    pos.income()
    assert pos.state.hands["carthage"] == {"perfume": 1} and pos.state.hands["babylon"] == {"perfume": 1}
    assert pos.state.bank.get("perfume", 0) == 0


# ----------------------------------------------------------------- trading
def _trade_table(rome: bool = True) -> Position:
    pos = Position(5).roles(commerce="carthage").commerce()
    pos.hand("carthage", grain=1, fish=1).hand("greece", wine=1, oil=1)
    pos.hand("rome", metal=1, fruit=1) if rome else pos.hand("rome", metal=1)
    pos.hand("egypt").hand("babylon")
    return pos


def test_offers_are_simultaneous_and_hidden() -> None:
    pos = _trade_table()
    pos.play("carthage", "trade 2")
    s = pos.state
    # Everyone holding exactly N cards offers them at once: nothing to choose, so no prompt.
    assert s.phase == "take" and s.trade is not None and s.trade.revealed
    pos = Position(5).roles(commerce="carthage").commerce()
    pos.hand("carthage", grain=2, fish=1).hand("greece", wine=1, oil=2).hand("rome", metal=1)
    pos.hand("egypt").hand("babylon")
    pos.play("carthage", "trade 2")
    s = pos.state
    assert GAME.to_move(s) == {pos.seat("carthage"), pos.seat("greece")}
    before = [GAME.view(pos.state, pos.seat("carthage")), GAME.view(pos.state, None)]
    step = pos.play("greece", "offer oil")
    assert [GAME.view(pos.state, pos.seat("carthage")), GAME.view(pos.state, None)] == before
    assert all(not e.public for e in step.events) and "offers" not in before[1]["trade"]
    pos.play("greece", "offer wine")
    assert GAME.to_move(pos.state) == {pos.seat("carthage")}
    with pytest.raises(NotYourTurn):
        pos.play("greece", "offer oil")
    step = pos.play("carthage", "offer grain", "offer fish")
    assert any(e.kind == "reveal" for e in step.events) and step.undoable is False
    assert pos.state.trade is not None and pos.state.trade.offers["greece"] == {"oil": 1, "wine": 1}


def test_mn_ex_02_pair_rule() -> None:
    pos = _trade_table()
    pos.play("carthage", "trade 2", "take wine from greece")
    pos.play("greece", "take grain from carthage")
    assert GAME.to_move(pos.state) == {pos.seat("carthage")}
    legal = pos.legal("carthage")
    assert all(t.endswith("from rome") for t in legal) and legal
    with pytest.raises(IllegalAction):
        pos.play("carthage", "take oil from greece")


def test_mn_ex_02_variant_rome_sits_out() -> None:
    pos = _trade_table(rome=False)
    pos.play("carthage", "trade 2")
    assert pos.state.trade is not None and pos.state.trade.participants == ["greece", "carthage"]
    pos.play("carthage", "take wine from greece")
    pos.play("greece", "take grain from carthage")
    s = pos.state
    assert s.trade is None and s.phase == "build"  # E2, Carthage is the DoC: no compensation
    assert s.hands["carthage"] == {"fish": 1, "wine": 1} and s.hands["greece"] == {"oil": 1, "grain": 1}


def test_mn_ex_13_compulsory_trade_and_sitting_out() -> None:
    pos = Position(5).roles(commerce="carthage").commerce()
    pos.hand("carthage", tax=1, grain=1, fish=1, wine=1, oil=1).hand("greece", tax=2, grain=1, fish=1, gold=1, gems=1)
    pos.hand("rome", tax=3).hand("egypt").hand("babylon")
    assert "trade 6" not in pos.legal("carthage") and "trade 5" in pos.legal("carthage")
    pos.play("carthage", "trade 4")
    s = pos.state
    assert s.trade is not None and s.trade.participants == ["greece", "carthage"]
    assert GAME.to_move(s) == {pos.seat("greece"), pos.seat("carthage")}
    assert pos.legal("rome") == []


def test_mn_ex_14_early_end_with_compensation() -> None:
    pos = Position(5).roles(commerce="carthage")
    pos.hand("carthage", tax=1, grain=1).hand("greece", wine=1, oil=1).hand("rome", metal=2)
    pos.hand("babylon", fish=2).hand("egypt")
    pos.offers(2, carthage={"tax": 1, "grain": 1}, greece={"wine": 1, "oil": 1}, rome={"metal": 2},
               babylon={"fish": 2})
    for _ in range(2):
        pos.play("carthage", "take metal from rome")
        pos.play("rome", "take fish from babylon")
        pos.play("babylon", "take " + ("tax" if pos.state.hands["carthage"].get("tax") else "grain") + " from carthage")
    pos.play("carthage", "take wine from greece")
    # Greece is the taker and only its own oil is face up: trading ends (E2).
    s = pos.state
    assert s.phase == "give" and GAME.to_move(s) == {pos.seat("carthage")}
    assert s.hands["greece"] == {"oil": 1}
    step = pos.play("carthage", "give metal")
    s = pos.state
    assert s.phase == "build"
    assert {c: total(h) for c, h in s.hands.items()} == {"rome": 2, "greece": 2, "carthage": 2, "egypt": 0,
                                                         "babylon": 2}
    assert s.hands["greece"] == {"oil": 1, "metal": 1}
    assert not any("metal" in e.text for e in step.events if e.public)


def test_mn_ex_15_compensation_worked_through() -> None:
    pos = Position(5).roles(commerce="rome")
    pos.hand("rome", tax=1, grain=1).hand("greece", wine=1, oil=1).hand("carthage", fish=1, fruit=1)
    pos.hand("egypt").hand("babylon")
    pos.offers(2, rome={"tax": 1, "grain": 1}, greece={"wine": 1, "oil": 1}, carthage={"fish": 1, "fruit": 1})
    pos.play("rome", "take wine from greece")
    pos.play("greece", "take tax from rome")
    assert "take oil from greece" not in pos.legal("rome")  # the pair rule forces the third take away
    pos.play("rome", "take fish from carthage")
    pos.play("carthage", "take grain from rome")
    pos.play("rome", "take oil from greece")
    pos.play("greece", "take fruit from carthage")
    s = pos.state
    assert s.phase == "give" and s.trade is not None and s.trade.taker == "carthage"
    assert s.pending["doc_acquired"] == {"wine": 1, "fish": 1, "oil": 1}
    pos.play("rome", "give oil")
    assert {c: total(h) for c, h in pos.state.hands.items()} == {"rome": 2, "greece": 2, "carthage": 2, "egypt": 0,
                                                                 "babylon": 0}


def test_ad_04_compensation_excluding_acquired_option() -> None:
    pos = Position(5, doc_compensation_excludes_acquired=True).roles(commerce="carthage")
    pos.hand("carthage", tax=1, grain=1).hand("greece", wine=1).hand("rome", metal=1).hand("egypt").hand("babylon")
    pos.offers(1, carthage={"grain": 1}, greece={"wine": 1}, rome={"metal": 1})
    pos.play("carthage", "take wine from greece")
    pos.play("greece", "take grain from carthage")
    pos.play("carthage", "take metal from rome")
    assert pos.state.phase == "give"
    assert pos.legal("carthage") == ["give tax"]  # not the wine or metal just acquired


def test_trade_zero_skips_trading() -> None:
    pos = Position(5).commerce()
    pos.play(pos.state.roles["commerce"], "trade 0")
    assert pos.state.phase == "build" and pos.state.trade is None


def test_ad_06_ulysses_redirects_a_take() -> None:
    pos = Position(5).roles(commerce="carthage").give_card("babylon", "ulysses")
    pos.hand("carthage", grain=1).hand("greece", wine=1).hand("babylon", gold=1).hand("rome").hand("egypt")
    pos.offers(1, carthage={"grain": 1}, greece={"wine": 1}, babylon={"gold": 1})
    pos.play("carthage", "take wine from greece")
    s = pos.state
    assert s.phase == "ulysses" and GAME.to_move(s) == {pos.seat("babylon")}
    pos.play("babylon", "ulysses yes")
    assert pos.legal("carthage") == ["take gold from babylon"]
    pos.play("carthage", "take gold from babylon")
    s = pos.state
    assert s.trade is not None and s.trade.taker == "babylon" and s.trade.history == [["carthage", "babylon"]]
    assert s.trade.offers["greece"] == {"wine": 1}
    assert "ulysses" in s.used["babylon"]
