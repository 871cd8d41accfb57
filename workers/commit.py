"""The one atomic commit of a game step, and the idempotency of every request.

Why a module of its own: the commit script is where "accepted" is decided - version check,
idempotency (the window of stored answers and the hashes of every committed key), snapshot,
log, events, meta, deadline index and outbox messages in one step, so a crash can never leave
half a move behind and a request is never applied twice. Everything that bounds what a
running game keeps for that purpose lives beside it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import redis

from workers.compact import pack, pack_events
from workers.keys import (
    k_answers,
    k_deadlines,
    k_events,
    k_idem,
    k_idemh,
    k_idemq,
    k_log,
    k_meta,
    k_outbox,
    k_snap,
    k_snapv,
)
from workers.records import pack_answer, pack_snapshot, unpack_answer

POSTED_TTL = 7 * 86400  # snapshots of posted turns, the boards are drawn from (bounded by count)
EVENTS_KEPT = 32  # versions of events kept: captions since the last post and `log`
IDEM_KEPT = 24  # idempotency answers kept per game (the newest), see the commit script
# Decision: every committed key is also remembered as an 8-byte hash (``idemh``), the newest
# 1,024 per game (8 KB; an Antike Duellum game commits 300-500 keys, so in practice every key
# of the game). A command sent again as a new request after its answer left the window (a
# client retry hours later, a re-sent update) is then answered "applied already" instead of
# being applied again when its move is legal again. A hash, not the key: keys are platform
# ids of 10-40 bytes; with 64 bits, 1,024 keys make a false "applied already" for a new key
# about one in 10^16 (hashes are exact-match: no Bloom filter, whose false positives would
# refuse real moves).
IDEM_SEEN_KEPT = 1024
IDEM_HASH = 8  # bytes per hash in ``idemh``
# The answer to a key found among the hashes only (its stored answer left the window).
APPLIED_ALREADY = "Your move was applied already."
# Snapshots of posted turns are dropped once every table's post is delivered; at most this many
# wait per game. Decision: a turn post delivered later than that (a bot down for long) is drawn
# from the game as it is now.
POSTED_KEPT = 32
ANSWER_TTL = 120  # seconds a client's mailbox of move answers outlives its last answer

# One atomic commit: version check, idempotency, snapshot, log, events, meta, deadline index
# and outbox messages together, so a crash can never leave half a move behind.
COMMIT_LUA = """
local meta, snap, log, idem, ev, dl = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local snapv, idemq, idemh = KEYS[7], KEYS[8], KEYS[9]
local expected = tonumber(ARGV[1])
local key = ARGV[2]
local hash, width = ARGV[17], tonumber(ARGV[19])
local seen = ''
if key ~= '' then
  local prev = redis.call('HGET', idem, key)
  if prev then return {'dup', prev} end
  -- Past the window: the key's hash among every committed key's (fixed-width records, so a
  -- match counts only at a record boundary).
  if redis.call('TYPE', idemh)['ok'] == 'string' then seen = redis.call('GET', idemh) end
  local from = 1
  while true do
    local at = string.find(seen, hash, from, true)
    if not at then break end
    if (at - 1) % width == 0 then
      return {'seen', tostring(redis.call('HGET', meta, 'version') or '0')}
    end
    from = at + 1
  end
end
local v = tonumber(redis.call('HGET', meta, 'version') or '0')
if v ~= expected then return {'stale', tostring(v)} end
-- Redis does not roll a script back when a command fails half-way: everything that can fail
-- (decoding, a key of the wrong type) is checked before the first write.
local kinds = {[1] = 'hash', [2] = 'string', [3] = 'list', [4] = 'hash', [5] = 'list', [6] = 'zset', [7] = 'hash',
               [8] = 'list', [9] = 'string'}
for i = 1, #KEYS do
  local t = redis.call('TYPE', KEYS[i])['ok']
  if t ~= 'none' and t ~= (kinds[i] or 'stream') then
    return redis.error_reply('WRONGTYPE commit: ' .. KEYS[i] .. ' holds the wrong kind of value (' .. t .. ')')
  end
end
local fields = cjson.decode(ARGV[7])
local msgs = cjson.decode(ARGV[11])
local nv = v + 1
redis.call('SET', snap, ARGV[3])
if ARGV[13] ~= '' then
  -- The board of a posted turn is drawn when it is delivered, maybe after later moves: keep its
  -- snapshot until every table's post of it is delivered (field n:<v> counts them down), and
  -- never more than the newest few (a table whose bot is gone must not grow the game).
  redis.call('HSET', snapv, nv, ARGV[3], 'n:' .. nv, ARGV[16])
  redis.call('EXPIRE', snapv, tonumber(ARGV[13]))
  local kept = tonumber(ARGV[15])
  local versions = {}
  for _, f in ipairs(redis.call('HKEYS', snapv)) do
    if string.sub(f, 1, 2) ~= 'n:' then table.insert(versions, f) end
  end
  if #versions > kept then
    table.sort(versions, function(a, b) return tonumber(a) < tonumber(b) end)
    for i = 1, #versions - kept do redis.call('HDEL', snapv, versions[i], 'n:' .. versions[i]) end
  end
end
if ARGV[4] == 'push' then
  redis.call('RPUSH', log, ARGV[5])
elseif ARGV[4] == 'pop' then
  redis.call('RPOP', log)
end
if ARGV[6] ~= '' then
  redis.call('RPUSH', ev, ARGV[6])
  redis.call('LTRIM', ev, -tonumber(ARGV[12]), -1)
end
redis.call('HSET', meta, 'version', nv)
for f, val in pairs(fields) do
  if val == '' then redis.call('HDEL', meta, f) else redis.call('HSET', meta, f, val) end
end
if ARGV[8] == '' then redis.call('ZREM', dl, ARGV[9]) else redis.call('ZADD', dl, ARGV[8], ARGV[9]) end
local result = ARGV[10]
if key ~= '' then
  -- Only the newest answers are kept (a window): redelivery and retries come within minutes,
  -- and a long game must not grow its idempotency record with every move.
  redis.call('HSET', idem, key, result)
  redis.call('RPUSH', idemq, key)
  local kept = tonumber(ARGV[14])
  while redis.call('LLEN', idemq) > kept do
    redis.call('HDEL', idem, redis.call('LPOP', idemq))
  end
  -- Rewritten whole (SET, not APPEND): APPEND grows a string's allocation greedily (up to
  -- twice its length), and the record counts against the game's storage budget.
  seen = seen .. hash
  local most = tonumber(ARGV[18]) * width
  if #seen > most then seen = string.sub(seen, #seen - most + 1) end
  redis.call('SET', idemh, seen)
end
for i = 10, #KEYS do
  local m = string.gsub(msgs[i - 9], '"version":0', '"version":' .. nv, 1)
  redis.call('XADD', KEYS[i], 'MAXLEN', '~', 100000, '*', 'm', m)
end
return {'ok', result}
"""

# One table's turn post of version ARGV[1] is delivered: count it down; the last drops the snapshot.
RELEASE_LUA = """
local n = redis.call('HINCRBY', KEYS[1], 'n:' .. ARGV[1], -1)
if n <= 0 then redis.call('HDEL', KEYS[1], ARGV[1], 'n:' .. ARGV[1]) end
return n
"""


@dataclass(frozen=True, slots=True)
class Outgoing:
    """A message for one platform's outbox (``version`` 0 is filled in at commit)."""

    platform: str
    message: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class CommitResult:
    """``status`` is ``ok``, ``dup`` (idempotency key seen) or ``stale`` (version moved)."""

    status: str
    payload: str

    @property
    def data(self) -> dict[str, Any]:
        return dict(json.loads(self.payload)) if self.status in ("ok", "dup") else {}

    @property
    def current_version(self) -> int:
        return int(self.payload) if self.status == "stale" else int(self.data.get("version", 0))


def _packed_events(events: Mapping[str, Any] | None, game: str) -> bytes | str:
    """One version's events entry as the events list keeps it (``compact.pack_events``);
    empty for a commit without one."""
    if events is None:
        return ""
    return pack_events(int(events.get("v", 0)), json.dumps(events, separators=(",", ":")).encode(), game)


def key_hash(key: str) -> bytes:
    """The ``IDEM_HASH``-byte hash of an idempotency key as kept in ``idemh``."""
    return hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=IDEM_HASH).digest()


def hash_seen(record: bytes | None, digest: bytes) -> bool:
    """Whether ``digest`` is one of the fixed-width hashes of ``record`` (at a boundary)."""
    if not record:
        return False
    at = record.find(digest)
    while at >= 0:
        if at % IDEM_HASH == 0:
            return True
        at = record.find(digest, at + 1)
    return False


def applied_already(version: int) -> dict[str, Any]:
    """The answer to a key committed before whose own answer is no longer kept.

    Decision: ``ok`` like the stored answer of a duplicate (the request did take effect once),
    at the game's current version, without the move's notation or events (the record keeps
    hashes only; reading the log for them would cost a read of the whole log). A key whose
    move was taken back since (undo) is "applied already" too: it was applied, once."""
    return {"ok": True, "code": "ok", "message": APPLIED_ALREADY, "version": version, "duplicate": True}


class Commits:
    """The store's commit, its idempotency look-ups and the answers to waiting clients."""

    r: redis.Redis
    _commit: Any
    _release: Any

    def release_posted(self, gid: str, version: int) -> None:
        """One table's post of ``version`` was delivered: when it was the last, drop the
        snapshot kept for drawing it."""
        self._release(keys=[k_snapv(gid)], args=[str(version)])

    def idem_result(self, gid: str, key: str) -> dict[str, Any] | None:
        """The stored answer of ``key`` while it is in the window (else None)."""
        raw = self.r.hget(k_idem(gid), key)
        return json.loads(unpack_answer(raw)) if raw else None

    def earlier_answer(self, gid: str, key: str) -> dict[str, Any] | None:
        """The answer for ``key`` when it was committed in this game: its stored answer while
        in the window, else :func:`applied_already`; None for a key never committed. One
        round trip, for the refusal path only (a normal move's commit checks both itself)."""
        if not key:
            return None
        pipe = self.r.pipeline(transaction=True)
        pipe.hget(k_idem(gid), key)
        pipe.get(k_idemh(gid))
        pipe.hget(k_meta(gid), "version")
        raw, record, version = pipe.execute()
        if raw:
            return dict(json.loads(unpack_answer(raw)))
        return applied_already(int(version or 0)) if hash_seen(record, key_hash(key)) else None

    def commit(
        self,
        gid: str,
        *,
        expected: int,
        idem: str,
        snapshot: str,
        log_op: str = "push",
        log_entry: Mapping[str, Any] | None = None,
        events: Mapping[str, Any] | None = None,
        meta: Mapping[str, Any] | None = None,
        deadline: float | None = None,
        result: Mapping[str, Any] | None = None,
        outgoing: Sequence[Outgoing] = (),
        keep_snapshot: int = 0,
        game: str = "",
    ) -> CommitResult:
        """The atomic step: check ``expected`` version and ``idem``, then write everything.

        ``idem`` is checked against the window of stored answers, then against the hashes
        of every key committed in the game (``idemh``): either way the answer is ``dup``, with
        the stored answer or :func:`applied_already`.

        ``result`` and every outgoing message are stored with ``"version": 0`` replaced by the
        new version inside the script, so they name the version they produced.
        ``keep_snapshot`` (seconds) also keeps this version's snapshot for that long, so the
        board of a posted turn can be drawn even after the game has moved on. ``game`` (the
        game's id) chooses the dictionary the answer, the log entry and the events are packed
        against (``workers.compact``; none given: deflated plainly).
        """
        # The script commits only at ``expected``, so the new version is known here; the answer
        # is stored compressed (the idempotency window holds dozens of them per game).
        res = {"version": expected + 1, **{k: v for k, v in (result or {}).items() if k != "version"}}
        msgs = []
        for o in outgoing:
            m = {"version": 0, **{k: v for k, v in o.message.items() if k != "version"}}
            msgs.append(json.dumps(m, separators=(",", ":")))
        keys = [k_meta(gid), k_snap(gid), k_log(gid), k_idem(gid), k_events(gid), k_deadlines(gid)]
        keys += [k_snapv(gid), k_idemq(gid), k_idemh(gid)]
        keys += [k_outbox(o.platform, gid) for o in outgoing]
        args = [
            expected,
            idem,
            pack_snapshot(snapshot),
            log_op,
            pack(json.dumps(log_entry or {}, separators=(",", ":")).encode(), game) if log_op == "push" else "",
            _packed_events(events, game),
            json.dumps({k: ("" if v is None else str(v)) for k, v in (meta or {}).items()}),
            "" if deadline is None else repr(float(deadline)),
            gid,
            pack_answer(res, game),
            json.dumps(msgs),
            EVENTS_KEPT,
            str(keep_snapshot) if keep_snapshot else "",
            IDEM_KEPT,
            POSTED_KEPT,
            sum(1 for o in outgoing if o.message.get("type") == "turn") or 1,
            key_hash(idem) if idem else b"",
            IDEM_SEEN_KEPT,
            IDEM_HASH,
        ]
        status, payload = self._commit(keys=keys, args=args)
        if status == b"seen":
            # Committed before, its answer no longer kept: a duplicate all the same.
            return CommitResult("dup", json.dumps(applied_already(int(payload))))
        return CommitResult(status.decode(), unpack_answer(payload) if status in (b"ok", b"dup") else payload.decode())

    def post_answer(self, box: str, rid: str, answer: Mapping[str, Any]) -> None:
        """Push a move's answer to the mailbox of the client that awaits it, in one round trip.

        Why not Celery's result store: that cost the worker a read and a write and the client
        a subscribe, a read and an unsubscribe per move; a client drains its one mailbox with
        a single blocking pop per answer. The list expires: a client that went away leaves
        no garbage behind."""
        pipe = self.r.pipeline(transaction=False)
        pipe.rpush(k_answers(box), json.dumps({"id": rid, "answer": answer}, separators=(",", ":")))
        pipe.expire(k_answers(box), ANSWER_TTL)
        pipe.execute()
