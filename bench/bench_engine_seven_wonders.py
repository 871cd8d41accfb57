"""Benchmark of the 7 Wonders engine (plain script: ``.venv/bin/python bench/bench_engine_seven_wonders.py``).

Measures, against the targets of the brief:
* complete random 7-player Cities games (uniformly random legal moves): games/s, ms/game (< 150 ms);
* ``legal_actions`` for a full hand with trading options: median (< 2 ms), cold caches and warm;
* ``apply``: median per move.
"""

from __future__ import annotations

import argparse
import statistics
import time

from engine.core.rng import Rng
from engine.seven_wonders import SevenWondersGame, moves, resources
from engine.seven_wonders.state import State

GAME = SevenWondersGame()


def random_game(seed: int, players: int = 7, apply_times: list[float] | None = None) -> tuple[State, int]:
    """One complete game with uniformly random legal moves; returns the end state and steps."""
    state = GAME.new_game(seed, players, {"cities": True})
    rng = Rng.from_seed(seed)
    steps = 0
    while GAME.outcome(state) is None:
        seat = rng.choice(sorted(GAME.to_move(state)))
        action = rng.choice(GAME.legal_actions(state, seat))
        t0 = time.perf_counter()
        state = GAME.apply(state, seat, action).state
        if apply_times is not None:
            apply_times.append(time.perf_counter() - t0)
        steps += 1
    return state, steps


def full_hand_positions(count: int) -> list[tuple[State, int]]:
    """Positions at the first turn of Ages II and III (full 8-card hands, built cities, so
    neighbours sell resources) where the seat has at least one move with a trade payment."""
    out: list[tuple[State, int]] = []
    seed = 10_000
    while len(out) < count:
        state = GAME.new_game(seed, 7, {"cities": True})
        rng = Rng.from_seed(seed)
        while GAME.outcome(state) is None and len(out) < count:
            if state.step == "pick" and state.turn == 1 and state.age > 1 and not state.pending:
                for seat in range(7):
                    if any(a.trade for a in GAME.legal_actions(state, seat)):
                        out.append((state, seat))
            seat = rng.choice(sorted(GAME.to_move(state)))
            state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat))).state
        seed += 1
    return out[:count]


def clear_caches() -> None:
    """Forget every memo so a measurement starts cold."""
    moves._CTX_MEMO.clear()
    for fn in (resources.payment_options, resources.purchase_pairs, resources.shortfalls, resources.can_supply):
        fn.cache_clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--positions", type=int, default=200)
    args = parser.parse_args()

    random_game(0)  # warm-up (imports, caches)
    applies: list[float] = []
    t0 = time.perf_counter()
    total_steps = 0
    for seed in range(1, args.games + 1):
        total_steps += random_game(seed, apply_times=applies)[1]
    elapsed = time.perf_counter() - t0
    ms_per_game = elapsed / args.games * 1000

    positions = full_hand_positions(args.positions)
    cold: list[float] = []
    warm: list[float] = []
    sizes: list[int] = []
    for state, seat in positions:
        clear_caches()
        t = time.perf_counter()
        acts = GAME.legal_actions(state, seat)
        cold.append(time.perf_counter() - t)
        t = time.perf_counter()
        GAME.legal_actions(state, seat)
        warm.append(time.perf_counter() - t)
        sizes.append(len(acts))

    def verdict(ok: bool) -> str:
        return "OK " if ok else "SLOW"

    print(f"7 Wonders engine benchmark ({args.games} random 7-player Cities games, {total_steps} moves)")
    print(
        f"  [{verdict(ms_per_game < 150)}] games/s: {args.games / elapsed:8.1f}   "
        f"ms/game: {ms_per_game:7.1f}  (target < 150)"
    )
    cold_ms = statistics.median(cold) * 1000
    warm_ms = statistics.median(warm) * 1000
    print(
        f"  [{verdict(cold_ms < 2)}] legal_actions, full hand with trading, median: cold caches {cold_ms:.3f} ms, "
        f"warm {warm_ms:.3f} ms  (target < 2 ms; {len(positions)} positions, median {statistics.median(sizes)} moves)"
    )
    print(
        f"        apply median: {statistics.median(applies) * 1000:.3f} ms, p95: "
        f"{sorted(applies)[int(len(applies) * 0.95)] * 1000:.3f} ms"
    )


if __name__ == "__main__":
    main()
