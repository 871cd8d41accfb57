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


def fetch(store: Store, platform: str, consumer: str, *, count: int = 20, block_ms: int = 1000) -> list[Envelope]:
    """Our pending (delivered but unacked) entries first, then new ones."""
    ensure_group(store, platform)
    key = k_outbox(platform)
    for start in ("0", ">"):
        resp = store.r.xreadgroup(GROUP, consumer, {key: start}, count=count, block=None if start == "0" else block_ms)
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


def pending_count(store: Store, platform: str) -> int:
    ensure_group(store, platform)
    info = store.r.xpending(k_outbox(platform), GROUP)
    return int(info["pending"])
