"""Benchmark of Mare Nostrum (plain script: ``.venv/bin/python bench/bench_mare_nostrum.py``).

Measures, against the targets of the issue:
* complete 5-player games driven by the automatic player (every seat, seeded): ms/game (< 500 ms);
* ``legal_actions`` at a busy build position (a hand of 12 goods types and 12 taxes, several
  owned provinces, triremes at sea): median (< 5 ms); ``apply`` median over the games;
* the public board render: median, encode-only median of the same canvas, their ratio
  (targets < 80 ms, ratio <= 2), in wall time and in CPU time (``time.process_time``, which
  hardly grows when other work shares the machine).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from engine.core.rng import Rng
from engine.mare_nostrum.data import GOODS
from engine.mare_nostrum.positions import GAME, Position
from engine.mare_nostrum.state import State
from renderer import base, mare_nostrum


def bot_game(seed: int, apply_times: list[float], views: list[object] | None = None) -> tuple[State, int]:
    state = GAME.new_game(seed, 5, {})
    rng = Rng.from_seed(seed)
    steps = 0
    while GAME.outcome(state) is None:
        seat = rng.choice(sorted(GAME.to_move(state)))
        action = GAME.auto_action(state, seat, rng.next64() & 0xFFFF)
        t0 = time.perf_counter()
        state = GAME.apply(state, seat, action).state
        apply_times.append(time.perf_counter() - t0)
        steps += 1
        if views is not None and steps % 40 == 0:
            views.append(GAME.view(state, None))
    return state, steps


def busy_build() -> tuple[State, int]:
    pos = Position(5).own("greece", "thracia", "creta", "rhodus").trireme("greece", "aegaeum")
    pos.trireme("greece", "ionium").trireme("greece", "aegyptium")
    pos.hand("greece", tax=12, **{g: 1 for g in GOODS}).build_turn("greece")
    return pos.state, pos.seat("greece")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--renders", type=int, default=30)
    args = parser.parse_args()
    apply_times: list[float] = []
    views: list[object] = []
    game_ms = []
    steps = 0
    for seed in range(args.games):
        t0 = time.perf_counter()
        _, n = bot_game(seed, apply_times, views)
        game_ms.append((time.perf_counter() - t0) * 1000)
        steps += n
    med_game = statistics.median(game_ms)
    print(f"Mare Nostrum benchmark ({args.games} automatic 5-player games, {steps} moves)")
    print(f"  [{'OK ' if med_game < 500 else 'MISS'}] ms/game median: {med_game:.1f}  "
          f"(mean {statistics.mean(game_ms):.1f}; target < 500)")
    state, seat = busy_build()
    times = []
    for _ in range(200):
        t0 = time.perf_counter()
        acts = GAME.legal_actions(state, seat)
        times.append((time.perf_counter() - t0) * 1000)
    med_legal = statistics.median(times)
    print(f"  [{'OK ' if med_legal < 5 else 'MISS'}] legal_actions at a busy build position: median "
          f"{med_legal:.2f} ms for {len(acts)} moves (target < 5 ms)")
    print(f"        apply median: {statistics.median(apply_times) * 1000:.3f} ms, p95: "
          f"{sorted(apply_times)[int(len(apply_times) * 0.95)] * 1000:.3f} ms")
    mare_nostrum.render(views[0])  # warm the cached static layer
    render_ms, encode_ms, render_cpu, encode_cpu = [], [], [], []
    for view in views[: args.renders]:
        t0, c0 = time.perf_counter(), time.process_time()
        image = mare_nostrum.board_image(view)  # type: ignore[arg-type]
        base.encode_board(image)
        t1, c1 = time.perf_counter(), time.process_time()
        base.encode_board(image)
        t2, c2 = time.perf_counter(), time.process_time()
        render_ms.append((t1 - t0) * 1000)
        encode_ms.append((t2 - t1) * 1000)
        render_cpu.append((c1 - c0) * 1000)
        encode_cpu.append((c2 - c1) * 1000)
    r, e = statistics.median(render_ms), statistics.median(encode_ms)
    rc, ec = statistics.median(render_cpu), statistics.median(encode_cpu)
    ok = r < 80 and r / e <= 2
    print(f"  [{'OK ' if ok else 'MISS'}] board render median {r:.1f} ms, encode-only {e:.1f} ms, ratio "
          f"{r / e:.2f} (targets < 80 ms, ratio <= 2; {len(render_ms)} views)")
    print(f"        CPU time (load-independent): render median {rc:.1f} ms, encode-only {ec:.1f} ms, ratio "
          f"{rc / ec:.2f}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
