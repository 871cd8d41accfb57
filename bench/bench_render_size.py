"""Benchmark: board PNG sizes and render CPU time: Antike Duellum, 7 Wonders, Mare Nostrum, The Capitals.

Run from the repository root:

    .venv/bin/python bench/bench_render_size.py [--boards 20] [--check]

For ``--boards`` hand-built varied Duellum views (both map sides) and as many public tables of
one seeded 8-player 7 Wonders game (Cities, side B, spread from the first turn to the end) it
prints the median and largest PNG size and the median CPU time of a whole render (draw and
encode). CPU time (``time.process_time``) rather than wall time, so that a machine shared with
other work still gives comparable figures. Target (issue 12): every board <= 150 KiB.
``--check`` exits with status 1 when a board is larger.

The script runs on older trees of the repository too (it only uses ``render``), which is how
the "before" figures in bench/RESULTS.md were taken.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import renderer
from engine import find_game
from renderer import duellum, seven_wonders
from tests.renderer.fixtures import make_view, random_view

TARGET_KIB = 150


def seven_wonders_views(count: int, seed: int = 8) -> list[dict[str, Any]]:
    """``count`` public views spread over a seeded 8-player game, and its final view."""
    return game_views("seven-wonders", 8, {"cities": True, "side": "B"}, count, seed)


def game_views(game_id: str, players: int, options: dict[str, Any], count: int, seed: int) -> list[dict[str, Any]]:
    """``count`` public views spread over a seeded game played by the automatic players, and its
    final view."""
    game = find_game(game_id)
    state = game.new_game(seed, players, options)
    states = [state]
    step = 0
    while game.outcome(state) is None:
        for seat in sorted(game.to_move(state)):
            if seat in game.to_move(state):
                state = game.apply(state, seat, game.auto_action(state, seat, seed * 1000 + step)).state
                step += 1
        states.append(state)
    picks = [states[i * len(states) // count] for i in range(count)] + [states[-1]]
    return [game.view(s, None) for s in picks]


def measure(name: str, views: list[dict[str, Any]], render: Callable[[dict[str, Any]], bytes]) -> int:
    """Print size and CPU figures for ``views``; returns the largest PNG in bytes."""
    render(views[0])  # warm-up: fonts, cached bases and sprites
    cpu: list[float] = []
    sizes: list[int] = []
    for view in views:
        t = time.process_time()
        data = render(view)
        cpu.append((time.process_time() - t) * 1000.0)
        sizes.append(len(data))
    print(
        f"{name}: {len(views)} boards, PNG median {statistics.median(sizes) / 1024:.0f} KiB, "
        f"max {max(sizes) / 1024:.0f} KiB; render CPU median {statistics.median(cpu):.0f} ms "
        f"(p90 {statistics.quantiles(cpu, n=10)[-1]:.0f} ms)"
    )
    return max(sizes)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=20, help="boards per game (default 20)")
    parser.add_argument("--check", action="store_true", help=f"exit 1 if a board is over {TARGET_KIB} KiB")
    args = parser.parse_args()
    duellum.render(make_view("A"))
    duellum_views = [random_view("AB"[i % 2], seed=i, viewer=None) for i in range(args.boards)]
    largest = measure("Antike Duellum", duellum_views, duellum.render)
    largest = max(largest, measure("7 Wonders, 8 players", seven_wonders_views(args.boards), seven_wonders.render))
    for game_id, title, players, options in (("mare-nostrum", "Mare Nostrum, 5 players", 5, {}),
                                             ("capitals", "The Capitals, 5 players", 5, {"prosperity": True})):
        views = game_views(game_id, players, options, args.boards, seed=5)
        largest = max(largest, measure(title, views, lambda v, g=game_id: renderer.render(g, v)))
    ok = largest <= TARGET_KIB * 1024
    print(f"target (every board <= {TARGET_KIB} KiB): {'met' if ok else 'MISSED'}")
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
