"""Deadlines and reminders from a sorted set swept by Celery beat.

Why a sweep instead of ``eta`` tasks: long ``eta`` tasks are redelivered past the broker's
visibility timeout and lost on restarts (research/anchors-platform.md §8). The deadline lives
in the game record and is mirrored into ``agora:deadlines``; the sweeper re-checks the game
version before acting and de-duplicates reminders with set-if-absent keys, so a restart, a
second beat or a re-run task does nothing twice.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass

import redis

from engine import EngineError
from workers import pipeline, timing
from workers.pipeline import Rejected
from workers.store import K_DEADLINES, Store, k_meta, k_outbox
from workers.timing import SAFETY

log = logging.getLogger(__name__)
REMIND_TTL = 30 * 86400


def due(store: Store, now: float, limit: int = 200) -> list[str]:
    """Game ids whose next reminder or timeout is due (at most ``limit``, earliest first)."""
    return [g.decode() for g in store.r.zrangebyscore(K_DEADLINES, "-inf", now, start=0, num=limit)]


@dataclass(frozen=True, slots=True)
class SweepAction:
    """What the sweep decided for one game (for logs and tests)."""

    gid: str
    kind: str  # "auto", "timeout", "remind", "none", "drop"
    seats: tuple[int, ...] = ()


def process(
    store: Store,
    gid: str,
    now: float,
    *,
    run_auto: Callable[[str, int, int], None],
    submit_timeout: Callable[[str, int, str, str], None],
) -> SweepAction:
    """Handle one due game: wake automatic players, apply timeouts, send reminders, and move
    the index to the game's next due time.

    Everything is re-read from the game record and re-checked here, so a stale index entry,
    a second sweeper or a restarted one does nothing twice: timeouts carry the version in
    their idempotency key, reminders are claimed with a set-if-absent key per step, seat and
    lead time, and the index is moved only while the game is still at the version read.
    """
    try:
        loaded = pipeline.load(store, gid)
    except Rejected:
        store.r.zrem(K_DEADLINES, gid)
        return SweepAction(gid, "drop")
    if loaded.meta.get("status") != "active":
        store.r.zrem(K_DEADLINES, gid)
        return SweepAction(gid, "drop")
    game, state, meta = loaded.game, loaded.state, loaded.meta
    movers = sorted(game.to_move(state))
    autos = tuple(s for s in movers if loaded.automatic(s))
    safety = float(meta.get("safety_at") or 0)
    kind, acted = "none", []
    if autos and (not safety or now >= safety):
        # The safety net only: a lost ``auto`` task must not stall the game. Humans' clocks
        # are untouched by it (issue 9 item 1).
        _set_safety(store, gid, loaded.version, now + SAFETY)
        for seat in autos:
            run_auto(gid, seat, loaded.version)
        kind, acted = "auto", list(autos)
    paused = bool(meta.get("paused_at"))
    for seat in movers:
        if seat in autos or paused:
            continue
        user = loaded.seats[seat]
        settings = store.user(user)
        clock = timing.seat_clock(meta, seat, settings, now)
        if clock.away_until and now < clock.away_until:
            continue
        if clock.deadline is not None and now >= clock.deadline:
            try:
                action = game.on_timeout(state, seat)
                text = game.notation(state, seat, action)
            except EngineError:
                log.exception("on_timeout failed for %s seat %s", gid, seat)
                continue
            submit_timeout(gid, seat, text, timeout_key(loaded.version, seat))
            kind, acted = ("timeout" if kind != "auto" else kind), [*acted, seat]
            continue
        due_now = [key for key, at in clock.reminders if at <= now]
        if not due_now:
            continue
        turn_v = meta.get("turn_v", "")
        sent = pipeline.sent_leads(store, gid, turn_v, seat, due_now)
        fresh = [k for k in due_now if k not in sent]
        if not fresh:
            continue
        # Several leads due at once (the sweeper was down): one reminder, the latest; the
        # claim on the latest key decides which sweeper sends it.
        latest = fresh[-1]
        if store.r.set(pipeline.k_remind_lead(gid, turn_v, seat, latest), "1", nx=True, ex=REMIND_TTL):
            for k in fresh[:-1]:
                store.r.set(pipeline.k_remind_lead(gid, turn_v, seat, k), "1", ex=REMIND_TTL)
            left = (clock.deadline - now) if clock.deadline is not None else None
            _remind(store, loaded, seat, user, left, latest)
            if kind == "none":
                kind = "remind"
            acted.append(seat)
    nxt = pipeline.index_time(store, gid, meta, loaded.seats, frozenset(movers), now)
    _reindex(store, gid, loaded.version, nxt, now)
    return SweepAction(gid, kind, tuple(acted))


def timeout_key(version: int, seat: int) -> str:
    """The idempotency key of a timeout: it names the version whose deadline was missed."""
    return f"timeout:{version}:{seat}"


def version_of_key(idem: str) -> int | None:
    """The version named by a :func:`timeout_key` (None for any other key)."""
    kind, _, rest = idem.partition(":")
    number = rest.partition(":")[0]
    return int(number) if kind == "timeout" and number.isascii() and number.isdigit() else None


def _remind(store: Store, loaded: pipeline.Loaded, seat: int, user: str, left: float | None, lead: str) -> None:
    """Queue a reminder on the user's own platform (the outbox of the user key's platform)."""
    platform = user.split(":", 1)[0]
    _, chat = loaded.home
    msg = {
        "type": "reminder",
        "game": loaded.gid,
        "user": user,
        "seat": seat,
        "version": loaded.version,
        "turn_v": loaded.meta.get("turn_v", ""),
        "chat": chat,
        "home": loaded.meta.get("home", ""),
        "seconds_left": None if left is None else round(left),
        "hours_left": 0.0 if left is None else round(max(left, 0) / 3600, 1),
        "lead": lead,
        "key": f"{loaded.gid}:{loaded.meta.get('turn_v', loaded.version)}:reminder:{seat}:{lead}",
    }
    store.r.xadd(k_outbox(platform), {"m": json.dumps(msg)}, maxlen=100000, approximate=True)


def _set_safety(store: Store, gid: str, version: int, at: float) -> None:
    with store.r.pipeline() as pipe:
        try:
            pipe.watch(k_meta(gid))
            if int(pipe.hget(k_meta(gid), "version") or 0) != version:
                return
            pipe.multi()
            pipe.hset(k_meta(gid), "safety_at", f"{at:.3f}")
            pipe.execute()
        except redis.WatchError:
            return


def _reindex(store: Store, gid: str, version: int, nxt: float | None, now: float, ahead: float = 1.0) -> None:
    """Move the index to the next due time, only if the game did not move meanwhile (a
    commit since then wrote its own). A time still due is pushed a second ahead, so a sweep
    loop cannot spin on an entry whose task has not run yet."""
    with store.r.pipeline() as pipe:
        try:
            pipe.watch(k_meta(gid))
            if int(pipe.hget(k_meta(gid), "version") or 0) != version:
                return
            pipe.multi()
            if nxt is None:
                pipe.zrem(K_DEADLINES, gid)
            else:
                pipe.zadd(K_DEADLINES, {gid: max(nxt, now + ahead) if ahead else nxt})
            pipe.execute()
        except redis.WatchError:
            return


def sweep_due(store: Store, now: float, handle: Callable[[str], object], *, limit: int = 200) -> int:
    """One sweep: take due entries ``limit`` at a time until none is due, so its cost grows
    with what is due, not with the number of games. An entry handled in this sweep but still
    due (its game moved meanwhile) waits for the next sweep instead of looping."""
    seen: set[str] = set()
    while True:
        batch = [g for g in due(store, now, limit + len(seen)) if g not in seen]
        if not batch:
            return len(seen)
        for gid in batch[:limit]:
            seen.add(gid)
            handle(gid)


def quiet_end(user: dict[str, str], now: float) -> float | None:
    """End of the user's quiet hours if ``now`` falls inside them, else None (see timing)."""
    return timing.quiet_end(user, now)


def rebuild_index(store: Store, now: float | None = None) -> int:
    """Rebuild the sorted set from the game records (on the sweeper's start, after a data
    restore, and as ``agora deadlines rebuild``): every active game's next due time, computed
    exactly as a commit computes it. Returns how many games have one."""
    now = store.now() if now is None else now
    count = 0
    for key in store.r.scan_iter(match="agora:g:*:meta", count=500):
        gid = key.decode().split("{", 1)[1].split("}", 1)[0]
        if store.r.hget(key, "status") != b"active":
            store.r.zrem(K_DEADLINES, gid)
            continue
        try:
            loaded = pipeline.load(store, gid)
        except Exception:  # a game this process cannot load (a plug-in not installed here)
            log.exception("could not load %s while rebuilding the deadline index", gid)
            continue
        movers = loaded.game.to_move(loaded.state)
        nxt = pipeline.index_time(store, gid, loaded.meta, loaded.seats, movers, now)
        # Guarded like the sweep: a commit or clock change meanwhile wrote its own entry.
        _reindex(store, gid, loaded.version, nxt, now, ahead=0.0)
        count += nxt is not None
    return count
