"""``link``: one person's accounts on two platforms become one player.

Why a one-time code typed on the other platform: only someone who controls both accounts can
type on both, so nobody can claim another person's seats. The account that asked for the
code stays the player's key (its seats, games, settings and private chat for prompts); the
account that typed the code is linked to it, and what it held (seats, lobby places, "my
games") moves over. Decision: the asking account is the one kept — it is where the player
already plays, and the typing account is usually new on its platform.
"""

from __future__ import annotations

import secrets

from workers.commands.base import CommandBase
from workers.commands.context import Context
from workers.replies import Reply, error, say
from workers.store import P, k_lobby, k_seats, k_user, k_user_games

LINK_TTL = 600
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to mistype
PLATFORM_NAMES = {"telegram": "Telegram", "discord": "Discord", "console": "the terminal"}


def k_link(code: str) -> str:
    return f"{P}link:{code}"


def account_of(store: object, user_key: str) -> str:
    """The key a user key plays as: its linked account, or itself."""
    r = store.r  # type: ignore[attr-defined]
    raw = r.hget(k_user(user_key), "account")
    return raw.decode() if raw else user_key


class AccountCommands(CommandBase):
    """The ``link`` command."""

    def cmd_link(self, ctx: Context, rest: str) -> Reply:
        code = rest.strip().upper()
        if not code:
            return self._link_code(ctx)
        owner_raw: bytes | None = self.store.r.getdel(k_link(code))  # type: ignore[assignment]
        if not owner_raw:
            return error(
                f"The link code `{code[:12]}` is unknown or has expired. Type `link` on your other platform "
                "for a new one (codes last 10 minutes and work once).",
                "link/unknown",
                private=True,
            )
        owner = owner_raw.decode()
        platform = owner.partition(":")[0]
        if platform == ctx.platform:
            self.store.r.set(k_link(code), owner, ex=LINK_TTL)  # not used up by a mistake
            other = "Discord" if ctx.platform == "telegram" else "Telegram"
            return error(
                f"Type this code on your other platform ({other}), not here.", "link/same_platform", private=True
            )
        moved = self._merge(ctx.own_key, owner)
        where = PLATFORM_NAMES.get(platform, platform)
        games = f" Your {moved} game{'s' if moved != 1 else ''} moved over." if moved else ""
        return say(
            f"Linked: this account and your {where} account are now one player — seats, `mygames` and "
            f"reminders are shared, and private messages go to {where}.{games}",
            private=True,
        )

    def _link_code(self, ctx: Context) -> Reply:
        if ctx.account:
            where = PLATFORM_NAMES.get(ctx.account.partition(":")[0], "another platform")
            return say(f"This account is already linked to your {where} account.", private=True)
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))
        self.store.r.set(k_link(code), ctx.own_key, ex=LINK_TTL)
        other = "Discord (`/agora link code:" + code + "`)" if ctx.platform != "discord" else (
            "Telegram (`/link " + code + "` in our private chat)")
        return say(
            f"Your link code is `{code}`. Within 10 minutes, type it on {other}: both accounts then play as "
            "one player. The code works once.",
            private=True,
        )

    def _merge(self, own: str, owner: str) -> int:
        """Link ``own`` to ``owner`` and move its seats, lobby places and games over."""
        games = self.store.user_games(own)
        # Decision: one MULTI per game (its seats, lobby place and index entries share its hash
        # slot), then the link itself. A crash part-way leaves some games moved, each whole, and
        # the account not yet linked: linking again with a new code moves the rest.
        for gid in games:
            pipe = self.store.r.pipeline(transaction=True)
            for seat, user in self.store.seats(gid).items():
                if user == own:
                    pipe.hset(k_seats(gid), str(seat), owner)
            waiting: list[bytes] = self.store.r.lrange(k_lobby(gid), 0, -1)  # type: ignore[assignment]
            if own.encode() in waiting:
                pipe.lrem(k_lobby(gid), 0, own)
                if owner.encode() not in waiting:
                    pipe.rpush(k_lobby(gid), owner)
            pipe.sadd(k_user_games(owner, gid), gid)
            pipe.srem(k_user_games(own, gid), gid)
            pipe.execute()
        self.store.r.hset(k_user(own), "account", owner)
        return len(games)
