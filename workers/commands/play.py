"""Moves: typing one, listing them, and the buttons that stand for them.

Why buttons carry a turn mark: a press is re-validated like typed text, and a button from an
earlier moment stays valid only while the same seat still holds the same choices.
"""

from __future__ import annotations

import logging
import zlib
from dataclasses import dataclass, replace
from typing import Any

from engine import EngineError
from engine.core.text import count
from workers import buttons, outbox, pipeline
from workers.commands.base import CommandBase
from workers.commands.context import MAX_BUTTONS, Context
from workers.commands.helpers import private_text
from workers.loading import Kept
from workers.pipeline import Loaded, MoveResult, Rejected
from workers.replies import Button, Part, Reply, error, say

log = logging.getLogger("workers.commands")


# A press in flight for a seat (``agora:pressing:<gid>:<seat>``), so the delivery of the next
# step's prompt knows whether waiting for it can pay off; the TTL bounds a crashed handler.
PRESSING = "agora:pressing:"
PRESS_TTL = 15

class PlayCommands(CommandBase):
    """``move``, ``moves`` and button presses."""

    def cmd_move(self, ctx: Context, rest: str) -> Reply:
        return self.typed_move(ctx, rest, "move")

    def typed_move(self, ctx: Context, rest: str, typed: str) -> Reply:
        if not rest:
            return self._which_move(ctx)
        try:
            gid, text = self._game_for(ctx, rest)
        except Rejected as exc:
            if exc.code != "game/which":
                raise
            gid, text = self._only_game_reading(ctx, rest, typed, exc)
        if not text:
            return error("Say which move after the game id. `moves` lists what you can do.", "command/usage")

        def reply(res: MoveResult) -> Reply:
            return self._result_reply(res, private=ctx.private, hidden=self._hidden(gid), gid=gid)

        # Which text is the move (the command word may be the game's own first word) is
        # decided by the worker, which parses the game anyway (workers.typed_moves).
        return self._submit_then(gid, ctx.user_key, text, ctx.idem or "", reply, typed)

    def _which_move(self, ctx: Context) -> Reply:
        """``move`` with nothing after it: say so, with the player's own moves when it is
        their turn (an example from another game, once a fixed Duellum move, only puzzled)."""
        usage = "Say which move after `move`, typed as `moves` lists it."
        try:
            listing = self.cmd_moves(ctx, "")
        except Rejected:
            return error(f"{usage} `moves` lists what you can do.", "command/usage")
        if not listing or not listing[0].ok:
            return error(f"{usage} `moves` lists what you can do.", "command/usage")
        first = listing[0]
        said = replace(first, text=f"{usage}\n{first.text}", ok=False, code="command/usage")
        return [said, *listing[1:]]

    def _only_game_reading(self, ctx: Context, rest: str, typed: str, which: Rejected) -> tuple[str, str]:
        """Several of the player's games wait for them and no game id was given: the one game
        in which the text is a legal move, else the question which game was meant."""
        readers = []
        for gid in self.store.user_games(ctx.user_key):
            if self.store.meta(gid).get("status") != "active" or not self._awaits(gid, ctx.user_key):
                continue
            if self._reads_as_move(gid, ctx, rest, typed):
                readers.append(gid)
        if len(readers) == 1:
            return readers[0], rest
        raise which

    def _reads_as_move(self, gid: str, ctx: Context, text: str, typed: str) -> bool:
        try:
            loaded = pipeline.load(self.store, gid)
        except Rejected:
            return False
        game, state = loaded.game, loaded.state
        verbs = {str(v).lower() for v in game.verbs}
        for seat in loaded.seats_of(ctx.user_key):
            if seat not in game.to_move(state):
                continue
            for candidate in (text, f"{typed} {text}" if typed in verbs else ""):
                try:
                    if candidate and game.parse(state, seat, candidate) is not None:
                        return True
                except Exception:
                    continue
        return False

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
        return self._moves_reply(loaded, seat, move_entries(loaded, seat), ctx, show_all=show_all)

    def _moves_reply(
        self, loaded: Loaded, seat: int, entries: list[MoveEntry], ctx: Context, *, show_all: bool = False
    ) -> Reply:
        """The move list: one line per group, the cheapest forms only (``moves all``: every
        form), each with what it will cost; buttons for the same moves.

        Why the text defers to the keyboard: when the buttons already show every listed move,
        "… and 2 more (`moves all` lists every one)" above them was false advice."""
        game = loaded.game
        shown = entries if show_all else [e for e in entries if not e.variant]
        hidden_variants = len(entries) - len(shown)
        groups: dict[str, list[MoveEntry]] = {}
        for e in shown:
            groups.setdefault(game.action_group(e.text), []).append(e)
        any_private = any(e.private for e in entries)
        how = "type `move <move>` or press a button" if ctx.buttons else "type one (`move` in front is optional)"
        on_keyboard = ctx.buttons and len(shown) <= MAX_BUTTONS
        lines = [f"Your moves ({len(shown)}), {how}:"]
        for group, items in groups.items():
            limit = len(items) if show_all else 6
            listed = ", ".join(e.listed() for e in items[:limit])
            more = ""
            if len(items) > limit:
                where = "on the buttons below" if on_keyboard else "(`moves all` lists every one)"
                more = f" … and {len(items) - limit} more {where}"
            lines.append(f"• {group}: {listed}{more}")
        if hidden_variants:
            lines.append(
                f"Other ways to pay: {count(hidden_variants, 'more form')} (`moves all` lists every one)."
            )
        buttons = self._buttons(loaded, seat, shown, {g: [e.text for e in v] for g, v in groups.items()}, every=entries)
        return [
            Part(text="\n".join(lines), private=any_private or ctx.private, buttons=buttons, game=loaded.gid)
        ]

    def _buttons(
        self,
        loaded: Loaded,
        seat: int,
        entries: list[MoveEntry],
        groups: dict[str, list[str]],
        page: int = 0,
        *,
        every: list[MoveEntry] | None = None,
    ) -> list[list[Button]]:
        """Buttons for ``entries``; ``every``: all of the seat's :func:`move_entries`, when the
        caller has them (the turn mark is then not computed from the legal moves again)."""
        base = {"g": loaded.gid, "v": loaded.version, "s": seat, **turn_mark(loaded, seat, every)}
        if len(entries) <= MAX_BUTTONS:
            return [[self._button({**base, "k": "move", "t": e.text}, e.label())] for e in entries]
        return [
            [self._button({**base, "k": "group", "grp": g, "p": 0}, f"{g} ({len(items)})")]
            for g, items in list(groups.items())[:MAX_BUTTONS]
        ]

    def _gone(self, token: str) -> Reply:
        """The answer to a press of a button that no longer exists: why, when its token says
        which game it was of (its turn is over, or the game), else only that it expired."""
        parsed = buttons.parse_token(token)
        expired = error("This button has expired. Type `moves` for fresh ones.", "button/expired")
        if parsed is None:
            return expired
        try:
            loaded = pipeline.load(self.store, parsed[0])
        except Rejected:
            return expired
        if loaded.meta.get("status") == "over":
            return error("This game is over; its buttons no longer do anything.", "button/game_over")
        return error(
            "That button is from an earlier moment of the game. Type `moves` for current ones.", "button/stale"
        )

    def press(self, ctx: Context, token: str) -> Reply:
        """A button press: re-validated like typed text; stale buttons only get a notice."""
        try:
            data = buttons.payloads(self.store, [token])[token]
            if data is None:
                return self._gone(token)
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
            pressing = f"{PRESSING}{data['g']}:{data['s']}"
            if ctx.in_place:
                # The outbox's prompt for the next step waits for this press only while it is
                # in flight (see the Telegram delivery): typed moves never make it wait.
                self.store.r.set(pressing, "1", ex=PRESS_TTL)
            hidden = loaded.game.info.hidden_information

            def then(res: MoveResult) -> Reply:
                try:
                    reply = self._result_reply(res, private=ctx.private, hidden=hidden, gid=data["g"])
                    if ctx.in_place and res.ok and not res.duplicate and not res.over and res.seat is not None:
                        reply += self._next_step(ctx, data["g"], res)
                    return reply
                finally:
                    if ctx.in_place:
                        self.store.r.delete(pressing)

            try:
                # A deferred move (MoveDeferred, not an Exception) keeps the press marked in
                # flight until its answer is handled by ``then``.
                return self._submit_then(data["g"], ctx.user_key, data["t"], ctx.idem or "", then)
            except Exception:
                if ctx.in_place:
                    self.store.r.delete(pressing)  # the submission itself failed: ``then`` never ran
                raise
        except Rejected as exc:
            return error(exc.message, exc.code)
        except EngineError as exc:
            return error(exc.user_message, exc.code)
        except Exception:
            log.exception("button failed")
            return error("Something went wrong on our side; nothing was changed. Please try again.", "internal")

    def _next_step(self, ctx: Context, gid: str, res: MoveResult) -> Reply:
        """After a press that did not end the player's turn: the next step's buttons, for the
        adapter to show in place of the pressed ones (code ``moves/next``).

        Why: the buttons vanished after every intermediate step and nothing replaced them
        (482 of 850 presses of one game needed a typed `moves`). Shown in place, the outbox's
        private prompt for the same step would repeat them, so it is marked as delivered. In
        a group only public moves may be shown; otherwise the private prompt does the job.
        Whichever way claims the step first shows it (see ``outbox.claim``)."""
        try:
            loaded = pipeline.load(self.store, gid)
        except Rejected:
            return []
        seat = res.seat
        if seat is None or loaded.version != res.version or seat not in loaded.game.to_move(loaded.state):
            return []
        if str(loaded.meta.get("posted_v", "")) == str(res.version):
            return []  # a new turn was posted: its board and prompts carry the buttons
        entries = move_entries(loaded, seat)
        if not ctx.private and any(e.private for e in entries):
            return []
        part = self._moves_reply(loaded, seat, entries, ctx)[0]
        if not part.buttons:
            return []
        key = f"{gid}:{res.version}:prompt:{seat}"
        if not outbox.claim(self.store, key, "in-place"):
            return []  # the prompt is out already: its message carries the buttons
        outbox.mark_sent(self.store, key)
        game, state = loaded.game, loaded.state
        # The text is the prompt's (an adapter may put it in place of a pressed prompt's text);
        # the hand is in it only for a private chat.
        head = f"⏳ Your turn in {game.info.name} `{gid}`: {game.status(state, seat)}"
        hand = private_text(game, state, seat) if ctx.private and game.info.hidden_information else ""
        text = "\n".join(x for x in (head, hand, part.text) if x)
        return [Part(text=text, buttons=part.buttons, private=ctx.private, code="moves/next", game=gid)]

    def _group_page(self, ctx: Context, loaded: Loaded, data: dict[str, Any]) -> Reply:
        game, seat = loaded.game, data["s"]
        items = [
            e for e in move_entries(loaded, seat) if not e.variant and game.action_group(e.text) == data["grp"]
        ]
        page = int(data.get("p", 0))
        size = MAX_BUTTONS - 1
        chunk = items[page * size : (page + 1) * size]
        base = {"g": loaded.gid, "v": loaded.version, "s": seat, **turn_mark(loaded, seat)}
        rows = [[self._button({**base, "k": "move", "t": e.text}, e.label())] for e in chunk]
        if (page + 1) * size < len(items):
            rows.append([self._button({**base, "k": "group", "grp": data["grp"], "p": page + 1}, "more …")])
        pages = (len(items) + size - 1) // size
        secret = any(e.private for e in chunk)
        # ``moves/page`` lets an adapter replace the pressed keyboard in place; a page is private
        # only when one of its moves would reveal something hidden (or it was asked privately).
        return [
            Part(
                text=f"{data['grp']} moves (page {page + 1} of {pages}):",
                buttons=rows,
                private=secret or ctx.private,
                code="moves/page",
                game=loaded.gid,
            )
        ]



@dataclass(frozen=True, slots=True)
class MoveEntry:
    """One legal move as lists and buttons show it."""

    text: str
    private: bool = False
    variant: bool = False
    cost: str = ""

    def listed(self) -> str:
        return f"`{self.text}` ({self.cost})" if self.cost else f"`{self.text}`"

    def label(self) -> str:
        """A button's label: the move, and what it spends (the button still sends the move)."""
        return f"{self.text} ({self.cost})" if self.cost else self.text


# Decision: the move lists of the newest 64 (snapshot, seat) pairs this process listed are kept.
# Why (issue 12, the outbox consumer's CPU): a turn post lists the awaited seat's moves for its
# buttons, and the "your turn" prompt of the same version lists them again (a Duellum rondel turn:
# every destination with every way to pay, ~0.2 ms of each move's CPU).
ENTRIES_KEPT = 64
_entries: Kept[tuple[str, int], tuple[Any, tuple[MoveEntry, ...]]] = Kept(ENTRIES_KEPT)


def move_entries(loaded: Loaded, seat: int) -> list[MoveEntry]:
    """The seat's legal moves with what the engine says of each: private, a variant of
    another (another way to pay), and its cost in words.

    Kept by the snapshot text the state was read from (``Loaded.snap``), like the parsed states
    (``loading.parsed_state``): a different state is a different text, so a kept list cannot be
    stale; a state computed in hand (no text) is listed every time."""
    key = (loaded.snap, seat)
    hit = _entries.get(key) if loaded.snap else None
    if hit is not None and hit[0] is loaded.game:
        return list(hit[1])
    game, state = loaded.game, loaded.state
    entries = [
        MoveEntry(
            game.notation(state, seat, a),
            bool(game.private_action(state, seat, a)),
            bool(game.action_variant(state, seat, a)),
            str(game.action_cost(state, seat, a) or ""),
        )
        for a in game.legal_actions(state, seat)
    ]
    if loaded.snap:
        _entries.put(key, (game, tuple(entries)))
    return entries


def turn_mark(loaded: Loaded, seat: int, every: list[MoveEntry] | None = None) -> dict[str, Any]:
    """What identifies a seat's turn on a button: the posted turn it belongs to and a
    fingerprint of the seat's legal moves then (``every``: as :func:`fingerprint`)."""
    return {"pv": loaded.meta.get("posted_v", ""), "f": fingerprint(loaded, seat, every)}


def fingerprint(loaded: Loaded, seat: int, every: list[MoveEntry] | None = None) -> int:
    """A checksum of the seat's legal moves in notation, in the engine's order. ``every``: the
    seat's :func:`move_entries`, which hold exactly those texts in that order, when the caller
    has them (issue 12: a prompt listed the legal moves twice, once for the text and once
    for this)."""
    if every is not None:
        return zlib.crc32("\n".join(e.text for e in every).encode())
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

