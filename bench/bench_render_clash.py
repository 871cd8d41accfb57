"""Benchmark of the Clash of Cultures image (``.venv/bin/python bench/bench_render_clash.py``).

Renders 30 views of automatic 4-player games (rounds 1-6) and reports the median whole render of
the board image (cached map base + pieces + battle strip + player summary + 64-colour palette PNG)
against encoding the same canvas alone, in the same run (targets of issue 14: render < 100 ms,
ratio <= 2), then the median time and size of the four player pages that follow it in a post. Wall time and CPU time
(``time.process_time``) are both printed with the load average: on a shared machine the wall
time grows with the other work, the CPU time of this process hardly at all.
"""

from __future__ import annotations

import os
import statistics
import time
from typing import Any

from engine.clash import ClashGame
from renderer.base import encode_board
from renderer.clash import board_image, render_pages

GAME = ClashGame()


def views(count: int) -> list[dict[str, Any]]:
    """Views sampled along automatic 4-player games."""
    out: list[dict[str, Any]] = []
    seed = 0
    while len(out) < count:
        s = GAME.new_game(seed, 4)
        steps = 0
        while GAME.outcome(s) is None:
            seat = next(iter(GAME.to_move(s)))
            s = GAME.apply(s, seat, GAME.auto_action(s, seat, steps)).state
            steps += 1
            if steps % 40 == 0:
                out.append(GAME.view(s, None))
        seed += 1
    return out[:count]


def main() -> None:
    """Run and print the figures."""
    vs = views(30)
    t0 = time.perf_counter()
    encode_board(board_image(vs[0]))
    cold = time.perf_counter() - t0
    render, encode, render_cpu, encode_cpu = [], [], [], []
    for v in vs:
        t0, c0 = time.perf_counter(), time.process_time()
        image = board_image(v)
        data = encode_board(image)
        render.append(time.perf_counter() - t0)
        render_cpu.append(time.process_time() - c0)
        t0, c0 = time.perf_counter(), time.process_time()
        encode_board(image)
        encode.append(time.perf_counter() - t0)
        encode_cpu.append(time.process_time() - c0)
    r, e = statistics.median(render) * 1000, statistics.median(encode) * 1000
    rc, ec = statistics.median(render_cpu) * 1000, statistics.median(encode_cpu) * 1000
    print(f"Clash of Cultures board {image.size[0]}x{image.size[1]}, {len(vs)} views of 4-player games")
    print(f"cold first render (builds the map base): {cold * 1000:.1f} ms")
    print(f"render median: {r:.1f} ms   (target < 100 ms: {'OK' if r < 100 else 'MISSED'})")
    print(f"encode median: {e:.1f} ms")
    print(f"ratio render/encode: {r / e:.2f}   (target <= 2: {'OK' if r / e <= 2 else 'MISSED'})")
    print(f"CPU time: render median {rc:.1f} ms (target < 100 ms: {'OK' if rc < 100 else 'MISSED'}), "
          f"encode median {ec:.1f} ms, ratio {rc / ec:.2f}")
    print(f"CPU time of the drawing alone (render minus encode, medians): {rc - ec:.1f} ms")
    pages, page_cpu, page_kib = [], [], []
    for v in vs:
        t0, c0 = time.perf_counter(), time.process_time()
        pngs = render_pages(v)
        pages.append(time.perf_counter() - t0)
        page_cpu.append(time.process_time() - c0)
        page_kib.append(max(len(p) for p in pngs) / 1024)
    print(
        f"player pages ({len(pngs)} PNGs of 800 px wide): median {statistics.median(pages) * 1000:.1f} ms for all, "
        f"CPU {statistics.median(page_cpu) * 1000:.1f} ms; largest page {max(page_kib):.0f} KiB"
    )
    print(f"PNG size: {len(data) // 1024} KiB; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
