"""Plug-in for tests/workers/test_render_worker.py (``AGORA_PLUGINS``): every public board a
process draws appends ``<pid> start`` and ``<pid> done`` to the file ``AGORA_DRAW_LOG`` names,
so a test sees which process drew; ``AGORA_DRAW_SLEEP`` seconds of sleep before drawing give a
test the time to SIGKILL a render worker mid-drawing. Both unset: nothing changes."""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from typing import Any

import renderer

_original = renderer.render


def _note(what: str) -> None:
    path = os.environ.get("AGORA_DRAW_LOG")
    if path:
        with open(path, "a") as fh:
            fh.write(f"{os.getpid()} {what}\n")


def render(game_id: str, view: Mapping[str, Any]) -> bytes:
    _note("start")
    time.sleep(float(os.environ.get("AGORA_DRAW_SLEEP") or 0))
    png = _original(game_id, view)
    _note("done")
    return png


renderer.render = render
