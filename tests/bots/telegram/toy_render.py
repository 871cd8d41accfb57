"""Test plug-in: the toy game's board image, so toy-game tests exercise the photo path.

Why: ``renderer.render`` knows only the real games and raises for the test-only toy; without
an image every toy turn would be text-only and the board-photo delivery (multipart upload,
captions, keyboard on a photo) would go untested until the real engines exist. Loaded in the
test process and, through ``AGORA_PLUGINS``, in the test's Celery worker. The toy's card is
the renderer's own generic status card drawn from the public view.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import renderer
from renderer.fallback import render_fallback

_real_render = renderer.render


def render(game_id: str, view: Mapping[str, Any]) -> bytes:
    if game_id == "toy":
        return render_fallback("toy", "Toy race", view)
    if game_id == "steps":
        return render_fallback("steps", "Steps", view)
    return _real_render(game_id, view)


if getattr(renderer.render, "__module__", "") != __name__:
    renderer.render = render
