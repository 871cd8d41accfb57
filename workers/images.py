"""Board images: render from engine views and cache the PNG in Redis with a TTL.

Why a render-through cache: the render task pre-warms the image right after a commit, but a
delivery must never depend on that task having run (a lost task would lose the board), so
anyone who needs the image renders it if it is missing. Views only: the renderer never sees a
full state, so a public image cannot contain private information.
"""

from __future__ import annotations

import contextlib
import json
import logging
import time
from typing import TYPE_CHECKING, Any

import renderer
from engine import AnyGame, find_game
from workers import metrics
from workers.outbox import MERGE_AFTER
from workers.store import IMAGE_TTL, P, Store, k_image, k_meta, k_names

if TYPE_CHECKING:
    from workers.pipeline import Loaded

log = logging.getLogger(__name__)
DRAWING_TTL = 10  # seconds one process may hold the drawing of an image (see ``_claim``)
# Seconds a process waits for an image another one claimed before drawing it itself. Why shorter
# than the claim: a board takes 30–260 ms to draw, so a claim still there after this is most
# likely a killed process's (a consumer SIGKILLed mid-drawing); waiting out its DRAWING_TTL held
# the whole delivery batch for 10 s while the game went on (found by the fault suite). A second
# drawing of one board now and then is the cheaper mistake.
DRAWING_WAIT = 2.0
# The claim a move worker leaves for the render worker it queues a drawing for (``hand_over``),
# and how long it holds. Why a claim before the task runs: the outbox consumer is woken by the
# same commit and would otherwise often claim first and draw in the adapter's process (its GIL:
# every command of the chat waits). Why short, and shorter than DRAWING_WAIT: with the render
# worker dead, or its queue backlogged, the consumer waits at most this long, then draws itself.
# Decision: 400 ms. A render worker keeping up takes the claim over within ~100 ms (p99 of a
# board at 24 moves/s on 2 cores); one that is behind does not take it for seconds, and every
# board then waited out the whole claim before the consumer drew it. At ~100 moves/s of
# Duellum (bench_load --think 2) 1 s gave boards p50 1.0 / p99 2.1 s, 400 ms 0.36 / 1.0-1.2 s
# with as many boards drawn by the consumer; 250 ms 0.25 / 0.8 s but a quarter of the
# 7 Wonders boards went to the consumer (the bot's own process) instead of ~1%.
HANDOFF_MS = 400
HANDOFF = b"queued"  # the claim's value while the drawing waits in the render queue
RENDERING = b"render"  # ... once a render worker took it over (a consumer's claim is b"1")
# Set (for BEHIND_SECONDS) once processes saw BEHIND_LAPSES hand-overs lapse within that time:
# no render worker took the drawing within HANDOFF_MS (none runs, or its queue is backlogged).
# While it is set, move workers neither claim nor queue boards, so the consumer draws them at
# once instead of waiting out each claim, and the render queue drains (or stops growing when
# none runs). Decision: 3 lapses in 5 s, then 5 s; after that boards test the render workers
# again. Why not one lapse: a render worker a second late once (a burst of boards, a busy
# machine) then sent some 40 boards to the adapter's process in bench_load.
RENDER_BEHIND = f"{P}render:behind"
RENDER_LAPSES = f"{P}render:lapses"
BEHIND_SECONDS = 5
BEHIND_LAPSES = 3


def board_png(
    store: Store,
    gid: str,
    version: int | None = None,
    state: Any = None,
    *,
    game: AnyGame | None = None,
    names: dict[str, str] | None = None,
) -> bytes | None:
    """The public board image of ``gid`` at ``version`` (default: the current one).

    ``state``: the game at ``version``, when the caller has it in hand (a turn post). Then a
    cache miss draws from it instead of reading the snapshot again, which a commit may have
    pruned meanwhile (a post older than ``POSTED_KEPT`` newer ones went out without its board).
    ``game`` and ``names``: the running game and its seats' names, when the caller read them
    already (a turn post reads both with its record): two round trips fewer per post (issue 12)."""
    return _cached(store, gid, version, "public", None, state, game=game, names=names)


def private_png(store: Store, gid: str, seat: int) -> bytes | None:
    """The private image of ``seat`` (e.g. its hand) at the current version, or None."""
    return _cached(store, gid, None, f"seat{seat}", seat)


def _cached(
    store: Store,
    gid: str,
    version: int | None,
    who: str,
    seat: int | None,
    state: Any = None,
    *,
    game: AnyGame | None = None,
    names: dict[str, str] | None = None,
) -> bytes | None:
    """Render-through cache shared by both images: the PNG of ``who`` at ``version`` from
    Redis, else drawn from the view of ``seat`` (``None``: the spectator view) of ``state``
    (default: the snapshot of ``version``) and stored. ``game``: given by a caller that knows
    the game is running (its meta is not read again); ``names``: the seats' names, likewise."""
    if game is None:
        meta = store.meta(gid)
        if not meta or meta.get("status") == "lobby":
            return None
        game = find_game(meta["game"])
    if version is None:
        version, _ = store.snapshot(gid)
    key = k_image(gid, version, who)
    cached = store.r.get(key)
    if cached:
        return bytes(cached)
    if not _claim(store, key):
        drawn = _drawn_elsewhere(store, key)
        if drawn is not None:
            return drawn
        # Claim it now that the other's claim lapsed (a render worker that never took over its
        # hand-over): a render task that arrives later then finds it taken and draws nothing.
        _claim(store, key)
    if state is None:
        snap = store.snapshot_at(gid, version)
        if snap is None:
            return None
        state = game.load(json.loads(snap))
    names = store.names(gid) if names is None else names
    return _draw(store, game, state, gid, version, who, seat, names, by="on_demand")


def _claim(store: Store, key: str) -> bool:
    """Take the drawing of image ``key`` (True), or learn that another process draws it.

    Why: right after a turn is committed, the ``kick`` task's pre-warm and the outbox
    consumer (woken by the new message at once) both missed the cache and drew the same board
    (issue 12: a render is the biggest cost of a move). Whoever claims draws; the other waits
    for the image."""
    return bool(store.r.set(key + ":drawing", "1", nx=True, ex=DRAWING_TTL))


def _drawn_elsewhere(store: Store, key: str) -> bytes | None:
    """The image another process is drawing, once it is stored (None: it did not come within
    ``DRAWING_WAIT``, e.g. that process died; the caller draws it then)."""
    deadline = time.monotonic() + DRAWING_WAIT
    delay = 0.01
    held = None
    while time.monotonic() < deadline:
        time.sleep(delay)
        pipe = store.r.pipeline(transaction=False)
        pipe.get(key)
        pipe.get(key + ":drawing")
        png, drawing = pipe.execute()
        if png:
            return bytes(png)
        if not drawing:
            if held == HANDOFF:  # no render worker took it over in time: count it (see RENDER_BEHIND)
                _lapsed(store)
            return None
        held = drawing
        delay = min(delay * 2, 0.1)
    return None


def _lapsed(store: Store) -> None:
    """One hand-over lapsed: count it, and tell the move workers to stop handing boards over
    for a while once ``BEHIND_LAPSES`` did within ``BEHIND_SECONDS``. Counted in
    ``agora_render_handover_lapses_total`` too: an operator sees boards drawn in a bot's process
    (the fallback) instead of by the render workers, and adds render workers."""
    metrics.RENDER_LAPSES.inc()
    pipe = store.r.pipeline(transaction=False)
    pipe.set(RENDER_LAPSES, 0, ex=BEHIND_SECONDS, nx=True)  # the window starts with its first lapse
    pipe.incr(RENDER_LAPSES)
    _, lapses = pipe.execute()
    if int(lapses) >= BEHIND_LAPSES:
        pipe = store.r.pipeline(transaction=False)
        pipe.set(RENDER_BEHIND, "1", ex=BEHIND_SECONDS)
        pipe.delete(RENDER_LAPSES)
        pipe.execute()
        log.warning("the render workers lag behind (or none runs); boards are drawn here for %s s", BEHIND_SECONDS)


def prewarm(store: Store, loaded: Loaded) -> None:
    """Draw the public board of a just-loaded game (a posted turn) into the cache, unless it
    is there: one round trip to look, one to store, no second read of the game.

    Why apart from :func:`board_png`: that one re-reads the meta and the snapshot, which the
    caller (the ``kick`` task after a move) has just read. The pages that follow the board in
    a turn post (The Capitals' cities) are drawn next, for the games that have them."""
    key = k_image(loaded.gid, loaded.version, "public")
    pipe = store.r.pipeline(transaction=False)
    pipe.exists(key)
    pipe.set(key + ":drawing", "1", nx=True, ex=DRAWING_TTL)
    pipe.hgetall(k_names(loaded.gid))
    there, mine, raw = pipe.execute()
    if not there and mine:  # else drawn already, or being drawn by the outbox consumer
        names = {k.decode(): v.decode() for k, v in raw.items()}
        _draw(store, loaded.game, loaded.state, loaded.gid, loaded.version, "public", None, names, by="move_worker")
    if renderer.has_pages(loaded.game.id):
        page_pngs(store, loaded.gid, loaded.version)


def hand_over(store: Store, gid: str, version: int) -> bool:
    """Claim the public board of ``gid`` at ``version`` for a render worker (True: queue its
    drawing now), unless it is drawn already, someone draws it, or the render workers lag
    behind (``RENDER_BEHIND``: the consumer draws it then, without waiting). One round trip
    (two while they lag: the claim is dropped again).

    The claim lapses after ``HANDOFF_MS``; a render worker that takes the drawing renews it
    (:func:`draw_posted`), and the outbox consumer waits for it meanwhile."""
    key = k_image(gid, version, "public")
    pipe = store.r.pipeline(transaction=False)
    pipe.exists(key)
    pipe.exists(RENDER_BEHIND)
    pipe.set(key + ":drawing", HANDOFF, nx=True, px=HANDOFF_MS)
    there, behind, mine = pipe.execute()
    if mine and behind:
        store.r.delete(key + ":drawing")
        return False
    return bool(mine) and not there


def release(store: Store, gid: str, version: int) -> None:
    """Drop the hand-over claim of a drawing that could not be queued (the consumer draws at
    once instead of waiting it out); never raises."""
    try:
        key = k_image(gid, version, "public") + ":drawing"
        if store.r.get(key) == HANDOFF:
            store.r.delete(key)
    except Exception:
        log.debug("could not release the claim of %s v%s", gid, version, exc_info=True)


def draw_posted(store: Store, gid: str, version: int, at: float | None = None) -> bool:
    """The render worker's drawing of a posted turn: the public board of ``gid`` at ``version``
    and its pages, loaded once (True: drawn here).

    ``at``: when the turn was posted. A post older than ``outbox.MERGE_AFTER`` whose game has
    posted a newer turn goes out merged into that one, with that one's board
    (:meth:`workers.client_outbox.ClientOutbox._turn`), so its own board is not drawn: a
    backlogged render queue then skips to the boards that will be shown.

    Idempotent and cheap when there is nothing to do (a redelivered task, one the consumer
    overtook while the render queue was backlogged): one round trip finds the board drawn, or
    being drawn by another process, and reads nothing else. The claim is taken over with
    ``SET ... GET`` (one round trip, no script: the image keys and the game's keys sit in
    different Cluster slots): a claim found empty or still the move worker's hand-over is this
    worker's to draw; a consumer's (or another render worker's) is left to it.
    """
    key = k_image(gid, version, "public")
    pipe = store.r.pipeline(transaction=False)
    pipe.exists(key)
    pipe.set(key + ":drawing", RENDERING, ex=DRAWING_TTL, get=True)
    pipe.hgetall(k_names(gid))
    pipe.hmget(k_meta(gid), ["game", "status", "posted_v"])
    there, held, raw, (game_id, status, posted) = pipe.execute()
    if there or held not in (None, HANDOFF):
        return False
    if at is not None and int(posted or 0) > version and time.time() - at > MERGE_AFTER:
        store.r.delete(key + ":drawing")  # nobody waits for a board that will not be shown
        return False
    try:
        snap = store.snapshot_at(gid, version) if game_id and status != b"lobby" else None
        if snap is None:  # gone, or pruned: the consumer draws the post from the game it has
            store.r.delete(key + ":drawing")
            return False
        game = find_game(game_id.decode())
        state = game.load(json.loads(snap))
    except Exception:
        with contextlib.suppress(Exception):
            store.r.delete(key + ":drawing")  # do not make the consumer wait for nothing
        raise
    names = {k.decode(): v.decode() for k, v in raw.items()}
    png = _draw(store, game, state, gid, version, "public", None, names, by="render_worker")
    if png is not None and renderer.has_pages(game.id):
        page_pngs(store, gid, version, state)
    return png is not None


def _draw(
    store: Store,
    game: AnyGame,
    state: Any,
    gid: str,
    version: int,
    who: str,
    seat: int | None,
    names: dict[str, str],
    *,
    by: str,
) -> bytes | None:
    """Render the view of ``seat`` (``None``: the spectator view) and cache it for a while.
    ``by``: who draws it, for ``agora_boards_drawn_total`` (``render_worker``, ``move_worker``,
    or ``on_demand``: whoever needed an image not drawn yet, mostly a bot delivering a post)."""
    key = k_image(gid, version, who)
    view = game.view(state, seat)
    # Who plays each seat (the engine knows only the sides): the board names the players,
    # e.g. the winner on the final board. Seats without a stored name get "".
    if names:
        view["player_names"] = [names.get(str(s), "") for s in range(len(game.seat_names(state)))]
    started = time.perf_counter()
    png: bytes | None = None
    try:
        png = renderer.render(game.id, view) if seat is None else renderer.render_private(game.id, view)
        metrics.RENDER_SECONDS.labels(game.id, "board" if seat is None else "private").observe(
            time.perf_counter() - started
        )
        metrics.BOARDS_DRAWN.labels(by).inc()
    except Exception:
        log.exception("rendering the %s image of %s v%s failed", who, gid, version)
        return None
    finally:
        if png is None:  # nothing to wait for: let a later caller try
            store.r.delete(key + ":drawing")
    if png is None:
        return None
    pipe = store.r.pipeline(transaction=False)
    pipe.set(key, png, ex=IMAGE_TTL, nx=True)
    pipe.delete(key + ":drawing")
    pipe.execute()
    return png


def page_pngs(
    store: Store, gid: str, version: int | None = None, state: Any = None, *, game: AnyGame | None = None
) -> list[bytes]:
    """The public pages of ``gid`` at ``version`` that follow the board in a turn post (one
    per city in The Capitals; empty for most games), cached like the board; ``state`` as in
    :func:`board_png`; ``game``: the running game, when the caller has it (nothing is read
    then for a game without pages).

    Why a game without pages returns at once: it used to read the meta, look for a page count,
    build a view, read the names and store a count of 0 for every turn post (four round trips
    and a view per post for nothing; issue 12).

    Cache layout: ``k_image(gid, version, "pages")`` holds how many pages there are, and
    ``k_image(gid, version, "page1")``… each page, so a game without pages costs one small key.

    Failures behave like the board's: a store error propagates (the outbox keeps the turn
    pending and retries it); a drawing failure is logged and gives no pages, so a renderer bug
    never blocks a chat's outbox — the turn is posted with its board alone.
    """
    if game is not None and not renderer.has_pages(game.id):
        return []
    meta = store.meta(gid)
    if not meta or meta.get("status") == "lobby" or not renderer.has_pages(str(meta.get("game", ""))):
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
    game = game or find_game(meta["game"])
    if state is None:
        snap = store.snapshot_at(gid, version)
        if snap is None:
            return []
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
