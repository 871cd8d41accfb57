"""Sending to Telegram: text, photos, keyboards, the private chat, flood control and retries.

Why one sender for replies and outbox delivery alike: the rules that keep a table usable
apply to every message — private parts never land in a group, a chat has one live keyboard
(the previous one is edited away instead of stacking prompts), ``RetryAfter`` is obeyed,
network errors back off — so they are written once here.
"""

from __future__ import annotations

import asyncio
import datetime as dtm
import logging
import random
import warnings
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from telegram import Bot, InlineKeyboardMarkup, InputMediaPhoto, Message, ReplyParameters
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter, TimedOut

from bots.telegram import format as fmt
from bots.telegram import keyboards
from workers.client import OUTBOXED, Client, Context, Part

log = logging.getLogger(__name__)
T = TypeVar("T")

PLATFORM = "telegram"
KEYBOARD_NS = "tg-kb"  # chat -> id of the message carrying the chat's live keyboard
KEYBOARD_TTL = 30 * 86400
INVITE_NS = "tg-invite"  # user:gid -> invited: side-effect invitations once per game
INVITE_TTL = 14 * 86400
PRIVATE_REACTION = "👀"  # "sent to your private chat" (one of Telegram's standard reactions)
ALBUM_MAX = 10  # Telegram: an album (sendMediaGroup) holds 2 to 10 photos


def keyboard_slot(chat: str, game: str) -> str:
    """The key of a chat's live keyboard for one game (``chat`` alone for parts of no game)."""
    return f"{chat}:{game}" if game else chat


class Sender:
    """Sends parts to chats through ``bot``; blocking client calls run in ``pool``.

    Args:
        attempts: tries for one call on network errors (exponential backoff in between).
        base_delay: first backoff delay in seconds (doubles, capped at ``max_delay``).
        max_floods: how many ``RetryAfter`` answers one call waits out before giving up.
    """

    def __init__(
        self,
        bot: Bot,
        client: Client,
        pool: ThreadPoolExecutor,
        *,
        attempts: int = 5,
        base_delay: float = 0.5,
        max_delay: float = 30.0,
        max_floods: int = 8,
    ) -> None:
        self.bot = bot
        self.client = client
        self.pool = pool
        self.attempts = attempts
        self.base_delay = base_delay
        self.max_delay = max_delay
        self.max_floods = max_floods

    # ------------------------------------------------------------ plumbing
    async def io(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a blocking client call (Redis, a Celery round trip) off the event loop."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool, lambda: fn(*args, **kwargs))

    async def call(self, make: Callable[[], Awaitable[T]]) -> T:
        """One Bot API call with Telegram's manners: wait out ``RetryAfter`` exactly as told,
        back off exponentially on network errors, never retry a request Telegram refused."""
        delay = self.base_delay
        floods = 0
        failures = 0
        while True:
            try:
                return await make()
            except RetryAfter as exc:
                floods += 1
                if floods > self.max_floods:
                    raise
                wait = retry_after_seconds(exc)
                log.warning("flood control: waiting %.1f s as Telegram asks", wait)
                await asyncio.sleep(wait)
            except (BadRequest, Forbidden, ChatMigrated):
                raise
            except (TimedOut, NetworkError) as exc:
                failures += 1
                if failures >= self.attempts:
                    raise
                log.warning("network error talking to Telegram (%s); retrying in %.2f s", exc, delay)
                await asyncio.sleep(delay * (0.75 + random.random() / 2))
                delay = min(delay * 2, self.max_delay)

    # ------------------------------------------------------------- sending
    async def send_part(
        self,
        chat: str,
        part: Part,
        *,
        reply_to: int | None = None,
        keyboard: InlineKeyboardMarkup | None = None,
        turn: bool = False,
    ) -> Message | None:
        """Send one part: a photo with its caption (overflow as text after it) or text cut to
        Telegram's limits; the keyboard goes on the last message. The part's ``pages`` (one
        image per city) follow as an album, after the keyboard's message (see :meth:`send_pages`).

        A message with move buttons (or a ``turn``, whose board makes older buttons stale)
        becomes the chat's live keyboard; the previous one is edited away. An explicit
        ``keyboard`` (a link) is not tracked: it stays usable.
        """
        moves = keyboards.markup(part.buttons)
        kb = keyboard if keyboard is not None else moves
        reply = ReplyParameters(reply_to, allow_sending_without_reply=True) if reply_to else None
        last: Message | None = None
        if part.image:
            caption, rest = fmt.caption_split(part.text)
            chunks = fmt.split_text(rest)
            last = await self._send(
                chat,
                lambda c: self.bot.send_photo(
                    c,
                    part.image or b"",
                    caption=fmt.to_html(caption) or None,
                    parse_mode=ParseMode.HTML,
                    reply_markup=None if chunks else kb,
                    reply_parameters=reply,
                    filename=part.image_name,
                ),
            )
            reply = None
        else:
            chunks = fmt.split_text(part.text)
        for i, chunk in enumerate(chunks):
            html = fmt.to_html(chunk)
            if i == 0:
                html = mention_html(html, part)
            markup = kb if i == len(chunks) - 1 else None
            last = await self._send(
                chat,
                lambda c, html=html, markup=markup, reply=reply: self.bot.send_message(
                    c, html, parse_mode=ParseMode.HTML, reply_markup=markup, reply_parameters=reply
                ),
            )
            reply = None
        if part.pages:
            await self.send_pages(chat, part.pages)
        if last is not None and (moves is not None or turn) and keyboard is None:
            await self._replace_keyboard(chat, last.message_id if moves is not None else None, part.game)
        return last

    async def send_pages(self, chat: str, pages: list[bytes]) -> None:
        """Post the pages that follow a board: 2 to 10 as one album, a single one as a photo
        (an album needs two), more than 10 as several albums.

        Why separate photos and not one tall image: Telegram keeps a photo at most 1280-2560 px
        on its long side, so a tall board would arrive too narrow to read (issue 17).
        Decision: the album has no caption and no keyboard (Telegram allows neither buttons on
        an album nor one caption for all); the board above keeps both."""
        for start in range(0, len(pages), ALBUM_MAX):
            batch = pages[start : start + ALBUM_MAX]
            names = [f"page{start + i + 1}.png" for i in range(len(batch))]
            if len(batch) == 1:
                await self._send(chat, lambda c, b=batch[0], n=names[0]: self.bot.send_photo(c, b, filename=n))
                continue
            await self._send_album(chat, batch, names)

    async def _send_album(self, chat: str, batch: list[bytes], names: list[str]) -> None:
        async def send(c: str) -> Message:
            media = [InputMediaPhoto(png, filename=name) for png, name in zip(batch, names, strict=True)]
            return (await self.bot.send_media_group(c, media))[0]

        await self._send(chat, send)

    async def _send(self, chat: str, send: Callable[[str], Awaitable[Message]]) -> Message:
        try:
            return await self.call(lambda: send(chat))
        except ChatMigrated as exc:  # a group became a supergroup: same chat, new id
            moved = str(exc.new_chat_id)
            log.warning("chat %s migrated to %s", chat, moved)
            return await self.call(lambda: send(moved))

    async def _replace_keyboard(self, chat: str, message_id: int | None, game: str = "") -> None:
        """Make ``message_id`` the live keyboard of ``game`` in the chat and take the buttons off
        the old one (stale buttons would only answer "out of date").

        Why per game: one player in two games gets both prompts in the same private chat; the
        second game's prompt must not strip the first one's buttons, which still wait for her."""
        slot = keyboard_slot(chat, game)
        old = await self.io(self.client.kv_get, KEYBOARD_NS, slot)
        if message_id is not None:
            await self.io(self.client.kv_set, KEYBOARD_NS, slot, str(message_id), ttl=KEYBOARD_TTL)
        else:
            await self.io(self.client.kv_delete, KEYBOARD_NS, slot)
        if old and old != str(message_id):
            await self.strip_keyboard(chat, int(old))

    async def strip_keyboard(self, chat: str, message_id: int, *, live: bool = False, game: str = "") -> None:
        """Remove a message's buttons; a message already without them (or gone) is fine.
        With ``live``, forget it as the live keyboard of ``game`` in the chat if it was that one."""
        slot = keyboard_slot(chat, game)
        if live and await self.io(self.client.kv_get, KEYBOARD_NS, slot) == str(message_id):
            await self.io(self.client.kv_delete, KEYBOARD_NS, slot)
        try:
            await self.call(lambda: self.bot.edit_message_reply_markup(chat, message_id, reply_markup=None))
        except (BadRequest, Forbidden) as exc:
            log.debug("could not strip keyboard of %s/%s: %s", chat, message_id, exc)

    async def set_keyboard(self, chat: str, message_id: int, kb: InlineKeyboardMarkup, game: str = "") -> bool:
        """Show ``kb`` on an existing message (a page of moves replaces the groups; the next
        step of a turn replaces the pressed step). False when Telegram refused the edit."""
        try:
            await self.call(lambda: self.bot.edit_message_reply_markup(chat, message_id, reply_markup=kb))
        except BadRequest as exc:
            log.debug("could not edit keyboard of %s/%s: %s", chat, message_id, exc)
            return False
        await self._replace_keyboard(chat, message_id, game)
        return True

    async def set_text(self, chat: str, message_id: int, text: str, kb: InlineKeyboardMarkup, game: str = "") -> bool:
        """Replace a text message's text and keyboard (the next step of a turn in place of a
        pressed prompt). False when Telegram refused the edit."""
        html = fmt.to_html(fmt.split_text(text)[0]) if text.strip() else ""
        if not html:
            return await self.set_keyboard(chat, message_id, kb, game)
        try:
            await self.call(
                lambda: self.bot.edit_message_text(
                    html, chat_id=chat, message_id=message_id, parse_mode=ParseMode.HTML, reply_markup=kb
                )
            )
        except BadRequest as exc:
            log.debug("could not edit message %s/%s: %s", chat, message_id, exc)
            return False
        await self._replace_keyboard(chat, message_id, game)
        return True

    # --------------------------------------------------- replies to a user
    async def reply(
        self,
        ctx: Context,
        parts: list[Part],
        *,
        reply_to: int | None = None,
        public: bool = True,
        outboxed: bool = False,
    ) -> None:
        """Show a command's reply: public parts in the chat it came from (unless ``public`` is
        False, when the board photo will say it), private parts in the user's private chat —
        or, when that chat is not open, a deep link in the group and nothing private.

        ``outboxed``: the reply is a committed change whose private events the outbox
        delivers anyway (parts coded ``OUTBOXED``), so those are not sent twice; every other
        part is — in a private chat every part is private, and a move typed there must still
        get its answer.

        Something sent privately for a command typed in a group is acknowledged with a
        reaction on that command, not a "sent to our private chat" line the table would read
        after every `moves`. A private part that does not ask for an invitation (a refusal's
        exact reason, whose gist was said in public) is dropped when that chat is not open.
        """
        acknowledged = False
        for part in parts:
            if outboxed and part.code == OUTBOXED:
                continue
            if part.private and not ctx.private:
                delivered = await self.to_user(
                    ctx.user,
                    part,
                    fallback_chat=ctx.chat if part.invite else None,
                    reply_to=reply_to,
                    asked=public,
                )
                if delivered and reply_to is not None and not acknowledged:
                    acknowledged = True
                    await self.acknowledge(ctx.chat, reply_to)
                continue
            if not public and part.ok:
                continue
            await self.send_part(ctx.chat, part, reply_to=reply_to)

    async def to_user(
        self,
        user: str,
        part: Part,
        *,
        fallback_chat: str | None,
        reply_to: int | None = None,
        gid: str | None = None,
        asked: bool = True,
    ) -> bool:
        """Send ``part`` to the user's private chat. Returns False when that chat is not open
        (never started, or the bot was blocked); then a deep-link invitation is posted in
        ``fallback_chat`` instead — without any of the private content. Unless the user
        ``asked`` for it (``hand``), the invitation is posted once per game only."""
        dm = await self.io(self.client.user_dm, PLATFORM, user)
        if dm:
            try:
                await self.send_part(dm, part)
                return True
            except Forbidden:
                log.info("private chat of %s is closed; inviting them again", user)
        if fallback_chat:
            if gid is None:
                gid = await self.io(self.client.chat_game, PLATFORM, fallback_chat)
            await self.invite(fallback_chat, f"{PLATFORM}:{user}", gid, reply_to=reply_to, once=not asked)
        return False

    async def invite(
        self,
        chat: str,
        user_key: str,
        gid: str | None,
        *,
        reply_to: int | None = None,
        once: bool = False,
        reason: str = "never-opened",
    ) -> Message | None:
        """Post the deep link that opens the private chat and connects the user to ``gid``.

        With ``once``, only if this user was not invited for this game (for this ``reason``)
        before: a note every turn would bury the board (who wants it later types ``hand``).
        """
        if once:
            fresh = await self.io(
                self.client.kv_set, INVITE_NS, f"{user_key}:{gid}:{reason}", "1", ttl=INVITE_TTL, only_new=True
            )
            if not fresh:
                return None
        name = await self.io(self.client.user_name, user_key)
        text = (
            f"🔒 {name}, I have something private for you (your hand or a secret choice). "
            "Nothing private is shown here: tap the button to open our private chat, press Start, "
            "and it arrives there."
        )
        return await self.send_part(chat, Part(text=text), reply_to=reply_to, keyboard=self.deep_link(gid))

    def deep_link(self, gid: str | None) -> InlineKeyboardMarkup:
        payload = gid or "hello"
        return keyboards.link("Open private chat", f"https://t.me/{self.bot.username}?start={payload}")

    async def acknowledge(self, chat: str, message_id: int) -> None:
        """A quiet "done, see our private chat": a reaction, and nothing where reactions are
        unavailable (a text line would be noise for the whole table)."""
        try:
            await self.call(lambda: self.bot.set_message_reaction(chat, message_id, PRIVATE_REACTION))
        except (BadRequest, Forbidden) as exc:
            log.debug("could not react to %s/%s: %s", chat, message_id, exc)

    async def react(self, chat: str, message_id: int, fallback: Part) -> None:
        """Acknowledge a typed move with a reaction (the board photo follows), or with
        ``fallback`` text where reactions are unavailable."""
        try:
            await self.call(lambda: self.bot.set_message_reaction(chat, message_id, "👍"))
        except (BadRequest, Forbidden):
            await self.send_part(chat, fallback, reply_to=message_id)


def retry_after_seconds(exc: RetryAfter) -> float:
    """Seconds to wait from a ``RetryAfter`` (an int or a timedelta depending on PTB settings)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        value = exc.retry_after
    if isinstance(value, dtm.timedelta):
        return value.total_seconds()
    return float(value)


def mention_html(html: str, part: Part) -> str:
    """The first time the text names the person a part mentions, a Telegram text mention, so
    they are notified even without a username (a reminder in the group for a player who never
    opened the private chat). A person of another platform stays a plain name."""
    platform, _, uid = part.mention.partition(":")
    if platform != PLATFORM or not uid.lstrip("-").isdigit() or not part.mention_name:
        return html
    name = fmt.to_html(part.mention_name)
    return html.replace(name, f'<a href="tg://user?id={uid}">{name}</a>', 1)
