"""The private summary ("your turn" note, ``hand``) reads only the seat's own part of its view.

Why a test: it used to be built from the whole view (every city with its score); it is now
built from the seat's hand and city alone (issue 12: a prompt's CPU). The text must be the
same, word for word, in every position: checked against the view-based form over whole games
of every table size, the Free City's two-player games and finished games included.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import find_game
from engine.core.text import count
from engine.seven_wonders.game import hand_card_line
from engine.seven_wonders.view import build_view


def _from_view(state: Any, seat: int) -> str:
    """The summary as it was built from the whole view (the reference): its head and every
    card's play, wonder and text read from the view instead of the state."""
    view = build_view(state, seat)
    hand = view.get("hand") or []
    city = view["cities"][seat]
    head = f"{city['name']} — {count(city['coins'], 'coin')}, wonder stages {city['wonder']['stages_built']}/" \
        f"{len(city['wonder']['stages'])}. Age {view['age']}, turn {view['turn']}/{view['turns_in_age']}."
    if not hand:
        return head + " Your hand is empty right now."
    lines = [head, "Your hand:"]
    lines += [hand_card_line(card, view["cards"].get(card["id"], {}).get("text", "")) for card in hand]
    return "\n".join(lines)


@pytest.mark.parametrize("players", [2, 3, 4, 7])
def test_the_summary_is_the_view_based_one_in_every_position(players: int) -> None:
    game = find_game("seven-wonders")
    state = game.new_game(players * 11, players)
    checked = 0
    for step in range(400):
        for seat in range(players):
            assert game.private_summary(state, seat) == _from_view(state, seat), (step, seat)
            checked += 1
        if game.outcome(state) is not None:
            break
        seat = sorted(game.to_move(state))[0]
        state = game.apply(state, seat, game.auto_action(state, seat, step)).state
    assert game.outcome(state) is not None, "the game did not finish: the end was not checked"
    assert checked > 50
