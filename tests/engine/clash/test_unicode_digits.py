"""Non-ASCII digits in typed Clash moves: the ``3 settler`` shorthand read ``"²".isdigit()`` as
a count and ``int("²")`` raised (found by the bad-input fuzzer)."""

from __future__ import annotations

import pytest

from engine import EngineError, find_game
from engine.clash.notation import normalize_typed


def test_the_unit_count_shorthand_takes_ascii_digits_only() -> None:
    assert normalize_typed("build athens ² settler") == "build athens settler ²"  # not a count: kept as a word
    assert normalize_typed("build athens 2 settler") == "build athens settler settler"


@pytest.mark.parametrize("number", ["²", "٣", "⑦"])
def test_a_move_with_a_non_ascii_count_gets_the_engines_own_error(number: str) -> None:
    game = find_game("clash")
    state = game.new_game(11, 2)
    seat = sorted(game.to_move(state))[0]
    with pytest.raises(EngineError):
        game.parse(state, seat, f"move d2 e3 {number} settler")
