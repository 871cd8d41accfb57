"""The dispatcher and the helpers every command shares: finding the game a command means,
turning failures into replies, and minting button tokens.

Why never raise: an adapter must always have something friendly to show; a traceback in chat
is a bug, so every exception ends here as a reply that says nothing was changed.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
from collections.abc import Callable, Iterator
from typing import Any

from engine import EngineError, find_game
from workers import buttons, lobby, pipeline
from workers.commands.context import ALIASES, COMMANDS, GID, Context, MoveSubmitter
from workers.pipeline import Loaded, MoveResult, Rejected
from workers.replies import Button, Part, Reply, error
from workers.store import Store

log = logging.getLogger("workers.commands")
_DEFER = threading.local()
_BUTTONS = threading.local()


class MoveDeferred(BaseException):
    """Raised in place of waiting for a move's answer while :func:`deferring_moves` is on.

    Why: an adapter on an event loop must not hold a thread for the whole life of a move (at
    1,000 tables its pool ran dry and players queued for a free thread, issue 12). The
    command runs up to the submission, which this carries out of it with ``then``, the rest
    of the command; the adapter submits, awaits the answer without a thread, and finishes
    with :meth:`CommandBase.finish`. A BaseException so no ``except Exception`` of a
    command mistakes it for a failure."""

    def __init__(
        self, gid: str, user: str, text: str, idem: str, then: Callable[[MoveResult], Reply], typed: str = ""
    ) -> None:
        super().__init__(gid)
        self.gid, self.user, self.text, self.idem, self.then = gid, user, text, idem, then
        self.typed = typed  # the command word typed before the text (see MoveSubmitter)


@contextlib.contextmanager
def deferring_moves() -> Iterator[None]:
    """Within this block (this thread), a command raises :class:`MoveDeferred` at its move."""
    _DEFER.on = True
    try:
        yield
    finally:
        _DEFER.on = False

_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"))


def plain_spaces(text: str) -> str:
    """The line with every kind of space made one plain space and invisible marks removed.

    Why: phones and copy-paste put non-breaking spaces into `/move rondel ferrum`; the
    command word then swallowed the whole line and the player read "unknown command"."""
    return " ".join(text.translate(_INVISIBLE).split())


OUTBOXED = "move/private"
"""Code of a reply part that the outbox delivers as well (a committed move's private events):
an adapter that shows the outbox may skip it, and nothing else."""

PUBLIC_REASONS = frozenset(
    {
        "action/not_your_turn",
        "action/extra_words",
        "action/game_over",
        "action/invalid_notation",
        "auth/not_a_player",
        "game/not_found",
        "game/not_started",
        "pipeline/moved_on",
        "pipeline/queued",
        "store/busy",
        "internal",
    }
)
"""Refusal codes whose message never depends on hidden information (whose turn it is, an
unknown first word, the server); every other refusal may name what a hand holds."""

HIDDEN_REFUSAL = (
    "That is not one of your moves right now, so nothing was changed. The exact reason would "
    "show your hidden cards, so it is only given in our private chat; `moves` there lists what "
    "you can do."
)


def store_buttons(store: Store, batch: list[tuple[str, int, int, int, str, str]]) -> None:
    """Write button payloads ``(game, posted turn, seat, fingerprint, field, payload)``: one
    round trip per game (a part's buttons are all of one game), see :mod:`workers.buttons`."""
    games: dict[str, tuple[int, dict[int, tuple[int, int]], list[tuple[str, str]]]] = {}
    for gid, posted, seat, fingerprint, field, payload in batch:
        known, seats, fields = games.setdefault(gid, (posted, {}, []))
        version = int(field.split(".", 1)[0], 36)
        if seat not in seats or version >= seats[seat][1]:
            seats[seat] = (fingerprint, version)
        games[gid] = (max(known, posted), seats, fields)
        fields.append((field, payload))
    for gid, (posted, seats, fields) in games.items():
        buttons.write(store, gid, posted, seats, fields)


class CommandBase:
    """Runs commands against a store; moves go through ``submit_move`` (Celery in production)."""

    def __init__(self, store: Store, submit_move: MoveSubmitter, kick: Callable[[str], None] | None = None) -> None:
        self.store = store
        self.submit_move = submit_move
        self.kick = kick

    def _submit_then(
        self, gid: str, user: str, text: str, idem: str, then: Callable[[MoveResult], Reply], typed: str = ""
    ) -> Reply:
        """Submit a move and reply with ``then(answer)``; deferred (see :class:`MoveDeferred`)
        when the caller awaits answers itself. ``typed``: as for :class:`MoveSubmitter`."""
        if getattr(_DEFER, "on", False):
            raise MoveDeferred(gid, user, text, idem, then, typed)
        if typed:
            return then(self.submit_move(gid, user, text, idem, typed=typed))
        return then(self.submit_move(gid, user, text, idem))

    def finish(self, deferred: MoveDeferred, answer: MoveResult) -> Reply:
        """The rest of a deferred command once its move is answered. Never raises."""
        try:
            return deferred.then(answer)
        except Rejected as exc:
            return error(exc.message, exc.code)
        except EngineError as exc:
            return error(exc.user_message, exc.code)
        except Exception:
            log.exception("finishing a move's reply failed in %s", deferred.gid)
            return error("Something went wrong on our side; please look at the board before moving again.", "internal")

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
        line = plain_spaces(text)
        if line.startswith("/"):
            line = line[1:]
        if not line:
            return error("Type a command, for example `help`, `status` or `move …`.", "command/empty")
        typed, _, rest = line.partition(" ")
        typed = typed.split("@", 1)[0].lower()  # Telegram sends /move@botname in groups
        word = ALIASES.get(typed, typed)
        rest = rest.strip()
        self.store.touch_user(ctx.own_key, ctx.name, ctx.chat if ctx.private else None)
        if word == "move":
            return self.typed_move(ctx, rest, typed)
        handler = getattr(self, f"cmd_{word}", None)
        if handler is None and self._is_verb(ctx, typed):
            # A move typed without `move` in front (`rondel ferrum`), exactly as `moves` lists it.
            return self.typed_move(ctx, line, "")
        if handler is None:
            close = [c for c in COMMANDS if c.startswith(word[:2])] or list(COMMANDS)
            return error(
                f"I don't know the command `{word[:30]}`. Try: " + ", ".join(f"`{c}`" for c in close[:6]) + ".",
                "command/unknown",
            )
        result: Reply = handler(ctx, rest)
        return result

    def typed_move(self, ctx: Context, rest: str, typed: str) -> Reply:
        """A typed move; ``typed`` is the command word used (``move``, ``play``, ``m``), which may
        also be the game's own verb. Implemented by the play commands."""
        raise NotImplementedError

    def _is_verb(self, ctx: Context, word: str) -> bool:
        """Whether ``word`` starts a move of the game this chat means (no error if none)."""
        if not word or word in COMMANDS:
            return False
        try:
            gids = [self._game_for(ctx, "")[0]]
        except Rejected as exc:
            if exc.code != "game/which":
                return False
            gids = self.store.user_games(ctx.user_key)  # which one is settled when it is read
        except Exception:
            return False
        verbs: set[str] = set()
        for gid in gids:
            meta = self.store.meta(gid)
            if meta.get("status") == "active":
                verbs |= {str(v).lower() for v in find_game(meta["game"]).verbs}
        return word in verbs

    # ------------------------------------------------------------ helpers
    def _game_for(self, ctx: Context, rest: str = "") -> tuple[str, str]:
        """The game a command means, and the rest of the line without a game id.

        In a group: the chat's game. In a private chat: a leading game id, else the user's only
        game, else the one waiting for them.
        """
        first, _, tail = rest.partition(" ")
        if GID.match(first.lower()) and self.store.meta(first.lower()):
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
        """A button of game ``payload["g"]`` at version ``payload["v"]`` for seat ``payload["s"]``,
        in the turn posted at ``payload["pv"]``, whose legal moves had fingerprint ``payload["f"]``
        (see :mod:`workers.buttons`)."""
        gid, version = str(payload["g"]), int(payload["v"])
        posted = int(payload.get("pv") or 0)
        seat = int(payload.get("s") or 0)
        token, field = buttons.new_token(gid, version, seat)
        # The game and version are in the token (see workers.buttons.payloads): not stored.
        stored = {k: v for k, v in payload.items() if k not in ("g", "v")}
        item = (gid, posted, seat, int(payload.get("f") or 0), field, json.dumps(stored, separators=(",", ":")))
        batch: list[tuple[str, int, int, int, str, str]] | None = getattr(_BUTTONS, "batch", None)
        if batch is not None:
            batch.append(item)
        else:
            store_buttons(self.store, [item])
        return Button(label[:60], token)

    @contextlib.contextmanager
    def buttons_batched(self) -> Iterator[None]:
        """Store the payloads of the buttons made in this block in one round trip at its end.

        Why: a prompt or a list of moves makes up to a dozen buttons, one write each; nobody
        can press them before the part is shown, which is after this block."""
        if getattr(_BUTTONS, "batch", None) is not None:  # nested: the outer block writes
            yield
            return
        _BUTTONS.batch = []
        try:
            yield
        finally:
            # Also when the block ended early (a deferred move, an error): a button already
            # handed out must work; unused ones expire.
            batch, _BUTTONS.batch = _BUTTONS.batch, None
            if batch:
                store_buttons(self.store, batch)


    def _hidden(self, gid: str) -> bool:
        """Whether the game has hidden information (its move replies must stay private).

        Remembered per game id once the game has begun (which game it is never changes
        then): asked after every move, it cost a round trip each."""
        memo: dict[str, bool] = self.__dict__.setdefault("_hidden_memo", {})
        if gid in memo:
            return memo[gid]
        meta = self.store.meta(gid)
        hidden = bool(meta) and find_game(meta["game"]).info.hidden_information
        if meta.get("status") in ("active", "over"):
            if len(memo) > 50_000:
                memo.clear()
            memo[gid] = hidden
        return hidden

    def _secret_reason(self, gid: str, res: MoveResult) -> bool:
        """Whether a refusal's reason may name something hidden of the refused seat.

        Hidden are the moves the engine marks private (a card in hand, a secret pick). When
        every move of the seat is such (7 Wonders picks), any reason may name one; otherwise
        only a reason that spells out a private move (a "closest legal moves" or an
        ambiguity list with an event card) does. When unsure (no game or seat), it may."""
        if not gid or res.seat is None:
            return True
        try:
            loaded = pipeline.load(self.store, gid)
            game, state, seat = loaded.game, loaded.state, res.seat
            actions = game.legal_actions(state, seat)
            secret = [a for a in actions if game.private_action(state, seat, a)]
            if not secret:
                return False
            if len(secret) == len(actions):
                return True
            low = res.message.lower()
            return any(game.notation(state, seat, a).lower() in low for a in secret)
        except Exception:
            return True

    def _result_reply(
        self, res: MoveResult, *, private: bool = False, hidden: bool = False, gid: str = ""
    ) -> Reply:
        """A move's reply.

        A refusal is said where the move was typed, so a player who never opened the private
        chat still learns why. In a game with hidden information some reasons name hidden
        things (the "closest legal moves" of a hand, the picks an abbreviation could mean):
        then the public part names nothing hidden and the exact reason follows privately,
        without an invitation when that chat is not open. Private events of a success come
        through the outbox (code ``move/private``); the public part never repeats the
        notation of a hidden-information game (a secret pick's text)."""
        if not res.ok:
            if private or not hidden or res.code in PUBLIC_REASONS or not self._secret_reason(gid, res):
                return error(res.message, res.code, private=private)
            return [
                Part(text=HIDDEN_REFUSAL, ok=False, code=res.code),
                Part(text=res.message, private=True, ok=False, code=res.code, invite=False),
            ]
        texts = [e["text"] for e in res.events if e.get("seats") is None]
        mine = [e["text"] for e in res.events if e.get("seats") is not None]
        said = res.message if not hidden or res.public_move else "Done."
        reply = [Part(text="\n".join(texts) or said, private=private, game=gid)]
        if mine:
            reply.append(Part(text="\n".join(mine), private=True, code=OUTBOXED, game=gid))
        return reply

