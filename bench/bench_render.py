"""Benchmark: Antike Duellum board images — full render vs PNG encoding alone.

Run from the repository root:

    .venv/bin/python bench/bench_render.py [--renders 30] [--check]

For ~30 varied views (seeded random positions on both map sides, after one cold render that
builds and caches the static map bases) it prints the median CPU time (``time.process_time``:
other work on a shared machine hardly moves it) of a full board render (copy the cached base,
draw the turn, encode PNG), the median CPU time of encoding the same final canvas to PNG alone,
and their ratio. Targets: render median < 60 ms, ratio <= 2 (drawing a
turn costs no more than encoding it). ``--check`` exits with status 1 when a target is missed.

For reference it also times Pillow's own PNG encoder (default settings) on the same canvases:
that encoder's adaptive per-row filtering is why ``renderer.base.encode_png`` writes unfiltered
rows with zlib instead (see the comment there).
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from renderer import base, duellum
from tests.renderer.fixtures import make_view, random_view

TARGET_MS = 60.0
TARGET_RATIO = 2.0
SIZE_TARGET_KIB = 150


def _ms(seconds: float) -> float:
    return seconds * 1000.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--renders", type=int, default=30, help="number of timed renders (default 30)")
    parser.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    parser.add_argument(
        "--warm",
        action="store_true",
        help="draw every view once before timing (the sprite caches then hold what a long-running worker's do)",
    )
    args = parser.parse_args()

    views = [random_view("AB"[i % 2], seed=i, viewer=None) for i in range(args.renders)]

    base.STATIC_LAYERS.clear()
    t0 = time.process_time()
    for side in "AB":
        duellum.render(make_view(side))
    cold = _ms(time.process_time() - t0) / 2
    if args.warm:
        for view in views:
            duellum.render(view)

    render_ms: list[float] = []
    encode_ms: list[float] = []
    pillow_ms: list[float] = []
    sizes: list[int] = []
    for view in views:
        t = time.process_time()
        data = duellum.render(view)
        render_ms.append(_ms(time.process_time() - t))
        sizes.append(len(data))

        canvas = duellum.board_image(view)  # the same final canvas, drawn again untimed
        t = time.process_time()
        base.encode_board(canvas, duellum.palette_kind(view))
        encode_ms.append(_ms(time.process_time() - t))

        t = time.process_time()
        canvas.save(io.BytesIO(), "PNG")
        pillow_ms.append(_ms(time.process_time() - t))

    render_med = statistics.median(render_ms)
    encode_med = statistics.median(encode_ms)
    ratio = render_med / encode_med
    info = base.STATIC_LAYERS.info()
    print(f"board {duellum.WIDTH} px wide (height grows with the view), {len(views)} varied views (sides A and B)")
    print(f"cold first render (builds the map base): {cold:.1f} ms per side")
    print(f"caches {'warmed by drawing every view once' if args.warm else 'cold for each new view'}")
    print(f"CPU time per image; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"render median: {render_med:.1f} ms   (p90 {statistics.quantiles(render_ms, n=10)[-1]:.1f} ms)")
    print(
        f"encode median: {encode_med:.1f} ms   (palette of {base.BOARD_COLOURS} colours, deflate level "
        f"{base.BOARD_ZLIB_LEVEL})"
    )
    print(f"ratio render/encode: {ratio:.2f}")
    print(f"drawing only (render - encode): {render_med - encode_med:.1f} ms")
    print(f"PNG size median: {statistics.median(sizes) / 1024:.0f} KiB, max {max(sizes) / 1024:.0f} KiB")
    print(f"reference: Pillow PNG encoder (default settings) median {statistics.median(pillow_ms):.1f} ms")
    print(f"static layer cache: {info.builds} builds, {info.hits} hits")
    ok = render_med < TARGET_MS and ratio <= TARGET_RATIO and max(sizes) <= SIZE_TARGET_KIB * 1024
    targets = f"median < {TARGET_MS:.0f} ms, ratio <= {TARGET_RATIO:.0f}, PNG <= {SIZE_TARGET_KIB} KiB"
    print(f"targets ({targets}): {'met' if ok else 'MISSED'}")
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
