"""Moves for real games, chosen by the engines' automatic players (tests and the benchmark).

Why a plan: a table's seed is random and some deals run long under automatic play; a test
fixes a seed whose game ends quickly and replays exactly these moves through Telegram (the
engine is deterministic, so the game over Telegram is the planned one).
"""

from __future__ import annotations

import zlib
from typing import Any


def auto_notation(game: Any, state: Any, seat: int, salt: str) -> str:
    """The automatic player's move for ``seat``, as the text a player would type."""
    action = game.auto_action(state, seat, zlib.crc32(salt.encode()))
    return str(game.notation(state, seat, action))


def plan_duellum(
    max_steps: int = 520, seeds: range = range(40), good_enough: int = 450
) -> tuple[int, list[tuple[int, str]], Any]:
    """(seed, [(seat, notation)], outcome) of a short complete Antike Duellum game."""
    from engine import find_game

    game = find_game("duellum")
    best: tuple[int, list[tuple[int, str]], Any] | None = None
    for seed in seeds:
        state = game.new_game(seed, 2, {})
        moves: list[tuple[int, str]] = []
        while game.outcome(state) is None and len(moves) < max_steps:
            seat = min(game.to_move(state))
            text = auto_notation(game, state, seat, f"{seed}:{len(moves)}")
            moves.append((seat, text))
            state = game.apply(state, seat, game.parse(state, seat, text)).state
        if game.outcome(state) is not None and (best is None or len(moves) < len(best[1])):
            best = (seed, moves, game.outcome(state))
            if len(moves) < good_enough:
                break
    assert best is not None, f"no Duellum deal among seeds {seeds} ends within {max_steps} automatic moves"
    return best
