"""Non-ASCII digits in typed Duellum moves: ``"²".isdigit()`` is True but ``int("²")`` raised
inside the reader of amounts and unit counts (found by the bad-input fuzzer)."""

from __future__ import annotations

import pytest

from engine import EngineError, find_game
from engine.duellum.reasons import _amounts, _count_unit


@pytest.mark.parametrize("text", ["rondel scientia pay ² marble", "rondel ² scientia", "lose ² legions", "² rondel"])
def test_typed_moves_with_non_ascii_digits_get_the_engines_own_error(text: str) -> None:
    game = find_game("duellum")
    state = game.new_game(3, 2)
    seat = sorted(game.to_move(state))[0]
    with pytest.raises(EngineError):
        game.parse(state, seat, text)


def test_non_ascii_digits_are_no_counts() -> None:
    assert _amounts(["²", "iron"], 3) is None  # unreadable, not a crash
    assert _amounts(["2", "iron"], 3) is not None
    assert _count_unit(["٣", "legions"], 0)[1] == 1  # not read as a count
    assert _count_unit(["3", "legions"], 0)[1] == 3
