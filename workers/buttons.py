"""Button payloads: one hash per game, holding only the buttons that can still act.

Why this layout: every prompt and turn post makes up to a dozen buttons. They used to be one
key each, kept 14 days: about 1.9 KB of Redis memory per move (measured over 300 Duellum moves)
that outlived the game by two weeks, so memory grew with the moves played, not with the games
running (issue 12: storage that stays bounded while a game runs). A button can only act while
its turn is the game's posted turn and the seat's legal moves are those it was made for (see
``workers.commands.play.same_turn``): once a newer turn is posted, every button made before it
is stale for good, and so are a seat's buttons once it has acted. So the game's buttons live in
one hash, and stale ones are dropped as new ones are written. The hash expires 14 days after
its last write, and an archived game's goes at once.

A token names its game, version and seat (``b<game>-<version>-<seat>-<nonce>``, numbers in
base 36: only characters Discord allows in a component id and Telegram in callback data; all
three are public). A press on a dropped button therefore still says why it no longer acts (an
earlier moment of the game, or the game is over) instead of only "expired". Nothing derived
from a hand is in a token: the fingerprints of the seats' legal moves stay in the hash. Tokens
of the older layout (``b`` and 12 random characters) are still read from their own keys until
those expire.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Iterable
from typing import Any

from workers.keys import k_buttons, k_callback
from workers.store import Store

BUTTON_TTL = 14 * 86400
"""Seconds a game's buttons are kept after the last one was written."""

_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"

# Write a game's new buttons and refresh the hash's expiry. ARGV: the expiry, the game's
# posted turn, the number N of seats the buttons are for, then per seat (seat, fingerprint of
# its legal moves, newest version of its new buttons), then field, payload pairs; a field is
# "<version>.<seat>.<nonce>", numbers in base 36. Then drop what can no longer act: every button
# made before the posted turn (scanned when it is newer than at the last clean-up, field "_p"),
# and a seat's buttons of earlier versions when its fingerprint differs from that of its last
# buttons (field "_f<seat>": the seat acted since, so they are stale; see
# workers.commands.play.same_turn). The fingerprints stay in the hash: a token is seen in the
# chat, and a checksum of a hidden hand's moves must not be.
STORE_LUA = """
local key, posted, n = KEYS[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local moved = {}
local scan = false
for i = 0, n - 1 do
  local s, f = ARGV[4 + 3 * i], ARGV[5 + 3 * i]
  if redis.call('HGET', key, '_f' .. s) ~= f then
    redis.call('HSET', key, '_f' .. s, f)
    moved[s] = tonumber(ARGV[6 + 3 * i])
    scan = true
  end
end
for i = 4 + 3 * n, #ARGV, 2 do redis.call('HSET', key, ARGV[i], ARGV[i + 1]) end
local last = tonumber(redis.call('HGET', key, '_p') or '-1')
if posted > last then
  redis.call('HSET', key, '_p', posted)
  scan = true
end
if scan then
  for _, field in ipairs(redis.call('HKEYS', key)) do
    local v, s = string.match(field, '^(%w+)%.(%w+)%.')
    if v then
      local ver = tonumber(v, 36)
      if ver < posted or (moved[s] and ver < moved[s]) then redis.call('HDEL', key, field) end
    end
  end
end
redis.call('EXPIRE', key, tonumber(ARGV[1]))
return redis.call('HLEN', key)
"""


def _base36(n: int) -> str:
    out = ""
    while True:
        n, d = divmod(n, 36)
        out = _DIGITS[d] + out
        if not n:
            return out


def new_token(gid: str, version: int, seat: int = 0) -> tuple[str, str]:
    """(token, field) of a new button of game ``gid`` at ``version`` for ``seat``."""
    field = f"{_base36(max(0, version))}.{_base36(max(0, seat))}.{secrets.token_urlsafe(6)}"
    return "b" + gid + "-" + field.replace(".", "-", 2), field


# The game id and the numbers are [0-9a-z], so the first three dashes end them; the nonce
# (URL-safe base 64) may hold dashes of its own.
_TOKEN = re.compile(r"^b(g[0-9a-z]{1,12})-([0-9a-z]{1,8})-([0-9a-z]{1,4})-([A-Za-z0-9_-]{1,16})$")


def parse_token(token: str) -> tuple[str, int, str] | None:
    """(game, version, field) of a token of this layout, or None (an older token, or none)."""
    m = _TOKEN.match(token)
    if m is None:
        return None
    gid, version, seat, nonce = m.groups()
    return gid, int(version, 36), f"{version}.{seat}.{nonce}"


def write(
    store: Store, gid: str, posted: int, seats: dict[int, tuple[int, int]], buttons: Iterable[tuple[str, str]]
) -> None:
    """Write ``buttons`` (field, JSON payload) of game ``gid`` whose posted turn is version
    ``posted``, in one round trip. ``seats``: seat -> (fingerprint of its legal moves, newest
    version of its buttons here). Drops the game's buttons that can no longer act (see the
    script above). A payload leaves out the game and version: :func:`payloads` adds them from
    the token."""
    script = store.__dict__.get("_buttons_store")
    if script is None:
        script = store.__dict__["_buttons_store"] = store.r.register_script(STORE_LUA)
    args: list[Any] = [BUTTON_TTL, posted, len(seats)]
    for seat, (fingerprint, version) in seats.items():
        args += [_base36(max(0, seat)), fingerprint, version]
    for field, payload in buttons:
        args += [field, payload]
    script(keys=[k_buttons(gid)], args=args)


def payloads(store: Store, tokens: list[str]) -> dict[str, dict[str, Any] | None]:
    """What each token stands for, or None for a button that no longer exists (dropped with
    its turn, expired, or never made); one round trip for all of them."""
    if not tokens:
        return {}
    parsed = [parse_token(token) for token in tokens]
    pipe = store.r.pipeline(transaction=False)
    for token, where in zip(tokens, parsed, strict=True):
        if where is None:
            pipe.get(k_callback(token))
        else:
            pipe.hget(k_buttons(where[0]), where[2])
    out: dict[str, dict[str, Any] | None] = {}
    for token, where, raw in zip(tokens, parsed, pipe.execute(), strict=True):
        data = json.loads(raw) if raw else None
        if data is not None and where is not None:
            data.update(g=where[0], v=where[1])  # named by the token, not stored (see write)
        out[token] = data
    return out
