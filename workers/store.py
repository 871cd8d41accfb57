"""The Redis store: every key Agora writes, and the one atomic commit.

Why Redis only: active games, logs, deadlines and the outbox must survive restarts of any
process and be shared by every worker and bot; one store with one atomic commit keeps them
consistent (ARCHITECTURE.md, "Redis").

Key layout (prefix ``agora:``). ``{pNN}`` is the hash tag of the game's partition
(:func:`partition`: ``crc32(gid) % 64``): every key one commit touches - the game's own keys,
its partition's deadline index and outbox streams - shares it, so the commit runs on one node
of a Redis Cluster (deploy/README.md, "Partitions"). Below, ``g:{gid}:x`` stands for
``{pNN}:g:<gid>:x``:

===============================  ======  ===================================================
key                              type    holds
===============================  ======  ===================================================
``seq:game``                     string  counter for new game ids
``g:{gid}:meta``                 hash    game, title, status (lobby|active|over), options
                                         (JSON), seed, players, version, engine_version,
                                         home (``platform:chat``), creator, created_at,
                                         updated_at, turn_hours, result (JSON); the clock
                                         (workers/timing.py): timer, bank_secs,
                                         vacation_days, miss_limit, quiet_deadlines,
                                         turn_at, turn_v, deadline_at (humans), safety_at
                                         (bots), paused_at, pause_votes, resume_votes, and
                                         per seat ext:, bank_used:, away_until:,
                                         away_used:, misses:, auto: (autopilot), mute:
``g:{gid}:lobby``                list    user keys that joined before the start, in order
``g:{gid}:seats``                hash    seat -> user key (``telegram:42``, ``console:you``,
                                         ``bot``)
``g:{gid}:names``                hash    seat or user key -> display name
``g:{gid}:snap``                 string  zlib-compressed canonical JSON dump at ``version``
``g:{gid}:log``                  list    the action log: JSON ``{v, s, t, u, k, at}`` (version,
                                         seat, notation, undoable, idempotency key, time)
``g:{gid}:logc``                 string  a running game's older log entries: one zlib-compressed
                                         JSON array, extended LOG_CHUNK entries at a time
``g:{gid}:logz``                 string  a finished game's log, zlib-compressed JSON (archive)
``g:{gid}:idem``                 hash    idempotency key -> JSON result of its commit, for the
                                         newest IDEM_KEPT keys (expires 7 days after the end)
``g:{gid}:idemq``                list    those keys, oldest first (the window's order)
``g:{gid}:idemh``                string  8-byte hashes of every key committed in the game,
                                         oldest first (the newest IDEM_SEEN_KEPT; expires
                                         with ``idem``): "applied already" past the window
``g:{gid}:ev``                   list    per version: JSON ``{v, events:[...]}`` (audience kept)
``g:{gid}:posted``               hash    version -> snapshot of a posted turn until every table's
                                         post of it is delivered (``n:<v>`` counts them down);
                                         at most POSTED_KEPT versions (TTL)
``img:{gid}:{v}:{who}``          string  rendered PNG (``who`` = ``public`` or a seat), TTL
``chat:{platform}:{chat}``       string  the game id played in that chat
``u:{user}``                     hash    name, dm (private chat id), tz, quiet hours
``{pNN}:u:{user}:games``         set     game ids of the partition the user plays in ("my
                                         games" is the union over the partitions)
``names:{platform}``             hash    lower-case display name -> user key (substitutes)
``{pNN}:deadlines``              zset    gid -> unix time of its next reminder or timeout
                                         (mirrored from meta, rebuildable), per partition
``{pNN}:remind:{gid}:{tv}:..``   string  reminder de-duplication per step (``turn_v``),
                                         seat and lead time (set-if-absent, TTL)
``{pNN}:outbox:{platform}``      stream  messages to deliver; consumer group ``delivery``
``sent:{key}``                   string  message keys already delivered (TTL), no resend
``callback:{token}``             string  long button payloads (Telegram's 64-byte limit)
``layout``                       string  ``2`` once an older store was moved to the partitions
                                         (workers/layout.py)
``answers:{box}``                list    move answers for one waiting client (TTL)
===============================  ======  ===================================================

All times are UTC unix seconds.
"""

from __future__ import annotations

import hashlib
import json
import time
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import redis
from redis.cluster import RedisCluster

P = "agora:"


# Decision: 64 partitions, fixed. Enough to spread over a cluster of up to a few dozen masters
# (the 64 tags hash to slots all over the range: 20/20/24 on three masters, 3-8 on each of twelve); few enough
# that a sweep or an outbox read over all of them is one cheap round trip per node. Changing it
# moves every key (deploy/README.md, "Partitions").
PARTITIONS = 64


def partition(gid: str) -> int:
    """The partition of a game: its keys, its deadline entry, its outbox messages and its
    players' index entries live in this partition's hash slot (tag ``{pNN}``)."""
    return zlib.crc32(gid.encode()) % PARTITIONS


def tag(part: int) -> str:
    """``agora:{p07}:`` - the prefix (with the hash tag) of partition ``part``'s keys."""
    return f"{P}{{p{part:02d}}}:"


def _g(gid: str) -> str:
    return f"{tag(partition(gid))}g:{gid}:"


def k_meta(gid: str) -> str:
    return _g(gid) + "meta"


def k_lobby(gid: str) -> str:
    return _g(gid) + "lobby"


def k_seats(gid: str) -> str:
    return _g(gid) + "seats"


def k_names(gid: str) -> str:
    return _g(gid) + "names"


def k_snap(gid: str) -> str:
    return _g(gid) + "snap"


def k_log(gid: str) -> str:
    return _g(gid) + "log"


def k_logz(gid: str) -> str:
    return _g(gid) + "logz"


def k_idem(gid: str) -> str:
    return _g(gid) + "idem"


def k_logc(gid: str) -> str:
    return _g(gid) + "logc"


def k_idemq(gid: str) -> str:
    return _g(gid) + "idemq"


def k_idemh(gid: str) -> str:
    return _g(gid) + "idemh"


def k_events(gid: str) -> str:
    return _g(gid) + "ev"


def k_posted(gid: str, version: int) -> str:
    return _g(gid) + f"posted:{version}"


def k_snapv(gid: str) -> str:
    return _g(gid) + "posted"


def gid_of_key(key: str) -> str:
    """The game id in one of the per-game keys above."""
    return key.split("}:g:", 1)[1].split(":", 1)[0]


def k_image(gid: str, version: int, who: str) -> str:
    return f"{P}img:{gid}:{version}:{who}"


def k_chat(platform: str, chat: str) -> str:
    return f"{P}chat:{platform}:{chat}"


def k_user(user: str) -> str:
    return f"{P}u:{user}"


def k_user_games(user: str, gid: str) -> str:
    """The user's games in ``gid``'s partition (the "my games" index is split by partition,
    so joining, leaving and substituting write it in the game's own MULTI)."""
    return k_user_games_in(user, partition(gid))


def k_user_games_in(user: str, part: int) -> str:
    return f"{tag(part)}u:{user}:games"


def k_outbox(platform: str, gid: str = "") -> str:
    """The outbox stream of ``gid``'s partition on ``platform``. Decision: a message about no
    game (none is written today) goes to partition 0's."""
    return k_outbox_in(platform, partition(gid) if gid else 0)


def k_outbox_in(platform: str, part: int) -> str:
    return f"{tag(part)}outbox:{platform}"


def k_deadlines(gid: str) -> str:
    """The deadline index of ``gid``'s partition."""
    return k_deadlines_in(partition(gid))


def k_deadlines_in(part: int) -> str:
    return f"{tag(part)}deadlines"


def k_sent(key: str) -> str:
    return f"{P}sent:{key}"


def k_remind(gid: str, version: int, seat: int) -> str:
    return f"{tag(partition(gid))}remind:{gid}:{version}:{seat}"


def k_answers(box: str) -> str:
    """A client's mailbox of move answers (list; the workers push, the client pops)."""
    return f"{P}answers:{box}"


def k_callback(token: str) -> str:
    return f"{P}callback:{token}"


K_SEQ = f"{P}seq:game"
ARCHIVE_TTL = 7 * 86400
# Rendered PNGs are a cache for delivery (every table of a turn within seconds) and `board`;
# they are drawn again from the snapshot when needed later, so they are not kept for long.
IMAGE_TTL = 600
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
TOUCH_MEMO = 300.0  # seconds a user's name and private chat, once written, are not rewritten
LOG_CHUNK = 24  # live log entries moved into the compressed part at a time

# One atomic commit: version check, idempotency, snapshot, log, events, meta, deadline index
# and outbox messages together, so a crash can never leave half a move behind.
_COMMIT_LUA = """
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
_RELEASE_LUA = """
local n = redis.call('HINCRBY', KEYS[1], 'n:' .. ARGV[1], -1)
if n <= 0 then redis.call('HDEL', KEYS[1], ARGV[1], 'n:' .. ARGV[1]) end
return n
"""


def _unchunk(blob: bytes | None) -> list[dict[str, Any]]:
    """The entries of the compressed part of a running game's log (none when absent)."""
    return list(json.loads(zlib.decompress(blob))) if blob else []


def _pairs(raw: Any) -> dict[bytes, bytes]:
    """An HGETALL answer read inside a MULTI: a dict, or (redis-py's cluster transactions skip
    the reply parsing) the flat field/value list."""
    if isinstance(raw, dict):
        return raw
    return dict(zip(raw[::2], raw[1::2], strict=True))


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
    """The answer to a key committed before whose own answer is no longer kept."""
    return {"ok": True, "code": "ok", "message": APPLIED_ALREADY, "version": version, "duplicate": True}


def pack_answer(result: Mapping[str, Any]) -> bytes:
    """A commit's answer as stored for its idempotency key: compact JSON, zlib-compressed."""
    return zlib.compress(json.dumps(result, separators=(",", ":")).encode(), 6)


def unpack_answer(raw: bytes) -> str:
    """The JSON text of a stored answer (plain JSON written by older versions is accepted)."""
    return raw.decode() if raw[:1] == b"{" else zlib.decompress(raw).decode()


def pack_snapshot(text: str) -> bytes:
    """Compress a canonical JSON dump (snapshots are re-read far more than written)."""
    return zlib.compress(text.encode(), 6)


def unpack_snapshot(blob: bytes) -> str:
    return zlib.decompress(blob).decode()


class Store:
    """Typed access to the key layout above, over one ``redis.Redis`` client."""

    def __init__(self, client: redis.Redis) -> None:
        self.r = client
        self._commit = client.register_script(_COMMIT_LUA)
        self._release = client.register_script(_RELEASE_LUA)
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

    # ------------------------------------------------------------ games
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

    def users(self, users: Sequence[str]) -> list[dict[str, str]]:
        """The records of several users (``u:{user}``) in one round trip."""
        if not users:
            return []
        pipe = self.r.pipeline(transaction=False)
        for user in users:
            pipe.hgetall(k_user(user))
        return [{k.decode(): v.decode() for k, v in _pairs(raw).items()} for raw in pipe.execute()]

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

    def release_posted(self, gid: str, version: int) -> None:
        """One table's post of ``version`` was delivered: when it was the last, drop the
        snapshot kept for drawing it."""
        self._release(keys=[k_snapv(gid)], args=[str(version)])

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
        return _unchunk(older) + [json.loads(x) for x in raw]

    def compact_log(self, gid: str, chunk: int | None = None) -> bool:
        """Move the oldest ``chunk`` entries of a running game's live log into its compressed
        part once the live list holds twice that many; True when it did.

        Why: the live list costs ~80 bytes an action and grew with the game (35 KB for 400
        moves); compressed, the whole log costs a tenth of that. The live list keeps at least
        ``chunk`` entries, so undo (which pops the newest) never reaches the compressed part.
        Optimistic: a move committed meanwhile makes it give up until the next time."""
        size = chunk or LOG_CHUNK
        with self.r.pipeline(transaction=True) as pipe:
            try:
                pipe.watch(k_log(gid), k_logc(gid))
                if pipe.llen(k_log(gid)) < 2 * size:
                    pipe.unwatch()
                    return False
                older = _unchunk(pipe.get(k_logc(gid)))
                moved = [json.loads(x) for x in pipe.lrange(k_log(gid), 0, size - 1)]
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
        running game needs (idempotency results, kept snapshots of posted turns) expire.

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
                entries += [json.loads(x) for x in pipe.lrange(k_log(gid), 0, -1)]
                blob = zlib.compress(json.dumps(entries, separators=(",", ":")).encode(), 9)
                pipe.multi()
                pipe.set(k_logz(gid), blob)
                pipe.delete(k_log(gid), k_logc(gid))
                pipe.expire(k_idem(gid), ARCHIVE_TTL)
                pipe.expire(k_idemq(gid), ARCHIVE_TTL)
                pipe.expire(k_idemh(gid), ARCHIVE_TTL)
                pipe.hset(k_meta(gid), "archived", "1")
                pipe.execute()
                return True
            except redis.WatchError:
                return False

    def events(self, gid: str, last: int = 20) -> list[dict[str, Any]]:
        return [json.loads(x) for x in self.r.lrange(k_events(gid), -last, -1)]

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
    ) -> CommitResult:
        """The atomic step: check ``expected`` version and ``idem``, then write everything.

        ``idem`` is checked against the window of stored answers, then against the hashes
        of every key committed in the game (``idemh``): either way the answer is ``dup``, with
        the stored answer or :func:`applied_already`.

        ``result`` and every outgoing message are stored with ``"version": 0`` replaced by the
        new version inside the script, so they name the version they produced.
        ``keep_snapshot`` (seconds) also keeps this version's snapshot for that long, so the
        board of a posted turn can be drawn even after the game has moved on.
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
            json.dumps(log_entry or {}, separators=(",", ":")),
            json.dumps(events, separators=(",", ":")) if events is not None else "",
            json.dumps({k: ("" if v is None else str(v)) for k, v in (meta or {}).items()}),
            "" if deadline is None else repr(float(deadline)),
            gid,
            pack_answer(res),
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

    # --------------------------------------------------- chats and users
    def chat_game(self, platform: str, chat: str) -> str | None:
        raw = self.r.get(k_chat(platform, chat))
        return raw.decode() if raw else None

    def user(self, user: str) -> dict[str, str]:
        raw = self.r.hgetall(k_user(user))
        return {k.decode(): v.decode() for k, v in raw.items()}

    def user_games(self, user: str) -> list[str]:
        """The games ``user`` plays or waits in: the union of the partitions' index sets (one
        pipelined round trip per node; "my games" is asked rarely, moves never need it)."""
        pipe = self.r.pipeline(transaction=False)
        for part in range(PARTITIONS):
            pipe.smembers(k_user_games_in(user, part))
        return sorted({x.decode() for members in pipe.execute() for x in members})

    def touch_user(self, user: str, name: str, dm: str | None = None) -> None:
        """Record a user's display name (and private chat), as seen on their latest command.

        Why a memo: every command touched the user, one write round trip each although the
        name hardly ever changes. The same values written by this process within
        ``TOUCH_MEMO`` seconds are not written again (issue 12: a move's round trips).
        Decision: a name changed back and forth between two adapter processes of one
        platform may show the older one for up to that long."""
        now = time.monotonic()
        seen = self._touched.get(user)
        if seen is not None and seen[0] == name and seen[1] == dm and now - seen[2] < TOUCH_MEMO:
            return
        if len(self._touched) > 50_000:
            self._touched.clear()
        self._write_user(user, name, dm)
        self._touched[user] = (name, dm, now)

    def _write_user(self, user: str, name: str, dm: str | None) -> None:
        # Not a MULTI: the user hash and the platform's name index live in different slots.
        pipe = self.r.pipeline(transaction=False)
        pipe.hset(k_user(user), "name", name)
        # name -> user key per platform, so `substitute @name` can find a player by name
        pipe.hset(f"{P}names:{user.partition(':')[0]}", name.strip().lower(), user)
        if dm:
            pipe.hset(k_user(user), "dm", dm)
        pipe.execute()

    def now(self) -> float:
        """Wall clock in UTC seconds (one place, so tests can patch it)."""
        return time.time()
