"""The one move pipeline: load -> authorize -> parse -> apply -> commit -> follow-ups.

Why one function for every change (typed move, button, timeout, automatic player): the
checks, the optimistic-concurrency commit and the outbox messages are then identical for all
of them, so "accepted" always means committed, and a race or a redelivery can never apply a
move twice (ARCHITECTURE.md, "One move pipeline").

Concurrency: the commit compares the version read at load time. When another move won the
race, the commit answers ``stale`` and this move is re-validated against the new state
(parsed and applied again), so nothing is lost and nothing stale is applied.
Idempotency: the caller's key (the platform's update or interaction id) is checked inside the
same atomic step; a second submission with the same key returns the first one's result, or,
once that answer left the game's window of answers, "applied already" (the hashes of the
game's newest 1,024 committed keys are kept: workers.commit).

Why this module is small: the parts of a move live in modules named after them - the answer
(:mod:`workers.results`), the read of a game (:mod:`workers.loading`), the commit of a step
(:mod:`workers.committing`) and what it sends and schedules (:mod:`workers.plan`). Their
names are re-exported here, so ``from workers.pipeline import Loaded, MoveResult`` and
``pipeline.load`` work as they always did.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from engine import EngineError
from workers import metrics
from workers.committing import commit_step
from workers.loading import BOT, Loaded, automatic, display_names, load, loaded_from
from workers.logs import log_context
from workers.plan import (
    Plan,
    clock_meta,
    index_time,
    k_remind_lead,
    plan_after_step,
    sent_leads,
    turn_posts,
)
from workers.results import MoveResult, Rejected
from workers.store import Store
from workers.typed_moves import read_typed

__all__ = [
    "BOT", "Loaded", "MoveResult", "Plan", "Rejected", "automatic", "clock_meta", "display_names", "index_time",
    "k_remind_lead", "load", "plan_after_step", "sent_leads", "submit", "turn_posts",
]  # fmt: skip

log = logging.getLogger(__name__)

MAX_RACES = 25


def submit(store: Store, gid: str, **kwargs: Any) -> MoveResult:
    """Apply one move given as chat text, exactly once (see :func:`_submit` for the arguments).

    Every line logged while it runs names the game and the seat; the answer is counted in the
    process's metrics by result code."""
    started = time.perf_counter()
    source = str(kwargs.get("source", "player"))
    with log_context(game=gid, seat=kwargs.get("seat")):
        result = _submit(store, gid, **kwargs)
    elapsed = time.perf_counter() - started
    code = "duplicate" if result.duplicate else result.code
    metrics.observe_move(code, source, elapsed)
    # The move's text is not logged: in a game with hidden choices it is private.
    with log_context(game=gid, seat=result.seat):
        log.info("%s move answered %s at version %s in %.1f ms", source, code, result.version, elapsed * 1000)
    return result


def _submit(
    store: Store,
    gid: str,
    *,
    text: str,
    idem: str,
    user: str | None = None,
    seat: int | None = None,
    source: str = "player",
    after_commit: Callable[[Loaded, MoveResult], None] | None = None,
    before_commit: Callable[[], None] | None = None,
    at_version: int | None = None,
    typed: str = "",
) -> MoveResult:
    """Apply one move given as chat text, exactly once.

    Args:
        user: the platform user key (``telegram:42``); authorizes and picks the seat.
        seat: act for this seat directly (automatic player, timeouts); skips the user check.
        source: ``player``, ``auto`` or ``timeout`` (kept in the log).
        typed: the command word a player typed before ``text`` (``move``, ``play``): the
            text is then read as :func:`workers.typed_moves.read_typed` reads it. Empty for a
            pressed button, an automatic player or a timeout (their text is notation).
        after_commit: called once after a successful commit (render, notifications, bots).
        at_version: timeouts: act only while the game is at this version or its deadline is
            still past; otherwise answer ``pipeline/moved_on`` and change nothing.
    """
    # The first load also reads the key's stored answer (one round trip): a redelivered or
    # repeated submission returns it before any engine call.
    record, prev = store.move_record(gid, idem)
    if prev is not None:
        res = MoveResult.from_json(prev)
        res.duplicate = True
        return res
    for attempt in range(MAX_RACES):
        try:
            loaded = loaded_from(gid, record) if attempt == 0 else load(store, gid)
        except Rejected as exc:
            return MoveResult(False, exc.code, exc.message)
        if loaded.meta.get("status") == "over":
            return MoveResult(False, "action/game_over", "This game is over; no more moves are accepted.")
        if at_version is not None and loaded.version != at_version and not _deadline_passed(loaded, store.now()):
            return MoveResult(False, "pipeline/moved_on", "The game moved on; nothing was done.", loaded.version)
        acting = _acting_seat(loaded, user, seat)
        if isinstance(acting, MoveResult):
            return _earlier_answer(store, gid, idem) or acting
        game, state = loaded.game, loaded.state
        try:
            action = read_typed(game, state, acting, text, typed)[0] if typed else game.parse(state, acting, text)
            notation = game.notation(state, acting, action)
            secret = game.private_action(state, acting, action)
            step = game.apply(state, acting, action)
        except EngineError as exc:
            refusal = MoveResult(False, exc.code, exc.user_message, loaded.version, acting)
            return _earlier_answer(store, gid, idem) or refusal
        if before_commit:
            before_commit()
        result = commit_step(store, loaded, acting, notation, step, idem, source, secret=secret)
        if result is None:
            continue  # lost a race: re-validate against the new state
        if after_commit and not result.duplicate:
            after_commit(loaded, result)
        return result
    return MoveResult(False, "store/busy", "The game is very busy right now; please send your move again.")


def _earlier_answer(store: Store, gid: str, idem: str) -> MoveResult | None:
    """The stored answer of a copy of this request that committed while this one was loading.

    Why: two copies of one request (a client retry, a double tap) can arrive together; the
    first passes the early key check and commits, the second passes it too, then loads the
    state the first produced and finds its move illegal or out of turn. Telling the player
    "refused" for a move that was applied is wrong, so a refusal re-checks the key first.
    The same holds for a copy sent again long after (its answer out of the window): the
    game's record of committed keys answers it "applied already" (``Store.earlier_answer``)."""
    if not idem:
        return None
    prev = store.earlier_answer(gid, idem)
    if prev is None:
        return None
    res = MoveResult.from_json(prev)
    res.duplicate = True
    return res


def _deadline_passed(loaded: Loaded, now: float) -> bool:
    deadline = loaded.meta.get("deadline_at")
    return bool(deadline) and now >= float(deadline or 0)


def _acting_seat(loaded: Loaded, user: str | None, seat: int | None) -> int | MoveResult:
    if seat is not None:
        return seat
    mine = loaded.seats_of(user or "")
    if not mine:
        return MoveResult(False, "auth/not_a_player", "You are not playing in this game.", loaded.version)
    movers = loaded.game.to_move(loaded.state)
    ready = [s for s in mine if s in movers]
    return ready[0] if ready else mine[0]
