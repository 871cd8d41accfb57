"""Plug-in for bench/bench_load.py: counts this process's Redis round trips (requests sent;
a pipeline or a script is one) and writes the running total to
``$AGORA_BENCH_COUNT_DIR/<pid>`` four times a second (with the board renders and their
seconds), so the benchmark can report round trips
per move across its processes (workers, outbox consumer). Loaded with
``AGORA_PLUGINS=bench.load_count``; without the variable it only counts (``TRIPS``)."""

from __future__ import annotations

import itertools
import os
import threading
import time
from pathlib import Path
from typing import Any

import redis.connection

_sent = itertools.count()
TRIPS = [0]
_original = redis.connection.AbstractConnection.send_packed_command


def _send(self: Any, command: Any, check_health: bool = True) -> None:
    TRIPS[0] = next(_sent) + 1  # itertools.count is atomic under the GIL
    _original(self, command, check_health)


redis.connection.AbstractConnection.send_packed_command = _send  # type: ignore[method-assign]


RENDERS = [0, 0.0]  # board renders in this process, and their seconds


def _count_renders() -> None:
    import renderer

    original = renderer.render

    def render(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            RENDERS[0] += 1
            RENDERS[1] += time.perf_counter() - started

    renderer.render = render  # type: ignore[assignment]


def _report(folder: Path) -> None:
    path = folder / str(os.getpid())
    tmp = folder / f".{os.getpid()}"
    while True:
        tmp.write_text(f"{TRIPS[0]} {RENDERS[0]} {RENDERS[1]:.4f}")
        tmp.replace(path)  # atomic: a reader never sees a half-written file
        time.sleep(0.25)


if os.environ.get("AGORA_BENCH_COUNT_DIR"):
    _count_renders()
    threading.Thread(target=_report, args=(Path(os.environ["AGORA_BENCH_COUNT_DIR"]),), daemon=True).start()
