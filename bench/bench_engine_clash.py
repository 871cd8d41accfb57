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
from engine.clash.builder import Position
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


def busy_position() -> tuple[State, int]:
    """A crowded mid-game position built on purpose: the whole 4-player map revealed, Red with
    5 grown cities, 12 army units in stacks, 4 settlers, 2 ships with cargo, Roads, Navigation,
    Husbandry, Draft and Voting, and plenty of resources and tokens."""
    pos = Position(4, seed=7).clear_units().reveal_all()
    land = sorted(
        h
        for h, t in pos.state.terrain.items()
        if t in ("fertile", "forest", "mountain") and pos.state.city_at(h) is None
    )
    sea = sorted(h for h, t in pos.state.terrain.items() if t == "sea")
    for space in land[:4]:
        pos.city(0, space, pieces=("temple", "academy"), mood="happy")
    pos.city(0, "c2", pieces=("temple", "academy", "fortress"))
    pos.advances(
        0,
        "tactics",
        "engineering",
        "roads",
        "fishing",
        "navigation",
        "storage",
        "husbandry",
        "myths",
        "writing",
        "draft",
        "philosophy",
        "voting",
        "rituals",
        "irrigation",
    )
    pos.give(0, food=6, wood=6, ore=6, ideas=4, gold=3).tokens(0, culture_level=5, happiness_level=5, mood=4, culture=3)
    for space in land[4:10]:
        pos.units(0, space, army=2, settler=0)
    pos.units(0, land[10], settler=2).units(0, land[11], settler=2)
    pos.ship(0, sea[0], army=1, settler=0)
    pos.ship(0, sea[0])
    pos.turn(0)
    return pos.state, 0


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
