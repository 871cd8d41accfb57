"""The Redis store: typed access to every key Agora writes, and the one atomic commit.

Why Redis only: active games, logs, deadlines and the outbox must survive restarts of any
process and be shared by every worker and bot; one store with one atomic commit keeps them
consistent (ARCHITECTURE.md, "Redis").

Why this module is small: :class:`Store` is put together from one part per topic, each in its
own module - the key scheme and partitions (:mod:`workers.keys`), a game's record
(:mod:`workers.records`), its log (:mod:`workers.gamelog`), the commit and idempotency
(:mod:`workers.commit`), users and chats (:mod:`workers.users`). Every name of those modules
that callers use is re-exported here, so ``from workers.store import Store, k_image`` works
as it always did. The key layout is described in :mod:`workers.keys`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import redis
from redis.cluster import RedisCluster

from workers.commit import (
    ANSWER_TTL,
    APPLIED_ALREADY,
    COMMIT_LUA,
    EVENTS_KEPT,
    IDEM_HASH,
    IDEM_KEPT,
    IDEM_SEEN_KEPT,
    POSTED_KEPT,
    POSTED_TTL,
    RELEASE_LUA,
    CommitResult,
    Commits,
    Outgoing,
    applied_already,
    hash_seen,
    key_hash,
)
from workers.gamelog import ARCHIVE_TTL, LOG_CHUNK, GameLog
from workers.keys import (
    IMAGE_TTL,
    K_SEQ,
    PARTITIONS,
    P,
    gid_of_key,
    k_answers,
    k_buttons,
    k_callback,
    k_chat,
    k_deadlines,
    k_deadlines_in,
    k_events,
    k_idem,
    k_idemh,
    k_idemq,
    k_image,
    k_lobby,
    k_log,
    k_logc,
    k_logz,
    k_meta,
    k_names,
    k_outbox,
    k_outbox_in,
    k_posted,
    k_remind,
    k_seats,
    k_sent,
    k_snap,
    k_snapv,
    k_told,
    k_user,
    k_user_games,
    k_user_games_in,
    partition,
    tag,
)
from workers.records import GameRecords, pack_answer, pack_snapshot, unpack_answer, unpack_snapshot
from workers.users import TOUCH_MEMO, Users

__all__ = [
    "ANSWER_TTL", "APPLIED_ALREADY", "ARCHIVE_TTL", "EVENTS_KEPT", "IDEM_HASH", "IDEM_KEPT", "IDEM_SEEN_KEPT",
    "IMAGE_TTL", "K_SEQ", "LOG_CHUNK", "PARTITIONS", "POSTED_KEPT", "POSTED_TTL", "TOUCH_MEMO", "CommitResult",
    "Outgoing", "P", "Store", "applied_already", "gid_of_key", "hash_seen", "k_answers", "k_buttons", "k_callback",
    "k_chat", "k_deadlines", "k_deadlines_in", "k_events", "k_idem", "k_idemh", "k_idemq", "k_image", "k_lobby",
    "k_log", "k_logc", "k_logz", "k_meta", "k_names", "k_outbox", "k_outbox_in", "k_posted", "k_remind", "k_seats",
    "k_sent", "k_snap", "k_snapv", "k_told", "k_user", "k_user_games", "k_user_games_in", "key_hash", "pack_answer",
    "pack_snapshot", "partition", "tag", "unpack_answer", "unpack_snapshot",
]  # fmt: skip


class Store(GameRecords, GameLog, Commits, Users):
    """Typed access to the key layout (:mod:`workers.keys`), over one ``redis.Redis`` client."""

    def __init__(self, client: redis.Redis) -> None:
        self.r = client
        self._commit = client.register_script(COMMIT_LUA)
        self._release = client.register_script(RELEASE_LUA)
        self._touched: dict[str, tuple[str, str | None, float]] = {}

    @classmethod
    def from_url(cls, url: str) -> Store:
        from workers import redisconn

        return cls(redisconn.connect(url, socket_timeout=10, health_check_interval=30))

    @property
    def cluster(self) -> bool:
        """Whether the client is a Redis Cluster client (multi-key reads go slot by slot)."""
        return isinstance(self.r, RedisCluster)

    def routed(self, key: str) -> dict[str, Any]:
        """Options that send a pipelined command straight to ``key``'s node on a cluster.

        Why: for commands with "movable" keys (XREADGROUP, EVAL) redis-py's cluster pipeline
        asks the server for the keys (COMMAND GETKEYS) before every one of them - a round trip
        each, 64 per outbox read. A redirection after a failover is still followed."""
        return {"target_nodes": self.r.get_node_from_key(key)} if self.cluster else {}

    def mget(self, keys: Sequence[str]) -> list[bytes | None]:
        """GET of many keys that may live in different slots (in order; not atomic on a
        cluster, which no caller needs: each value is read on its own merits)."""
        if not keys:
            return []
        if self.cluster:
            return list(self.r.mget_nonatomic(list(keys)))
        return list(self.r.mget(list(keys)))

    def now(self) -> float:
        """Wall clock in UTC seconds (one place, so tests can patch it)."""
        return time.time()
