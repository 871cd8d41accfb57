"""Committing one applied step: the log entry, the answer, the meta and what follows, in the
store's one atomic commit.

Why a module of its own: this is where a move the engine accepted becomes "accepted" for
the player - the missed-deadline bookkeeping of the acting seat, the plan of messages and
deadlines, and the commit that checks the version and the idempotency key - apart from the
loop that loads, authorizes and retries (:mod:`workers.pipeline`).
"""

from __future__ import annotations

import json
import logging
from typing import Any

from engine import Event, private, public
from workers.loading import Loaded, automatic, display_names
from workers.plan import plan_after_step
from workers.results import MoveResult
from workers.store import LOG_CHUNK, Store
from workers.timing import DEFAULT_MISSES

log = logging.getLogger("workers.pipeline")  # its lines are the pipeline's, as before the split


def commit_step(
    store: Store,
    loaded: Loaded,
    seat: int,
    notation: str,
    step: Any,
    idem: str,
    source: str,
    *,
    secret: bool = False,
) -> MoveResult | None:
    game = loaded.game
    new_state = step.state
    events: list[Event] = list(step.events)
    outcome = game.outcome(new_state)
    now = store.now()
    seat_meta = _seat_meta(store, loaded, seat, notation, source, secret, events)
    at = Loaded(loaded.gid, {**loaded.meta, **seat_meta}, game, loaded.version, loaded.state, loaded.seats)
    plan = plan_after_step(store, at, new_state, events, now, acting=seat)
    meta: dict[str, Any] = {"updated_at": f"{now:.3f}", **seat_meta, **plan.meta}
    if outcome is not None:
        meta["status"] = "over"
        meta["result"] = json.dumps(outcome.to_json())
    result = MoveResult(
        True,
        "ok",
        f"Done: {notation}.",
        0,
        seat,
        notation,
        events=[e.to_json() for e in events if e.visible_to(seat)],
        over=outcome is not None,
        public_move=not secret,
    )
    committed = store.commit(
        loaded.gid,
        expected=loaded.version,
        idem=idem,
        snapshot=game.dumps(new_state),
        log_entry={"s": seat, "t": notation, "u": int(step.undoable), "k": idem, "src": source, "at": int(now)},
        events={"v": loaded.version + 1, "s": seat, "events": [e.to_json() for e in events]},
        meta=meta,
        deadline=plan.deadline,
        result=result.to_json(),
        outgoing=plan.outgoing,
        keep_snapshot=plan.keep_snapshot,
        game=loaded.game.id,
    )
    if committed.status == "stale":
        return None
    out = MoveResult.from_json(committed.data)
    out.duplicate = committed.status == "dup"
    after_meta = {**loaded.meta, **meta}
    out.follow = outcome is not None or any(automatic(after_meta, loaded.seats, s) for s in game.to_move(new_state))
    out.board = "posted_v" in plan.meta
    flat = {k: str(v) for k, v in after_meta.items() if v is not None}
    out.after = Loaded(loaded.gid, flat, game, out.version, new_state, loaded.seats)
    if not out.duplicate and out.version % LOG_CHUNK == 0:
        try:
            store.compact_log(loaded.gid)
        except Exception:  # storage housekeeping: a failure must not cost the move
            log.warning("could not compact the log of %s", loaded.gid, exc_info=True)
    return out


def _seat_meta(
    store: Store, loaded: Loaded, seat: int, notation: str, source: str, secret: bool, events: list[Event]
) -> dict[str, Any]:
    """Missed-deadline bookkeeping of the acting seat, and what the table and the player are
    told when a timeout played for them (issue: a pick "typed by nobody" must say so).

    A player's own move clears the count of consecutive misses (and ends autopilot); a timeout
    adds one, and at the table's limit (``miss_limit``, default 2) the seat goes on autopilot
    until ``back`` or the player's own move.
    """
    key = f"misses:{seat}"
    if source == "player":
        if loaded.meta.get(f"auto:{seat}") == "1":
            # Decision: a player who moves for their own seat on autopilot is back, as with `back`.
            name = display_names(store, loaded)[seat]
            events.append(
                public(f"👋 {name} is back and plays again; the automatic player steps aside.", kind="autopilot")
            )
            return {key: None, f"auto:{seat}": None}
        return {key: None} if loaded.meta.get(key) else {}
    if source != "timeout":
        return {}
    name = display_names(store, loaded)[seat]
    misses = int(float(loaded.meta.get(key) or 0)) + 1
    limit = int(float(loaded.meta.get("miss_limit") or DEFAULT_MISSES))
    shown = "a move was made for them" if secret else f"`{notation}` was played for them"
    events.append(public(f"⌛ Time ran out for {name}; {shown}.", kind="timeout"))
    events.append(
        private(seat, f"⌛ Your time ran out in `{loaded.gid}`, so `{notation}` was played for you.", kind="timeout")
    )
    out: dict[str, Any] = {key: misses}
    if limit > 0 and misses >= limit:
        out[f"auto:{seat}"] = "1"
        events.append(
            public(
                f"🤖 {name} missed {misses} deadlines in a row: the automatic player takes the seat "
                "until they type `back`.",
                kind="autopilot",
            )
        )
    return out
