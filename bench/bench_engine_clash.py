"""Benchmark of the Clash of Cultures engine (plain script: ``.venv/bin/python bench/bench_engine_clash.py``).

Measures, against the targets of issue 14:
* complete random 4-player games (half the steps by the automatic player, as in the test
  playouts; no protocol checks): ms per game (target < 1.5 s);
* ``legal_actions`` at busy mid-game positions (rounds 4-6, the positions with the most legal
  actions): median (target < 5 ms);
* ``apply`` median over the games (target < 1 ms).
"""

from __future__ import annotations

import argparse
import statistics
import time

from engine.clash import ClashGame
from engine.clash.builder import crowded_position as busy_position
from engine.clash.state import State
from engine.core.rng import Rng

GAME = ClashGame()


def random_game(seed: int, players: int, apply_times: list[float], busy: list[tuple[int, State, int]]) -> int:
    """One complete game; records apply times and candidate busy positions. Returns steps."""
    state = GAME.new_game(seed, players)
    rng = Rng.from_seed(seed)
    steps = 0
    while GAME.outcome(state) is None:
        seat = next(iter(GAME.to_move(state)))
        actions = GAME.legal_actions(state, seat)
        if state.round >= 4 and rng.below(10) == 0:
            busy.append((len(actions), state, seat))
        action = GAME.auto_action(state, seat, rng.next64() & 65535) if rng.below(2) else rng.choice(actions)
        t0 = time.perf_counter()
        state = GAME.apply(state, seat, action).state
        apply_times.append(time.perf_counter() - t0)
        steps += 1
    return steps


def main() -> None:
    """Run and print the figures."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    args = ap.parse_args()
    apply_times: list[float] = []
    busy: list[tuple[int, State, int]] = []
    per_game = []
    steps = 0
    for seed in range(args.games):
        t0 = time.perf_counter()
        steps += random_game(seed, 4, apply_times, busy)
        per_game.append(time.perf_counter() - t0)
    busy.sort(key=lambda x: -x[0])
    positions = busy[:50]
    crowded, seat0 = busy_position()
    crowded_times = []
    for _ in range(30):
        t0 = time.perf_counter()
        n_crowded = len(GAME.legal_actions(crowded, seat0))
        crowded_times.append(time.perf_counter() - t0)
    legal_times = []
    for _, state, seat in positions:
        t0 = time.perf_counter()
        GAME.legal_actions(state, seat)
        legal_times.append(time.perf_counter() - t0)
    game_ms = statistics.mean(per_game) * 1000
    legal_ms = statistics.median(legal_times) * 1000
    apply_ms = statistics.median(apply_times) * 1000

    def ok(x: float, target: float) -> str:
        return "OK" if x < target else "MISSED"

    print(f"Clash of Cultures: {args.games} complete 4-player games, auto share 0.5, {steps} steps")
    print(f"  mean game              {game_ms:8.1f} ms   (target < 1500 ms: {ok(game_ms, 1500)})")
    print(f"  median game            {statistics.median(per_game) * 1000:8.1f} ms")
    print(
        f"  legal_actions median   {legal_ms:8.3f} ms   (target < 5 ms: {ok(legal_ms, 5)}; "
        f"{len(positions)} busiest positions of rounds 4-6, median {statistics.median(p[0] for p in positions)} "
        f"actions)"
    )
    crowded_ms = statistics.median(crowded_times) * 1000
    print(
        f"  legal_actions, crowded {crowded_ms:8.3f} ms   (target < 5 ms: {ok(crowded_ms, 5)}; built position "
        f"with {n_crowded} actions)"
    )
    print(
        f"  apply median           {apply_ms:8.3f} ms   (target < 1 ms: {ok(apply_ms, 1)}; p95 "
        f"{sorted(apply_times)[int(len(apply_times) * 0.95)] * 1000:.3f} ms)"
    )


if __name__ == "__main__":
    main()
