"""The outbox: one Redis Stream per platform, read through a consumer group.

Why streams with a group: a message added in the commit's atomic step is delivered even if
the bot was down at that moment; unacknowledged messages are re-read after a restart (we
read our pending entries first), and a ``sent:{key}`` marker stops a message that was sent
but not yet acknowledged from being sent twice.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import redis

from workers.store import Store, k_outbox, k_sent

GROUP = "delivery"
SENT_TTL = 14 * 86400


@dataclass(frozen=True, slots=True)
class Envelope:
    """One outbox entry: its stream id and the message."""

    id: str
    message: dict[str, Any]

    @property
    def key(self) -> str:
        return str(self.message.get("key") or self.id)


def ensure_group(store: Store, platform: str) -> None:
    try:
        store.r.xgroup_create(k_outbox(platform), GROUP, id="0", mkstream=True)
    except redis.ResponseError as exc:
        if "BUSYGROUP" not in str(exc):
            raise


STALE_MS = 90_000  # an entry fetched by another consumer and untouched this long is orphaned


def fetch(store: Store, platform: str, consumer: str, *, count: int = 20, block_ms: int = 1000) -> list[Envelope]:
    """Our pending (delivered but unacked) entries first, then entries a dead consumer left
    behind, then new ones.

    Why claim: a bot process that died (a crashed container, a renamed pod) leaves the entries
    it had fetched pending under its name forever. A living consumer re-reads its own pending
    entries on every fetch, which keeps them fresh; an entry idle for ``STALE_MS`` belongs to
    nobody alive and is taken over (``XAUTOCLAIM``). Its sent marker still prevents a resend
    when the dead consumer had sent it."""
    ensure_group(store, platform)
    key = k_outbox(platform)
    for start in ("0", "claim", ">"):
        if start == "claim":
            claimed = store.r.xautoclaim(key, GROUP, consumer, STALE_MS, start_id="0-0", count=count)
            entries = list(claimed[1]) if claimed else []
        else:
            resp = store.r.xreadgroup(
                GROUP, consumer, {key: start}, count=count, block=None if start == "0" else block_ms
            )
            entries = [(mid, fields) for _, batch in (resp or []) for mid, fields in batch]
        # A pending entry trimmed from the stream (MAXLEN) comes back without fields; ack it,
        # or it would stay first in our pending list forever and hide the entries behind it.
        gone = [mid for mid, fields in entries if not fields]
        if gone:
            store.r.xack(key, GROUP, *gone)
        out = [Envelope(mid.decode(), json.loads(fields[b"m"])) for mid, fields in entries if fields]
        if out:
            return out
    return []


def ack(store: Store, platform: str, envelope: Envelope) -> None:
    store.r.xack(k_outbox(platform), GROUP, envelope.id)


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


def delivered(store: Store, envelope: Envelope) -> None:
    """The message is in its chat: mark it sent, and let go of what only its delivery needed
    (the snapshot a turn post's board is drawn from)."""
    mark_sent(store, envelope.key)
    m = envelope.message
    if m.get("type") == "turn" and m.get("game") and m.get("version"):
        store.release_posted(str(m["game"]), int(m["version"]))


def pending_count(store: Store, platform: str) -> int:
    ensure_group(store, platform)
    info = store.r.xpending(k_outbox(platform), GROUP)
    return int(info["pending"])
