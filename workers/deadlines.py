"""Deadlines and reminders from a sorted set swept by Celery beat.

Why a sweep instead of ``eta`` tasks: long ``eta`` tasks are redelivered past the broker's
visibility timeout and lost on restarts (research/anchors-platform.md §8). The deadline lives
in the game record and is mirrored into ``agora:deadlines``; the sweeper re-checks the game
version before acting and de-duplicates reminders with set-if-absent keys, so a restart, a
second beat or a re-run task does nothing twice.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

import redis

from engine import EngineError
from workers import pipeline
from workers.pipeline import BOT, Rejected
from workers.store import K_DEADLINES, Store, k_meta, k_outbox, k_remind

log = logging.getLogger(__name__)
REMIND_TTL = 30 * 86400


def due(store: Store, now: float, limit: int = 200) -> list[str]:
    """Game ids whose next reminder or timeout is due."""
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
    """Handle one due game: wake automatic players, apply timeouts, or send reminders."""
    try:
        loaded = pipeline.load(store, gid)
    except Rejected:
        store.r.zrem(K_DEADLINES, gid)
        return SweepAction(gid, "drop")
    if loaded.meta.get("status") != "active":
        store.r.zrem(K_DEADLINES, gid)
        return SweepAction(gid, "drop")
    game, state = loaded.game, loaded.state
    movers = sorted(game.to_move(state))
    bots = tuple(s for s in movers if loaded.seats.get(s, BOT) == BOT)
    if bots:
        store.r.zadd(K_DEADLINES, {gid: now + 15.0})
        for seat in bots:
            run_auto(gid, seat, loaded.version)
        return SweepAction(gid, "auto", bots)
    deadline = float(loaded.meta.get("deadline_at") or 0)
    remind = float(loaded.meta.get("remind_at") or 0)
    if deadline and now >= deadline:
        for seat in movers:
            try:
                action = game.on_timeout(state, seat)
                text = game.notation(state, seat, action)
            except EngineError:
                log.exception("on_timeout failed for %s seat %s", gid, seat)
                continue
            submit_timeout(gid, seat, text, timeout_key(loaded.version, seat))
        return SweepAction(gid, "timeout", tuple(movers))
    if remind and now >= remind:
        # Each awaited player is reminded once (set-if-absent key); one in quiet hours is
        # postponed to the end of them without holding back the others.
        sent = []
        postponed = []
        for seat in movers:
            user = loaded.seats.get(seat, BOT)
            if user == BOT or store.r.exists(k_remind(gid, loaded.version, seat)):
                continue
            quiet_until = quiet_end(store.user(user), now)
            if quiet_until is not None:
                postponed.append(quiet_until)
                continue
            if store.r.set(k_remind(gid, loaded.version, seat), "1", nx=True, ex=REMIND_TTL):
                hours_left = max(0.0, (deadline - now) / 3600) if deadline else 0.0
                _remind(store, gid, loaded.version, seat, user, hours_left)
                sent.append(seat)
        _reschedule(store, gid, loaded.version, remind_at=min(postponed, default=None), deadline=deadline)
        return SweepAction(gid, "remind" if sent else "none", tuple(sent))
    # Nothing due any more (the index was ahead of the record): re-mirror it.
    nxt = min([t for t in (deadline, remind) if t] or [0])
    if nxt:
        store.r.zadd(K_DEADLINES, {gid: nxt})
    else:
        store.r.zrem(K_DEADLINES, gid)
    return SweepAction(gid, "none")


def timeout_key(version: int, seat: int) -> str:
    """The idempotency key of a timeout: it names the version whose deadline was missed."""
    return f"timeout:{version}:{seat}"


def version_of_key(idem: str) -> int | None:
    """The version named by a :func:`timeout_key` (None for any other key)."""
    kind, _, rest = idem.partition(":")
    number = rest.partition(":")[0]
    return int(number) if kind == "timeout" and number.isascii() and number.isdigit() else None


def _remind(store: Store, gid: str, version: int, seat: int, user: str, hours_left: float) -> None:
    import json

    platform = user.split(":", 1)[0]
    msg = {
        "type": "reminder",
        "game": gid,
        "user": user,
        "seat": seat,
        "version": version,
        "hours_left": round(hours_left, 1),
        "key": f"{gid}:{version}:reminder:{seat}",
    }
    store.r.xadd(k_outbox(platform), {"m": json.dumps(msg)}, maxlen=100000, approximate=True)


def _reschedule(store: Store, gid: str, version: int, *, remind_at: float | None, deadline: float) -> None:
    """Move the index to the next due time, only if the game did not move meanwhile."""
    with store.r.pipeline() as pipe:
        try:
            pipe.watch(k_meta(gid))
            if int(pipe.hget(k_meta(gid), "version") or 0) != version:
                return
            pipe.multi()
            if remind_at is None:
                pipe.hdel(k_meta(gid), "remind_at")
            else:
                pipe.hset(k_meta(gid), "remind_at", f"{remind_at:.3f}")
            # The earlier of the postponed reminder and the deadline: a reminder pushed past
            # the end of quiet hours must not push the timeout with it.
            nxt = min([t for t in (remind_at, deadline) if t] or [0]) or None
            if nxt:
                pipe.zadd(K_DEADLINES, {gid: nxt})
            else:
                pipe.zrem(K_DEADLINES, gid)
            pipe.execute()
        except redis.WatchError:
            return


def quiet_end(user: dict[str, str], now: float) -> float | None:
    """End of the user's quiet hours if ``now`` falls inside them, else None.

    ``quiet`` is ``"22-8"`` (local hours) and ``tz`` an offset in hours (``"+2"``); all
    internal times are UTC and only this function looks at local time.
    """
    quiet = user.get("quiet")
    if not quiet or "-" not in quiet:
        return None
    try:
        start, end = (int(x) % 24 for x in quiet.split("-", 1))
        offset = float(user.get("tz", "0") or 0)
    except ValueError:
        return None
    local = (now / 3600 + offset) % 24
    inside = start <= local < end if start < end else (local >= start or local < end)
    if not inside:
        return None
    wait = (end - local) % 24
    return now + wait * 3600


def rebuild_index(store: Store) -> int:
    """Re-mirror every active game's deadline into the sorted set (after a data restore)."""
    count = 0
    for key in store.r.scan_iter(match="agora:g:*:meta", count=500):
        meta = {k.decode(): v.decode() for k, v in store.r.hgetall(key).items()}
        gid = key.decode().split("{", 1)[1].split("}", 1)[0]
        times = [float(meta[f]) for f in ("deadline_at", "remind_at") if meta.get(f)]
        if meta.get("status") == "active" and times:
            store.r.zadd(K_DEADLINES, {gid: min(times)})
            count += 1
    return count
