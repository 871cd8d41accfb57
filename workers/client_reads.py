"""What an adapter reads about games, players and buttons, outside any command.

Why a module of its own: adapters ask small questions between commands - is the game waiting
for this user, what is its chat, what does this button stand for, what is this seat called -
to word their messages and mentions; each is one short read of the store, never a move.
"""

from __future__ import annotations

from typing import Any

from workers import buttons, pipeline
from workers.commands import Commands
from workers.commands.accounts import account_of
from workers.pipeline import BOT
from workers.store import Store


class ClientReads:
    """:class:`workers.client.Client`'s reads of games, users and buttons."""

    store: Store
    commands: Commands

    def user_key(self, platform: str, user: str) -> str:
        """The key a platform user plays as (their linked account, or ``platform:user``)."""
        return account_of(self.store, f"{platform}:{user}")

    def awaits(self, gid: str, platform: str, user: str) -> bool:
        """Whether game ``gid`` is waiting for a move of this user (or is over: False)."""
        meta = self.store.meta(gid)
        if meta.get("status") != "active":
            return False
        return self.commands._awaits(gid, self.user_key(platform, user))

    def game_status(self, gid: str) -> str:
        """``lobby``, ``active``, ``over`` or ``""`` when there is no such game."""
        return self.store.meta(gid).get("status", "")

    def user_dm(self, platform: str, user: str) -> str | None:
        return self.store.user(f"{platform}:{user}").get("dm")

    def user_name(self, user_key: str) -> str:
        """Display name of a user key (``telegram:42``), or the bare id when unknown."""
        return self.store.user(user_key).get("name") or user_key.partition(":")[2]

    def chat_game(self, platform: str, chat: str) -> str | None:
        """The game id played in a chat, if any (adapters use it to name the game in links)."""
        return self.store.chat_game(platform, chat)

    def home_chat(self, platform: str, gid: str) -> str | None:
        """The chat a game lives in on ``platform`` — its home, or a table that joined by the
        join code — for notices that must be posted there ("open the private chat with me")."""
        meta = self.store.meta(gid)
        # The home chat first, then the tables that joined by the join code.
        for place in [meta.get("home", ""), *meta.get("tables", "").split()]:
            plat, _, chat = place.partition(":")
            if plat == platform and chat:
                return chat
        return None

    def game_summary(self, gid: str) -> dict[str, Any] | None:
        """What a local front end needs to show or resume a game, or None when there is none.

        Keys: ``game`` (id), ``title``, ``status``, ``version`` (moves so far), ``posted``
        (the last version posted as a turn), ``home`` (``platform:chat``), ``users`` (seat ->
        user key, automatic players omitted), ``seat_names`` (the game's names of the seats
        once it began) and ``resumable`` (False when this Agora can no longer load the saved
        state, e.g. it was saved by an older engine).
        """
        meta = self.store.meta(gid)
        if not meta:
            return None
        seats = {s: u for s, u in self.store.seats(gid).items() if u != BOT}
        resumable, names = True, []
        if meta.get("status") in ("active", "over"):
            try:
                loaded = pipeline.load(self.store, gid)
                names = loaded.game.seat_names(loaded.state)
            except Exception:
                resumable = False
        return {
            "game": meta.get("game", ""),
            "title": meta.get("title", ""),
            "status": meta.get("status", ""),
            "version": int(meta.get("version", 0) or 0),
            "posted": int(meta.get("posted_v", 0) or 0),
            "home": meta.get("home", ""),
            "users": seats,
            "resumable": resumable,
            "seat_names": names,
        }

    def user_game_ids(self, platform: str, user: str) -> list[str]:
        """Every game id this user has a seat in, newest first."""
        ids = self.store.user_games(self.user_key(platform, user))
        return sorted(ids, key=lambda g: int(g[1:], 36) if g[1:].isalnum() else 0, reverse=True)

    def awaited_moves(self, gid: str, platform: str, user: str, *, variants: bool = False) -> list[str]:
        """The notations of the legal moves the game awaits from this user now (empty when it
        awaits nobody of theirs), for a short "your turn" hint. With ``variants`` also the
        other forms of a move (another way to pay), listed after the main forms — Discord's
        move autocomplete offers them once the typed text narrows down to them."""
        try:
            loaded = pipeline.load(self.store, gid)
        except Exception:
            return []
        game, state = loaded.game, loaded.state
        for seat in loaded.seats_of(self.user_key(platform, user)):
            if seat in game.to_move(state):
                actions = game.legal_actions(state, seat)
                main = [game.notation(state, seat, a) for a in actions if not game.action_variant(state, seat, a)]
                if not variants:
                    return main
                return main + [game.notation(state, seat, a) for a in actions if game.action_variant(state, seat, a)]
        return []

    def awaited_users(self, gid: str, version: int | None = None) -> list[str]:
        """User keys the game awaits now (automatic players left out), from one load; empty
        when the game is over or has moved past ``version``. For "your turn" mentions."""
        try:
            loaded = pipeline.load(self.store, gid)
        except Exception:
            return []
        if loaded.meta.get("status") != "active" or (version is not None and loaded.version != version):
            return []
        waiting = loaded.game.to_move(loaded.state)
        return sorted({u for s, u in loaded.seats.items() if s in waiting and u != BOT})

    def button_info(self, tokens: list[str]) -> dict[str, dict[str, Any] | None]:
        """What each button token stands for (``g`` game, ``v`` version, ``s`` seat, ``k``
        kind), or None for an expired one: Discord puts game, version and seat into its
        component ids so a press can be answered without another lookup."""
        return buttons.payloads(self.store, tokens)

    def seat_label(self, gid: str, seat: int) -> str:
        """``Romans (alice)``: the name a seat is called by in the game's messages."""
        try:
            return pipeline.display_names(self.store, pipeline.load(self.store, gid))[seat]
        except Exception:
            return "another player"
