"""Board images: render from engine views and cache the PNG in Redis with a TTL.

Why a render-through cache: the render task pre-warms the image right after a commit, but a
delivery must never depend on that task having run (a lost task would lose the board), so
anyone who needs the image renders it if it is missing. Views only: the renderer never sees a
full state, so a public image cannot contain private information.
"""

from __future__ import annotations

import json
import logging
import time

import renderer
from engine import find_game
from workers import metrics
from workers.store import IMAGE_TTL, Store, k_image

log = logging.getLogger(__name__)


def board_png(store: Store, gid: str, version: int | None = None) -> bytes | None:
    """The public board image of ``gid`` at ``version`` (default: the current one)."""
    return _cached(store, gid, version, "public", None)


def private_png(store: Store, gid: str, seat: int) -> bytes | None:
    """The private image of ``seat`` (e.g. its hand) at the current version, or None."""
    return _cached(store, gid, None, f"seat{seat}", seat)


def _cached(store: Store, gid: str, version: int | None, who: str, seat: int | None) -> bytes | None:
    """Render-through cache shared by both images: the PNG of ``who`` at ``version`` from
    Redis, else drawn from the view of ``seat`` (``None``: the spectator view) and stored."""
    meta = store.meta(gid)
    if not meta or meta.get("status") == "lobby":
        return None
    if version is None:
        version, _ = store.snapshot(gid)
    key = k_image(gid, version, who)
    cached = store.r.get(key)
    if cached:
        return bytes(cached)
    snap = store.snapshot_at(gid, version)
    if snap is None:
        return None
    game = find_game(meta["game"])
    state = game.load(json.loads(snap))
    view = game.view(state, seat)
    # Who plays each seat (the engine knows only the sides): the board names the players,
    # e.g. the winner on the final board. Seats without a stored name get "".
    names = store.names(gid)
    if names:
        view["player_names"] = [names.get(str(s), "") for s in range(len(game.seat_names(state)))]
    started = time.perf_counter()
    try:
        png = renderer.render(game.id, view) if seat is None else renderer.render_private(game.id, view)
        metrics.RENDER_SECONDS.labels(game.id, "board" if seat is None else "private").observe(
            time.perf_counter() - started
        )
    except Exception:
        log.exception("rendering the %s image of %s v%s failed", who, gid, version)
        return None
    if png is not None:
        store.r.set(key, png, ex=IMAGE_TTL, nx=True)
    return png


def page_pngs(store: Store, gid: str, version: int | None = None) -> list[bytes]:
    """The public pages of ``gid`` at ``version`` that follow the board in a turn post (one
    per city in The Capitals; empty for most games), cached like the board.

    Cache layout: ``k_image(gid, version, "pages")`` holds how many pages there are, and
    ``k_image(gid, version, "page1")``… each page, so a game without pages costs one small key.

    Failures behave like the board's: a store error propagates (the outbox keeps the turn
    pending and retries it); a drawing failure is logged and gives no pages, so a renderer bug
    never blocks a chat's outbox — the turn is posted with its board alone.
    """
    meta = store.meta(gid)
    if not meta or meta.get("status") == "lobby":
        return []
    if version is None:
        version, _ = store.snapshot(gid)
    count_key = k_image(gid, version, "pages")
    known = store.r.get(count_key)
    if known is not None:
        n = int(known)
        if n == 0:
            return []
        cached = store.r.mget([k_image(gid, version, f"page{i}") for i in range(1, n + 1)])
        if all(cached):
            return [bytes(c) for c in cached]
    snap = store.snapshot_at(gid, version)
    if snap is None:
        return []
    game = find_game(meta["game"])
    state = game.load(json.loads(snap))
    view = game.view(state, None)
    names = store.names(gid)
    if names:  # as on the board: the pages name the players
        view["player_names"] = [names.get(str(s), "") for s in range(len(game.seat_names(state)))]
    started = time.perf_counter()
    try:
        pages = renderer.render_pages(game.id, view)
        metrics.RENDER_SECONDS.labels(game.id, "pages").observe(time.perf_counter() - started)
    except Exception:
        log.exception("rendering the pages of %s v%s failed", gid, version)
        return []
    pipe = store.r.pipeline()
    for i, png in enumerate(pages, 1):
        pipe.set(k_image(gid, version, f"page{i}"), png, ex=IMAGE_TTL)
    pipe.set(count_key, str(len(pages)), ex=IMAGE_TTL)  # last: the count promises the pages exist
    pipe.execute()
    return pages
