"""Users and chats: display names, private chats, the games a user plays, a chat's game.

Why a module of its own: these keys live outside any game's partition (a user plays in many
games) and are written on every command, so they are kept apart from the game record and
its commit, with the memo that spares a write per command.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import redis

from workers.keys import PARTITIONS, P, k_chat, k_user, k_user_games_in
from workers.records import _pairs

TOUCH_MEMO = 300.0  # seconds a user's name and private chat, once written, are not rewritten


class Users:
    """The store's users and chats."""

    r: redis.Redis
    _touched: dict[str, tuple[str, str | None, float]]

    def users(self, users: Sequence[str]) -> list[dict[str, str]]:
        """The records of several users (``u:{user}``) in one round trip."""
        if not users:
            return []
        pipe = self.r.pipeline(transaction=False)
        for user in users:
            pipe.hgetall(k_user(user))
        return [{k.decode(): v.decode() for k, v in _pairs(raw).items()} for raw in pipe.execute()]

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
