"""Random complete games for 2-5 players with and without the prosperity module and the
full-draw variant: the protocol's checks (no mutation, notation round trips, dump/load,
replay determinism) and the spec's invariants at every step."""

from __future__ import annotations

import pytest

from engine.capitals.builder import GAME
from engine.core.testing import random_playout
from tests.engine.capitals.invariants import Invariants

CASES = [
    (n, opts, seed)
    for n in (2, 3, 4, 5)
    for opts in ({}, {"prosperity": True}, {"prosperity": True, "variant": True})
    for seed in range(3)
]


@pytest.mark.parametrize(("players", "options", "seed"), CASES)
def test_random_complete_game(players: int, options: dict[str, bool], seed: int) -> None:
    result = random_playout(
        GAME, 1000 * players + seed, players, options, auto_share=0.6, invariants=Invariants(),
        check_notation=2, check_dump_every=7,
    )
    assert result.over
    s = result.state
    assert s.round == 12
    assert all(not t.cubes for p in s.players for t in p.city.values()), "tile cubes cleared at the end"
    assert all(p.tracks["ECO"] <= 3 and p.nrg <= 3 for p in s.players), "final conversions"
    out = GAME.outcome(s)
    assert out is not None and len(out.ranking) == players


def test_same_seed_same_game() -> None:
    a = random_playout(GAME, 77, 4, {"prosperity": True}, auto_share=1.0, check_replay=False)
    b = random_playout(GAME, 77, 4, {"prosperity": True}, auto_share=1.0, check_replay=False)
    assert GAME.dumps(a.state) == GAME.dumps(b.state)
    assert a.log == b.log


MANY = [
    (n, opts, seed)
    for n in (2, 3, 4, 5)
    for opts in ({}, {"variant": True}, {"prosperity": True}, {"prosperity": True, "variant": True})
    for seed in range(6)
]


@pytest.mark.parametrize(("players", "options", "seed"), MANY)
def test_many_random_games_keep_the_invariants(players: int, options: dict[str, bool], seed: int) -> None:
    """More games with the invariants only (the protocol checks above are the slow part)."""
    result = random_playout(
        GAME, 7000 + 100 * players + seed, players, options, auto_share=0.5, invariants=Invariants(),
        check_mutation=False, check_notation=0, check_dump_every=0, check_replay=False,
    )
    assert result.over and GAME.outcome(result.state) is not None
