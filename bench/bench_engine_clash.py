"""Benchmark of the Clash of Cultures engine (plain script: ``.venv/bin/python bench/bench_engine_clash.py``).

Measures, against the targets of issues 14 and 15:
* complete random 4-player games with combat (half the steps by the automatic player, who attacks,
  as in the test playouts; no protocol checks): ms per game (target < 2 s with combat);
* ``legal_actions`` at busy mid-game positions (rounds 4-6, the positions with the most legal
  actions): median (target < 5 ms);
* ``apply`` median over the games (target < 1 ms);
* the image of a turn with a three-round battle (render + PNG encode, median; target < 120 ms).
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


BATTLES = [0]


def battle_render_ms(runs: int = 15) -> tuple[float, float, float]:
    """Median ms to render and encode the public image of a turn with a finished battle, the same
    view without the battle, and the drawing alone (render without encoding) of the battle view."""
    from engine.clash.builder import Position
    from renderer.base import encode_board
    from renderer.clash import board_image

    pos = Position(4).clear_units().reveal_all()
    city = next(c for c in pos.state.cities if c.owner == 1)
    from engine.clash.board import neighbours

    src = next(h for h in neighbours(pos.state, city.space) if pos.state.terrain.get(h) not in ("sea", None))
    city.pieces["fortress"] = 1
    pos.advances(0, "tactics").advances(1, "tactics").units(0, src, army=4).units(1, city.space, army=2).turn(0)
    pos.play(0, f"attack {src} {city.space} army army army army")
    while pos.state.pending and pos.state.pending["kind"] == "battle":
        pos.play(0, "continue")
    view = GAME.view(pos.state, None)
    quiet = dict(view, battles=[])
    times: dict[str, list[float]] = {"with": [], "without": [], "draw": []}
    for _ in range(runs):
        for key, v in (("with", view), ("without", quiet)):
            t0 = time.perf_counter()
            encode_board(board_image(v))
            times[key].append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        board_image(view)
        times["draw"].append(time.perf_counter() - t0)
    return tuple(statistics.median(times[k]) * 1000 for k in ("with", "without", "draw"))  # type: ignore[return-value]


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
        step = GAME.apply(state, seat, action)
        apply_times.append(time.perf_counter() - t0)
        state = step.state
        BATTLES[0] += sum(1 for e in step.events if " attacks " in e.text)
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

    print(
        f"Clash of Cultures: {args.games} complete 4-player games with combat, auto share 0.5, {steps} steps, "
        f"{BATTLES[0]} battles"
    )
    print(f"  mean game              {game_ms:8.1f} ms   (target < 2000 ms with combat: {ok(game_ms, 2000)})")
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
    battle_ms, quiet_ms, draw_ms = battle_render_ms()
    print(f"  battle image render    {battle_ms:8.1f} ms   (target < 120 ms: {ok(battle_ms, 120)}; render + encode)")
    print(f"    same view, no battle {quiet_ms:8.1f} ms   (the battle adds {battle_ms - quiet_ms:.1f} ms)")
    print(f"    drawing only         {draw_ms:8.1f} ms   (the rest is the PNG encoding)")


if __name__ == "__main__":
    main()
