"""Trading cards and the non-active player's offer (rules 8.7): action and objective cards in an
offer, named only to the two traders; the answering seat picks the cards asked of it; the
``invite`` step lets another player write an offer to the active player; the automatic player's
answers."""

from __future__ import annotations

import json

import pytest

from engine.clash import bot
from engine.clash.actions import Action
from engine.clash.builder import GAME, Position
from engine.clash.cards_data import DECKS
from engine.clash.decks import card_total
from engine.clash.trade_cards import card_word
from engine.core.errors import IllegalAction, NotYourTurn


def _action_card(pos: Position, seat: int, effect: str) -> str:
    d = pos.state.decks
    card = next(c for c in d["action"] if DECKS.actions[c].effect == effect)
    d["action"].remove(card)
    d["hands"][seat].append(card)
    return card


def _pos(players: int = 2) -> tuple[Position, str]:
    pos = Position(players).clear_units().advances(0, "storage").advances(1, "storage")
    for s in range(players):
        pos.hand(s)
    pos.give(0, food=2, ore=0).give(1, ore=3, gold=0)
    card = _action_card(pos, 0, "leadership")
    return pos.turn(0), card


def _public_text(pos: Position) -> str:
    """Every public thing: public events, the spectator's view, the status."""
    texts = [e.text for e in pos.events if e.public]
    return json.dumps([texts, GAME.view(pos.state, None), GAME.status(pos.state)])


def test_an_action_card_for_ore_names_the_card_only_to_the_two_traders() -> None:
    pos, card = _pos(3)
    name = DECKS.actions[card].name
    before = card_total(pos.state)
    pos.play(0, "trade blue")
    word = f"give card {card_word(card)}"
    assert word in pos.moves(0)
    assert GAME.private_action(pos.state, 0, GAME.parse(pos.state, 0, word))
    pos.play(0, word)
    pos.play(0, "get 2 ore")
    events = pos.play(0, "offer")
    assert events[0].public
    assert events[0].text == "Red offers Blue 1 action card for 2 ore. Blue: `accept` or `decline`."
    secret = [e for e in events if not e.public]
    assert len(secret) == 1 and secret[0].seats == frozenset({0, 1}) and name in secret[0].text
    assert name in json.dumps(GAME.view(pos.state, 1)["pending"])  # Blue sees what he is offered
    assert name not in json.dumps(GAME.view(pos.state, 2))  # Green does not
    assert name not in _public_text(pos)
    assert pos.moves(1) == ["accept", "decline"]
    events = pos.play(1, "accept")
    assert events[0].text == "Blue accepts: Red gives 1 action card and receives 2 ore."
    assert any(not e.public and name in e.text and e.seats == frozenset({0, 1}) for e in events)
    assert name not in _public_text(pos)
    assert pos.state.decks["hands"][1] == [card] and pos.state.decks["hands"][0] == []
    assert pos.state.pl[0].res["ore"] == 2 and pos.state.pl[1].res["ore"] == 1
    assert card_total(pos.state) == before


def test_asked_cards_are_picked_by_the_answering_seat() -> None:
    pos, _ = _pos()
    pos.goals(1, "obj11", "obj01").give(0, gold=3)
    pos.play(0, "trade blue")
    assert "get 3 objective card" not in pos.moves(0)  # Blue holds only 2
    pos.play(0, "get 1 objective card")
    pos.play(0, "give 3 gold")
    events = pos.play(0, "offer")
    assert events[0].text == "Red offers Blue 3 gold for 1 objective card. Blue: `accept` or `decline`."
    options = pos.moves(1)
    assert options == [f"accept {card_word('obj01')}", f"accept {card_word('obj11')}", "decline"]
    assert all(GAME.private_action(pos.state, 1, a) for a in GAME.legal_actions(pos.state, 1)[:2])
    events = pos.play(1, f"accept {card_word('obj01')}")
    assert events[0].text == "Blue accepts: Red gives 3 gold and receives 1 objective card."
    assert "Large Civilization" not in _public_text(pos)
    assert pos.state.decks["goals"][0] == ["obj01"] and pos.state.decks["goals"][1] == ["obj11"]


def test_cards_on_both_sides_swap_and_can_be_taken_back() -> None:
    pos, card = _pos()
    theirs = _action_card(pos, 1, "inspiration")
    pos.play(0, "trade blue")
    pos.play(0, f"give card {card_word(card)}")
    assert f"take back {card_word(card)}" in pos.moves(0)
    pos.play(0, f"take back {card_word(card)}")
    assert pos.state.pending["give"] == {} and pos.state.pending["cards"] == []
    assert "offer" not in pos.moves(0)
    pos.play(0, f"give card {card_word(card)}")
    pos.play(0, "get 1 action card")
    pos.play(0, "offer")
    pos.play(1, f"accept {card_word(theirs)}")
    assert pos.state.decks["hands"] == [[theirs], [card]]


def test_an_offered_card_gone_before_the_answer_cannot_be_accepted() -> None:
    pos, card = _pos()
    pos.play(0, "trade blue")
    pos.play(0, f"give card {card_word(card)}")
    pos.play(0, "offer")
    pos.state.decks["hands"][0].remove(card)  # e.g. lost meanwhile
    pos.state.decks["action_discard"].append(card)
    assert pos.moves(1) == ["decline"]
    with pytest.raises(IllegalAction):
        pos.play(1, "accept")


def test_invite_lets_blue_write_an_offer_to_the_active_player() -> None:
    pos, red_card = _pos()
    blue_card = _action_card(pos, 1, "inspiration")
    assert "invite blue" in pos.moves(0)
    events = pos.play(0, "invite blue")
    assert events[0].text == "Red invites Blue to make a trade offer."
    assert GAME.to_move(pos.state) == frozenset({1})
    assert GAME.legal_actions(pos.state, 0) == []
    pos.play(1, f"give card {card_word(blue_card)}")
    pos.play(1, "give 1 ore")
    pos.play(1, "get 2 food")
    events = pos.play(1, "offer")
    assert events[0].text == "Blue offers Red 1 ore and 1 action card for 2 food. Red: `accept` or `decline`."
    assert GAME.to_move(pos.state) == frozenset({0})
    food = pos.state.pl[1].res["food"]
    pos.play(0, "accept")
    assert pos.state.decks["hands"] == [[red_card, blue_card], []]
    assert pos.state.pl[0].res["food"] == 0 and pos.state.pl[1].res["food"] == food + 2
    assert GAME.to_move(pos.state) == frozenset({0}) and pos.state.actions_left == 3


def test_invite_counts_as_an_offer_and_a_missed_deadline_drops_it() -> None:
    pos, _ = _pos()
    pos.play(0, "invite blue")
    assert GAME.on_timeout(pos.state, 1) == Action("cancel")
    pos.state = GAME.apply(pos.state, 1, Action("cancel")).state
    assert not pos.state.pending and GAME.to_move(pos.state) == frozenset({0})
    pos.play(0, "invite blue")
    pos.play(1, "cancel")
    pos.play(0, "trade blue")
    pos.play(0, "cancel")
    assert "invite blue" not in pos.moves(0) and "trade blue" not in pos.moves(0)  # three per turn


def test_the_other_seat_cannot_open_a_trade_or_give_cards_it_does_not_hold() -> None:
    pos, card = _pos()
    with pytest.raises(NotYourTurn):
        pos.play(1, "invite red")
    with pytest.raises(NotYourTurn):
        pos.play(1, "trade red")
    pos.play(0, "trade blue")
    others = [c for c in DECKS.actions if c != card]
    assert not any(f"give card {card_word(c)}" in pos.moves(0) for c in others)
    assert "get 1 action card" not in pos.moves(0)  # Blue's hand is empty


def test_bot_never_gives_away_an_objective_it_can_score() -> None:
    pos, _ = _pos()
    pos.goals(1, "obj11").give(1, gold=5).give(0, gold=2, food=2)  # Wealth: Blue has the 5 gold
    pos.play(0, "trade blue")
    pos.play(0, "give 2 gold")
    pos.play(0, "give 2 food")
    pos.play(0, "get 1 objective card")
    pos.play(0, "offer")
    assert bot.auto_action(pos.state, 1, 0) == Action("decline")


def test_bot_sells_an_objective_it_cannot_score_for_a_good_price() -> None:
    pos, _ = _pos()
    pos.goals(1, "obj01").give(0, gold=3)  # Large Civilization (6 cities) / Draft
    pos.play(0, "trade blue")
    pos.play(0, "give 3 gold")
    pos.play(0, "get 1 objective card")
    pos.play(0, "offer")
    assert bot.auto_action(pos.state, 1, 0) == Action("accept", items=("obj01",))


def test_bot_wants_a_card_for_little() -> None:
    pos, card = _pos()
    pos.play(0, "trade blue")
    pos.play(0, f"give card {card_word(card)}")
    pos.play(0, "get 1 ore")
    pos.play(0, "offer")
    assert bot.auto_action(pos.state, 1, 0) == Action("accept")


def test_typed_card_steps_are_refused_with_the_reason() -> None:
    pos, _ = _pos()
    pos.goals(1, "obj01")
    pos.play(0, "trade blue")
    with pytest.raises(IllegalAction, match="Blue holds no action cards"):
        pos.play(0, "get 1 action card")
    with pytest.raises(IllegalAction, match="at most 1 objective card"):
        pos.play(0, "get 2 objective card")
    with pytest.raises(IllegalAction, match="give card <card>"):
        pos.play(0, "give 1 action card")


def test_asking_for_several_cards_is_written_in_the_plural_and_the_old_form_still_reads() -> None:
    pos, _ = _pos()
    _action_card(pos, 1, "inspiration")  # Blue holds a card to ask for
    pos.play(0, "trade blue")
    pos.play(0, "get 1 action card")
    listed = pos.moves(0)
    assert "get 0 action cards" in listed and "get 0 action card" not in listed
    state = pos.state
    old = GAME.parse(state, 0, "get 0 action card")  # as logs before the plural wrote it
    assert GAME.notation(state, 0, old) == "get 0 action cards"
