"""Deadlines and reminders from a sorted set swept by Celery beat.

Why a sweep instead of ``eta`` tasks: long ``eta`` tasks are redelivered past the broker's
visibility timeout and lost on restarts (research/anchors-platform.md §8). The deadline lives
in the game record and is mirrored into its partition's ``agora:{pNN}:deadlines``; the sweeper re-checks the game
version before acting and de-duplicates reminders with set-if-absent keys, so a restart, a
second beat or a re-run task does nothing twice.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import redis

from engine import EngineError
from workers import pipeline, timing
from workers.pipeline import Rejected
from workers.store import PARTITIONS, Store, gid_of_key, k_deadlines, k_deadlines_in, k_meta, k_outbox
from workers.timing import SAFETY

log = logging.getLogger(__name__)
REMIND_TTL = 30 * 86400
TIMEOUT_RETRY = 30.0  # seconds before a submitted timeout is submitted again (a lost task)


def due(store: Store, now: float, limit: int = 200) -> list[str]:
    """Game ids whose next reminder or timeout is due (at most ``limit``, earliest first,
    over every partition's index)."""
    pipe = store.r.pipeline(transaction=False)
    for part in range(PARTITIONS):
        pipe.zrangebyscore(k_deadlines_in(part), "-inf", now, start=0, num=limit, withscores=True)
    entries = sorted(((at, g.decode()) for rows in pipe.execute() for g, at in rows))
    return [g for _, g in entries[:limit]]


def scheduled(store: Store) -> dict[str, float]:
    """Every index entry, game id -> due time (tests, metrics and the rebuild's report)."""
    pipe = store.r.pipeline(transaction=False)
    for part in range(PARTITIONS):
        pipe.zrange(k_deadlines_in(part), 0, -1, withscores=True)
    return {g.decode(): float(at) for rows in pipe.execute() for g, at in rows}


def scheduled_count(store: Store) -> int:
    """How many games have an index entry (the sum of the partitions' sizes)."""
    pipe = store.r.pipeline(transaction=False)
    for part in range(PARTITIONS):
        pipe.zcard(k_deadlines_in(part))
    return int(sum(pipe.execute()))


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
        store.r.zrem(k_deadlines(gid), gid)
        return SweepAction(gid, "drop")
    if loaded.meta.get("status") != "active":
        store.r.zrem(k_deadlines(gid), gid)
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
    timed_out: set[int] = set()
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
            _observe_lag(store.now() - clock.deadline)
            kind, acted = ("timeout" if kind != "auto" else kind), [*acted, seat]
            timed_out.add(seat)
            continue
        due_now = [key for key, at in clock.reminders if at <= now]
        if not due_now:
            continue
        turn_v = meta.get("turn_v", "")
        sent = pipeline.sent_leads(store, gid, turn_v, seat, due_now)
        fresh = [k for k in due_now if k not in sent]
        if not fresh:
            continue
        # Decision: every lead is sent once, even late (after an outage of the sweeper both
        # may be due at once): a restart must lose none. Each is claimed by its own key, so a
        # second sweeper sends none of them again.
        for lead in fresh:
            if store.r.set(pipeline.k_remind_lead(gid, turn_v, seat, lead), "1", nx=True, ex=REMIND_TTL):
                left = (clock.deadline - now) if clock.deadline is not None else None
                _remind(store, loaded, seat, user, left, lead)
                _observe_lag(store.now() - dict(clock.reminders)[lead])
                if kind == "none":
                    kind = "remind"
                if seat not in acted:
                    acted.append(seat)
    others = frozenset(s for s in movers if s not in timed_out)
    nxt = pipeline.index_time(store, gid, meta, loaded.seats, others, now)
    if timed_out:
        # The timeout's commit writes the next entry; this one only re-tries a lost task. Not
        # every sweep: a backlog of unapplied timeouts would be enqueued again each second.
        nxt = min(nxt, now + TIMEOUT_RETRY) if nxt is not None else now + TIMEOUT_RETRY
    _reindex(store, gid, loaded.version, nxt, now)
    return SweepAction(gid, kind, tuple(acted))


def _observe_lag(seconds: float) -> None:
    """The metric of how late a reminder or timeout left the sweep (best effort)."""
    try:
        from workers.metrics import REMINDER_LAG

        REMINDER_LAG.observe(max(0.0, seconds))
    except Exception:  # pragma: no cover - a metric must never cost a reminder
        log.debug("could not record the reminder lag", exc_info=True)


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
    store.r.xadd(k_outbox(platform, loaded.gid), {"m": json.dumps(msg)}, maxlen=100000, approximate=True)


def _set_safety(store: Store, gid: str, version: int, at: float) -> None:
    with store.r.pipeline(transaction=True) as pipe:
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
    with store.r.pipeline(transaction=True) as pipe:
        try:
            pipe.watch(k_meta(gid))
            if int(pipe.hget(k_meta(gid), "version") or 0) != version:
                return
            pipe.multi()
            if nxt is None:
                pipe.zrem(k_deadlines(gid), gid)
            else:
                pipe.zadd(k_deadlines(gid), {gid: max(nxt, now + ahead) if ahead else nxt})
            pipe.execute()
        except redis.WatchError:
            return


# Take up to ARGV[2] entries due by ARGV[1] and move them to ARGV[3] (a lease) in one step,
# so concurrent sweepers split the due entries instead of all working through the same ones.
_CLAIM_LUA = """
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for _, id in ipairs(ids) do redis.call('ZADD', KEYS[1], ARGV[3], id) end
return ids
"""
LEASE = 30.0  # seconds: a claimed entry whose sweeper died is taken again after this


def claim(store: Store, now: float, limit: int = 200, lease: float = LEASE) -> list[str]:
    """Due game ids, each leased to this sweeper until ``now + lease`` (processing it writes
    the game's real next time; a crashed sweeper's entries come back after the lease).

    Every partition's index is claimed from (one script per partition, pipelined: one round
    trip per node); at most ``limit`` per partition. Decision: no leases of whole partitions -
    a claim is already a lease per entry, so any number of sweepers share every partition
    safely, and a dead sweeper's partitions need no hand-over."""
    pipe = store.r.pipeline(transaction=False)
    for part in range(PARTITIONS):
        # EVAL by name: redis-py's cluster pipeline has no eval() method but routes the
        # command by its key like any other
        key = k_deadlines_in(part)
        pipe.execute_command("EVAL", _CLAIM_LUA, 1, key, repr(now), str(limit), repr(now + lease), **store.routed(key))
    return [g.decode() if isinstance(g, bytes) else str(g) for ids in pipe.execute() for g in ids]


def sweep_due(store: Store, now: float, handle: Callable[[str], object], *, limit: int = 200) -> int:
    """One sweep: claim due entries ``limit`` at a time until none is due, so its cost grows
    with what is due, not with the number of games, and two sweepers share the work. An entry
    handled in this sweep and due again at once waits for the next sweep instead of looping."""
    seen: set[str] = set()
    while True:
        batch = [g for g in claim(store, now, limit) if g not in seen]
        if not batch:
            return len(seen)
        for gid in batch:
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
    from workers import layout

    layout.migrate(store)
    for key in _scan(store, "agora:{p*}:g:*:meta"):
        gid = gid_of_key(key)
        if store.r.hget(key, "status") != b"active":
            store.r.zrem(k_deadlines(gid), gid)
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


def _scan(store: Store, pattern: str) -> Iterator[str]:
    """Keys matching ``pattern`` on every master (a cluster client scans each node)."""
    for key in store.r.scan_iter(match=pattern, count=500):
        yield key.decode() if isinstance(key, bytes) else str(key)
