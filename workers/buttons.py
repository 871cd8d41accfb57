"""Button payloads: one hash per game, holding only the buttons that can still act.

Why this layout: every prompt and turn post makes up to a dozen buttons. They used to be one
key each, kept 14 days: about 1.9 KB of Redis memory per move (measured over 300 Duellum moves)
that outlived the game by two weeks, so memory grew with the moves played, not with the games
running (issue 12: storage that stays bounded while a game runs). A button can only act while
its turn is the game's posted turn (see ``workers.commands.play.same_turn``): once a newer turn
is posted, every button made before it is stale for good. So the game's buttons live in one
hash, and the buttons of earlier turns are dropped when the first button of a newer turn is
written. The hash expires 14 days after its last write, and a finished game's goes with it.

A token names its game and version (``b<game>-<version base 36>-<nonce>``, only characters
Discord allows in a component id and Telegram in callback data): a press on a
dropped button still says why it no longer acts (an earlier moment of the game, or the game is
over) instead of only "expired". Tokens of the older layout (``b`` and 12 random characters)
are still read from their own keys until those expire.
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

# Write a game's new buttons (ARGV[3..]: field, payload pairs) and refresh its expiry; when
# the game's posted turn (ARGV[2]) is newer than at the last clean-up (field "_p"), drop every
# button made before that turn (its version, the field's base-36 prefix, is below it).
STORE_LUA = """
local key, posted = KEYS[1], tonumber(ARGV[2])
for i = 3, #ARGV, 2 do redis.call('HSET', key, ARGV[i], ARGV[i + 1]) end
local last = tonumber(redis.call('HGET', key, '_p') or '-1')
if posted > last then
  for _, f in ipairs(redis.call('HKEYS', key)) do
    local v = string.match(f, '^(%w+)%.')
    if v and tonumber(v, 36) < posted then redis.call('HDEL', key, f) end
  end
  redis.call('HSET', key, '_p', posted)
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


def new_token(gid: str, version: int) -> tuple[str, str]:
    """(token, field) of a new button of game ``gid`` at ``version``."""
    field = f"{_base36(max(0, version))}.{secrets.token_urlsafe(6)}"
    return f"b{gid}-{field.replace('.', '-', 1)}", field


# The game id and the version are [0-9a-z], so the first two dashes end them; the nonce
# (URL-safe base 64) may hold dashes of its own.
_TOKEN = re.compile(r"^b(g[0-9a-z]{1,12})-([0-9a-z]{1,8})-([A-Za-z0-9_-]{1,16})$")


def parse_token(token: str) -> tuple[str, int, str] | None:
    """(game, version, field) of a token of this layout, or None (an older token, or none)."""
    m = _TOKEN.match(token)
    if m is None:
        return None
    gid, v36, nonce = m.groups()
    return gid, int(v36, 36), f"{v36}.{nonce}"


def write(store: Store, gid: str, posted: int, buttons: Iterable[tuple[str, str]]) -> None:
    """Write ``buttons`` (field, JSON payload) of game ``gid`` whose posted turn is version
    ``posted``, in one round trip; drops the game's buttons of turns before it. A payload
    leaves out the game and version: :func:`payloads` adds them from the token."""
    script = store.__dict__.get("_buttons_store")
    if script is None:
        script = store.__dict__["_buttons_store"] = store.r.register_script(STORE_LUA)
    args: list[Any] = [BUTTON_TTL, posted]
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
