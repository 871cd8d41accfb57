"""Random complete games with the protocol checks and the invariants of §17.3.

A small batch runs every protocol check at every step (mutation, notation round trips, dump/load,
replay); the big batch (200 games over both map sides, the variant and the option flags) keeps
the invariants at every step and lighter protocol checks so the suite stays fast.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.testing import random_playout

from .builders import GAME
from .invariants import Invariants

FULL = [
    (1, {}),
    (2, {"map": "greece-persia"}),
    (3, {"map": "B", "special_units": True}),
    (4, {"fortress_policy": "AUTO_FIRST_CONQUEST", "navigator_counts_coastal": True}),
    (5, {"map": "A", "special_units": True, "duellum_to_duellum_allowed": False}),
    (6, {"map": "B", "fortress_policy": "NEVER"}),
]


def _options(seed: int) -> dict[str, Any]:
    opts: dict[str, Any] = {"map": "greece-persia" if seed % 2 else "rome-carthage"}
    if seed % 5 == 0:
        opts["special_units"] = True
    if seed % 7 == 3:
        opts["fortress_policy"] = ("ASK", "AUTO_FIRST_CONQUEST", "NEVER")[seed % 3]
    if seed % 11 == 4:
        opts["navigator_counts_coastal"] = True
    return opts


@pytest.mark.parametrize(("seed", "options"), FULL)
def test_random_game_with_every_check(seed: int, options: dict[str, Any]) -> None:
    result = random_playout(
        GAME,
        seed,
        2,
        options,
        invariants=Invariants(),
        check_mutation=True,
        check_notation=4,
        check_dump_every=1,
        check_replay=True,
        auto_share=0.8,
    )
    assert result.over
    out = GAME.outcome(result.state)
    assert out is not None and out.scores[out.winners[0]] >= 9


@pytest.mark.parametrize("chunk", range(10))
def test_200_random_games(chunk: int) -> None:
    maps = set()
    for seed in range(100 + chunk * 20, 100 + (chunk + 1) * 20):
        options = _options(seed)
        result = random_playout(
            GAME,
            seed,
            2,
            options,
            invariants=Invariants(),
            check_mutation=False,
            check_notation=0,
            check_dump_every=97,
            check_replay=False,
            auto_share=0.8,
        )
        assert result.over, f"seed {seed} did not finish"
        maps.add(result.state.map.id)
    assert maps == {"rome-carthage", "greece-persia"}
