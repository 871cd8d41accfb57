"""Commands that set up and end a seat at the table: new, join, leave, begin, undo, resign."""

from __future__ import annotations

from typing import Any

from engine import find_game
from workers import lobby
from workers.commands.base import CommandBase
from workers.commands.context import GID, Context
from workers.commands.helpers import is_number, option_value
from workers.replies import Reply, error, say


class TableCommands(CommandBase):
    """The lobby commands and the two that change a running game's seats or history."""

    def cmd_new(self, ctx: Context, rest: str) -> Reply:
        if not rest:
            return error("Say which game: `new duellum` (see `games`).", "command/usage")
        name, *args = rest.split()
        options: dict[str, Any] = {}
        hours = 48.0
        for arg in args:
            key, sep, value = arg.partition("=")
            if not sep or not key or not value:
                return error(
                    f"Options are written `name=value` (e.g. `map=greece-persia`); `{arg}` is not.", "command/usage"
                )
            if key.lower() in ("hours", "turn_hours"):
                try:
                    hours = float(value)
                except ValueError:
                    return error(
                        "`hours` takes a number of hours per turn, e.g. `hours=24` (0 = no limit).", "command/usage"
                    )
                if not 0 <= hours <= 24 * 30:
                    return error("`hours` must be between 0 (no limit) and 720.", "command/usage")
                continue
            options[key.lower()] = option_value(value)
        gid = lobby.create(
            self.store,
            name,
            platform=ctx.platform,
            chat=ctx.chat,
            user=ctx.user_key,
            name=ctx.name,
            options=options,
            turn_hours=hours,
        )
        game = find_game(name)
        return say(
            f"New {game.info.name} table `{gid}`. {ctx.name} is seated. Others: `join`. "
            f"When everyone is in: `begin` (or `begin bots=1` to fill a seat with an automatic player). "
            f"Join code `{gid}`: `join {gid}` seats a player from any Telegram group or Discord channel, "
            "and that chat shows the game too."
        )

    def cmd_join(self, ctx: Context, rest: str) -> Reply:
        code = rest.split()[0].lower() if rest.split() else ""
        if code and not (GID.match(code) and self.store.meta(code)):
            return error(
                f"There is no table with the join code `{code[:16]}`. Check the code, or start a table "
                "here with `new <game>` (see `games`).",
                "lobby/no_such_code",
            )
        gid, _ = self._game_for(ctx, rest)
        status = self.store.meta(gid).get("status")
        seated = lobby.lobby(self.store, gid) if status == "lobby" else []
        if any(s.user == ctx.user_key for s in seated):
            return say(
                f"{ctx.name}, you are already seated at `{gid}`. At the table: "
                + ", ".join(s.name for s in seated)
                + ". `begin` starts the game when everyone is in."
            )
        if status == "active" and ctx.user_key in self.store.seats(gid).values():
            return say(f"{ctx.name}, you are already playing in `{gid}`. `status` shows whose turn it is.")
        seats = lobby.join(self.store, gid, ctx.user_key, ctx.name)
        note = ""
        if code and not ctx.private and not lobby.add_table(self.store, gid, ctx.platform, ctx.chat):
            note = " This chat has another game running, so the boards of this one are not posted here."
        return say(f"{ctx.name} joined `{gid}`. At the table: " + ", ".join(s.name for s in seats) + "." + note)

    def cmd_leave(self, ctx: Context, rest: str) -> Reply:
        gid, _ = self._game_for(ctx, rest)
        seats = lobby.leave(self.store, gid, ctx.user_key)
        left = ", ".join(s.name for s in seats) or "nobody"
        return say(f"{ctx.name} left the table `{gid}`. Still seated: {left}.")

    def cmd_start(self, ctx: Context, rest: str) -> Reply:
        """``start`` never begins a game: on Telegram it is the private chat's Start button and
        a reflex elsewhere, and a game begun with two of three friends cannot take the third."""
        if ctx.private:
            return say("Hello! I run board games in group chats. `help` lists the commands; `games` the games.")
        gid = self.store.chat_game(ctx.platform, ctx.chat)
        status = self.store.meta(gid).get("status") if gid else None
        if status == "lobby":
            seated = ", ".join(s.name for s in lobby.lobby(self.store, gid or ""))
            return say(
                f"`start` does not begin the game. At the table `{gid}`: {seated}. Others type `join`; "
                "when everyone is in, type `begin` (or `begin bots=1` to fill a seat with an automatic player)."
            )
        if status == "active":
            return say(f"The game `{gid}` is running. `status` shows whose turn it is; `moves` lists yours.")
        return say("To play here, open a table with `new <game>` (`games` lists them); then `join` and `begin`.")

    def cmd_begin(self, ctx: Context, rest: str) -> Reply:
        gid, tail = self._game_for(ctx, rest)
        bots, first, seed = 0, False, None
        for arg in tail.split():
            key, _, value = arg.partition("=")
            key = key.lower()
            if key == "bots" and is_number(value) and int(value) <= 8:
                bots = int(value)
            elif key == "order" and value.lower() in ("bots-first", "humans-first"):
                first = value.lower() == "bots-first"
            elif key == "seed" and is_number(value) and len(value) <= 18:
                seed = int(value)
            else:
                return error(
                    "`begin` takes `bots=N` (0–8), `order=bots-first` and `seed=N`, e.g. `begin bots=1`.",
                    "command/usage",
                )
        res = lobby.begin(self.store, gid, ctx.user_key, bots=bots, bots_first=first, seed=seed, idem=f"begin:{gid}")
        return self._result_reply(self._changed(gid, res))


    def cmd_undo(self, ctx: Context, rest: str) -> Reply:
        gid, _ = self._game_for(ctx, rest)
        return self._result_reply(self._changed(gid, lobby.undo(self.store, gid, ctx.user_key, idem=ctx.idem)))

    def cmd_resign(self, ctx: Context, rest: str) -> Reply:
        gid, _ = self._game_for(ctx, rest)
        return self._result_reply(self._changed(gid, lobby.resign(self.store, gid, ctx.user_key, idem=ctx.idem)))

