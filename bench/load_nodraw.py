"""Plug-in for bench/bench_load.py (``--boards delivery``): the move task does not draw the
board of the turn it posted, so the outbox consumer draws it (once) in its own process. For
comparing where boards are best drawn; production draws them in the worker."""

from __future__ import annotations

from typing import Any

from celery import signals


@signals.worker_init.connect
def _no_draw(**_: Any) -> None:
    from workers import tasks

    tasks.draw_board = lambda *_a, **_k: None  # type: ignore[assignment]
