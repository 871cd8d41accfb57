"""Moving a store written before the partitioned key layout to it (once, on one server).

Why: the keys used to be ``agora:g:{gid}:...`` beside one global deadline set and one outbox
stream per platform; now a game's keys, its deadline entry, its outbox messages and its
players' "my games" entries share the partition tag ``{pNN}`` (workers/keys.py). A store that
ran the old layout was necessarily one server (the old commit touched global keys), where
RENAME works across slots, so the move is plain renames:

* per-game keys and reminder marks are renamed into the game's partition;
* each ``u:{user}:games`` set is split into the partitions' sets;
* each old outbox stream's entries that were not yet delivered (no sent marker) are re-added
  to the partition stream of their game, in order; the old stream is then deleted;
* the old deadline set is dropped (the caller rebuilds the index from the game records).

Decision: the move is automatic instead of a separate command an operator could forget: old
keys would otherwise be invisible to the new code (games "not found"). It runs from
:func:`workers.deadlines.rebuild_index` (every sweeper start, and
``agora deadlines rebuild``) and is marked done in ``agora:layout``, so later starts only read
that key. Two processes migrating at once are harmless: a key already moved is skipped.
"""

from __future__ import annotations

import json
import logging

import redis

from workers.store import P, Store, k_outbox, k_sent, k_user_games, partition, tag

log = logging.getLogger(__name__)
K_LAYOUT = f"{P}layout"
LAYOUT = "2"  # 2: partitions of 64 slot-tagged keys


def migrate(store: Store) -> int:
    """Move an old-layout store to the partitioned layout; returns how many keys moved."""
    if store.r.get(K_LAYOUT) == LAYOUT.encode():
        return 0
    moved = 0
    if not store.cluster:  # a cluster never held the old layout
        moved += _games(store) + _reminders(store) + _user_games(store) + _outboxes(store)
        store.r.delete(f"{P}deadlines")
    store.r.set(K_LAYOUT, LAYOUT)
    if moved:
        log.warning("moved %d keys to the partitioned layout", moved)
    return moved


def _rename(store: Store, old: str, new: str) -> int:
    try:
        return 1 if store.r.renamenx(old, new) else 0
    except redis.ResponseError:  # moved meanwhile by another process
        return 0


def _games(store: Store) -> int:
    moved = 0
    for raw in store.r.scan_iter(match=P + "g:{*}:*", count=500):
        key = raw.decode()
        gid, _, rest = key[len(P) + 3 :].partition("}:")
        moved += _rename(store, key, f"{tag(partition(gid))}g:{gid}:{rest}")
    return moved


def _reminders(store: Store) -> int:
    moved = 0
    for raw in store.r.scan_iter(match=P + "remind:*", count=500):
        key = raw.decode()
        gid = key[len(P) + 7 :].split(":", 1)[0]
        moved += _rename(store, key, f"{tag(partition(gid))}{key[len(P):]}")
    return moved


def _user_games(store: Store) -> int:
    moved = 0
    for raw in store.r.scan_iter(match=P + "u:*:games", count=500):
        key = raw.decode()
        if store.r.type(key) != b"set":
            continue
        user = key[len(P) + 2 : -len(":games")]
        gids = [g.decode() for g in store.r.smembers(key)]
        pipe = store.r.pipeline(transaction=True)
        for gid in gids:
            pipe.sadd(k_user_games(user, gid), gid)
        pipe.delete(key)
        pipe.execute()
        moved += 1
    return moved


def _outboxes(store: Store) -> int:
    moved = 0
    for raw in store.r.scan_iter(match=P + "outbox:*", count=100):
        key = raw.decode()
        if store.r.type(key) != b"stream":
            continue
        platform = key[len(P) + len("outbox:") :]
        for mid, fields in store.r.xrange(key):
            message = json.loads(fields[b"m"])
            if store.r.exists(k_sent(str(message.get("key") or mid.decode()))):
                continue
            store.r.xadd(k_outbox(platform, str(message.get("game") or "")), {"m": fields[b"m"]})
            moved += 1
        store.r.delete(key)
    return moved
