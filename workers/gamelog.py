"""A game's action log while it runs and once it is finished.

Why a module of its own: the log is what every game is replayed from (the record of
``replay``, the check of every fault run), and keeping it small is the largest part of a
running game's storage budget: the live list holds the newest entries (undo pops them), the
older ones are one compressed string, and a finished game's log is archived compressed.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

import redis

from workers.compact import events_version, unpack, unpack_events
from workers.keys import k_buttons, k_events, k_idem, k_idemh, k_idemq, k_log, k_logc, k_logz, k_meta

ARCHIVE_TTL = 7 * 86400
LOG_CHUNK = 24  # live log entries moved into the compressed part at a time


def _unchunk(blob: bytes | None) -> list[dict[str, Any]]:
    """The entries of the compressed part of a running game's log (none when absent)."""
    return list(json.loads(zlib.decompress(blob))) if blob else []


class GameLog:
    """The store's reads and housekeeping of game logs (and the events kept for captions)."""

    r: redis.Redis

    def log(self, gid: str) -> list[dict[str, Any]]:
        """The action log: the compressed older part and the live list, or the archive of a
        finished game."""
        pipe = self.r.pipeline(transaction=True)
        pipe.get(k_logc(gid))
        pipe.lrange(k_log(gid), 0, -1)
        pipe.get(k_logz(gid))
        older, raw, archived = pipe.execute()
        if not raw and not older and archived:
            return list(json.loads(zlib.decompress(archived)))
        return _unchunk(older) + [json.loads(unpack(x)) for x in raw]

    def compact_log(self, gid: str, chunk: int | None = None) -> bool:
        """Move the oldest ``chunk`` entries of a running game's live log into its compressed
        part once the live list holds twice that many; True when it did.

        Why: the live list costs ~80 bytes an action and grew with the game (35 KB for 400
        moves); compressed, the whole log costs a tenth of that. (Each live entry is packed
        against the game's dictionary too, ``workers.compact``: ~40 bytes, not ~86.) The live
        list keeps at least ``chunk`` entries, so undo (which pops the newest) never reaches
        the compressed part.
        Optimistic: a move committed meanwhile makes it give up until the next time."""
        size = chunk or LOG_CHUNK
        with self.r.pipeline(transaction=True) as pipe:
            try:
                pipe.watch(k_log(gid), k_logc(gid))
                if pipe.llen(k_log(gid)) < 2 * size:
                    pipe.unwatch()
                    return False
                older = _unchunk(pipe.get(k_logc(gid)))
                moved = [json.loads(unpack(x)) for x in pipe.lrange(k_log(gid), 0, size - 1)]
                blob = zlib.compress(json.dumps(older + moved, separators=(",", ":")).encode(), 9)
                pipe.multi()
                pipe.ltrim(k_log(gid), size, -1)
                pipe.set(k_logc(gid), blob)
                pipe.execute()
                return True
            except redis.WatchError:
                return False

    def archive(self, gid: str) -> bool:
        """Compact a finished game: the log becomes one compressed string, and the keys only a
        running game needs (idempotency results, kept snapshots of posted turns) expire; its
        buttons go at once.

        Why: a finished game is kept for its record (``replay``) and its result; a log of ~800
        JSON lines costs ~70 KB, compressed ~6 KB. Runs after the final commit (idempotent:
        once archived it does nothing); a redelivered late move is still refused as the game is
        over, so the idempotency results are no longer needed after their TTL.
        """
        with self.r.pipeline(transaction=True) as pipe:
            try:
                pipe.watch(k_meta(gid), k_log(gid), k_logc(gid))
                if pipe.hget(k_meta(gid), "status") != b"over" or not (
                    pipe.exists(k_log(gid)) or pipe.exists(k_logc(gid))
                ):
                    pipe.unwatch()
                    return False
                entries = _unchunk(pipe.get(k_logc(gid)))
                entries += [json.loads(unpack(x)) for x in pipe.lrange(k_log(gid), 0, -1)]
                blob = zlib.compress(json.dumps(entries, separators=(",", ":")).encode(), 9)
                pipe.multi()
                pipe.set(k_logz(gid), blob)
                pipe.delete(k_log(gid), k_logc(gid))
                pipe.expire(k_idem(gid), ARCHIVE_TTL)
                pipe.expire(k_idemq(gid), ARCHIVE_TTL)
                pipe.expire(k_idemh(gid), ARCHIVE_TTL)
                pipe.delete(k_buttons(gid))  # a press of one says the game is over (workers/buttons.py)
                pipe.hset(k_meta(gid), "archived", "1")
                pipe.execute()
                return True
            except redis.WatchError:
                return False

    def events(self, gid: str, last: int = 20) -> list[dict[str, Any]]:
        return [json.loads(unpack_events(x)) for x in self.r.lrange(k_events(gid), -last, -1)]


def events_between(raw: list[bytes], since: int, until: int) -> list[dict[str, Any]]:
    """The decoded event entries of versions ``since`` to ``until`` among ``raw`` (as stored,
    in order), as filtering :meth:`GameLog.events` by ``v`` gives them.

    Why: a turn post needs the few entries since the last post, and decoding all 32 kept
    entries for every post cost more than the rest of its text. An entry's version is read
    without inflating it (``workers.compact.events_version``); any other form is decoded and
    checked as before."""
    out = []
    for item in raw:
        v = events_version(item)
        if v is not None and not since <= v <= until:
            continue
        entry = json.loads(unpack_events(item))
        if since <= int(entry.get("v", 0)) <= until:
            out.append(entry)
    return out
