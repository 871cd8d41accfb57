"""The automatic player: legal, deterministic, finishes games, and beats a random player."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.rng import Rng
from engine.duellum.state import State

from .builders import GAME, Board

BROWN, BEIGE = 0, 1


def _play(seed: int, options: dict[str, Any], bots: tuple[bool, bool], max_steps: int = 8000) -> State:
    s = GAME.new_game(seed, 2, options)
    rng = Rng.from_seed(seed)
    for _ in range(max_steps):
        if GAME.outcome(s) is not None:
            return s
        seat = rng.choice(sorted(GAME.to_move(s)))
        acts = GAME.legal_actions(s, seat)
        if bots[seat]:
            a = GAME.auto_action(s, seat, rng.next64() & 0xFFFF)
            assert a in acts
        else:
            a = rng.choice(acts)
        s = GAME.apply(s, seat, a).state
    raise AssertionError(f"seed {seed}: no winner after {max_steps} steps")


@pytest.mark.parametrize("seed", range(8))
def test_two_bots_finish_a_game(seed: int) -> None:
    options: dict[str, Any] = {"map": "B" if seed % 2 else "A", "special_units": seed % 3 == 0}
    s = _play(seed, options, (True, True))
    assert s.players[s.winner].vp >= 9
    assert s.turn < 600


def test_bot_beats_a_random_player() -> None:
    wins = 0
    for seed in range(6):
        bot = seed % 2
        s = _play(seed, {"map": "B" if seed % 3 else "A"}, (bot == 0, bot == 1))
        wins += s.winner == bot
    assert wins == 6


def test_bot_is_deterministic_for_a_seed() -> None:
    b = Board(active=BROWN).units(BROWN, "carthago", legions=2).units(BROWN, "zama", legions=1)
    b.action("DUELLUM")
    first = [GAME.auto_action(b.state, BROWN, seed) for seed in range(5)]
    again = [GAME.auto_action(b.state, BROWN, seed) for seed in range(5)]
    assert first == again


def test_bot_takes_sensible_actions() -> None:
    # A conquest is available: the bot declares it.
    b = Board(active=BROWN).city("tarraco", BEIGE, "gold", temple=True).units(BROWN, "tarraco", legions=3)
    b.conquest_step()
    assert GAME.notation(b.state, BROWN, GAME.auto_action(b.state, BROWN, 1)) == "conquer Tarraco"
    # It founds a city where its unit stands.
    b = Board(active=BROWN).units(BROWN, "numantia", legions=1).founding_step()
    assert GAME.notation(b.state, BROWN, GAME.auto_action(b.state, BROWN, 1)).startswith("found Numantia")
    # It answers a conquest with its Fortress when that saves the city.
    b = Board(active=BROWN).city("tarraco", BEIGE, "gold").units(BROWN, "tarraco", legions=1).hand(BEIGE, "FORTRESS")
    b.conquest_step()
    b.play(BROWN, "conquer tarraco")
    assert GAME.notation(b.state, BEIGE, GAME.auto_action(b.state, BEIGE, 1)) == "play Fortress"
    # It takes a Fortress when one is in the row.
    b = Board(active=BROWN).row("Fortress", "Treasury", "Oracle").owed("Romans", 1).start("Romans")
    assert GAME.notation(b.state, BEIGE, GAME.auto_action(b.state, BEIGE, 1)) == "take Fortress"
    # It builds a temple when it can.
    b = Board(active=BEIGE).resources(BEIGE, marble=6, coins=0).action("TEMPLUM")
    assert GAME.notation(b.state, BEIGE, GAME.auto_action(b.state, BEIGE, 1)).startswith("temple ")
