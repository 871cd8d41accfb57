"""Benchmark: 7 Wonders images — 8-player public table and private hand, render vs PNG encoding.

Run from the repository root:

    .venv/bin/python bench/bench_render_seven_wonders.py [--renders 30] [--check]

It plays a seeded 8-player game (Cities, side B) with the automatic players and keeps a view
after every resolved turn, from Age I to the end (the tables grow as cities build). Over
``--renders`` of those views it prints the median CPU time (``time.process_time``, which other work on a shared
machine hardly moves) of a full public table render (plan,
draw, encode PNG) and of a hand render for the seat to move, each next to the median time of
encoding the same final canvas alone, and the ratio render / encode. Targets: table median
< 80 ms, hand median < 30 ms. ``--check`` exits with status 1 when a target is missed.
One warm-up render runs first (font loading and glyph caches are per process).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import find_game
from renderer import base, seven_wonders
from renderer.seven_wonders_hand import HAND_W, render_hand

TABLE_TARGET_MS = 80.0
HAND_TARGET_MS = 30.0
SIZE_TARGET_KIB = 150


def game_states(seed: int = 8) -> list[Any]:
    """States of a seeded 8-player game after every turn (each a different table)."""
    game = find_game("seven-wonders")
    state = game.new_game(seed, 8, {"cities": True, "side": "B"})
    states = [state]
    step = 0
    while game.outcome(state) is None:
        for seat in sorted(game.to_move(state)):
            if seat in game.to_move(state):
                state = game.apply(state, seat, game.auto_action(state, seat, seed * 1000 + step)).state
                step += 1
        states.append(state)
    return states


def spread(items: list[Any], count: int) -> list[Any]:
    """``count`` items spread evenly over ``items`` (repeating if there are fewer)."""
    return [items[(i * len(items)) // count] for i in range(count)] if len(items) >= count else (items * count)[:count]


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    """CPU milliseconds of ``fn()`` and its result."""
    t = time.process_time()
    out = fn()
    return (time.process_time() - t) * 1000.0, out


def measure(
    views: list[dict[str, Any]],
    render: Callable[[dict[str, Any]], Any],
    image: Callable[[Any], Any],
    kind: base.PaletteKind,
) -> dict[str, float]:
    """Median full render ms, median encode-only ms of the same canvases, and sizes."""
    render_ms: list[float] = []
    encode_ms: list[float] = []
    heights: list[int] = []
    sizes: list[int] = []
    for view in views:
        ms, data = timed(lambda v=view: render(v))
        assert data
        render_ms.append(ms)
        sizes.append(len(data))
        canvas = image(view)
        heights.append(canvas.height)
        ms, _ = timed(lambda c=canvas: base.encode_board(c, kind))
        encode_ms.append(ms)
    render_median = statistics.median(render_ms)
    encode_median = statistics.median(encode_ms)
    return {
        "render": render_median,
        "encode": encode_median,
        "ratio": render_median / encode_median,
        "max_height": max(heights),
        "median_height": statistics.median(heights),
        "median_kib": statistics.median(sizes) / 1024,
        "max_kib": max(sizes) / 1024,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--renders", type=int, default=30, help="number of timed renders of each image (default 30)")
    parser.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    args = parser.parse_args()

    game = find_game("seven-wonders")
    states = spread(game_states()[1:], args.renders)
    tables = [game.view(s, None) for s in states]
    hands = []
    for i, s in enumerate(states):
        seats = sorted(game.to_move(s)) or [0]
        view = game.view(s, seats[i % len(seats)])
        if view["hand"]:
            hands.append(view)

    seven_wonders.render(tables[0])  # warm-up: fonts, glyph caches
    table = measure(tables, seven_wonders.render, seven_wonders.table_image, seven_wonders.TABLE_PALETTE)
    hand = measure(hands, lambda v: seven_wonders.render_private(v), render_hand, seven_wonders.HAND_PALETTE)

    print(f"7 Wonders, 8 players, {len(tables)} table views and {len(hands)} hand views of one seeded game")
    print(f"CPU time per image; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(
        f"table: render median {table['render']:.1f} ms, encode-only median {table['encode']:.1f} ms, "
        f"ratio {table['ratio']:.2f}, canvas {seven_wonders.WIDTH} x {table['median_height']:.0f} "
        f"(max {table['max_height']:.0f}), PNG median {table['median_kib']:.0f} KiB (max {table['max_kib']:.0f})"
        f" — target < {TABLE_TARGET_MS:.0f} ms, <= {SIZE_TARGET_KIB} KiB"
    )
    print(
        f"hand:  render median {hand['render']:.1f} ms, encode-only median {hand['encode']:.1f} ms, "
        f"ratio {hand['ratio']:.2f}, canvas {HAND_W} x {hand['median_height']:.0f} "
        f"(max {hand['max_height']:.0f}), PNG median {hand['median_kib']:.0f} KiB (max {hand['max_kib']:.0f})"
        f" — target < {HAND_TARGET_MS:.0f} ms"
    )
    ok = table["render"] < TABLE_TARGET_MS and hand["render"] < HAND_TARGET_MS and table["max_kib"] <= SIZE_TARGET_KIB
    print("targets met" if ok else "TARGET MISSED")
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    raise SystemExit(main())
