"""The key scheme: every key Agora writes in Redis, its partition and its hash tag.

Why a module of its own: the layout is the contract between every process (workers, bots,
the deadline sweep, the outbox consumers, the layout migration); naming each key in one
place keeps them agreeing, and the partitions decide which keys one atomic commit may touch.

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
``g:{gid}:log``                  list    the action log: JSON ``{s, t, u, k, src, at}`` (seat,
                                         notation, undoable, idempotency key, source, time),
                                         deflated against the game's dictionary (older
                                         entries: the plain JSON)
``g:{gid}:logc``                 string  a running game's older log entries: one zlib-compressed
                                         JSON array, extended LOG_CHUNK entries at a time
``g:{gid}:logz``                 string  a finished game's log, zlib-compressed JSON (archive)
``g:{gid}:idem``                 hash    idempotency key -> JSON result of its commit, deflated
                                         against the game's dictionary (workers/compact.py),
                                         for the newest IDEM_KEPT keys (expires 7 days after
                                         the end)
``g:{gid}:idemq``                list    those keys, oldest first (the window's order)
``g:{gid}:idemh``                string  8-byte hashes of every key committed in the game,
                                         oldest first (the newest IDEM_SEEN_KEPT; expires
                                         with ``idem``): "applied already" past the window
``g:{gid}:ev``                   list    per version: ``<v>:`` then JSON ``{v, s, events:[...]}``
                                         (audience kept) deflated against the game's
                                         dictionary; older entries: the plain JSON
``g:{gid}:posted``               hash    version -> snapshot of a posted turn until every table's
                                         post of it is delivered (``n:<v>`` counts them down);
                                         at most POSTED_KEPT versions (TTL)
``g:{gid}:told``                 zset    table (``""`` for the home chat, ``@platform:chat``
                                         for another) -> the newest version whose turn post
                                         reached it (a merged post's lines start after it)
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

All times are UTC unix seconds."""

from __future__ import annotations

import zlib

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


def k_buttons(gid: str) -> str:
    """The payloads of the game's live buttons (hash: ``<version>.<seat>.<nonce>`` -> JSON;
    see workers/buttons.py)."""
    return _g(gid) + "buttons"


def k_told(gid: str) -> str:
    return _g(gid) + "told"


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
# Rendered PNGs are a cache for delivery (every table of a turn within seconds) and `board`;
# they are drawn again from the snapshot when needed later, so they are not kept for long.
IMAGE_TTL = 600
