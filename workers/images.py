"""Board images: render from engine views and cache the PNG in Redis with a TTL.

Why a render-through cache: the render task pre-warms the image right after a commit, but a
delivery must never depend on that task having run (a lost task would lose the board), so
anyone who needs the image renders it if it is missing. Views only: the renderer never sees a
full state, so a public image cannot contain private information.
"""

from __future__ import annotations

import json
import logging

import renderer
from engine import find_game
from workers.store import Store, k_image

IMAGE_TTL = 7 * 86400
log = logging.getLogger(__name__)


def board_png(store: Store, gid: str, version: int | None = None) -> bytes | None:
    """The public board image of ``gid`` at ``version`` (default: the current one)."""
    meta = store.meta(gid)
    if not meta or meta.get("status") == "lobby":
        return None
    if version is None:
        version, _ = store.snapshot(gid)
    key = k_image(gid, version, "public")
    cached = store.r.get(key)
    if cached:
        return bytes(cached)
    snap = store.snapshot_at(gid, version)
    if snap is None:
        return None
    game = find_game(meta["game"])
    state = game.load(json.loads(snap))
    try:
        png = renderer.render(game.id, game.view(state, None))
    except Exception:
        log.exception("rendering %s v%s failed", gid, version)
        return None
    store.r.set(key, png, ex=IMAGE_TTL, nx=True)
    return png


def private_png(store: Store, gid: str, seat: int) -> bytes | None:
    """The private image of ``seat`` (e.g. its hand) at the current version, or None."""
    meta = store.meta(gid)
    if not meta or meta.get("status") == "lobby":
        return None
    version, snap = store.snapshot(gid)
    key = k_image(gid, version, f"seat{seat}")
    cached = store.r.get(key)
    if cached:
        return bytes(cached)
    if snap is None:
        return None
    game = find_game(meta["game"])
    state = game.load(json.loads(snap))
    try:
        png = renderer.render_private(game.id, game.view(state, seat))
    except Exception:
        log.exception("rendering the private image of %s seat %s failed", gid, seat)
        return None
    if png is not None:
        store.r.set(key, png, ex=IMAGE_TTL, nx=True)
    return png
