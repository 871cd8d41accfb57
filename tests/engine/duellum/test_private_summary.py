"""The private summary (``hand``, the "your turn" note) reads only the seat's own part of its
view: the same text as when it was built from the whole view, in every position of whole
games (checked against that form here; issue 12: a prompt's CPU)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import find_game
from engine.core.text import count
from engine.duellum.actions import card_words
from engine.duellum.view import view


def _from_view(state: Any, seat: int) -> str:
    """The summary as it was built from the whole view (the reference)."""
    v = view(state, seat)
    me = v["players"][seat]
    hand = me.get("hand") or []
    head = f"{me['nation']}: {count(len(hand), 'event card')} in hand."
    if not hand:
        return head + " Cards come from the face-up row when your opponent gains a personality or you lose a city."
    lines = [head]
    for card in hand:
        info = v["cards"].get(card, {})
        text = info.get("text", "")
        lines.append(f"• {info.get('name', card)} (`play {card_words(card)}`) — {text}".rstrip(" —"))
    return "\n".join(lines)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_summary_is_the_view_based_one_in_every_position(seed: int) -> None:
    game = find_game("duellum")
    state = game.new_game(seed, 2)
    with_cards = 0
    for step in range(3000):
        for seat in (0, 1):
            text = game.private_summary(state, seat)
            assert text == _from_view(state, seat), (step, seat)
            with_cards += "•" in text
        if game.outcome(state) is not None:
            break
        seat = sorted(game.to_move(state))[0]
        state = game.apply(state, seat, game.auto_action(state, seat, step)).state
    assert with_cards, "no position with cards in hand was checked"
