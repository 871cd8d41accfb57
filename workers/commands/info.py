"""Commands that only read: help, games, mygames, board, status, hand, log, and settings.

Why status is text as well as an image: a player on a phone or a screen reader must learn
whose turn it is and the scores without opening a picture.
"""

from __future__ import annotations

import json
import logging
import re

from engine import Event, find_game, list_games
from workers import images, lobby, pipeline
from workers.commands.base import CommandBase
from workers.commands.context import COMMANDS, Context
from workers.commands.helpers import (
    examples,
    is_number,
    options_help,
    players_text,
    private_text,
    safe_png,
    scores,
)
from workers.pipeline import BOT, Loaded
from workers.replies import Part, Reply, error, say
from workers.store import k_user

log = logging.getLogger("workers.commands")


LOG_SHOWN = 10
"""Lines ``log`` shows without a number."""
LOG_MOST = 50
"""The most lines one ``log`` shows (a chat message has a length limit)."""


class InfoCommands(CommandBase):
    """Read-only commands and personal settings."""

    def cmd_help(self, ctx: Context, rest: str) -> Reply:
        if rest:
            game = find_game(rest.split()[0])
            return say(
                f"**{game.info.name}** ({game.id}, {players_text(game.info)})\n"
                + game.help_text()
                + examples(game)
                + options_help(game)
            )
        lines = ["**Agora** — play board games here, one move at a time.", ""]
        lines += [f"• {v}" for v in COMMANDS.values()]
        lines += ["", "Games: " + ", ".join(f"`{g.id}`" for g in list_games()) + ". `help <game>` explains one."]
        return say("\n".join(lines))

    def cmd_games(self, ctx: Context, rest: str) -> Reply:
        lines = [
            f"• `{g.id}` — {g.info.name}, {players_text(g.info)}. {g.info.summary}"
            for g in list_games()
        ]
        return say("Games you can start with `new <game>`:\n" + "\n".join(lines))

    def cmd_mygames(self, ctx: Context, rest: str) -> Reply:
        lines = []
        for gid in self.store.user_games(ctx.user_key):
            meta = self.store.meta(gid)
            status = meta.get("status", "?")
            if status == "over":
                continue
            mark = "⏳ your turn" if status == "active" and self._awaits(gid, ctx.user_key) else status
            lines.append(f"• `{gid}` {meta.get('title', '')} — {mark}")
        if not lines:
            return say("You are not in any running game. `new <game>` starts one; `games` lists them.")
        return say("Your games:\n" + "\n".join(lines))


    def cmd_board(self, ctx: Context, rest: str) -> Reply:
        gid, _ = self._game_for(ctx, rest)
        png = safe_png(images.board_png, self.store, gid)
        if png is None:
            return say("The game has not started yet; the board appears after `begin`.")
        loaded = pipeline.load(self.store, gid)
        return [Part(text=self._status_text(loaded, None), image=png, pages=images.page_pngs(self.store, gid))]

    def cmd_status(self, ctx: Context, rest: str) -> Reply:
        gid, _ = self._game_for(ctx, rest)
        meta = self.store.meta(gid)
        if meta.get("status") == "lobby":
            seats = lobby.lobby(self.store, gid)
            return say(
                f"`{gid}` {meta.get('title')}: waiting to begin. Seated: "
                + ", ".join(s.name for s in seats)
                + ". `join` to sit down, `begin` to start."
            )
        loaded = pipeline.load(self.store, gid)
        seat = (loaded.seats_of(ctx.user_key) or [None])[0]
        # In a group the text is public: the game's lines as the table sees them (resources in
        # Duellum are public); privately, as the player's own seat sees them.
        return say(self._status_text(loaded, seat if ctx.private else None))

    def _status_text(self, loaded: Loaded, seat: int | None) -> str:
        game, state = loaded.game, loaded.state
        names = pipeline.display_names(self.store, loaded)
        # No "move N" here: the store's version counts every step (and undos), which read as a
        # second, different turn count beside the game's own "Turn 2" below.
        lines = [f"`{loaded.gid}` {game.info.name}."]
        if loaded.meta.get("result"):
            result = json.loads(loaded.meta["result"])
            winners = ", ".join(names[s] for s in result.get("winners", []))
            lines.append(f"Game over: {result.get('reason', '')} Winner: {winners or 'nobody'}.")
        else:
            lines.append(game.status(state, None))
            waiting = sorted(game.to_move(state))
            lines.append("Waiting for: " + ", ".join(names[s] for s in waiting) + ".")
            if loaded.meta.get("deadline_at") and not any(loaded.seats.get(s) == BOT for s in waiting):
                left = (float(loaded.meta["deadline_at"]) - self.store.now()) / 3600
                lines.append(f"Time left for this turn: {max(left, 0):.1f} h.")
        try:
            extra = [str(x) for x in game.status_lines(state, seat) if x]
        except Exception:  # the turn and scores must still be told
            log.exception("status_lines failed for %s", loaded.gid)
            extra = []
        lines += extra
        view = game.view(state, None)
        points = scores(view)
        if points:
            lines.append("Scores: " + ", ".join(f"{names[i]} {v}" for i, v in enumerate(points)) + ".")
        return "\n".join(lines)

    def cmd_hand(self, ctx: Context, rest: str) -> Reply:
        loaded, _ = self._loaded(ctx, rest)
        mine = loaded.seats_of(ctx.user_key)
        if not mine:
            return error("You are not playing in this game, so you have no hand.", "auth/not_a_player")
        parts: Reply = []
        for seat in mine:
            text = private_text(loaded.game, loaded.state, seat)
            parts.append(
                Part(
                    text=text,
                    image=safe_png(images.private_png, self.store, loaded.gid, seat),
                    image_name="hand.png",
                    private=True,
                )
            )
        return parts

    def cmd_log(self, ctx: Context, rest: str) -> Reply:
        gid, tail = self._game_for(ctx, rest)
        tail = tail.strip()
        if tail and not (is_number(tail) and 1 <= int(tail) <= LOG_MOST):
            return error(
                f"`log` takes how many lines to show, from 1 to {LOG_MOST} (e.g. `log 20`); `log` alone shows"
                f" the last {LOG_SHOWN}.",
                "command/usage",
            )
        n = int(tail) if tail else LOG_SHOWN
        seats = set(pipeline.load(self.store, gid).seats_of(ctx.user_key)) if ctx.private else set()
        lines: list[str] = []
        for entry in self.store.events(gid, last=200):
            for ev in entry.get("events", []):
                event = Event.from_json(ev)
                if event.public or (seats and event.seats and seats & set(event.seats)):
                    lines.append(f"{entry.get('v')}. {event.text}")
        if not lines:
            return say("Nothing has happened yet.")
        return say("\n".join(lines[-n:]), private=ctx.private)


    def cmd_settings(self, ctx: Context, rest: str) -> Reply:
        fields: dict[str, str] = {}
        for arg in rest.split():
            key, _, value = arg.partition("=")
            if key == "tz" and re.fullmatch(r"[+-]?\d{1,2}(\.5)?", value) and abs(float(value)) <= 14:
                fields["tz"] = value
            elif key == "quiet" and re.fullmatch(r"\d{1,2}-\d{1,2}", value):
                fields["quiet"] = value
            elif key == "quiet" and value == "off":
                fields["quiet"] = ""
            else:
                return error(
                    "Settings are `tz=+2` (hours from UTC) and `quiet=22-8` (no reminders then; `quiet=off` to clear).",
                    "command/usage",
                )
        if fields:
            self.store.r.hset(k_user(ctx.user_key), mapping=fields)
        user = self.store.user(ctx.user_key)
        return say(
            f"Time zone: UTC{user.get('tz', '+0')}. Quiet hours: {user.get('quiet') or 'none'}.", private=ctx.private
        )

