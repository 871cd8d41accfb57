"""Thin update handlers: a Telegram update becomes a command-layer call and its reply.

Why so little here: the grammar, every check and every message are the command layer's; a
handler only builds the :class:`Context` (platform ``telegram``, chat id, user id, name,
private chat or not, ``tg:<update_id>`` as the idempotency key) and shows the reply.

Exactly once: updates of one chat are handled in order (one lock per chat, different chats
in parallel); an update id that was handled to the end is marked in Redis, so a redelivered
update (after a restart, or twice in one batch) changes nothing and gets no second reply.
A handler that failed half-way leaves no mark, so a redelivery finishes the job — and a move
in it is still applied once, because its idempotency key is the update id.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import AsyncIterator, Awaitable, Callable

from telegram import CallbackQuery, Chat, Message, Update, User
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import BadRequest, TelegramError
from telegram.ext import ContextTypes

from bots.telegram import format as fmt
from bots.telegram import keyboards
from bots.telegram.sender import PLATFORM, Sender
from workers.client import ALIASES, Client, Context, Part

log = logging.getLogger(__name__)

UPDATE_NS = "tg-update"  # update id -> "done"
UPDATE_TTL = 7 * 86400  # Telegram keeps unconfirmed updates for 24 hours
STALE_CODES = frozenset({"button/stale", "button/game_over", "button/expired"})
REACT_ONLY = frozenset({"move", "begin"})  # their news is the caption of the board that follows
COMMITTING = frozenset({"move", "begin", "undo", "resign"})  # private events come through the outbox
SORRY = "Something went wrong on our side; nothing was changed. Please try again."
WORKING = "⏳ Got it, working on it…"
CALLBACK_WINDOW = 15.0
"""Seconds within which Telegram shows the answer to a button press (later: "query is too old")."""
ANSWER_WITHIN = 2.5
"""Seconds after which a press still in the works is answered "working on it"."""
MOVE_WAIT = 10.0
"""How long the adapter waits for a worker to apply a move: inside ``CALLBACK_WINDOW``."""


class KeyedLocks:
    """One asyncio lock per chat, dropped again when nobody holds or awaits it."""

    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    @contextlib.asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[None]:
        lock, users = self._locks.get(key, (asyncio.Lock(), 0))
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users <= 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)


# Commands that administer a table: the game's creator or the chat's administrators may use them.
ADMIN_WORDS = frozenset({"timer", "substitute"})

def make_context(update: Update, chat: Chat, user: User) -> Context:
    """The command layer's view of who wrote what, where."""
    return Context(
        PLATFORM,
        str(chat.id),
        str(user.id),
        user.full_name or user.username or str(user.id),
        private=chat.type == ChatType.PRIVATE,
        idem=f"tg:{update.update_id}",
        in_place=True,
    )


def command_word(text: str) -> tuple[str, str]:
    """(command, addressee) of ``/move@agora_bot …`` — the word lower-cased, aliases resolved."""
    word = text.lstrip("/").split(maxsplit=1)[0] if text.strip("/ ") else ""
    name, _, target = word.partition("@")
    name = name.lower()
    return ALIASES.get(name, name), target.lower()


class Handlers:
    """The Application's handlers, bound to one client and one sender."""

    def __init__(self, client: Client, sender: Sender, *, answer_within: float = ANSWER_WITHIN) -> None:
        self.client = client
        self.sender = sender
        self.locks = KeyedLocks()
        self.answer_within = answer_within

    @contextlib.asynccontextmanager
    async def once(self, update: Update, chat: str) -> AsyncIterator[bool]:
        """Yields True for an update not handled before (then marks it done on success)."""
        async with self.locks.hold(chat):
            key = str(update.update_id)
            if await self.sender.io(self.client.kv_get, UPDATE_NS, key):
                log.info("update %s was already handled; ignoring the redelivery", key)
                yield False
                return
            yield True
            await self.sender.io(self.client.kv_set, UPDATE_NS, key, "done", ttl=UPDATE_TTL)

    async def is_admin(self, chat: int, user: int) -> bool:
        """Whether the user is the group's creator or one of its administrators (asked only for
        the administration commands); a failed question counts as no."""
        try:
            member = await self.sender.bot.get_chat_member(chat, user)
        except TelegramError as exc:
            log.info("could not ask whether %s administers chat %s: %s", user, chat, exc)
            return False
        return member.status in (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)

    # ------------------------------------------------------------ messages
    async def on_message(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A typed command: in groups only ``/commands``; in the private chat also plain text
        (``move add 3`` or ``hand``), since nobody else reads along there."""
        msg = update.message
        if msg is None or not msg.text or msg.from_user is None or msg.from_user.is_bot:
            return
        text = msg.text.strip()
        private = msg.chat.type == ChatType.PRIVATE
        if not text.startswith("/") and not private:
            return
        word, target = command_word(text)
        if target and target != (self.sender.bot.username or "").lower():
            return  # addressed to another bot in the group
        ctx = make_context(update, msg.chat, msg.from_user)
        if word in ADMIN_WORDS and not private:
            ctx = dataclasses.replace(ctx, admin=await self.is_admin(msg.chat.id, msg.from_user.id))
        async with self.once(update, ctx.chat) as fresh:
            if fresh:
                await self._run(ctx, msg, word, text)

    async def _run(self, ctx: Context, msg: Message, word: str, text: str) -> None:
        if ctx.private and word == "start":
            # Telegram's "Start" button in the private chat (maybe from a deep link).
            word = "start"
            payload = text.split(maxsplit=1)[1] if " " in text else ""
            reply = await self.sender.io(self.client.connect, ctx, payload)
        else:
            reply = await self.client.command_async(ctx, text, self.sender.io)
        if word in REACT_ONLY and not ctx.private and reply and all(p.ok for p in reply):
            # The board photo with its caption is the one message of this turn; the typed
            # move only gets a reaction, and private parts still go to the private chat.
            await self.sender.react(ctx.chat, msg.message_id, _public(reply))
            await self.sender.reply(ctx, reply, reply_to=msg.message_id, public=False, outboxed=True)
            return
        await self.sender.reply(ctx, reply, reply_to=msg.message_id, outboxed=word in COMMITTING)

    # ------------------------------------------------------------- buttons
    async def on_callback(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A pressed button: answered within ``ANSWER_WITHIN`` seconds whatever happens, then
        re-validated like typed text and applied.

        Why a timer outside the chat's lock: Telegram shows the answer of a press only within
        a short window. A reply of the same chat waiting out a long flood control holds the
        lock, and a dead worker makes the move wait; either way the player saw nothing. The
        timer answers "working on it" in time, and the outcome then follows as a message
        (a refusal) or as the board itself."""
        query = update.callback_query
        if query is None:
            return
        answered = False

        async def answer(text: str = "") -> bool:
            """Answer once; False when the query was answered already (by the timer)."""
            nonlocal answered
            if answered:
                return False
            answered = True
            try:
                await self.sender.call(lambda: query.answer(fmt.plain(text)[:200] or None))
            except TelegramError as exc:
                log.info("could not answer callback query %s: %s", query.id, exc)
            return True

        async def answer_in_time() -> None:
            await asyncio.sleep(self.answer_within)
            await answer(WORKING)

        timer = asyncio.create_task(answer_in_time())
        try:
            message = query.message
            if message is None or not query.data:
                await answer("This button only works in a chat with the bot.")
                return
            ctx = make_context(update, message.chat, query.from_user)
            async with self.once(update, ctx.chat) as fresh:
                if fresh:
                    await self._press(ctx, query, message.message_id, answer)
                else:
                    answered = True  # the first delivery answered it
        except Exception:
            await answer(SORRY)
            raise
        finally:
            timer.cancel()
            await answer()

    async def _press(
        self, ctx: Context, query: CallbackQuery, message_id: int, answer: Callable[[str], Awaitable[bool]]
    ) -> None:
        reply = await self.client.press_async(ctx, query.data or "", self.sender.io)
        first = reply[0] if reply else Part()
        if not first.ok:
            if not await answer(first.text):
                # The press was answered "working on it" in time; the refusal follows as a message.
                await self.sender.reply(ctx, reply)
            if first.code in STALE_CODES:
                await self.sender.strip_keyboard(ctx.chat, message_id)
            return
        if first.code == "moves/page":
            if first.private and not ctx.private:
                sent = await self.sender.to_user(ctx.user, first, fallback_chat=ctx.chat)
                await answer("Sent to our private chat." if sent else "Open our private chat first (link below).")
            else:
                kb = keyboards.markup(first.buttons)
                if kb is not None:
                    await self.sender.set_keyboard(ctx.chat, message_id, kb, first.game)
                await answer(first.text)
            return
        await answer("✓ " + (first.text.splitlines() or ["Done."])[0])
        # The next step of the same turn replaces the pressed buttons in place.
        # A pressed prompt (text) also gets the next step's text; a board photo keeps its caption.
        following = [p for p in reply if p.code == "moves/next"]
        kb = keyboards.markup(following[0].buttons) if following else None
        placed = False
        if kb is not None:
            nxt = following[0]
            if query.message is not None and getattr(query.message, "text", None):
                placed = await self.sender.set_text(ctx.chat, message_id, nxt.text, kb, nxt.game)
            else:
                placed = await self.sender.set_keyboard(ctx.chat, message_id, kb, nxt.game)
        if not placed:
            await self.sender.strip_keyboard(ctx.chat, message_id, live=True, game=first.game)
        rest = [p for p in reply if p.code != "moves/next"]
        await self.sender.reply(ctx, rest, public=ctx.private, outboxed=True)

    # --------------------------------------------------------------- errors
    async def on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Log the failure and tell the user politely; never let one update stop the bot."""
        log.error("error while handling an update", exc_info=context.error)
        if not isinstance(update, Update):
            return
        try:
            if update.callback_query is not None:
                with contextlib.suppress(BadRequest):
                    await update.callback_query.answer(SORRY[:200])
            elif update.effective_chat is not None:
                msg = update.effective_message
                await self.sender.send_part(
                    str(update.effective_chat.id), Part(text=SORRY), reply_to=msg.message_id if msg else None
                )
        except TelegramError as exc:
            log.warning("could not report the error to the chat: %s", exc)


def _public(reply: list[Part]) -> Part:
    texts = [p.text for p in reply if not p.private and p.text]
    return Part(text="\n".join(texts) or "Done.")
