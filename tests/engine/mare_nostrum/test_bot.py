"""The automatic player: legal, quick (< 50 ms a decision) and better than random play."""

from __future__ import annotations

import time

from engine.core.rng import Rng
from engine.mare_nostrum.positions import GAME


def _game(seed: int, bot_seat: int, players: int = 3, max_steps: int = 6000) -> tuple[str, float]:
    """One game: ``bot_seat`` plays the automatic player, the others pick uniformly at random."""
    s = GAME.new_game(seed, players, {})
    rng = Rng.from_seed(seed * 7 + 1)
    worst = 0.0
    for _ in range(max_steps):
        if GAME.outcome(s) is not None:
            return s.winner, worst
        seat = rng.choice(sorted(GAME.to_move(s)))
        if seat == bot_seat:
            t0 = time.perf_counter()
            action = GAME.auto_action(s, seat, rng.next64() & 0xFFFF)
            worst = max(worst, time.perf_counter() - t0)
        else:
            action = rng.choice(GAME.legal_actions(s, seat))
        s = GAME.apply(s, seat, action).state
    return "", worst


def test_bot_beats_random_players() -> None:
    wins = 0
    worst = 0.0
    for seed in range(4):
        bot_seat = seed % 3
        winner, w = _game(seed, bot_seat)
        worst = max(worst, w)
        wins += winner == GAME.new_game(seed, 3, {}).seats[bot_seat]
    assert wins >= 3
    assert worst < 0.05
