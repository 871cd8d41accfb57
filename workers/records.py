"""A game's record as the pipeline loads it (meta, seats, names, the snapshot), and the
stored forms of a snapshot and of a commit's answer.

Why a module of its own: a move reads its game once (one MULTI, with its key's stored answer),
and every read here returns values that belong together (the same version), so the readers
never pair an old meta with a new state.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Mapping
from typing import Any

import redis

from workers import compact
from workers.keys import K_SEQ, k_events, k_idem, k_meta, k_names, k_seats, k_snap, k_snapv


def _pairs(raw: Any) -> dict[bytes, bytes]:
    """An HGETALL answer read inside a MULTI: a dict, or (redis-py's cluster transactions skip
    the reply parsing) the flat field/value list."""
    if isinstance(raw, dict):
        return raw
    return dict(zip(raw[::2], raw[1::2], strict=True))


def pack_answer(result: Mapping[str, Any], game: str = "") -> bytes:
    """A commit's answer as stored for its idempotency key: compact JSON deflated against
    ``game``'s dictionary (``workers.compact``: a game keeps dozens of answers)."""
    return compact.pack(json.dumps(result, separators=(",", ":")).encode(), game)


def unpack_answer(raw: bytes) -> str:
    """The JSON text of a stored answer (plain JSON and plain zlib, written by older versions,
    are accepted)."""
    return compact.unpack(raw).decode()


def pack_snapshot(text: str) -> bytes:
    """Compress a canonical JSON dump (snapshots are re-read far more than written)."""
    return zlib.compress(text.encode(), 6)


def unpack_snapshot(blob: bytes) -> str:
    return zlib.decompress(blob).decode()


class GameRecords:
    """The store's reads of one game's record."""

    r: redis.Redis

    def new_game_id(self) -> str:
        """Short, readable, unique ids: ``g`` + base-36 counter (``g1f``)."""
        n = int(self.r.incr(K_SEQ))
        digits = "0123456789abcdefghijklmnopqrstuvwxyz"
        out = ""
        while n:
            n, d = divmod(n, 36)
            out = digits[d] + out
        return "g" + out

    def meta(self, gid: str) -> dict[str, str]:
        raw = self.r.hgetall(k_meta(gid))
        return {k.decode(): v.decode() for k, v in raw.items()}

    def seats(self, gid: str) -> dict[int, str]:
        raw = self.r.hgetall(k_seats(gid))
        return {int(k): v.decode() for k, v in raw.items()}

    def names(self, gid: str) -> dict[str, str]:
        raw = self.r.hgetall(k_names(gid))
        return {k.decode(): v.decode() for k, v in raw.items()}

    def game_record(self, gid: str) -> tuple[dict[str, str], int, str | None, dict[int, str]]:
        """(meta, version, canonical dump, seats) read in one MULTI, so they always match."""
        pipe = self.r.pipeline(transaction=True)
        pipe.hgetall(k_meta(gid))
        pipe.get(k_snap(gid))
        pipe.hgetall(k_seats(gid))
        raw_meta, blob, raw_seats = pipe.execute()
        meta = {k.decode(): v.decode() for k, v in _pairs(raw_meta).items()}
        seats = {int(k): v.decode() for k, v in _pairs(raw_seats).items()}
        return meta, int(meta.get("version") or 0), (unpack_snapshot(blob) if blob else None), seats

    def move_record(
        self, gid: str, idem: str
    ) -> tuple[tuple[dict[str, str], int, str | None, dict[int, str]], dict[str, Any] | None]:
        """:meth:`game_record` and the stored answer of idempotency key ``idem`` in one MULTI.

        Why: a move used to ask for its key's answer first and then load the game, two round
        trips where one does (issue 12: load once, commit once)."""
        pipe = self.r.pipeline(transaction=True)
        pipe.hgetall(k_meta(gid))
        pipe.get(k_snap(gid))
        pipe.hgetall(k_seats(gid))
        pipe.hget(k_idem(gid), idem or "-")
        raw_meta, blob, raw_seats, prev = pipe.execute()
        meta = {k.decode(): v.decode() for k, v in _pairs(raw_meta).items()}
        seats = {int(k): v.decode() for k, v in _pairs(raw_seats).items()}
        record = (meta, int(meta.get("version") or 0), (unpack_snapshot(blob) if blob else None), seats)
        return record, (json.loads(unpack_answer(prev)) if prev and idem else None)

    def post_record(
        self, gid: str, version: int, last_events: int = 200
    ) -> tuple[tuple[dict[str, str], int, str | None, dict[int, str]], str | None, dict[str, str], list[bytes]]:
        """What a turn post of ``version`` is built from, in one MULTI: :meth:`game_record`,
        the snapshot of ``version`` (:meth:`snapshot_at`), the seats' names (:meth:`names`)
        and the newest ``last_events`` event entries, undecoded (see ``gamelog.events_between``).

        Why: read apart these were four round trips per turn post in the outbox consumer
        (issue 12: the CPU of a move); together they also belong to one moment of the game."""
        pipe = self.r.pipeline(transaction=True)
        pipe.hgetall(k_meta(gid))
        pipe.get(k_snap(gid))
        pipe.hgetall(k_seats(gid))
        pipe.hget(k_snapv(gid), str(version))
        pipe.hgetall(k_names(gid))
        pipe.lrange(k_events(gid), -last_events, -1)
        raw_meta, blob, raw_seats, kept, raw_names, events = pipe.execute()
        meta = {k.decode(): v.decode() for k, v in _pairs(raw_meta).items()}
        seats = {int(k): v.decode() for k, v in _pairs(raw_seats).items()}
        current = int(meta.get("version") or 0)
        snap = unpack_snapshot(blob) if blob else None
        at = snap if version == current else (unpack_snapshot(kept) if kept else None)
        names = {k.decode(): v.decode() for k, v in _pairs(raw_names).items()}
        return (meta, current, snap, seats), at, names, list(events)

    def snapshot(self, gid: str) -> tuple[int, str | None]:
        """(version, canonical dump) read together so they always match."""
        pipe = self.r.pipeline(transaction=True)
        pipe.hget(k_meta(gid), "version")
        pipe.get(k_snap(gid))
        version, blob = pipe.execute()
        return int(version or 0), (unpack_snapshot(blob) if blob else None)

    def snapshot_at(self, gid: str, version: int) -> str | None:
        """The snapshot of an older posted version (kept with a TTL), or the current one."""
        current, snap = self.snapshot(gid)
        if version == current:
            return snap
        blob = self.r.hget(k_snapv(gid), str(version))
        return unpack_snapshot(blob) if blob else None
