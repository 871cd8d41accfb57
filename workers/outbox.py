"""The outbox: one Redis Stream per platform and partition, read through a consumer group.

Why streams with a group: a message added in the commit's atomic step is delivered even if
the bot was down at that moment; unacknowledged messages are re-read after a restart (we
read our pending entries first), and a ``sent:{key}`` marker stops a message that was sent
but not yet acknowledged from being sent twice. A game's messages go to its partition's
stream (written in the same commit as the move, workers/commit.py); a consumer reads all 64.
"""

from __future__ import annotations

import heapq
import json
import time
from dataclasses import dataclass
from typing import Any

import redis

from workers.store import PARTITIONS, Store, k_image, k_meta, k_outbox, k_outbox_in, k_sent, k_told

GROUP = "delivery"
SENT_TTL = 14 * 86400
# Decision: a delivered turn post's images stay this long (then a table that still needs them
# draws them again): enough for the game's other tables and for a post resent after a crash.
DELIVERED_IMAGE_TTL = 60
# Decision: a turn post that waited this many seconds in the outbox and whose game has posted a
# newer turn since is not sent on its own: its lines go out with the newer post (and that one's
# board). A delivery that keeps up (every post out within a second) is never merged; one that
# fell behind - Telegram's flood control, a consumer restarting, a burst of moves - catches up
# with one message per table instead of a board per turn nobody can read any more, and skips
# drawing those boards (issue 12: at 200 moves/s the consumer drew boards for posts already
# out of date). One second: above a live delivery's own delay, below a board's 1 s target.
MERGE_AFTER = 1.0


@dataclass(frozen=True, slots=True)
class Envelope:
    """One outbox entry: its stream id, the message, and the partition stream it came from
    (acknowledged there)."""

    id: str
    message: dict[str, Any]
    stream: str = ""

    @property
    def key(self) -> str:
        return str(self.message.get("key") or self.id)


def streams(platform: str) -> list[str]:
    """Every partition's outbox stream of ``platform``."""
    return [k_outbox_in(platform, part) for part in range(PARTITIONS)]


def ensure_group(store: Store, platform: str) -> None:
    """Create the delivery group on every partition stream (once per store object)."""
    ready: set[str] = store.__dict__.setdefault("_outbox_ready", set())
    if platform in ready:
        return
    pipe = store.r.pipeline(transaction=False)
    for key in streams(platform):
        pipe.xgroup_create(key, GROUP, id="0", mkstream=True)
    for res in pipe.execute(raise_on_error=False):
        if isinstance(res, Exception) and "BUSYGROUP" not in str(res):
            raise res
    ready.add(platform)


STALE_MS = 90_000  # an entry fetched by another consumer and untouched this long is orphaned
# Decision: on a cluster (no blocking read over streams of many slots) a consumer looks for new
# entries every 0.1 s: at most that much added delivery latency, ~6 % of a core while idle.
POLL_S = 0.1
# Decision: our own pending entries are re-read at most this many per partition stream.
# Why (issue 12): a read takes up to ``count`` new entries from each of the 64 partitions and
# hands back the oldest ``count``; the rest stay pending and the next fetch re-reads them first.
# With a backlog (a consumer behind its boards), every fetch re-read up to 64 x ``count`` entries
# to hand back ``count``. The first few of each partition are enough: one partition's entries go
# out in order, so only its oldest can be next, and the oldest pending entry of all is always
# among them. New entries are still read ``count`` per partition, so a burst of one game (a
# 7 Wonders turn: the post and a prompt per seat) still goes out in one batch.
PENDING_PER_STREAM = 4
TRIMMED_ROUNDS = 1000  # re-reads in one fetch while only trimmed entries come back (each acks some)


def fetch(store: Store, platform: str, consumer: str, *, count: int = 20, block_ms: int = 1000) -> list[Envelope]:
    """Our pending (delivered but unacked) entries first, then entries a dead consumer left
    behind, then new ones; at most ``count``, over every partition stream, oldest first.

    Why claim: a bot process that died (a crashed container, a renamed pod) leaves the entries
    it had fetched pending under its name forever. A living consumer re-reads its own pending
    entries on every fetch, which keeps them fresh; an entry idle for ``STALE_MS`` belongs to
    nobody alive and is taken over (``XAUTOCLAIM``, partition by partition, at most every
    third of ``STALE_MS``). Its sent marker still prevents a resend when the dead consumer had
    sent it.

    Order: one game's messages share one partition stream, so they come in commit order; the
    partitions' batches are merged by entry id (time). Entries read beyond ``count`` stay
    pending for us and come first next time (the first ``PENDING_PER_STREAM`` of each
    partition, so across partitions a backlog goes out roughly, not strictly, oldest first)."""
    try:
        return _fetch(store, platform, consumer, count, block_ms)
    except redis.ResponseError as exc:
        if "NOGROUP" not in str(exc):
            raise
        store.__dict__.get("_outbox_ready", set()).discard(platform)  # a stream was deleted
        return _fetch(store, platform, consumer, count, block_ms)


def _fetch(store: Store, platform: str, consumer: str, count: int, block_ms: int) -> list[Envelope]:
    ensure_group(store, platform)
    keys = streams(platform)
    for _ in range(TRIMMED_ROUNDS):
        pending = _entries(store, keys, consumer, "0", min(count, PENDING_PER_STREAM), None)
        out = _envelopes(store, pending, count)
        if out:
            return out
        if all(fields for _, _, fields in pending):
            break  # nothing pending; a read of only trimmed entries (acknowledged now) reads on
    claims: dict[str, float] = store.__dict__.setdefault("_outbox_claimed", {})
    now = time.monotonic()
    if now - claims.get(f"{platform}\0{consumer}", -1e9) >= STALE_MS / 3000:
        claims[f"{platform}\0{consumer}"] = now
        pipe = store.r.pipeline(transaction=False)
        for key in keys:
            pipe.xautoclaim(key, GROUP, consumer, STALE_MS, start_id="0-0", count=count)
        entries = [(key, mid, fields) for key, res in zip(keys, pipe.execute(), strict=True) for mid, fields in res[1]]
        out = _envelopes(store, entries, count)
        if out:
            return out
    if not store.cluster:
        return _read(store, keys, consumer, ">", count, block_ms if block_ms > 0 else None)  # BLOCK 0 = forever
    # A cluster cannot block on streams of many slots at once: poll every POLL_S.
    until = time.monotonic() + block_ms / 1000
    while True:
        out = _read(store, keys, consumer, ">", count, None)
        left = until - time.monotonic()
        if out or left <= 0:
            return out
        time.sleep(min(POLL_S, left))


def _read(store: Store, keys: list[str], consumer: str, start: str, count: int, block: int | None) -> list[Envelope]:
    """The oldest ``count`` of :func:`_entries` (up to ``count`` from every stream)."""
    return _envelopes(store, _entries(store, keys, consumer, start, count, block), count)


def _entries(
    store: Store, keys: list[str], consumer: str, start: str, each: int, block: int | None
) -> list[tuple[str, Any, Any]]:
    """XREADGROUP of up to ``each`` entries of every stream, undecoded: one command on one
    server, one per stream (pipelined) on a cluster."""
    if store.cluster:
        pipe = store.r.pipeline(transaction=False)
        for key in keys:
            pipe.execute_command(
                "XREADGROUP", "GROUP", GROUP, consumer, "COUNT", each, "STREAMS", key, start, **store.routed(key)
            )
        resps = [r for r in pipe.execute() if r]
        entries = [(_name(k), mid, f) for resp in resps for k, batch in _items(resp) for mid, f in batch]
    else:
        resp = store.r.xreadgroup(GROUP, consumer, {key: start for key in keys}, count=each, block=block)
        entries = [(_name(k), mid, f) for k, batch in _items(resp) for mid, f in batch]
    return entries


def _items(resp: Any) -> list[tuple[Any, list[Any]]]:
    """The (stream, entries) pairs of an XREADGROUP reply (RESP2 list or RESP3 map)."""
    if not resp:
        return []
    return list(resp.items()) if isinstance(resp, dict) else [(k, v) for k, v in resp]


def _name(key: Any) -> str:
    return key.decode() if isinstance(key, bytes) else str(key)


def _envelopes(store: Store, entries: list[tuple[str, Any, Any]], count: int) -> list[Envelope]:
    """The oldest ``count`` of ``entries`` (from every partition), decoded.

    Why only those are decoded: a read takes up to ``count`` entries from each of the 64
    partition streams, and what is beyond ``count`` stays pending and is read again next
    time. Decoding all of them was about a tenth of a loaded consumer's Python time in a
    profile (issue 12; no change in throughput was measurable, but it was work for nothing)."""
    # A pending entry trimmed from the stream (MAXLEN) comes back without fields; ack it,
    # or it would stay first in our pending list forever and hide the entries behind it.
    for key in {k for k, _, fields in entries if not fields}:
        store.r.xack(key, GROUP, *[mid for k, mid, fields in entries if k == key and not fields])
    oldest = heapq.nsmallest(count, (e for e in entries if e[2]), key=lambda e: _id(e[1]))
    return [Envelope(_name(mid), json.loads(fields[b"m"]), key) for key, mid, fields in oldest]


def age(envelope: Envelope, now: float | None = None) -> float:
    """Seconds since ``envelope`` was added to its stream (its id is the server's time in ms)."""
    try:
        added = int(envelope.id.split("-", 1)[0]) / 1000
    except ValueError:
        return 0.0  # not a stream id (a test's envelope): as if just added
    return max(0.0, (time.time() if now is None else now) - added)


def told_member(message: dict[str, Any]) -> str:
    """The table a turn post goes to, as named in the game's ``told`` record: ``""`` for the
    home chat, ``@platform:chat`` for another table (the suffix of the post's key)."""
    key = str(message.get("key", ""))
    return key.split(":turn", 1)[1] if ":turn" in key else ""


def turn_news(store: Store, message: dict[str, Any]) -> tuple[int, int | None]:
    """(the game's newest posted version, the newest version whose post reached this turn
    post's table or None) - one round trip, for deciding whether a post is merged into a later
    one and where its lines start."""
    gid = str(message.get("game", ""))
    pipe = store.r.pipeline(transaction=False)
    pipe.hget(k_meta(gid), "posted_v")
    pipe.zscore(k_told(gid), told_member(message))
    posted, told = pipe.execute()
    return int(posted or 0), None if told is None else int(told)


def ack(store: Store, platform: str, envelope: Envelope) -> None:
    store.r.xack(_stream_of(platform, envelope), GROUP, envelope.id)


def _stream_of(platform: str, envelope: Envelope) -> str:
    """The stream ``envelope`` was read from (its game's partition stream for an old one)."""
    return envelope.stream or k_outbox(platform, str(envelope.message.get("game") or ""))


def already_sent(store: Store, key: str) -> bool:
    return bool(store.r.exists(k_sent(key)))


def claim(store: Store, key: str, who: str) -> bool:
    """Claim the showing of outbox message ``key`` for ``who``; True when it is ours (first
    claim, or ours before: a retried send).

    Why: the next step of a turn can reach its player two ways, as buttons put in place of a
    pressed keyboard or as the outbox's prompt. Both ways claim first; only the winner shows
    it, so the two never strip each other's buttons."""
    k = f"agora:claim:{key}"
    if store.r.set(k, who, nx=True, ex=SENT_TTL):
        return True
    held = store.r.get(k)
    return held is not None and held.decode() == who


def mark_sent(store: Store, key: str) -> None:
    store.r.set(k_sent(key), "1", ex=SENT_TTL)


def delivered(store: Store, envelope: Envelope, *, shown: bool = True, ack_platform: str | None = None) -> None:
    """The message is in its chat: mark it sent, and let go of what only its delivery needed
    (the snapshot a turn post's board is drawn from). ``shown``: False for a turn post merged
    into a later one (sent as part of it): its table's ``told`` record stays where it was, so
    the later post's lines start after the last post the table did see. ``ack_platform``:
    acknowledge the entry in that platform's stream in the same round trip (after the marker:
    an entry acknowledged is never re-read, so it must be recorded first).

    Why the release only with the first marker: the adapters retry this through a store outage
    (a reply lost after the write), and a message resent after a killed consumer is recorded
    again; each counted the post down once more, dropping the snapshot another table's post of
    the same version still needed. A release lost this way only keeps a snapshot until pruned."""
    m = envelope.message
    turn = m.get("type") == "turn" and bool(m.get("game")) and bool(m.get("version"))
    pages_at = 0
    pipe = store.r.pipeline(transaction=False)
    pipe.set(k_sent(envelope.key), "1", ex=SENT_TTL, nx=True)
    if shown and turn:
        told = k_told(str(m["game"]))
        pipe.zadd(told, {told_member(m): int(m["version"])}, gt=True)  # never back: posts may be re-sent
        pipe.expire(told, SENT_TTL)
    if turn:
        # The board and pages of a delivered post are only a cache now: kept a short while
        # for the game's other tables and a resend, no longer than that (issue 12; drawn
        # again on demand if a late table needs them). Never lengthened (``LT``).
        gid, version = str(m["game"]), int(m["version"])
        pipe.expire(k_image(gid, version, "public"), DELIVERED_IMAGE_TTL, lt=True)
        pipe.expire(k_image(gid, version, "pages"), DELIVERED_IMAGE_TTL, lt=True)
        pages_at = len(pipe)
        pipe.get(k_image(gid, version, "pages"))
    if ack_platform is not None:
        pipe.xack(_stream_of(ack_platform, envelope), GROUP, envelope.id)
    results = pipe.execute()
    first = results[0]
    pages = int(results[pages_at] or 0) if turn else 0
    if pages:
        pipe = store.r.pipeline(transaction=False)
        for i in range(1, pages + 1):
            pipe.expire(k_image(str(m["game"]), int(m["version"]), f"page{i}"), DELIVERED_IMAGE_TTL, lt=True)
        pipe.execute()
    if not first:
        mark_sent(store, envelope.key)  # recorded before: refresh the marker only
    elif turn:
        store.release_posted(str(m["game"]), int(m["version"]))


def sent_keys(store: Store, envelopes: list[Envelope]) -> set[str]:
    """The keys of ``envelopes`` already marked sent: one round trip for a whole batch (the
    markers live in many cluster slots, so a pipeline rather than one MGET)."""
    if not envelopes:
        return set()
    pipe = store.r.pipeline(transaction=False)
    for env in envelopes:
        pipe.exists(k_sent(env.key))
    return {env.key for env, there in zip(envelopes, pipe.execute(), strict=True) if there}


def pending_count(store: Store, platform: str) -> int:
    """Entries fetched but not acknowledged, over every partition stream."""
    ensure_group(store, platform)
    pipe = store.r.pipeline(transaction=False)
    for key in streams(platform):
        pipe.xpending(key, GROUP)
    return sum(int(info["pending"]) for info in pipe.execute())


def undelivered(store: Store, platform: str) -> int:
    """Entries not acknowledged yet: fetched and pending, or not fetched at all (the group's
    lag; a stream whose lag the server cannot tell counts 1 while it holds an entry newer than
    the last one fetched).

    Why not :func:`pending_count` alone: between a commit that adds a turn post and the
    consumer fetching it, nothing is pending, so a test or a tool waiting for "nothing
    pending" could stop before the newest post went out."""
    ensure_group(store, platform)
    keys = streams(platform)
    pipe = store.r.pipeline(transaction=False)
    for key in keys:
        pipe.xinfo_groups(key)
    left = 0
    unknown: list[tuple[str, bytes]] = []
    for key, groups in zip(keys, pipe.execute(), strict=True):
        for group in groups:
            if _name(group["name"]) != GROUP:
                continue
            left += int(group["pending"])
            if group.get("lag") is not None:
                left += int(group["lag"])
            else:
                unknown.append((key, group["last-delivered-id"]))
    for key, seen in unknown:
        newest = store.r.xrevrange(key, count=1)
        if newest and _id(newest[0][0]) > _id(seen):
            left += 1
    return left


def _id(value: bytes | str) -> tuple[int, int]:
    """A stream id as a comparable pair."""
    ms, _, seq = _name(value).partition("-")
    return int(ms), int(seq or 0)


def length(store: Store, platform: str) -> int:
    """Entries in every partition stream of ``platform`` (delivered or not, until trimmed)."""
    pipe = store.r.pipeline(transaction=False)
    for key in streams(platform):
        pipe.xlen(key)
    return int(sum(pipe.execute()))


def entries(store: Store, platform: str) -> list[tuple[str, dict[str, Any]]]:
    """(id, message) of every entry of ``platform``'s streams, oldest first (tests, tools)."""
    pipe = store.r.pipeline(transaction=False)
    for key in streams(platform):
        pipe.xrange(key)
    rows = [(_name(mid), json.loads(f[b"m"])) for res in pipe.execute() for mid, f in res]
    rows.sort(key=lambda row: tuple(int(x) for x in row[0].split("-")))
    return rows
