"""The shared command layer: what a player can type, the same on every platform.

Why one layer: Telegram, Discord and the console differ only in how they show a reply; the
grammar, the checks and every message live here once. No command raises to its caller:
every failure becomes a friendly reply that says what was wrong and what would be accepted.

Commands: ``help [game]``, ``games``, ``mygames``, ``new <game> [key=value ...]``, ``join``,
``leave``, ``begin [bots=N]`` (alias ``start``), ``move <text>``, ``moves``, ``board``,
``status``, ``hand``, ``log [n]``, ``undo``, ``resign``, ``settings [tz=+2] [quiet=22-8]``.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine import EngineError, Event, find_game, list_games
from workers import images, lobby, pipeline
from workers.pipeline import BOT, Loaded, MoveResult, Rejected
from workers.replies import Button, Part, Reply, error, say
from workers.store import Store, k_callback, k_user

log = logging.getLogger(__name__)

BUTTON_TTL = 14 * 86400
MAX_BUTTONS = 24
_GID = re.compile(r"^g[0-9a-z]{1,12}$")

MoveSubmitter = Callable[[str, str, str, str], MoveResult]
"""(gid, user key, text, idempotency key) -> result; the client sends it through Celery."""


@dataclass(frozen=True, slots=True)
class Context:
    """Who typed what, where.

    Attributes:
        platform: ``telegram``, ``discord`` or ``console``.
        chat: the chat/channel id the command came from.
        user: the platform's user id (no prefix).
        name: display name.
        private: the command came from a private chat with the bot.
        idem: the platform's update/interaction id (idempotency key for moves).
    """

    platform: str
    chat: str
    user: str
    name: str
    private: bool = False
    idem: str = ""

    @property
    def user_key(self) -> str:
        return f"{self.platform}:{self.user}"


COMMANDS: dict[str, str] = {
    "help": "`help [game]` — how to play; with a game, its rules summary and notation",
    "games": "`games` — the games you can start",
    "mygames": "`mygames` — your games, and where it is your turn",
    "new": "`new <game> [option=value ...] [hours=48]` — open a table in this chat",
    "join": "`join` — take a seat at the table in this chat",
    "leave": "`leave` — leave the table before the game begins",
    "begin": "`begin [bots=N] [order=bots-first] [seed=N]` — start the game (automatic players fill N seats)",
    "move": "`move <move>` — make a move, e.g. `move rondel templum`",
    "moves": "`moves [all]` — your legal moves, grouped, with buttons (`all`: list every one)",
    "board": "`board` — the current board image",
    "status": "`status` — whose turn it is, what is awaited, the scores",
    "hand": "`hand` — your private information (sent privately)",
    "log": "`log [n]` — the last n things that happened",
    "undo": "`undo` — take back your last move (only before anyone else moved)",
    "resign": "`resign` — leave a running game",
    "settings": "`settings [tz=+2] [quiet=22-8]` — your time zone and quiet hours for reminders",
}
ALIASES = {"start": "begin", "m": "move", "play": "move", "h": "help", "?": "help", "my": "mygames"}


class Commands:
    """Runs commands against a store; moves go through ``submit_move`` (Celery in production)."""

    def __init__(self, store: Store, submit_move: MoveSubmitter, kick: Callable[[str], None] | None = None) -> None:
        self.store = store
        self.submit_move = submit_move
        self.kick = kick

    def _changed(self, gid: str, res: MoveResult) -> MoveResult:
        """After ``begin``, ``undo`` or ``resign`` (committed here, not by a move task): render and
        wake automatic players now. Without it a bot that must move first (``order=bots-first``,
        or a seat taken over after a resignation) waited for its 15 s safety deadline plus a sweep."""
        if res.ok and not res.duplicate and self.kick is not None:
            try:
                self.kick(gid)
            except Exception:  # the safety deadline still wakes the bot
                log.exception("could not kick %s", gid)
        return res

    # ----------------------------------------------------------- dispatch
    def handle(self, ctx: Context, text: str) -> Reply:
        """Run one command line (without a leading ``/``). Never raises."""
        try:
            return self._handle(ctx, text)
        except Rejected as exc:
            return error(exc.message, exc.code)
        except EngineError as exc:
            return error(exc.user_message, exc.code)
        except Exception:
            log.exception("command failed: platform=%s chat=%s", ctx.platform, ctx.chat)
            return error("Something went wrong on our side; nothing was changed. Please try again.", "internal")

    def _handle(self, ctx: Context, text: str) -> Reply:
        line = text.strip()
        if line.startswith("/"):
            line = line[1:]
        if not line:
            return error("Type a command, for example `help`, `status` or `move …`.", "command/empty")
        word, _, rest = line.partition(" ")
        word = word.split("@", 1)[0].lower()  # Telegram sends /move@botname in groups
        word = ALIASES.get(word, word)
        rest = rest.strip()
        self.store.touch_user(ctx.user_key, ctx.name, ctx.chat if ctx.private else None)
        handler = getattr(self, f"cmd_{word}", None)
        if handler is None:
            close = [c for c in COMMANDS if c.startswith(word[:2])] or list(COMMANDS)
            return error(
                f"I don't know the command `{word[:30]}`. Try: " + ", ".join(f"`{c}`" for c in close[:6]) + ".",
                "command/unknown",
            )
        result: Reply = handler(ctx, rest)
        return result

    # ------------------------------------------------------------ helpers
    def _game_for(self, ctx: Context, rest: str = "") -> tuple[str, str]:
        """The game a command means, and the rest of the line without a game id.

        In a group: the chat's game. In a private chat: a leading game id, else the user's only
        game, else the one waiting for them.
        """
        first, _, tail = rest.partition(" ")
        if _GID.match(first.lower()) and self.store.meta(first.lower()):
            return first.lower(), tail.strip()
        gid = self.store.chat_game(ctx.platform, ctx.chat)
        if gid and (not ctx.private or self.store.meta(gid).get("status") in lobby.ACTIVE):
            return gid, rest
        if not gid and not ctx.private:
            # A group is not a private chat: acting there on the user's game elsewhere would
            # post that game's moves and status into an unrelated group.
            raise Rejected(
                "game/none_here", "There is no game in this chat. Start one with `new <game>` (see `games`)."
            )
        mine = [g for g in self.store.user_games(ctx.user_key) if self.store.meta(g).get("status") in lobby.ACTIVE]
        if len(mine) == 1:
            return mine[0], rest
        if not mine:
            raise Rejected(
                "game/none_here", "There is no game in this chat. Start one with `new <game>` (see `games`)."
            )
        waiting = [g for g in mine if self._awaits(g, ctx.user_key)]
        if len(waiting) == 1:
            return waiting[0], rest
        listing = ", ".join(f"`{g}`" for g in mine)
        raise Rejected(
            "game/which",
            f"You play in several games ({listing}). Put the game id first, e.g. "
            f"`moves {mine[0]}` or `move {mine[0]} …`.",
        )

    def _awaits(self, gid: str, user: str) -> bool:
        try:
            loaded = pipeline.load(self.store, gid)
        except Rejected:
            return False
        return any(s in loaded.game.to_move(loaded.state) for s in loaded.seats_of(user))

    def _loaded(self, ctx: Context, rest: str = "") -> tuple[Loaded, str]:
        gid, tail = self._game_for(ctx, rest)
        return pipeline.load(self.store, gid), tail

    def _button(self, payload: dict[str, Any], label: str) -> Button:
        token = "b" + secrets.token_urlsafe(9)
        self.store.r.set(k_callback(token), json.dumps(payload), ex=BUTTON_TTL)
        return Button(label[:60], token)

    # ------------------------------------------------------------ commands
    def cmd_help(self, ctx: Context, rest: str) -> Reply:
        if rest:
            game = find_game(rest.split()[0])
            return say(
                f"**{game.info.name}** ({game.id}, {game.info.min_players}–{game.info.max_players} players)\n"
                + game.help_text()
                + _examples(game)
                + _options_help(game)
            )
        lines = ["**Agora** — play board games here, one move at a time.", ""]
        lines += [f"• {v}" for v in COMMANDS.values()]
        lines += ["", "Games: " + ", ".join(f"`{g.id}`" for g in list_games()) + ". `help <game>` explains one."]
        return say("\n".join(lines))

    def cmd_games(self, ctx: Context, rest: str) -> Reply:
        lines = [
            f"• `{g.id}` — {g.info.name}, {g.info.min_players}–{g.info.max_players} players. {g.info.summary}"
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
            options[key.lower()] = _option_value(value)
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
            f"When everyone is in: `begin` (or `begin bots=1` to fill a seat with an automatic player)."
        )

    def cmd_join(self, ctx: Context, rest: str) -> Reply:
        gid, _ = self._game_for(ctx, rest)
        seats = lobby.join(self.store, gid, ctx.user_key, ctx.name)
        return say(f"{ctx.name} joined `{gid}`. At the table: " + ", ".join(s.name for s in seats) + ".")

    def cmd_leave(self, ctx: Context, rest: str) -> Reply:
        gid, _ = self._game_for(ctx, rest)
        seats = lobby.leave(self.store, gid, ctx.user_key)
        left = ", ".join(s.name for s in seats) or "nobody"
        return say(f"{ctx.name} left the table `{gid}`. Still seated: {left}.")

    def cmd_begin(self, ctx: Context, rest: str) -> Reply:
        gid, tail = self._game_for(ctx, rest)
        bots, first, seed = 0, False, None
        for arg in tail.split():
            key, _, value = arg.partition("=")
            key = key.lower()
            if key == "bots" and _is_number(value) and int(value) <= 8:
                bots = int(value)
            elif key == "order" and value.lower() in ("bots-first", "humans-first"):
                first = value.lower() == "bots-first"
            elif key == "seed" and _is_number(value) and len(value) <= 18:
                seed = int(value)
            else:
                return error(
                    "`begin` takes `bots=N` (0–8), `order=bots-first` and `seed=N`, e.g. `begin bots=1`.",
                    "command/usage",
                )
        res = lobby.begin(self.store, gid, ctx.user_key, bots=bots, bots_first=first, seed=seed, idem=f"begin:{gid}")
        return self._result_reply(self._changed(gid, res))

    def cmd_move(self, ctx: Context, rest: str) -> Reply:
        if not rest:
            return error("Say which move, e.g. `move rondel templum`. `moves` lists what you can do.", "command/usage")
        gid, text = self._game_for(ctx, rest)
        if not text:
            return error("Say which move after the game id. `moves` lists what you can do.", "command/usage")
        res = self.submit_move(gid, ctx.user_key, text, ctx.idem or "")
        return self._result_reply(res, private=ctx.private, hidden=self._hidden(gid))

    def _hidden(self, gid: str) -> bool:
        """Whether the game has hidden information (its move replies must stay private)."""
        meta = self.store.meta(gid)
        return bool(meta) and find_game(meta["game"]).info.hidden_information

    def _result_reply(self, res: MoveResult, *, private: bool = False, hidden: bool = False) -> Reply:
        """A move's reply. In a game with hidden information a refusal is private: its
        suggestions ("closest legal moves") and reasons can name cards in the mover's hand,
        and the typed text itself may be a secret pick. Private events of a success are too;
        the public part never repeats the notation (a secret pick's text)."""
        if not res.ok:
            return error(res.message, res.code, private=private or hidden)
        texts = [e["text"] for e in res.events if e.get("seats") is None]
        mine = [e["text"] for e in res.events if e.get("seats") is not None]
        reply = say("\n".join(texts) or ("Done." if hidden else res.message), private=private)
        if mine:
            reply.append(Part(text="\n".join(mine), private=True))
        return reply

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
        lines = [f"Your moves ({len(notations)}), type `move <move>` or press a button:"]
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
        base = {"g": loaded.gid, "v": loaded.version, "s": seat, **_turn_mark(loaded, seat)}
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
            if loaded.version != data["v"] and not _same_turn(loaded, data):
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
        base = {"g": loaded.gid, "v": loaded.version, "s": seat, **_turn_mark(loaded, seat)}
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

    def cmd_board(self, ctx: Context, rest: str) -> Reply:
        gid, _ = self._game_for(ctx, rest)
        png = _safe_png(images.board_png, self.store, gid)
        if png is None:
            return say("The game has not started yet; the board appears after `begin`.")
        loaded = pipeline.load(self.store, gid)
        return [Part(text=self._status_text(loaded, None), image=png)]

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
        return say(self._status_text(loaded, seat))

    def _status_text(self, loaded: Loaded, seat: int | None) -> str:
        game, state = loaded.game, loaded.state
        names = pipeline.display_names(self.store, loaded)
        lines = [f"`{loaded.gid}` {game.info.name}, move {loaded.version}."]
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
        view = game.view(state, None)
        scores = _scores(view)
        if scores:
            lines.append("Scores: " + ", ".join(f"{names[i]} {v}" for i, v in enumerate(scores)) + ".")
        return "\n".join(lines)

    def cmd_hand(self, ctx: Context, rest: str) -> Reply:
        loaded, _ = self._loaded(ctx, rest)
        mine = loaded.seats_of(ctx.user_key)
        if not mine:
            return error("You are not playing in this game, so you have no hand.", "auth/not_a_player")
        parts: Reply = []
        for seat in mine:
            text = _private_text(loaded.game, loaded.state, seat)
            parts.append(
                Part(
                    text=text,
                    image=_safe_png(images.private_png, self.store, loaded.gid, seat),
                    image_name="hand.png",
                    private=True,
                )
            )
        return parts

    def cmd_log(self, ctx: Context, rest: str) -> Reply:
        gid, tail = self._game_for(ctx, rest)
        n = int(tail) if _is_number(tail) else 10
        n = max(1, min(n, 50))
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

    def cmd_undo(self, ctx: Context, rest: str) -> Reply:
        gid, _ = self._game_for(ctx, rest)
        return self._result_reply(self._changed(gid, lobby.undo(self.store, gid, ctx.user_key, idem=ctx.idem)))

    def cmd_resign(self, ctx: Context, rest: str) -> Reply:
        gid, _ = self._game_for(ctx, rest)
        return self._result_reply(self._changed(gid, lobby.resign(self.store, gid, ctx.user_key, idem=ctx.idem)))

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

    def connect(self, ctx: Context, payload: str) -> Reply:
        """A user opened their private chat with the bot through a link naming a game
        (Telegram's ``t.me/<bot>?start=<gid>``).

        Why: a bot may not write first to a user who never opened the private chat, so hands
        and secret choices wait until they do. This remembers the chat and hands over what was
        waiting: the "your turn" prompt when the game awaits them, else their hand.
        """
        self.store.touch_user(ctx.user_key, ctx.name, ctx.chat)
        intro = "Connected. Your private information (hands, secret choices, your turn) arrives here."
        gid = payload.strip().lower()
        if not (_GID.match(gid) and self.store.meta(gid)):
            return say(intro + " `help` lists the commands.", private=True)
        if self.store.meta(gid).get("status") == "lobby":
            return say(intro + f" `{gid}` has not begun yet; your hand comes here when it does.", private=True)
        loaded = pipeline.load(self.store, gid)
        seats = loaded.seats_of(ctx.user_key)
        if not seats:
            return say(intro + f" You are not playing in `{gid}`.", private=True)
        parts = say(intro + f" Game `{gid}`:", private=True)
        prompts = [self.prompt_part({"game": gid, "seat": s}) for s in seats]
        waiting = [p for p in prompts if p is not None]
        parts += waiting if waiting else self.cmd_hand(ctx, gid)
        return parts

    # ------------------------------------------------------ outbox helpers
    def turn_part(self, message: dict[str, Any]) -> Part:
        """The one message a posted turn makes in the home chat: board, what happened, who's next."""
        gid, version = message["game"], int(message["version"])
        loaded = pipeline.load(self.store, gid)
        snap = self.store.snapshot_at(gid, version)
        state = loaded.game.load(json.loads(snap)) if snap else loaded.state
        at = pipeline.Loaded(gid, loaded.meta, loaded.game, version, state, loaded.seats)
        names = pipeline.display_names(self.store, at)
        lines = []
        for entry in self.store.events(gid, last=200):
            if int(message.get("since", 0)) <= int(entry.get("v", 0)) <= version:
                lines += [ev["text"] for ev in entry.get("events", []) if ev.get("seats") is None]
        if len(lines) > 12:
            lines = [f"… {len(lines) - 11} earlier lines (see `log`)", *lines[-11:]]
        game = loaded.game
        outcome = game.outcome(state)
        result = json.loads(loaded.meta["result"]) if loaded.meta.get("result") and version == loaded.version else None
        if outcome is not None or result:
            reason = (result or {}).get("reason") or (outcome.reason if outcome else "")
            lines.append(f"🏁 Game over. {reason}")
        else:
            waiting = sorted(game.to_move(state))
            lines.append("Next: " + ", ".join(names[s] for s in waiting) + " — " + game.status(state, None))
        png = _safe_png(images.board_png, self.store, gid, version)
        buttons: list[list[Button]] = []
        if outcome is None and version == loaded.version and not result:
            waiting = sorted(game.to_move(state))
            if len(waiting) == 1 and loaded.seats.get(waiting[0]) != BOT:
                seat = waiting[0]
                public_moves = [
                    game.notation(state, seat, a)
                    for a in game.legal_actions(state, seat)
                    if not game.private_action(state, seat, a)
                ]
                if public_moves:
                    groups: dict[str, list[str]] = {}
                    for t in public_moves:
                        groups.setdefault(game.action_group(t), []).append(t)
                    buttons = self._buttons(at, seat, public_moves, groups)
        return Part(text="\n".join(lines)[:1000], image=png, buttons=buttons)

    def prompt_part(self, message: dict[str, Any]) -> Part | None:
        """A private "your turn" note with the private moves (hands, secret picks), or None
        when the game moved on and the prompt is out of date."""
        gid, seat = message["game"], int(message["seat"])
        loaded = pipeline.load(self.store, gid)
        game, state = loaded.game, loaded.state
        if seat not in game.to_move(state) or loaded.meta.get("status") != "active":
            return None
        actions = game.legal_actions(state, seat)
        notations = [(game.notation(state, seat, a), game.private_action(state, seat, a)) for a in actions]
        head = f"⏳ Your turn in {game.info.name} `{gid}`: {game.status(state, seat)}"
        hand = _private_text(game, state, seat) if game.info.hidden_information else ""
        ctx = Context("", "", "", "", private=True)
        moves = self._moves_reply(loaded, seat, notations, ctx)[0]
        return Part(text="\n".join(x for x in (head, hand, moves.text) if x), private=True, buttons=moves.buttons)

    def reminder_part(self, message: dict[str, Any]) -> Part | None:
        gid = message["game"]
        loaded = pipeline.load(self.store, gid)
        if loaded.version != int(message.get("version", -1)):
            return None
        left = message.get("hours_left", 0)
        return Part(
            text=f"⏰ Reminder: {loaded.game.info.name} `{gid}` is waiting for your move"
            + (f" ({left} h left)." if left else "."),
            private=True,
        )


def _turn_mark(loaded: Loaded, seat: int) -> dict[str, Any]:
    """What identifies a seat's turn on a button: the posted turn it belongs to and a
    fingerprint of the seat's legal moves then."""
    return {"pv": loaded.meta.get("posted_v", ""), "f": _fingerprint(loaded, seat)}


def _fingerprint(loaded: Loaded, seat: int) -> int:
    game, state = loaded.game, loaded.state
    return zlib.crc32("\n".join(game.notation(state, seat, a) for a in game.legal_actions(state, seat)).encode())


def _same_turn(loaded: Loaded, data: dict[str, Any]) -> bool:
    """A button from an earlier version still counts when only other seats acted meanwhile:
    in a simultaneous step (7 Wonders picks) every pick bumps the version, but a player who
    has not chosen yet still holds the same choices. Same posted turn, still awaited, same
    legal moves — otherwise the game moved on and the button is stale."""
    seat = data.get("s")
    if "pv" not in data or data["pv"] != loaded.meta.get("posted_v", ""):
        return False
    if seat not in loaded.game.to_move(loaded.state):
        return False
    return bool(data.get("f") == _fingerprint(loaded, seat))


def _safe_png(render: Callable[..., bytes | None], *args: Any) -> bytes | None:
    """An image, or None when drawing it failed: a missing picture must never cost the
    message (a turn, a hand) that carries it."""
    try:
        return render(*args)
    except Exception:
        log.exception("rendering an image failed; sending the text alone")
        return None


def _examples(game: Any, limit: int = 6) -> str:
    """Notation examples taken from the engine's real legal moves in an opening position
    (one per move group first), so help never shows a spelling the parser would refuse."""
    try:
        state = game.new_game(1, game.info.min_players, {})
        seat = min(game.to_move(state))
        texts = [game.notation(state, seat, a) for a in game.legal_actions(state, seat)]
    except Exception:
        log.exception("could not build help examples for %s", game.id)
        return ""
    firsts: dict[str, str] = {}
    for t in texts:
        firsts.setdefault(game.action_group(t), t)
    picked = list(firsts.values())[:limit]
    picked += [t for t in texts if t not in picked][: limit - len(picked)]
    if not picked:
        return ""
    return "\nExamples from an opening position: " + ", ".join(f"`move {t}`" for t in picked) + "."


def _is_number(text: str) -> bool:
    """ASCII digits only: ``"²".isdigit()`` is True but ``int("²")`` raises (found by the
    bad-input property test: ``log ²`` and ``begin bots=²`` answered "something went wrong")."""
    return text.isascii() and text.isdigit()


def _option_value(value: str) -> Any:
    low = value.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if re.fullmatch(r"-?\d+", value):
        return int(value)
    return value


def _options_help(game: Any) -> str:
    opts = game.info.options_help
    if not opts:
        return ""
    return "\nOptions for `new`: " + "; ".join(f"`{k}`: {v}" for k, v in opts.items())


def _scores(view: dict[str, Any]) -> list[Any]:
    players = view.get("players")
    if not isinstance(players, list):
        return []
    out = []
    for p in players:
        if not isinstance(p, dict):
            return []
        for key in ("vp", "score", "points"):
            if key in p:
                out.append(p[key])
                break
        else:
            return []
    return out


def _private_text(game: Any, state: Any, seat: int) -> str:
    """The game's own summary of a seat's private information, else a generic one."""
    text = str(game.private_summary(state, seat))
    if text:
        return text
    return _hand_text(game.seat_names(state)[seat], game.view(state, seat))


def _hand_text(seat_name: str, view: dict[str, Any]) -> str:
    """A short text of the viewer's private information, from its view.

    The hand is the viewer's entry ``players[viewer]["hand"]`` (Antike Duellum) or the
    view's own ``hand`` (7 Wonders, where ``players`` is a count).
    """
    players = view.get("players")
    viewer = view.get("viewer")
    me = players[viewer] if isinstance(players, list) and isinstance(viewer, int) and viewer < len(players) else {}
    hand = me.get("hand") if isinstance(me, dict) else None
    if not hand and isinstance(view.get("hand"), list):
        hand = view["hand"]
    if not hand:
        return f"{seat_name}: you hold no private cards."
    names = view.get("cards", {})
    items = []
    for card in hand:
        cid = card if isinstance(card, str) else card.get("id") or card.get("name")
        label = names.get(cid, {}).get("name", cid) if isinstance(names, dict) else cid
        items.append(str(label))
    return f"{seat_name}, your hand: " + ", ".join(items) + "."
