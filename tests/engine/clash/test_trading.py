"""Trading (rules 8.7): the offer written by the active player, the answer of the other seat, caps,
the deadline, and the refused cases."""

from __future__ import annotations

import pytest

from engine.clash.actions import Action
from engine.clash.builder import GAME, Position
from engine.core.errors import IllegalAction


def _pos() -> Position:
    pos = Position(2).clear_units()
    pos.advances(0, "storage").advances(1, "storage")
    pos.give(0, food=4, wood=1, ore=0).give(1, food=0, ore=3)
    pos.tokens(0, culture_level=3, culture=2).tokens(1, happiness_level=2, mood=1)
    return pos.turn(0)


def test_offer_accepted_moves_goods_at_once() -> None:
    pos = _pos().tokens(1, culture_level=2)
    assert "trade blue" in pos.moves(0)
    pos.play(0, "trade blue")
    assert GAME.to_move(pos.state) == frozenset({0})
    pos.play(0, "give 2 food")
    pos.play(0, "give 1 culture")
    pos.play(0, "get 2 ore")
    events = pos.play(0, "offer")
    assert events[0].text == "Red offers Blue 2 food and 1 culture token for 2 ore. Blue: `accept` or `decline`."
    assert GAME.to_move(pos.state) == frozenset({1})
    assert "Blue to answer a trade offer" in GAME.status(pos.state).replace("waiting for ", "")
    assert GAME.legal_actions(pos.state, 0) == []
    assert pos.moves(1) == ["accept", "decline"]
    events = pos.play(1, "accept")
    assert events[0].text == "Blue accepts: Red gives 2 food and 1 culture token and receives 2 ore."
    red, blue = pos.state.pl
    assert (red.res["food"], red.res["ore"], red.culture_tokens) == (2, 2, 1)
    assert (blue.res["food"], blue.res["ore"], blue.culture_tokens) == (2, 1, 1)
    assert pos.state.actions_left == 3  # trading is free
    assert GAME.to_move(pos.state) == frozenset({0})


def test_blue_culture_level_zero_cannot_take_culture_tokens() -> None:
    pos = _pos()
    pos.play(0, "trade blue")
    assert "give 1 culture" not in pos.moves(0)  # Blue's culture level is 0: it would be lost


def test_declined_offer_changes_nothing_and_the_timeout_declines() -> None:
    pos = _pos()
    before = GAME.dump(pos.state)
    for answer in ("decline", "timeout"):
        pos.play(0, "trade blue")
        pos.play(0, "give 1 food")
        pos.play(0, "get 1 ore")
        pos.play(0, "offer")
        if answer == "timeout":
            action = GAME.on_timeout(pos.state, 1)
            assert action == Action("decline")
            pos.state = GAME.apply(pos.state, 1, action).state
        else:
            assert pos.play(1, "decline")[0].text == "Blue declines Red's offer."
        assert pos.state.pl[0].res == GAME.load(before).pl[0].res
        assert pos.state.pending == {}


def test_cc_ex_39_e_a_trade_that_would_waste_a_token_is_refused() -> None:
    pos = _pos().advances(0, "myths").tokens(0, happiness_level=3, mood=3).tokens(1, happiness_level=2, mood=2)
    pos.play(0, "trade blue")
    assert not [m for m in pos.moves(0) if m.startswith("give") and m.endswith("mood")]
    with pytest.raises(IllegalAction):
        pos.play(0, "give 1 mood")
    pos.tokens(1, mood=1)
    pos.play(0, "cancel")
    pos.play(0, "trade blue")
    assert "give 1 mood" in pos.moves(0) and "give 2 mood" not in pos.moves(0)


def test_resource_caps_bound_the_offer() -> None:
    pos = _pos()
    pos.state.pl[1].advances.remove("storage")  # Blue may hold 2 food
    pos.play(0, "trade blue")
    gives = [m for m in pos.moves(0) if m.startswith("give") and m.endswith("food")]
    assert gives == ["give 0 food", "give 1 food", "give 2 food"][1:]


def test_the_same_good_cannot_go_both_ways_and_amounts_are_set() -> None:
    pos = _pos()
    pos.play(0, "trade blue")
    pos.play(0, "give 2 food")
    assert not [m for m in pos.moves(0) if m.startswith("get") and m.endswith("food")]
    pos.play(0, "give 1 food")  # sets the amount, does not add
    pos.play(0, "get 1 ore")
    pos.play(0, "offer")
    pos.play(1, "accept")
    assert pos.state.pl[0].res["food"] == 3


def test_an_empty_offer_cannot_be_sent_and_cancel_withdraws() -> None:
    pos = _pos()
    pos.play(0, "trade blue")
    assert "offer" not in pos.moves(0)
    assert pos.play(0, "cancel")[0].text == "Red withdraws the trade offer."


def test_three_offers_per_turn() -> None:
    pos = _pos()
    for _ in range(3):
        pos.play(0, "trade blue")
        pos.play(0, "cancel")
    assert "trade blue" not in pos.moves(0)
    pos.turn(0)
    assert "trade blue" in pos.moves(0)


def test_trading_keeps_an_open_move_action() -> None:
    pos = Position(2).clear_units().reveal_all().advances(0, "tactics")
    pos.units(0, "d2", army=3).give(0, food=2).give(1, food=0).turn(0)
    pos.play(0, "move d2 c3 army")
    pos.play(0, "trade blue")
    pos.play(0, "give 1 food")
    pos.play(0, "offer")
    pos.play(1, "accept")
    assert pos.state.mode == "move" and pos.state.mode_left == 2
    pos.play(0, "move d2 e3 army")
    assert pos.state.actions_left == 2


def test_only_the_active_player_offers_and_only_in_a_turn() -> None:
    pos = _pos()
    assert pos.moves(1) == []
    with pytest.raises(Exception):  # noqa: B017 - not this seat's turn
        pos.play(1, "trade red")


def test_offer_round_trips_through_a_save() -> None:
    pos = _pos()
    pos.play(0, "trade blue")
    pos.play(0, "give 1 wood")
    pos.play(0, "offer")
    again = GAME.load(GAME.dump(pos.state))
    assert GAME.dumps(again) == GAME.dumps(pos.state)
    assert GAME.legal_actions(again, 1) == [Action("accept"), Action("decline")]
    view = GAME.view(again, None)
    assert view["pending"]["offer"] == {"give": {"wood": 1}, "get": {}, "from": 0}


@pytest.mark.parametrize(("give", "get", "answer"), [("2 food", "1 ore", "accept"), ("1 food", "3 ore", "decline")])
def test_automatic_player_answers_offers_by_their_worth(give: str, get: str, answer: str) -> None:
    pos = _pos()
    pos.play(0, "trade blue")
    pos.play(0, f"give {give}")
    pos.play(0, f"get {get}")
    pos.play(0, "offer")
    assert GAME.auto_action(pos.state, 1, 0) == Action(answer)


def test_automatic_player_never_writes_offers() -> None:
    pos = _pos()
    assert GAME.auto_action(pos.state, 0, 0).kind != "trade"
    pos.play(0, "trade blue")
    assert GAME.auto_action(pos.state, 0, 0) == Action("cancel")
    assert GAME.on_timeout(pos.state, 0) == Action("cancel")


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("give 5 food", "You have 4 food."),
        ("get 4 ore", "Blue has 3 ore."),
        ("give 2 mood", "A trade never wastes anything: Blue can take only 1 more mood token."),
    ],
)
def test_trade_step_refusals_say_why(typed: str, message: str) -> None:
    pos = _pos().advances(0, "myths").tokens(0, happiness_level=3, mood=3)
    pos.play(0, "trade blue")
    with pytest.raises(IllegalAction, match=message):
        pos.play(0, typed)


def test_the_other_side_refusal() -> None:
    pos = _pos()
    pos.play(0, "trade blue")
    pos.play(0, "give 1 food")
    with pytest.raises(IllegalAction, match="already on the other side"):
        pos.play(0, "get 1 food")


def test_gifts_read_as_gifts() -> None:
    pos = _pos()
    pos.play(0, "trade blue")
    pos.play(0, "give 1 wood")
    assert pos.play(0, "offer")[0].text == "Red offers Blue 1 wood as a gift. Blue: `accept` or `decline`."
    assert GAME.status(pos.state).endswith("Red offers Blue 1 wood as a gift: `accept` or `decline`.")
    assert pos.play(1, "accept")[0].text == "Blue accepts: Red gives 1 wood."
    pos.play(0, "trade blue")
    pos.play(0, "get 1 ore")
    assert pos.play(0, "offer")[0].text == "Red asks Blue for 1 ore as a gift. Blue: `accept` or `decline`."
    assert pos.play(1, "accept")[0].text == "Blue accepts: Red receives 1 ore."
