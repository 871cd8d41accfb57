"""Random complete games for 3, 4 and 5 players in both setups, with the spec's invariants,
dump/load round trips, notation round trips and replay determinism at every step."""

from __future__ import annotations

import pytest

from engine.core.testing import random_playout, replay
from engine.mare_nostrum.invariants import check
from engine.mare_nostrum.positions import GAME

CASES = [(seed, n, setup) for n in (3, 4, 5) for setup in ("basic", "advanced") for seed in range(2)]


@pytest.mark.parametrize(("seed", "players", "setup"), CASES)
def test_random_complete_game(seed: int, players: int, setup: str) -> None:
    p = random_playout(GAME, seed, players, {"setup": setup}, auto_share=0.9, invariants=check,
                       check_dump_every=9, check_notation=2, check_mutation=seed == 0, max_steps=30_000)
    assert p.over
    out = GAME.outcome(p.state)
    assert out is not None and len(out.winners) == 1
    winner = p.state.seats[out.winners[0]]
    cards = p.state.cards[winner]
    assert "pyramids" in cards or len(cards) >= 4


def test_neutral_option_games() -> None:
    p = random_playout(GAME, 11, 4, {"civs": ["rome", "greece", "carthage", "babylon"],
                                      "neutral_provinces": "all_land_neighbours"},
                       auto_share=0.9, invariants=check, check_dump_every=9, check_mutation=False)
    assert p.over


def test_same_seed_same_game_byte_for_byte() -> None:
    p = random_playout(GAME, 5, 5, {}, auto_share=0.9, check_dump_every=0, check_notation=0)
    again = replay(GAME, 5, 5, {}, p.log)
    assert GAME.dumps(again) == GAME.dumps(p.state)
