"""Benchmark the Antike Duellum engine: complete games per second, median apply/legal_actions time.

Plain script: ``python bench/bench_engine_duellum.py [--games N] [--auto-share X]``.

Games are played like ``engine.core.testing.random_playout`` (each step: the automatic player
with probability ``auto_share``, else a uniformly random legal action), without the protocol
checks, alternating both map sides. Every ``apply`` and every ``legal_actions`` call on a fresh
state is timed. Targets: a complete game < 200 ms, median apply < 1 ms.

Baseline: a fixed pure-Python workload (:func:`reference`: dictionary updates, tuples, a sort -
what the engine spends its time on) is timed before every game, and the mean game is also given
as a multiple of it. Why: the same tree measured on this machine class differs by a third from
one hour to the next; the multiple moves far less, so compare it across runs and trees.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.core.rng import Rng
from engine.duellum import DuellumGame

GAME_TARGET_MS = 200.0
APPLY_TARGET_MS = 1.0


def play(game: DuellumGame, seed: int, auto_share: float, applies: list[float], legals: list[float]) -> int:
    """One complete game; returns the number of steps."""
    options = {"map": "greece-persia" if seed % 2 else "rome-carthage"}
    rng = Rng.from_seed(seed ^ 0x5EED)
    state = game.new_game(seed, 2, options)
    steps = 0
    while game.outcome(state) is None:
        seat = rng.choice(sorted(game.to_move(state)))
        t0 = time.perf_counter()
        actions = game.legal_actions(state, seat)
        legals.append(time.perf_counter() - t0)
        if rng.below(1000) < int(auto_share * 1000):
            action = game.auto_action(state, seat, rng.next64() & 0xFFFFFFFF)
        else:
            action = rng.choice(actions)
        t0 = time.perf_counter()
        state = game.apply(state, seat, action).state
        applies.append(time.perf_counter() - t0)
        steps += 1
    return steps


def reference() -> float:
    """Seconds of a fixed pure-Python workload, the machine-speed baseline (see the module doc)."""
    t0 = time.perf_counter()
    x, counts = 12345, {}
    for i in range(20_000):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        key = (x % 97, i % 13)
        counts[key] = counts.get(key, 0) + 1
    sorted(counts.items(), key=lambda kv: (kv[1], kv[0]))
    return time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--auto-share", type=float, default=0.5)
    args = parser.parse_args()
    game = DuellumGame()
    applies: list[float] = []
    legals: list[float] = []
    times: list[float] = []
    references: list[float] = []
    steps = 0
    for seed in range(args.games):
        references.append(reference())
        t0 = time.perf_counter()
        steps += play(game, seed, args.auto_share, applies, legals)
        times.append(time.perf_counter() - t0)
    total = sum(times)
    game_ms = 1000 * total / len(times)
    apply_ms = 1000 * statistics.median(applies)
    legal_ms = 1000 * statistics.median(legals)
    reference_ms = 1000 * statistics.median(references)

    def verdict(value: float, target: float) -> str:
        return "OK" if value < target else "over target"

    print(f"Antike Duellum: {len(times)} complete games, auto share {args.auto_share}, {steps} steps")
    print(f"  games per second      {len(times) / total:8.2f}")
    print(
        f"  mean game             {game_ms:8.1f} ms   (target < {GAME_TARGET_MS:.0f} ms: "
        f"{verdict(game_ms, GAME_TARGET_MS)})"
    )
    print(f"  mean game / baseline  {game_ms / reference_ms:8.1f}      (the fixed workload: {reference_ms:.2f} ms)")
    print(f"  median game           {1000 * statistics.median(times):8.1f} ms")
    print(
        f"  median apply          {apply_ms:8.3f} ms   (target < {APPLY_TARGET_MS:.0f} ms: "
        f"{verdict(apply_ms, APPLY_TARGET_MS)})"
    )
    print(f"  median legal_actions  {legal_ms:8.3f} ms")
    print(f"  mean steps per game   {steps / len(times):8.0f}")


if __name__ == "__main__":
    main()
