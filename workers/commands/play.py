"""Moves: typing one, listing them, and the buttons that stand for them.

Why buttons carry a turn mark: a press is re-validated like typed text, and a button from an
earlier moment stays valid only while the same seat still holds the same choices.
"""

from __future__ import annotations

import json
import logging
import zlib
from typing import Any

from engine import EngineError
from workers import pipeline
from workers.commands.base import CommandBase
from workers.commands.context import MAX_BUTTONS, Context
from workers.pipeline import Loaded, Rejected
from workers.replies import Button, Part, Reply, error, say
from workers.store import k_callback

log = logging.getLogger("workers.commands")


class PlayCommands(CommandBase):
    """``move``, ``moves`` and button presses."""

    def cmd_move(self, ctx: Context, rest: str) -> Reply:
        if not rest:
            return error("Say which move, e.g. `move rondel templum`. `moves` lists what you can do.", "command/usage")
        gid, text = self._game_for(ctx, rest)
        if not text:
            return error("Say which move after the game id. `moves` lists what you can do.", "command/usage")
        res = self.submit_move(gid, ctx.user_key, text, ctx.idem or "")
        return self._result_reply(res, private=ctx.private, hidden=self._hidden(gid))


    def cmd_moves(self, ctx: Context, rest: str) -> Reply:
        words = rest.split()
        show_all = "all" in (w.lower() for w in words)
        loaded, _ = self._loaded(ctx, " ".join(w for w in words if w.lower() != "all"))
        game, state = loaded.game, loaded.state
        if loaded.meta.get("status") == "over":
            return say("The game is over. `status` shows the result.")
        mine = loaded.seats_of(ctx.user_key)
        if not mine:
            return error("You are not playing in this game.", "auth/not_a_player")
        movers = [s for s in mine if s in game.to_move(state)]
        if not movers:
            return say(game.status(state, mine[0]))
        seat = movers[0]
        actions = game.legal_actions(state, seat)
        notations = [(game.notation(state, seat, a), game.private_action(state, seat, a)) for a in actions]
        return self._moves_reply(loaded, seat, notations, ctx, show_all=show_all)

    def _moves_reply(
        self, loaded: Loaded, seat: int, notations: list[tuple[str, bool]], ctx: Context, *, show_all: bool = False
    ) -> Reply:
        game = loaded.game
        groups: dict[str, list[str]] = {}
        for text, _ in notations:
            groups.setdefault(game.action_group(text), []).append(text)
        any_private = any(p for _, p in notations)
        how = "type `move <move>` or press a button" if ctx.buttons else "type one (`move` in front is optional)"
        lines = [f"Your moves ({len(notations)}), {how}:"]
        for group, items in groups.items():
            limit = len(items) if show_all else 6
            shown = ", ".join(f"`{t}`" for t in items[:limit])
            more = f" … and {len(items) - limit} more (`moves all` lists every one)" if len(items) > limit else ""
            lines.append(f"• {group}: {shown}{more}")
        buttons = self._buttons(loaded, seat, [t for t, _ in notations], groups)
        return [Part(text="\n".join(lines), private=any_private or ctx.private, buttons=buttons)]

    def _buttons(
        self, loaded: Loaded, seat: int, texts: list[str], groups: dict[str, list[str]], page: int = 0
    ) -> list[list[Button]]:
        base = {"g": loaded.gid, "v": loaded.version, "s": seat, **turn_mark(loaded, seat)}
        if len(texts) <= MAX_BUTTONS:
            return [[self._button({**base, "k": "move", "t": t}, t)] for t in texts]
        return [
            [self._button({**base, "k": "group", "grp": g, "p": 0}, f"{g} ({len(items)})")]
            for g, items in list(groups.items())[:MAX_BUTTONS]
        ]

    def press(self, ctx: Context, token: str) -> Reply:
        """A button press: re-validated like typed text; stale buttons only get a notice."""
        try:
            raw = self.store.r.get(k_callback(token))
            if not raw:
                return error("This button has expired. Type `moves` for fresh ones.", "button/expired")
            data = json.loads(raw)
            loaded = pipeline.load(self.store, data["g"])
            if loaded.meta.get("status") == "over":
                return error("This game is over; its buttons no longer do anything.", "button/game_over")
            if loaded.version != data["v"] and not same_turn(loaded, data):
                return error(
                    "That button is from an earlier moment of the game. Type `moves` for current ones.", "button/stale"
                )
            if data["s"] not in loaded.seats_of(ctx.user_key):
                return error("That button belongs to another player.", "auth/not_your_button")
            if data["k"] == "group":
                return self._group_page(ctx, loaded, data)
            return self._result_reply(
                self.submit_move(data["g"], ctx.user_key, data["t"], ctx.idem or ""),
                private=ctx.private,
                hidden=loaded.game.info.hidden_information,
            )
        except Rejected as exc:
            return error(exc.message, exc.code)
        except EngineError as exc:
            return error(exc.user_message, exc.code)
        except Exception:
            log.exception("button failed")
            return error("Something went wrong on our side; nothing was changed. Please try again.", "internal")

    def _group_page(self, ctx: Context, loaded: Loaded, data: dict[str, Any]) -> Reply:
        game, seat = loaded.game, data["s"]
        texts = [game.notation(loaded.state, seat, a) for a in game.legal_actions(loaded.state, seat)]
        items = [t for t in texts if game.action_group(t) == data["grp"]]
        page = int(data.get("p", 0))
        size = MAX_BUTTONS - 1
        chunk = items[page * size : (page + 1) * size]
        base = {"g": loaded.gid, "v": loaded.version, "s": seat, **turn_mark(loaded, seat)}
        rows = [[self._button({**base, "k": "move", "t": t}, t)] for t in chunk]
        if (page + 1) * size < len(items):
            rows.append([self._button({**base, "k": "group", "grp": data["grp"], "p": page + 1}, "more …")])
        pages = (len(items) + size - 1) // size
        chosen = set(chunk)
        secret = any(
            game.private_action(loaded.state, seat, a)
            for a in game.legal_actions(loaded.state, seat)
            if game.notation(loaded.state, seat, a) in chosen
        )
        # ``moves/page`` lets an adapter replace the pressed keyboard in place; a page is private
        # only when one of its moves would reveal something hidden (or it was asked privately).
        return [
            Part(
                text=f"{data['grp']} moves (page {page + 1} of {pages}):",
                buttons=rows,
                private=secret or ctx.private,
                code="moves/page",
            )
        ]



def turn_mark(loaded: Loaded, seat: int) -> dict[str, Any]:
    """What identifies a seat's turn on a button: the posted turn it belongs to and a
    fingerprint of the seat's legal moves then."""
    return {"pv": loaded.meta.get("posted_v", ""), "f": fingerprint(loaded, seat)}


def fingerprint(loaded: Loaded, seat: int) -> int:
    game, state = loaded.game, loaded.state
    return zlib.crc32("\n".join(game.notation(state, seat, a) for a in game.legal_actions(state, seat)).encode())


def same_turn(loaded: Loaded, data: dict[str, Any]) -> bool:
    """A button from an earlier version still counts when only other seats acted meanwhile:
    in a simultaneous step (7 Wonders picks) every pick bumps the version, but a player who
    has not chosen yet still holds the same choices. Same posted turn, still awaited, same
    legal moves — otherwise the game moved on and the button is stale."""
    seat = data.get("s")
    if "pv" not in data or data["pv"] != loaded.meta.get("posted_v", ""):
        return False
    if seat not in loaded.game.to_move(loaded.state):
        return False
    return bool(data.get("f") == fingerprint(loaded, seat))

