"""Celery tasks. Arguments are ids and short strings; every task is idempotent.

Why these guarantees: tasks are acknowledged late and may run twice (redelivery after a
crash, a retried publish); a move carries its idempotency key into the atomic commit, and
follow-ups (automatic players, renders) re-check the game version first, so a second run
changes nothing. Retries happen only on transient Redis errors, never on rule errors (those
are results the player sees).
"""

from __future__ import annotations

import functools
import logging
import os
import threading
import time
import zlib
from typing import Any

import redis
from celery.signals import beat_init

from workers import deadlines, images, pipeline
from workers.celery_app import app
from workers.pipeline import Loaded, MoveResult, Rejected
from workers.store import Store

log = logging.getLogger(__name__)
TRANSIENT = (redis.ConnectionError, redis.TimeoutError)
_store: Store | None = None


def store() -> Store:
    """One store per worker process, built from the store URL (the broker's when unset)."""
    global _store
    if _store is None:
        _store = Store.from_url(str(app.conf.get("agora_store_url") or app.conf.broker_url))
    return _store


REPR_MAX = 1024  # Celery's ``argsrepr_maxsize``: longer arguments are left to its saferepr


def reprs(args: Any, kwargs: Any = None) -> dict[str, str]:
    """``argsrepr`` / ``kwargsrepr`` options for ``apply_async``: the plain ``repr``, which is
    what Celery's ``saferepr`` makes of short strings and numbers, at a fraction of its cost
    (it walks the arguments token by token: ~5% of an adapter's CPU per move, issue 12).
    Empty (Celery's own) when one is long enough to be truncated."""
    a, k = repr(args), repr(kwargs or {})
    return {"argsrepr": a, "kwargsrepr": k} if len(a) <= REPR_MAX and len(k) <= REPR_MAX else {}


def _fault(point: str) -> None:
    """Test hook for crash tests: ``AGORA_FAULT=before_commit:5`` (or ``after_commit:5``) sleeps
    at that point so a test can SIGKILL the worker mid-move. With ``AGORA_FAULT_MARKER=<file>``
    a line ``<point> <pid>`` is appended to that file first, so the test knows the task got
    there. Both unset in production."""
    spec = os.environ.get("AGORA_FAULT", "")
    name, _, seconds = spec.partition(":")
    if name == point:
        marker = os.environ.get("AGORA_FAULT_MARKER")
        if marker:
            with open(marker, "a") as fh:
                fh.write(f"{point} {os.getpid()}\n")
        time.sleep(float(seconds or 5))


def follow_up(loaded: Loaded, result: MoveResult) -> None:
    """After a commit: pre-warm the board image and wake automatic players.

    ``AGORA_SKIP_KICK=1`` turns this off (benchmarks only: measures a move without the
    follow-up tasks competing for the same worker)."""
    if os.environ.get("AGORA_SKIP_KICK"):
        return
    # Only when there is something to do (an automatic player to wake, a finished game to
    # archive): a kick for a plain step cost a task and five round trips. A posted turn's
    # board is drawn by the task itself once the mover has the answer (``draw_board``).
    if result.follow:
        _kick_later(loaded.gid)


def _posted(result: MoveResult) -> Loaded | None:
    """The game as a commit left it when the commit posted a turn whose board is to be drawn."""
    if not result.ok or result.duplicate or not result.board or result.after is None:
        return None
    return None if os.environ.get("AGORA_SKIP_KICK") else result.after


def claim_board(st: Store, result: MoveResult) -> bool:
    """Claim the drawing of the board a move posted for a render worker, before the mover's
    answer goes out (True: claimed; queue it with :func:`draw_board`). One round trip.

    Why before the answer: the outbox consumer is woken by the commit itself and, when it got
    to the board first, drew it in the adapter's process (4% of the boards in bench_load with
    the claim made after the answer). Never raises: without the claim the consumer draws."""
    loaded = _posted(result)
    if loaded is None or not render_workers():
        return False
    try:
        return images.hand_over(st, loaded.gid, loaded.version)
    except Exception:
        log.warning("could not claim the board of %s for a render worker", loaded.gid, exc_info=True)
        return False


def draw_board(st: Store, result: MoveResult, claimed: bool | None = None) -> None:
    """Have the board of a turn the move posted drawn, right after its commit (and its answer):
    queued for a render worker (see :func:`draw_or_queue`; ``claimed``: what
    :func:`claim_board` returned, None: claim it now), or drawn here without one."""
    loaded = _posted(result)
    if loaded is not None:
        draw_or_queue(st, loaded, claimed)


# Decision: a queued drawing not started within a minute is dropped by the render worker. By
# then the outbox consumer has needed the board (it draws on a miss after HANDOFF_MS), so after
# an outage of the render worker its backlog is skipped instead of worked off in full.
RENDER_EXPIRES = 60.0


def draw_or_queue(st: Store, loaded: Loaded, claimed: bool | None = None) -> None:
    """The board of a posted turn (``loaded``: the game as the commit left it), drawn off the
    move path.

    With render workers (``AGORA_RENDER_WORKERS`` > 0, the default): claim the drawing for them
    (``images.hand_over``) and queue ``agora.render`` on the ``render`` queue, two round trips;
    the moves queued on this worker no longer wait 60-360 ms behind a render (issue 12). The
    outbox consumer waits for that claim at most ``images.HANDOFF_MS``, then draws itself: a
    dead, absent or backlogged render worker delays boards, never loses one; and once claims
    lapse repeatedly, nothing is claimed or queued for ``images.BEHIND_SECONDS`` (the consumer
    draws at once, the render queue drains or, with none running, stops growing). Without render
    workers (0): drawn here (``images.prewarm``), as small deployments did before.
    ``claimed``: whether the caller claimed it already (None: claim it here).
    Never raises: the consumer draws the board itself when this fails."""
    try:
        if not render_workers():
            images.prewarm(st, loaded)
        elif claimed or (claimed is None and images.hand_over(st, loaded.gid, loaded.version)):
            try:
                args = (loaded.gid, loaded.version, time.time())
                render.apply_async(args, expires=RENDER_EXPIRES, **reprs(args))
            except Exception:
                images.release(st, loaded.gid, loaded.version)
                raise
    except TRANSIENT:
        log.warning("could not draw the board of %s now; its delivery draws it", loaded.gid)
    except Exception:
        log.exception("drawing the board of %s failed", loaded.gid)


def render_workers() -> int:
    """``AGORA_RENDER_WORKERS`` (validated by the settings at start; read per call so a test
    can switch it)."""
    return _parse_count(os.environ.get("AGORA_RENDER_WORKERS", ""))


@functools.lru_cache(maxsize=8)
def _parse_count(raw: str) -> int:
    from workers import settings

    return settings.load({"AGORA_RENDER_WORKERS": raw} if raw else {}).agora_render_workers


def _kick_later(gid: str) -> None:
    """Queue ``kick`` for a committed move; a failure to queue it is logged, never raised.

    Why: the move is committed; raising here failed the task, and the player was told "your
    move was not applied" for a move that was (found by the fault suite when the store
    restarted between the commit and this publish). What ``kick`` does is not lost: automatic
    players are woken by their safety deadline, and the board is drawn when it is delivered."""
    try:
        kick.delay(gid)
    except Exception:
        log.warning("could not queue the follow-up of %s; its safety deadline will wake it", gid, exc_info=True)


@app.task(name="agora.move", autoretry_for=TRANSIENT, retry_backoff=True, max_retries=5)
def move(
    gid: str, user: str, text: str, idem: str, reply_to: str = "", rid: str = "", typed: str = ""
) -> dict[str, Any] | None:
    """A player's move as typed text (or a pressed button's notation).

    A duplicate (the key was already committed: a redelivery after a crash between the commit
    and the acknowledgement) kicks the game again: the first run may have died before its
    follow-ups were sent, and ``kick`` is idempotent (it re-checks the version).
    ``typed``: the command word typed before the text (``move``, ``play``; see
    :func:`workers.typed_moves.read_typed`), empty for a button's notation.
    With ``reply_to`` the answer goes to that client's mailbox as ``rid`` (see
    ``Store.post_answer``; such moves are sent without a Celery result) and the task returns
    None. Why: Celery makes a ``saferepr`` of every return value for its success log line
    whether or not that line is logged or the result kept, about a tenth of a move's worker
    CPU for an answer nobody reads there (issue 12); and the log line no longer carries the
    move's text, private in a game with hidden choices.
    """
    st = store()
    earlier = _applied_before(st, gid, idem)
    if earlier is not None:
        if reply_to:
            st.post_answer(reply_to, rid, earlier.to_json())
            return None
        return earlier.to_json()
    try:
        result = pipeline.submit(
            st,
            gid,
            text=text,
            idem=idem,
            user=user,
            after_commit=follow_up,
            before_commit=_before_commit,
            typed=typed,
        )
    except TRANSIENT:
        raise  # retried: the retry answers
    except Exception:
        if reply_to:
            failed = MoveResult(False, "internal", "Something went wrong on our side; your move was not applied.")
            st.post_answer(reply_to, rid, failed.to_json())
        raise
    claimed = claim_board(st, result)
    if reply_to:
        st.post_answer(reply_to, rid, result.to_json())
    draw_board(st, result, claimed)
    if result.duplicate and result.ok and not os.environ.get("AGORA_SKIP_KICK"):
        _kick_later(gid)
    if result.ok and not result.duplicate:
        _fault("after_commit")  # crash tests: committed, not yet acknowledged
    return None if reply_to else result.to_json()


def _applied_before(st: Store, gid: str, idem: str) -> MoveResult | None:
    """For a redelivered (or retried) move only: its answer when the game's log already holds
    its key although the idempotency window no longer does.

    Why: the window keeps the answers of the newest moves only, but a worker killed between
    the commit and the acknowledgement gets its message back after the visibility timeout
    (300 s), and a busy table makes more moves than the window holds in that time; the copy
    was then applied a second time when its move was legal again (found by the fault suite,
    tests/faults). Reading the log costs one read of the game's record, paid only on the rare
    redelivery. Any request with a committed key, redelivered or new, is also answered
    "applied already" by the pipeline (the game's record of key hashes, ``Store.commit``);
    this answer names the move, and covers keys committed before that record existed."""
    request = move.request
    info = request.delivery_info or {}
    if not idem or not (info.get("redelivered") or request.retries):
        return None
    if st.idem_result(gid, idem) is not None:
        return None  # inside the window: the commit answers it with the stored answer
    try:
        entries = st.log(gid)
    except Exception:
        log.warning("could not read the log of %s to check a redelivered move", gid, exc_info=True)
        return None
    for entry in reversed(entries):
        if entry.get("k") == idem:
            log.warning("a redelivered move of %s was applied before; not applying it again", gid)
            version = int(st.meta(gid).get("version") or 0)
            return MoveResult(
                True, "ok", "Your move was applied already.", version, entry.get("s"), str(entry.get("t", "")),
                duplicate=True,
            )  # fmt: skip
    return None


def _before_commit() -> None:
    _fault("before_commit")


@app.task(name="agora.kick", autoretry_for=TRANSIENT, retry_backoff=True, max_retries=5, ignore_result=True)
def kick(gid: str) -> None:
    """Render the current board (if it is a posted turn) and start automatic players."""
    st = store()
    try:
        loaded = pipeline.load(st, gid)
    except Rejected:
        return
    if loaded.meta.get("status") == "active":
        for seat in sorted(loaded.game.to_move(loaded.state)):
            if loaded.automatic(seat):
                auto.delay(gid, seat, loaded.version)
    if loaded.meta.get("posted_v") == str(loaded.version):
        draw_or_queue(st, loaded)  # a no-op when drawn already (the claim finds the image)
    if loaded.meta.get("status") == "over":
        st.archive(gid)


@app.task(name="agora.auto", autoretry_for=TRANSIENT, retry_backoff=True, max_retries=5, ignore_result=True)
def auto(gid: str, seat: int, version: int) -> None:
    """The automatic player's move for ``seat`` if the game is still at ``version``."""
    st = store()
    try:
        loaded = pipeline.load(st, gid)
    except Rejected:
        return
    if loaded.version != version or not loaded.automatic(seat) or loaded.meta.get("status") != "active":
        return
    game = loaded.game
    if seat not in game.to_move(loaded.state):
        return
    seed = zlib.crc32(f"{gid}:{version}:{seat}".encode())
    action = game.auto_action(loaded.state, seat, seed)
    text = game.notation(loaded.state, seat, action)
    idem = f"auto:{version}:{seat}"
    draw_board(st, pipeline.submit(st, gid, text=text, idem=idem, seat=seat, source="auto", after_commit=follow_up))


@app.task(name="agora.render", autoretry_for=TRANSIENT, retry_backoff=True, max_retries=3, ignore_result=True)
def render(gid: str, version: int, at: float | None = None) -> None:
    """Draw the public board of a posted turn and its pages (queue ``render``: the render
    workers only). Idempotent: a drawn or claimed board is left alone, and one whose post will
    go out merged into a newer one is skipped (``images.draw_posted``; ``at``: when it was
    queued, None from a task queued before that existed)."""
    images.draw_posted(store(), gid, int(version), None if at is None else float(at))


@app.task(name="agora.timeout", autoretry_for=TRANSIENT, retry_backoff=True, max_retries=5, ignore_result=True)
def timeout(gid: str, seat: int, text: str, idem: str) -> None:
    """Apply a missed deadline's default move (once: the key names the version).

    Only while the game is still at that version, or its deadline is still past (the other
    seats of a simultaneous step): a late or redelivered timeout must not play for a player
    who has moved since and has a fresh deadline.
    """
    result = pipeline.submit(
        store(),
        gid,
        text=text,
        idem=idem,
        seat=seat,
        source="timeout",
        after_commit=follow_up,
        at_version=deadlines.version_of_key(idem),
    )
    draw_board(store(), result)


@app.task(name="agora.sweep", ignore_result=True)
def sweep() -> int:
    """Beat job: handle every game whose reminder or timeout is due."""
    st = store()
    now = st.now()

    def handle(gid: str) -> None:
        try:
            deadlines.process(
                st,
                gid,
                now,
                run_auto=lambda g, s, v: auto.delay(g, s, v),
                submit_timeout=lambda g, s, t, k: timeout.delay(g, s, t, k),
            )
        except TRANSIENT:
            raise
        except Exception:  # one broken game must not stop the sweep of the others
            log.exception("sweeping %s failed", gid)

    return deadlines.sweep_due(st, now, handle)


@beat_init.connect
def _rebuild_on_start(**_: Any) -> None:
    """The index is a mirror: rebuild it from the game records whenever the sweeper starts."""
    if os.environ.get("AGORA_REBUILD_ON_START", "1") == "0":  # benchmarks that measure it apart
        log.warning("deadline index rebuilt: skipped (AGORA_REBUILD_ON_START=0)")
        return

    def rebuild() -> None:
        try:
            n = deadlines.rebuild_index(store())
            log.warning("deadline index rebuilt: %d games scheduled", n)
        except Exception:
            log.exception("could not rebuild the deadline index; the sweep goes on with the stored one")

    # In a thread: with many games a rebuild takes minutes, and sweeps of the stored index
    # must go on meanwhile (each entry it rewrites is guarded by the game's record).
    threading.Thread(target=rebuild, name="rebuild-deadlines", daemon=True).start()


@app.task(name="agora.noop")
def noop(x: int = 0) -> int:
    """Baseline task for the pipeline benchmark (a Celery round trip doing nothing)."""
    return x
