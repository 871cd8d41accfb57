"""Plug-in for bench/bench_load.py: turns the board renderer off in the processes that load it
(``AGORA_PLUGINS=bench.load_noimages``), to measure a move's cost without images."""

from __future__ import annotations

from typing import Any

import renderer


def _none(*_: Any, **__: Any) -> None:
    return None


renderer.render = _none  # type: ignore[assignment]
renderer.render_private = _none  # type: ignore[assignment]
