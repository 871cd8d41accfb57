"""Plug-in for bench/bench_load.py: turns the board images off in the processes that load it
(``AGORA_PLUGINS=bench.load_noimages``), to measure a move's cost without images.

Why ``images._draw`` and not only the renderer: a view is built only to be drawn (7 Wonders'
table view was ~4% of the outbox consumer's CPU with the renderer alone turned off). The
replacement still drops the drawing's claim, as a failed drawing does, so nobody waits for
an image that is not coming."""

from __future__ import annotations

from typing import Any

import renderer
from workers import images
from workers.store import k_image


def _none(*_: Any, **__: Any) -> None:
    return None


def _no_drawing(store: Any, game: Any, state: Any, gid: str, version: int, who: str, *_: Any, **__: Any) -> None:
    store.r.delete(k_image(gid, version, who) + ":drawing")


renderer.render = _none  # type: ignore[assignment]
renderer.render_private = _none  # type: ignore[assignment]
renderer.render_pages = lambda *_, **__: []  # type: ignore[assignment]
images._draw = _no_drawing  # type: ignore[assignment]
