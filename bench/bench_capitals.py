"""Benchmark of The Capitals: engine and images (``.venv/bin/python bench/bench_capitals.py``).

Measures, against the targets of the issue:
* a complete 5-player game with the prosperity module played by the automatic players and
  one with uniformly random legal moves: ms/game (target < 500 ms);
* ``legal_actions`` at busy Building positions (a full Projects area, a grown city): median
  (target < 5 ms), and ``apply`` median over the games;
* renders of the central board and of one city from views along a game (CPU time, which
  other work on the shared cores hardly moves, like ``legal_actions``), each next to the
  time of PNG-encoding the same canvas alone in the same run (target < 80 ms each, ratio <= 2)
  — a turn post is the board and then one such city image per player — and of the whole
  table in one image (board and every city, one under the other) for information.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.capitals import CapitalsGame
from engine.core.rng import Rng
from renderer import base
from renderer.capitals import board_image, city_image, table_image

GAME = CapitalsGame()


def play(seed: int, auto: bool, states: list[Any] | None = None, apply_ms: list[float] | None = None) -> float:
    """One complete 5-player game; returns its wall time in ms."""
    t0 = time.perf_counter()
    s = GAME.new_game(seed, 5, {"prosperity": True})
    rng = Rng.from_seed(seed)
    while GAME.outcome(s) is None:
        seat = next(iter(GAME.to_move(s)))
        a = GAME.auto_action(s, seat, rng.next64() & 0xFFFF) if auto else rng.choice(GAME.legal_actions(s, seat))
        t1 = time.perf_counter()
        s = GAME.apply(s, seat, a).state
        if apply_ms is not None:
            apply_ms.append((time.perf_counter() - t1) * 1000)
        if states is not None:
            states.append(s)
    return (time.perf_counter() - t0) * 1000


def timed(fn: Any) -> tuple[float, Any]:
    """CPU milliseconds of ``fn()`` (``time.process_time``: the 2 cores are shared) and its result."""
    t = time.process_time()
    out = fn()
    return (time.process_time() - t) * 1000, out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    auto_ms = [play(i, True) for i in range(args.games)]
    states: list[Any] = []
    apply_ms: list[float] = []
    rand_ms = [play(100 + i, False, states if i == 0 else None, apply_ms) for i in range(args.games)]
    busy = [s for s in states if s.phase == "building" and s.round >= 6]
    legal_ms = []
    sizes = []
    for s in busy:
        seat = s.current
        ms, acts = timed(lambda s=s, seat=seat: GAME.legal_actions(s, seat))
        legal_ms.append(ms)
        sizes.append(len(acts))
    views = [GAME.view(s, None) for s in states[:: max(1, len(states) // 30)]]
    base.encode_board(board_image(views[0]))  # warm-up: fonts and glyph caches
    out = {}
    for label, make in (("board", board_image), ("city", lambda v: city_image(v, 0)), ("table", table_image)):
        render, encode = [], []
        for v in views:
            ms, _ = timed(lambda v=v, make=make: base.encode_board(make(v)))
            render.append(ms)
            canvas = make(v)
            ms, _ = timed(lambda c=canvas: base.encode_board(c))
            encode.append(ms)
        out[label] = (statistics.median(render), statistics.median(encode), canvas.size)
    ok = True
    med_auto, med_rand = statistics.median(auto_ms), statistics.median(rand_ms)
    print(f"The Capitals benchmark ({args.games} games each, 5 players, prosperity module)")
    good = max(med_auto, med_rand) < 500
    ok &= good
    print(f"  [{'OK ' if good else 'MISS'}] complete game median: automatic players {med_auto:.0f} ms, "
          f"random moves {med_rand:.0f} ms  (target < 500 ms)")
    lm = statistics.median(legal_ms)
    good = lm < 5
    ok &= good
    print(f"  [{'OK ' if good else 'MISS'}] legal_actions at busy Building positions: median {lm:.2f} ms, "
          f"max {max(legal_ms):.2f} ms  ({len(busy)} positions, median {statistics.median(sizes):.0f} moves; "
          "target < 5 ms)")
    print(f"        apply median: {statistics.median(apply_ms):.3f} ms")
    for label, (r, e, size) in out.items():
        if label == "table":  # the whole public image: no target of its own (board + every city)
            print(f"        render whole table {size[0]}x{size[1]}: median {r:.1f} ms, encode-only {e:.1f} ms, "
                  f"ratio {r / e:.2f}  (no target; chats get the board and a page per city)")
            continue
        good = r < 80 and r / e <= 2
        ok &= good
        print(f"  [{'OK ' if good else 'MISS'}] render {label} {size[0]}x{size[1]}: median {r:.1f} ms, "
              f"encode-only {e:.1f} ms, ratio {r / e:.2f}  (target < 80 ms, ratio <= 2)")
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    raise SystemExit(main())
